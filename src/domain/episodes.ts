// Episodes of the economy (pure): the recessions of the held NBER indicator (USREC, 1 in a recession month) and a
// small table of named episodes, each a window in which a question's "during" or "since its peak" looks for a value.
// Definitions:
// - A recession is a run of consecutive months with USREC = 1: start = its first month, end = its last (NBER's trough
//   month; USREC marks the months after the peak through the trough).
// - A named episode is either a set of recessions (those whose start falls in its `years`: "the early-1980s
//   recessions" are the runs starting in 1980-1982, the 1980 and the 1981-82 ones) or fixed months where USREC has no
//   say (the 2021-22 inflation surge).
// - The window a series is read in: [start, end] for a coincident series; for a lagging one (unemployment, which
//   peaks after a recession ends) the episode's margin months are added after its end, but never into the next
//   episode (the 1980 recession's margin stops where the 1981 one starts).
// - Which episodes a series belongs to: recessions concern every series; an inflation episode concerns prices,
//   markets and energy (by catalog category). "Since its peak" reads the most recent episode that concerns the series
//   and has begun; "all-time" or "record" reads the whole series instead.
import { addMonths } from "./calendar";

export type EpisodeKind = "recession" | "inflation";
export type Episode = { id: string; name: string; kind: EpisodeKind; start: string; end: string; marginMonths: number };

/** A named episode: its recessions by the years they start in, or fixed months. */
export type NamedEpisode = {
  id: string;
  name: string;
  /** How people name it, matched as whole words after folding case (the longest first). */
  phrases: readonly string[];
  kind: EpisodeKind;
  marginMonths: number;
} & ({ recessionYears: readonly [number, number] } | { months: readonly [string, string] });

export const NAMED_EPISODES: readonly NamedEpisode[] = [
  {
    id: "great_recession",
    name: "the Great Recession",
    phrases: [
      "great recession",
      "global financial crisis",
      "financial crisis",
      "2008 crisis",
      "2008 recession",
      "2007 2009 recession",
      "2008 2009 recession",
      "subprime crisis",
      "housing crash",
    ],
    kind: "recession",
    marginMonths: 12,
    recessionYears: [2007, 2008],
  },
  {
    id: "recession_2020",
    name: "the 2020 recession",
    phrases: [
      "2020 recession",
      "covid recession",
      "pandemic recession",
      "covid 19 recession",
      "covid crash",
      "covid 19 pandemic",
      "covid pandemic",
      "the pandemic",
      "pandemic lockdown",
    ],
    kind: "recession",
    marginMonths: 6,
    recessionYears: [2020, 2020],
  },
  {
    id: "inflation_2021_22",
    name: "the 2021-22 inflation surge",
    phrases: [
      "2021 22 inflation surge",
      "2021 2022 inflation surge",
      "2021 22 surge",
      "2021 2022 surge",
      "2022 surge",
      "inflation surge",
      "inflation spike",
      "post pandemic inflation",
      "post pandemic",
      "post covid",
      "2022 inflation",
      "2021 inflation",
    ],
    kind: "inflation",
    marginMonths: 12,
    months: ["2021-01-01", "2022-12-01"],
  },
  {
    id: "early_1980s",
    // Named by its years: "1980s" would read as digits run into letters to the number checker (verify.ts).
    name: "the recessions of 1980 and 1981-82",
    phrases: [
      "early 1980s recession",
      "early 80s recession",
      "early eighties recession",
      "1980s recession",
      "80s recession",
      "volcker recession",
      "1981 1982 recession",
      "1981 82 recession",
      "1982 recession",
      "1981 recession",
      "1980 recession",
      "early 1980s",
      "early 80s",
      "early eighties",
    ],
    kind: "recession",
    marginMonths: 6,
    recessionYears: [1980, 1982],
  },
];

/** A recession's margin when no named episode gives one: long enough for unemployment's peak after 2001 (19 months). */
export const DEFAULT_RECESSION_MARGIN_MONTHS = 24;

/** The recessions of a 0/1 monthly indicator, oldest first. */
export function recessionsOf(
  points: readonly { date: string; value: number | null }[],
): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  let open: { start: string; end: string } | null = null;
  for (const p of points) {
    if (p.value === 1) {
      if (open) open.end = p.date;
      else open = { start: p.date, end: p.date };
    } else if (open) {
      out.push(open);
      open = null;
    }
  }
  if (open) out.push(open);
  return out;
}

/** "the recession of July 1990 to March 1991", named by a caller's date formatter. */
function unnamed(r: { start: string; end: string }): Episode {
  return {
    id: `recession_${r.start.slice(0, 7)}`,
    name: "",
    kind: "recession",
    start: r.start,
    end: r.end,
    marginMonths: DEFAULT_RECESSION_MARGIN_MONTHS,
  };
}

/**
 * Every episode, oldest first: each recession on its own (with a named one's name and margin when a named episode
 * covers it alone), the named episodes that group several recessions, and the fixed-month ones.
 */
export function episodesOf(recessions: readonly { start: string; end: string }[]): Episode[] {
  const out: Episode[] = [];
  for (const r of recessions) {
    const year = Number(r.start.slice(0, 4));
    const named = NAMED_EPISODES.find(
      (n) => "recessionYears" in n && year >= n.recessionYears[0] && year <= n.recessionYears[1],
    );
    const alone =
      named &&
      "recessionYears" in named &&
      recessions.filter((x) => inYears(x.start, named.recessionYears)).length === 1;
    out.push(
      alone
        ? {
            id: named.id,
            name: named.name,
            kind: "recession",
            start: r.start,
            end: r.end,
            marginMonths: named.marginMonths,
          }
        : unnamed(r),
    );
  }
  for (const n of NAMED_EPISODES) {
    if ("months" in n)
      out.push({
        id: n.id,
        name: n.name,
        kind: n.kind,
        start: n.months[0],
        end: n.months[1],
        marginMonths: n.marginMonths,
      });
    else {
      const runs = recessions.filter((x) => inYears(x.start, n.recessionYears));
      if (runs.length > 1)
        out.push({
          id: n.id,
          name: n.name,
          kind: n.kind,
          start: runs[0].start,
          end: runs.at(-1)!.end,
          marginMonths: n.marginMonths,
        });
    }
  }
  return out.sort((a, b) => a.start.localeCompare(b.start) || a.end.localeCompare(b.end));
}

const inYears = (date: string, [from, to]: readonly [number, number]) =>
  Number(date.slice(0, 4)) >= from && Number(date.slice(0, 4)) <= to;

/** Whether an episode concerns a series of this catalog category (see the file comment). */
export function concerns(e: Episode, category: string | null): boolean {
  return e.kind === "recession" || category === "prices" || category === "markets" || category === "energy";
}

/** The months a series is read in for an episode (see the file comment): [start, end or end + margin]. */
export function episodeWindow(e: Episode, all: readonly Episode[], lagging: boolean): { start: string; end: string } {
  if (!lagging) return { start: e.start, end: e.end };
  let end = addMonths(e.end, e.marginMonths);
  // Never into the next episode of the same kind that is not part of this one.
  for (const other of all)
    if (other.kind === e.kind && other.start > e.end && other.start <= end) end = addMonths(other.start, -1);
  return { start: e.start, end };
}

/** Words that name the 2020 recession only after a word of time ("during covid", "since the pandemic", "its covid peak"). */
export const TIMED_EPISODE_WORDS: ReadonlySet<string> = new Set(["covid", "pandemic", "lockdown", "coronavirus"]);
export const EPISODE_TIME_WORDS: ReadonlySet<string> = new Set([
  "during",
  "in",
  "through",
  "amid",
  "since",
  "after",
  "before",
  "throughout",
  "the",
  "its",
  "their",
]);

/**
 * The year an episode named right after "since" began ("since the pandemic" 2020, "since the great recession"
 * 2007), from the table: a change since an episode is read from its first year. `words`: folded, space-joined.
 */
export function sinceEpisodeYear(words: string): number | null {
  const after = /\bsince (?:the )?(.*)$/.exec(words)?.[1];
  if (!after) return null;
  const first = (e: NamedEpisode) => ("recessionYears" in e ? e.recessionYears[0] : Number(e.months[0].slice(0, 4)));
  const named = NAMED_EPISODES.find((e) => e.phrases.some((p) => after.startsWith(p.replace(/^the /, ""))));
  if (named) return first(named);
  const covid = NAMED_EPISODES.find((e) => e.id === "recession_2020");
  return covid && TIMED_EPISODE_WORDS.has(after.split(" ")[0]) ? first(covid) : null;
}

/** The most recent episode that concerns the series and has begun by `asOf`, or null. */
export function latestEpisode(all: readonly Episode[], category: string | null, asOf: string): Episode | null {
  const fit = all.filter((e) => concerns(e, category) && e.start <= asOf);
  return fit.length ? fit.reduce((a, b) => (b.start > a.start ? b : a)) : null;
}

/**
 * The episode a question names: a named one by its phrases (longest first, as folded words), else "the YYYY
 * recession" / "the recession of YYYY" (the recession starting or running in that year), else "the last / latest /
 * most recent / previous recession". `words`: the question folded to lower-case words joined by single spaces.
 */
export function namedEpisode(words: string, all: readonly Episode[]): Episode | null {
  const phrases = NAMED_EPISODES.flatMap((n) => n.phrases.map((p) => ({ id: n.id, p }))).sort(
    (a, b) => b.p.length - a.p.length,
  );
  for (const { id, p } of phrases) {
    if (!new RegExp(`(^| )${p}( |$)`).test(words)) continue;
    const hit = all.find((e) => e.id === id);
    if (hit) return hit;
  }
  const year = /\b((?:19|20)\d\d) recession\b|\brecession (?:of|in) ((?:19|20)\d\d)\b/.exec(words);
  if (year) {
    const y = year[1] ?? year[2];
    return (
      all.find(
        (e) => e.kind === "recession" && e.start.slice(0, 4) <= y && e.end.slice(0, 4) >= y && !isGroup(e, all),
      ) ?? null
    );
  }
  if (/\b(last|latest|most recent|previous|recent) recession\b/.test(words)) {
    const recessions = all.filter((e) => e.kind === "recession" && !isGroup(e, all));
    return recessions.at(-1) ?? null;
  }
  return null;
}

/** A named episode that groups several recessions (its own runs are listed on their own too). */
function isGroup(e: Episode, all: readonly Episode[]): boolean {
  return all.some(
    (o) =>
      o !== e && o.kind === e.kind && o.start >= e.start && o.end <= e.end && (o.start !== e.start || o.end !== e.end),
  );
}
