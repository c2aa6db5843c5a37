// Reading a question (pure, deterministic: the same question and date always read the same way):
// - words (words.ts) and time phrases (time.ts) first; the time phrase's words are taken out.
// - episodes: a named episode's phrase ("the Great Recession", "the 2020 recession"; episodes.ts) is taken out
//   before topics, so its "recession" is not the recession topic.
// - topics: the lexicon's phrases (lexicon.ts), longest first; each word belongs to one phrase at most. A topic's
//   `nearest` phrases (what no held series measures: "mortgage rates") read it too, and say so. When no phrase
//   names a topic, the catalog is searched for the words left (ask-plan.ts); failing that, a topic's `broad` words
//   ("prices": consumer prices) stand for it.
// - places: the remaining words, longest run first (up to 6 words), looked up as region inputs exactly as the data
//   routes read a `region` parameter (domain/regions.ts lookupRegion): a code written as responses write it means
//   itself, so "CA" is Canada and "US-CA" or "California" the state; a code in lower case ("ca", "tx") is a USPS
//   abbreviation first. A two-letter word counts as a code only when written in capitals in a question that is not
//   all capitals ("in" is not Indiana), "us" only in capitals, after in/of/for/the/across, or beside vs/versus/and
//   ("us vs china"); a two-letter word that is no English word ("tx", "dc") is a code in any case; numbers are never
//   places (a year is not a county FIPS). A code that is both a country's and a state's (CA, IN, GA) is recorded in
//   `codes`, so the planner can say which it read and how to ask for the other, and read the state when the topic
//   is not covered for countries. A name that is no region is tried without a trailing s ("japans") and as "<name>
//   County" when that is one county ("Los Angeles", "miami dade"); a county name of several states is settled by a
//   state the question names ("Wayne County vs Michigan").
// - rest: the words nothing took that carry meaning (not fillers): what the catalog is searched for.
import { REGION_KINDS } from "../concepts";
import { lookupRegion, regionKey, type RegionIndex } from "../regions";
import type { Window } from "../window";
import { FILLER_WORDS, NATIONAL_PHRASES, ORDER_WORDS, TWO_LETTER_WORDS } from "./common-words";
import { TOPIC_GROUPS, type Topic } from "./lexicon";
import { TOPICS } from "./topics";
import { EPISODE_TIME_WORDS, NAMED_EPISODES, TIMED_EPISODE_WORDS } from "../episodes";
import { readTime } from "./time";
import { foldPlural, phraseWords, sharedStem, take, wordsOf, type Word } from "./words";

export { foldPlural } from "./words";

export type PlaceLookup = (text: string, opts?: { kinds?: readonly string[] }) => { kind: "found"; code: string } | { kind: "ambiguous"; candidates: string[] } | { kind: "not_found" };

/** Place lookup over a region index (countries, states and counties), as the data routes read a region. */
export function placeLookup(index: RegionIndex): PlaceLookup {
  return (text, opts = {}) => {
    const found = lookupRegion(index, text, { kinds: opts.kinds ?? REGION_KINDS });
    return found.kind === "found" ? { kind: "found", code: found.code } : found.kind === "ambiguous" ? found : { kind: "not_found" };
  };
}

export { fuzzyPlaceLookup, fuzzyPlaceNames, typoDistance, type FuzzyName } from "./place-typos";

export type ParsedQuestion = {
  /** Topics in the order the question names them (a group's members in its order), each once. */
  topics: Topic[];
  /** Region codes in the order the question names them, each once; "US" for words naming the nation. */
  places: string[];
  /** Place words that name several regions, with the candidates and how many places the question named before. */
  ambiguous: { text: string; candidates: string[]; position?: number }[];
  window: Window | null;
  /** Meaningful words no topic, place or time phrase took. */
  rest: string[];
  /** Misspelt place names read as the one place they are close to ("califronia" as California). */
  corrections: { text: string; code: string }[];
  /** Words where a place was named ("in Chicago", "of Paris") that no place of the catalog matches. */
  unplaced: string[];
  /** A state named by a name that is also a country's (Georgia): the country's code, by the state's. */
  alternates: Record<string, string>;
  /** A two-letter code that names a country and a state (CA): the other reading, by the code read. */
  codes: Record<string, { other: string; text: string }>;
  /** The words naming an episode ("great recession", "2001 recession", "last recession"), folded; or null. */
  episode: string | null;
  /** Phrases read as a topic that is only the closest held answer ("mortgage rates": the 10-year yield). */
  nearest: { text: string; topic: string; why: string }[];
  /** Words naming a kind of place that no place name took ("which county", "in the world"): a set of places. */
  kinds: string[];
  /** The word before each place named ("from", "to", "leaving", "in"), by its code: which end of a move it is. */
  before: Record<string, string>;
  /** "after inflation", "in real terms": the real (inflation-adjusted) measure is asked. */
  real: boolean;
  /** The question with the words read as lexicon words spelt as those ("gdp grwoth" as "gdp growth"): what intents read. */
  spelled: string;
};

// ---------------------------------------------------------------------------------------------------------------
// Topics

type Entry = { words: string[]; topics: readonly string[]; group: boolean; nearest?: string };

const topicById = new Map(TOPICS.map((t) => [t.id, t]));
const ENTRIES: Entry[] = [
  ...TOPICS.flatMap((t) => t.phrases.map((p) => ({ words: phraseWords(p), topics: [t.id], group: false }))),
  ...TOPICS.flatMap((t) => (t.nearest?.phrases ?? []).map((p) => ({ words: phraseWords(p), topics: [t.id], group: false, nearest: t.nearest!.why }))),
  ...TOPIC_GROUPS.flatMap((g) => g.phrases.map((p) => ({ words: phraseWords(p), topics: g.members, group: true }))),
  ...TOPICS.flatMap((t) => (t.weak ?? []).map((p) => ({ words: phraseWords(p), topics: [t.id], group: true }))),
].sort((a, b) => b.words.length - a.words.length);

function readTopics(words: Word[]): { topics: Topic[]; nearest: ParsedQuestion["nearest"] } {
  const found: { at: number; order: number; ids: readonly string[]; group: boolean }[] = [];
  const nearest: ParsedQuestion["nearest"] = [];
  let order = 0;
  for (const e of ENTRIES) {
    for (;;) {
      const at = take(words, e.words, true);
      if (at < 0) break;
      found.push({ at, order: order++, ids: e.topics, group: e.group });
      if (e.nearest) nearest.push({ text: words.slice(at, at + e.words.length).map((w) => w.raw).join(" "), topic: e.topics[0], why: e.nearest });
    }
  }
  found.sort((a, b) => a.at - b.at || a.order - b.order);
  // A group stands for its members only when the question names no single topic.
  const named = found.some((f) => !f.group) ? found.filter((f) => !f.group) : found;
  const out: Topic[] = [];
  for (const f of named) for (const id of f.ids) if (!out.some((t) => t.id === id)) out.push(topicById.get(id)!);
  // What was asked for by name leads, though only its closest held series answers ("interest rates on mortgages").
  const first = nearest.map((n) => out.find((t) => t.id === n.topic)!).filter(Boolean);
  return { topics: [...new Set([...first, ...out])], nearest };
}

const LEXICON_WORDS = [...new Set(ENTRIES.flatMap((e) => e.words))];
const LEXICON_WORD_SET = new Set(LEXICON_WORDS);

/**
 * A word no lexicon phrase has, of 7 letters or more, that shares a stem with exactly one lexicon word
 * ("populated": population) is read as that word.
 */
function readStems(words: Word[]): void {
  for (const w of words) {
    const text = foldPlural(w.text);
    if (w.used || text.length < 7 || LEXICON_WORD_SET.has(text) || FILLER_WORDS.has(text)) continue;
    const near = LEXICON_WORDS.filter((l) => sharedStem(text, l) > 0);
    if (near.length === 1) [w.text, w.fixed] = [near[0], near[0]];
  }
}

/** Topics a broad word stands for ("prices": consumer prices), when nothing more specific named one. */
export function broadTopics(question: string): Topic[] {
  const keys = new Set(wordsOf(question).map((w) => w.text));
  return TOPICS.filter((t) => t.broad?.some((b) => keys.has(b)));
}

// ---------------------------------------------------------------------------------------------------------------
// Episodes

const EPISODE_PHRASES = NAMED_EPISODES.flatMap((e) => e.phrases.map((p) => ({ id: e.id, phrase: p, words: phraseWords(p) }))).sort((a, b) => b.words.length - a.words.length);
/** A topic's own word inside an episode's name ("the post-pandemic inflation spike") still names the topic. */
const TOPIC_WORDS_IN_EPISODES = new Set(TOPICS.filter((t) => t.id !== "recession").flatMap((t) => t.phrases).filter((p) => !p.includes(" ")));

/**
 * Takes the words naming an episode (see the file comment), every phrase of it the question has ("the post-covid
 * inflation spike"); the first phrase as the episode table writes it, or null.
 */
function readEpisode(words: Word[]): string | null {
  let first: (typeof EPISODE_PHRASES)[number] | null = null;
  for (const e of EPISODE_PHRASES) {
    if (first && e.id !== first.id) continue;
    const at = take(words, e.words, true);
    if (at < 0) continue;
    first ??= e;
    for (let k = at; k < at + e.words.length; k++) if (TOPIC_WORDS_IN_EPISODES.has(words[k].text)) words[k].used = false;
  }
  if (first) return first.phrase;
  // "during covid", "since the pandemic": the 2020 recession; "covid cases" is no episode.
  for (let i = 1; i < words.length; i++) {
    if (!words[i].used && TIMED_EPISODE_WORDS.has(foldPlural(words[i].text)) && EPISODE_TIME_WORDS.has(words[i - 1].text)) return mark(words, i, 1, "the pandemic");
  }
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b, c] = [words[i].text, words[i + 1].text, words[i + 2]?.text];
    if (words[i].used || words[i + 1].used) continue;
    if (/^(19|20)\d\d$/.test(a) && /^recessions?$/.test(b)) return mark(words, i, 2, `${a} recession`);
    if (/^recessions?$/.test(a) && (b === "of" || b === "in") && c && /^(19|20)\d\d$/.test(c) && !words[i + 2].used) return mark(words, i, 3, `${c} recession`);
    if (/^(last|latest|previous|recent)$/.test(a) && /^recessions?$/.test(b)) return mark(words, i, 2, "last recession");
    if (a === "most" && b === "recent" && /^recessions?$/.test(c ?? "") && !words[i + 2].used) return mark(words, i, 3, "last recession");
  }
  return null;
}

function mark(words: Word[], i: number, n: number, phrase: string): string {
  for (let k = i; k < i + n; k++) words[k].used = true;
  return phrase;
}

// ---------------------------------------------------------------------------------------------------------------
// Places

const NATIONAL = NATIONAL_PHRASES.map((p) => regionKey(p).split(" ")).sort((a, b) => b.length - a.length);
const US_BEFORE = new Set(["in", "of", "for", "the", "across", "vs", "versus", "and"]);
const COMPARING = new Set(["vs", "versus", "and", "compared"]);
const MAX_PLACE_WORDS = 6;

function placeCandidate(words: Word[], i: number, n: number, allCaps: boolean): string | null {
  const run = words.slice(i, i + n);
  if (run.some((w) => w.used || /^\d+$/.test(w.text))) return null;
  if (n === 1) {
    const w = run[0];
    if (w.text.length <= 2) {
      if (w.text === "us") return (w.raw === "US" && !allCaps) || US_BEFORE.has(words[i - 1]?.text ?? "") || COMPARING.has(words[i + 1]?.text ?? "") ? "US" : null;
      if (!TWO_LETTER_WORDS.has(w.text)) return w.raw;
      return w.raw === w.raw.toUpperCase() && !allCaps ? w.raw : null;
    }
    if (FILLER_WORDS.has(w.text)) return null;
    // Three letters: an ISO code in capitals ("GBR"), a word otherwise ("ago" is not Angola).
    if (w.text.length === 3 && (w.raw !== w.raw.toUpperCase() || allCaps)) return null;
  }
  return run.map((w) => w.raw).join(" ");
}

/** "(the) country, not the state" after a name: its words taken. */
function kindSaidAfter(words: Word[], j: number): void {
  let end = words[j]?.text === "the" ? j + 1 : j;
  if (words[end + 1]?.text === "not") end += words[end + 2]?.text === "the" ? 3 : 2;
  for (let k = j; k <= Math.min(end, words.length - 1); k++) words[k].used = true;
}

function readPlaces(words: Word[], lookup: PlaceLookup, allCaps: boolean, demonym?: (text: string) => string | null): Pick<ParsedQuestion, "places" | "ambiguous" | "alternates" | "codes" | "before"> {
  const found: { at: number; code: string }[] = [];
  const ambiguous: (ParsedQuestion["ambiguous"][number] & { at: number })[] = [];
  const alternates: Record<string, string> = {};
  const codes: ParsedQuestion["codes"] = {};
  // "the country Georgia", "country of Georgia", "the state of Georgia": the kind is said, so only that kind is read
  // (and "the country" is not the nation here).
  for (let i = 0; i < words.length; i++) {
    const kind = words[i].text === "country" ? "country" : words[i].text === "state" ? "state" : null;
    if (!kind || words[i].used) continue;
    const from = words[i + 1]?.text === "of" ? i + 2 : i + 1;
    for (let n = Math.min(4, words.length - from); n >= 1; n--) {
      const run = words.slice(from, from + n);
      if (run.some((w) => w.used)) continue;
      const hit = lookup(run.map((w) => w.raw).join(" "), { kinds: [kind] });
      if (hit.kind !== "found") continue;
      for (let k = i; k < from + n; k++) words[k].used = true;
      if (words[i - 1]?.text === "the") words[i - 1].used = true;
      found.push({ at: i, code: hit.code });
      break;
    }
  }
  // "Georgia (the country, not the state)", "New York state": the kind said after the name.
  for (let i = 1; i < words.length; i++) {
    const kind = /^(country|nation)$/.test(words[i].text) ? "country" : words[i].text === "state" ? "state" : null;
    if (!kind || words[i].used) continue;
    const end = words[i - 1].text === "the" ? i - 2 : i - 1;
    for (let n = Math.min(4, end + 1); n >= 1; n--) {
      const run = words.slice(end - n + 1, end + 1);
      if (run.some((w) => w.used || FILLER_WORDS.has(w.text) || w.text.length <= 2)) continue;
      const hit = lookup(run.map((w) => w.raw).join(" "), { kinds: [kind] });
      if (hit.kind !== "found") continue;
      for (let k = end - n + 1; k <= end; k++) words[k].used = true;
      kindSaidAfter(words, end + 1);
      found.push({ at: end - n + 1, code: hit.code });
      break;
    }
  }
  for (const target of NATIONAL) {
    for (;;) {
      const at = take(words, target, false);
      if (at < 0) break;
      found.push({ at, code: "US" });
    }
  }
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(MAX_PLACE_WORDS, words.length - i); n >= 1; n--) {
      const text = placeCandidate(words, i, n, allCaps);
      if (text === null) continue;
      let hit = lookup(text);
      // "japans": a possessive written without its apostrophe.
      if (hit.kind === "not_found" && n === 1 && foldPlural(words[i].text) !== words[i].text) hit = lookup(foldPlural(words[i].text));
      // "the Canadian economy", "New Yorkers": a word for a place's people (demonyms.ts).
      if (hit.kind === "not_found" && demonym && words[i + n - 1].text.length >= 5) {
        const name = demonym(text);
        if (name) hit = lookup(name);
      }
      // "Los Angeles", "miami dade": a county named without its kind, when that names one county; one lower-case word
      // only where no word it could describe follows ("jobs in maricopa", "cook il", not "young people": Young County).
      const next = words[i + n];
      const describes = n === 1 && words[i].raw === words[i].raw.toLowerCase() && next !== undefined && !next.used && !FILLER_WORDS.has(next.text) && lookup(next.raw, { kinds: ["state"] }).kind !== "found";
      if (hit.kind === "not_found" && !FILLER_WORDS.has(words[i].text) && words[i].text.length > 2 && !describes) {
        const county = lookup(`${text} County`);
        if (county.kind === "found") hit = county;
      }
      if (hit.kind === "not_found") continue;
      for (let k = i; k < i + n; k++) words[k].used = true;
      if (hit.kind === "found") {
        found.push({ at: i, code: hit.code });
        // Georgia: the state by name, and a country by the same name.
        if (text.length > 2 && /^\d\d$/.test(hit.code)) {
          const country = lookup(text, { kinds: ["country"] });
          if (country.kind === "found") alternates[hit.code] = country.code;
        }
        // CA: Canada as written (the data routes' reading), California as a state's abbreviation; "ca": the reverse.
        if (text.length === 2) {
          const other = lookup(text, { kinds: [/^\d\d$/.test(hit.code) ? "country" : "state"] });
          if (other.kind === "found" && other.code !== hit.code) codes[hit.code] = { other: other.code, text };
        }
      } else ambiguous.push({ at: i, text, candidates: hit.candidates });
      i += n - 1;
      break;
    }
  }
  // "Wayne County vs Michigan": a county name of several states, settled by a state the question names.
  const unsettled: ParsedQuestion["ambiguous"] = [];
  for (const a of ambiguous) {
    const inState = a.candidates.filter((c) => c.length === 5 && found.some((f) => f.code === c.slice(0, 2)));
    if (inState.length === 1) found.push({ at: a.at, code: inState[0] });
    else unsettled.push({ text: a.text, candidates: a.candidates, position: a.at });
  }
  found.sort((a, b) => a.at - b.at);
  // Where each unsettled name stands among the places, so its reading keeps the question's order ("from A to B").
  for (const u of unsettled) u.position = new Set(found.filter((f) => f.at < u.position!).map((f) => f.code)).size;
  // The word before each place, by its code (a name of several counties: by its text, for the one it is read as).
  const before: Record<string, string> = {};
  for (const f of [...found.map((x) => ({ at: x.at, key: x.code })), ...ambiguous.map((a) => ({ at: a.at, key: a.text }))]) {
    let j = f.at - 1;
    while (j >= 0 && (words[j].text === "the" || (words[j].text === "of" && words[j - 1]?.text === "out"))) j--;
    if (j >= 0 && !(f.key in before)) before[f.key] = words[j].text === "out" ? "out of" : words[j].text;
  }
  return { places: [...new Set(found.map((f) => f.code))], ambiguous: unsettled, alternates, codes, before };
}

const PLACE_BEFORE = new Set(["in", "of", "for", "from", "leave", "leaving"]);
// Determiners and quantifiers after in/of/from are no place names ("from other states", "in each county").
const NOT_PLACES = new Set(
  ("other others each every most some several both either neither another such few various certain different own same whole entire rest " +
    "peak peaks top trough bottom highs lows elsewhere abroad people residents workers families households americans world economies globally").split(" "),
);
const MONTH_WORDS = new Set(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]);

/**
 * Words after in/of/for/from (past fillers) that nothing took: a place the question named. Each is tried against
 * the place names as a misspelling (one candidate within the typo distance: read as it); the rest are unplaced.
 */
function readUnplaced(words: Word[], fuzzy: FuzzyPlace | undefined): { corrections: ParsedQuestion["corrections"]; unplaced: string[]; codes: { at: number; code: string }[] } {
  const corrections: ParsedQuestion["corrections"] = [];
  const unplaced: string[] = [];
  const codes: { at: number; code: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.used || FILLER_WORDS.has(w.text) || MONTH_WORDS.has(w.text) || NOT_PLACES.has(w.text) || TIMED_EPISODE_WORDS.has(w.text) || /^\d+$/.test(w.text) || w.text.length < 3) continue;
    let j = i - 1;
    while (j >= 0 && !words[j].used && FILLER_WORDS.has(words[j].text) && !PLACE_BEFORE.has(words[j].text)) j--;
    const named = j >= 0 && PLACE_BEFORE.has(words[j].text);
    // A run of up to three unused words ("new yrok", "paris"), tried as a misspelt place, longest first.
    let taken = 0;
    for (let n = 3; n >= 1 && fuzzy; n--) {
      const run = words.slice(i, i + n);
      if (run.length < n || run.some((x) => x.used || /^\d+$/.test(x.text))) continue;
      const hit = fuzzy(run.map((x) => x.text).join(" "));
      if (!hit) continue;
      run.forEach((x) => (x.used = true));
      corrections.push({ text: run.map((x) => x.raw).join(" "), code: hit });
      codes.push({ at: i, code: hit });
      taken = n;
      break;
    }
    if (taken) {
      i += taken - 1;
      continue;
    }
    if (named) {
      w.used = true;
      unplaced.push(w.raw);
    }
  }
  return { corrections, unplaced, codes };
}

/** Words naming a kind of place; "world" and "economies" name the countries. */
const KIND_WORDS: ReadonlySet<string> = new Set(["state", "states", "county", "counties", "country", "countries", "nation", "nations", "world", "economies", "globally"]);
/** The real (inflation-adjusted) measure asked for. */
const REAL_PHRASES = ["after inflation", "adjusted for inflation", "inflation adjusted", "in real terms", "real terms", "constant dollars", "chained dollars"].map(phraseWords);
/** The nominal measure asked for: its words are no place ("in nominal terms"); the planner reads "nominal" itself. */
const NOMINAL_PHRASES = ["not adjusted for inflation", "in nominal terms", "nominal terms", "in current dollars"].map(phraseWords);

/** A misspelt place name's one close region (states and countries), or null. */
export type FuzzyPlace = (text: string) => string | null;

/** Reads a question (see the file comment). `todayYear`: the year "since 2020" counts to. */
export function parseQuestion(question: string, opts: { todayYear: number; lookupPlace: PlaceLookup; fuzzyPlace?: FuzzyPlace; demonym?: (text: string) => string | null }): ParsedQuestion {
  const words = wordsOf(question);
  const letters = question.replace(/[^\p{L}]/gu, "");
  const allCaps = letters.length > 3 && letters === letters.toUpperCase();
  const episode = readEpisode(words);
  const window = readTime(words, opts.todayYear);
  NOMINAL_PHRASES.forEach((p) => take(words, p, true));
  const real = REAL_PHRASES.some((p) => take(words, p, true) >= 0);
  readStems(words);
  const { topics, nearest } = readTopics(words);
  const { places: named, ambiguous, alternates, codes, before } = readPlaces(words, opts.lookupPlace, allCaps, opts.demonym);
  const kinds = words.filter((w) => !w.used && KIND_WORDS.has(w.text)).map((w) => w.text);
  const unplacedRead = readUnplaced(words, opts.fuzzyPlace);
  const places = [...new Set([...named, ...unplacedRead.codes.map((c) => c.code)])];
  const rest = words.filter((w) => !w.used && !FILLER_WORDS.has(w.text) && !ORDER_WORDS.has(w.text) && !FILLER_WORDS.has(foldPlural(w.text)) && !KIND_WORDS.has(w.text) && !/^\d+$/.test(w.text)).map((w) => foldPlural(w.text));
  let spelled = question;
  for (const w of words) if (w.fixed) spelled = spelled.replace(new RegExp(`\\b${w.raw}\\b`, "i"), w.fixed);
  return { topics, places, ambiguous, window, rest: [...new Set(rest)], corrections: unplacedRead.corrections, unplaced: unplacedRead.unplaced, alternates, codes, episode, nearest, kinds, before, real, spelled };
}
