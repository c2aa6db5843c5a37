// Leads about where a series went (pure): its direction, its course during an episode, and where it stands against a
// peak. Each first sentence carries the answer word first ("Up:", "Down:", "Yes:", "No:") or the number, with the
// place and the period; the arithmetic follows what the values are (value-kinds.ts, direction.ts).
// - direction: the move over the span asked, else 12 months (direction.ts moveOver). A level or an index moves by a
//   percent (and the difference); a rate by a difference in its unit. A value that is itself a change (GDP growth)
//   reads two ways: asked about the change ("is inflation going up"), its own move; asked about the thing that
//   changes ("is the economy growing"), the sign of the newest value. A growth topic's own rate (inflation of a
//   price index) moves as a rate: its 12-month change against the one 12 months before.
// - episode: the highest or lowest value in the episode's window (episodes.ts episodeWindow: with the margin after it
//   for a lagging series); asked for no extreme, the move from the value before the window to the window's farthest
//   point from it.
// - since_peak: the newest value against the peak of the most recent episode that concerns the series, or against
//   the all-time peak (or low) when asked; a yes/no question is answered by what it claims (below the peak, above).
import { moveOver, pointAtOrBefore, signOf, type Dir } from "../direction";
import type { Episode } from "../episodes";
import { addMonths } from "../calendar";
import { atDate, capitalise, decimalsOf, formatChange, formatDate, formatPercent, formatValue } from "../prose";
import { percentChangeApplies, type ValueSpec } from "../value-kinds";
import type { Direction, Intent } from "./intent";
import {
  after,
  growthComputed,
  growthSeries,
  round,
  shownChange,
  subject,
  valued,
  was,
  type Lead,
  type Valued,
  type View,
} from "./lead";

const WORD: Record<Dir, string> = { up: "Up", down: "Down", flat: "Flat" };
const RATE: ValueSpec = { kind: "rate" };

/** What a lead reads: the growth for a growth topic asked about its rate, else the values, and how to write them. */
function readingOf(
  v: View,
  ofGrowth: boolean,
): { pts: Valued[]; spec: ValueSpec; name: string; show: (x: number) => string; decimals: number; growth: boolean } {
  const growth = ofGrowth ? growthSeries(v) : null;
  if (growth && growth.length) {
    const computed = growthComputed(v);
    const show = (x: number) =>
      computed ? formatPercent(round(x, 1)) : formatValue(shownChange(x), v.unit, decimalsOf([shownChange(x)]));
    return {
      pts: growth,
      spec: RATE,
      name: capitalise(`${v.growthLabel ?? v.label} in ${v.place}`),
      show,
      decimals: computed ? 1 : 2,
      growth: true,
    };
  }
  const pts = valued(v.points);
  // A published change reads to two decimals at most (7.57%), its moves too.
  const decimals = Math.min(v.values.kind === "change" ? 2 : 3, decimalsOf(pts.slice(-24).map((p) => p.value)));
  const show = (x: number) => formatValue(v.values.kind === "change" ? shownChange(x) : x, v.unit, decimals);
  return { pts, spec: v.values, name: subject(v), show, decimals, growth: false };
}

const yesPrefix = (yesNo: boolean, down: boolean, dir: Dir) =>
  yesNo ? ((down ? dir === "down" : dir === "up") ? "Yes: " : "No: ") : `${WORD[dir]}: `;
/** A sentence opening with the series' name, after a word: its first letter as the name writes it. */
const lowered = (v: View, text: string) => after("-", text, v.growthLabel ?? v.label).slice(1);

/**
 * "Is unemployment going up or down?" The answer word first, then the move over the span. `asksChange`: the question
 * is about a published change itself (its own move), not the thing it measures (its sign).
 */
export function directionLead(
  v: View,
  intent: Extract<Intent, { kind: "direction" }>,
  yesNo: boolean,
  down: boolean,
  opts: { ofGrowth: boolean; asksChange: boolean },
): Lead {
  const r = readingOf(v, opts.ofGrowth);
  if (v.values.kind === "change" && !opts.asksChange && !r.growth) {
    const last = r.pts.at(-1);
    if (!last) return { text: `${r.name} has no value held.`, figures: {} };
    const dir = signOf(last.value, 2);
    const text = `${r.name} ${was(v.label)} ${r.show(last.value)} ${atDate(last.date, v.frequency)}${dir === "flat" ? ", no change" : dir === "up" ? ", an increase" : ", a decrease"}.`;
    return {
      text: `${yesPrefix(yesNo, down, dir)}${lowered(v, text)}`,
      figures: { value: last.value, date: last.date },
      computed: "value",
    };
  }
  const move = moveOver(r.pts, r.spec, { months: intent.months, decimals: r.decimals });
  if (!move) return { text: `${r.name} has too few values held to say which way it is going.`, figures: {} };
  const span = `from ${formatDate(move.from.date, v.frequency)} to ${formatDate(move.to.date, v.frequency)}`;
  const verb = move.dir === "flat" ? `${was(v.label)} unchanged` : move.dir === "up" ? "rose" : "fell";
  const points = r.growth
    ? formatChange(move.change, "percent", r.decimals)
    : formatChange(move.change, v.unit, r.decimals);
  const by =
    move.dir === "flat"
      ? ""
      : move.percent !== null
        ? ` ${formatPercent(Math.abs(round(move.percent, 1)))} (${points})`
        : ` ${points}`;
  const text = `${r.name} ${verb}${by} ${span}, ${move.dir === "flat" ? "at" : "to"} ${r.show(move.to.value)}.`;
  const figures: Record<string, number | string> = {
    change: round(move.change, r.decimals),
    from: move.from.value,
    to: move.to.value,
    start: move.from.date,
    end: move.to.date,
  };
  if (move.percent !== null) figures.percent = round(move.percent, 1);
  if (r.growth)
    Object.assign(figures, {
      from_shown: round(move.from.value, r.decimals),
      to_shown: round(move.to.value, r.decimals),
    });
  return {
    text: `${yesPrefix(yesNo, down, move.dir)}${lowered(v, text)}`,
    figures,
    computed: move.percent !== null ? "percent_change" : "difference",
  };
}

/**
 * "Is the unemployment rate under 5 percent?" The newest value (a growth topic's growth) against the threshold, the
 * yes or no first.
 */
export function thresholdLead(
  v: View,
  intent: Extract<Intent, { kind: "threshold" }>,
  yesNo: boolean,
  ofGrowth: boolean,
): Lead {
  const r = readingOf(v, ofGrowth);
  const last = r.pts.at(-1);
  if (!last) return { text: `${r.name} has no value held.`, figures: {} };
  const shown = round(last.value, r.decimals);
  const holds =
    intent.op === ">"
      ? shown > intent.value
      : intent.op === ">="
        ? shown >= intent.value
        : intent.op === "<"
          ? shown < intent.value
          : shown <= intent.value;
  const side = shown > intent.value ? "above" : shown < intent.value ? "below" : "at";
  const bound =
    r.growth || (v.unit ?? "").startsWith("percent")
      ? formatPercent(intent.value).replace(/\.0%$/, "%")
      : formatValue(intent.value, v.unit, decimalsOf([intent.value]));
  const text = `${r.name} ${was(v.label)} ${r.show(last.value)} ${atDate(last.date, v.frequency)}, ${side} ${bound}.`;
  return {
    text: yesNo ? after(holds ? "Yes: " : "No: ", text, r.growth ? (v.growthLabel ?? v.label) : v.label) : text,
    figures: { value: r.growth ? shown : last.value, date: last.date, threshold: intent.value },
    computed: "value",
  };
}

/** How an episode is named: its name, or "the recession of July 1990 to March 1991". */
export function episodeName(e: Episode): string {
  return e.name || `the recession of ${formatDate(e.start, "monthly")} to ${formatDate(e.end, "monthly")}`;
}

function windowNote(e: Episode, window: { start: string; end: string }, v: View): string {
  const dates = `${formatDate(e.start, "monthly")} to ${formatDate(e.end, "monthly")}`;
  const margin = window.end > e.end ? `, read to ${formatDate(window.end, "monthly")} since ${v.label} lags` : "";
  return `${e.kind === "recession" ? "by the NBER's dates, " : ""}${dates}${margin}`;
}

/**
 * "What was the peak unemployment rate during the Great Recession?" Asked yes or no ("did unemployment rise during
 * the 2001 recession"), the move answers it: yes when it went the way asked (`down`: a fall was asked).
 */
export function episodeLead(
  v: View,
  e: Episode,
  window: { start: string; end: string },
  dir: Direction | null,
  ofGrowth: boolean,
  yesNo = false,
  down = false,
): Lead {
  const r = readingOf(v, ofGrowth);
  const within = r.pts.filter((p) => p.date >= window.start && p.date <= `${window.end.slice(0, 7)}-31`);
  const name = episodeName(e);
  if (within.length === 0)
    return { text: `${r.name} has no value held during ${name} (${windowNote(e, window, v)}).`, figures: {} };
  const best = (d: Direction) =>
    within.reduce((a, b) => ((d === "max" ? b.value > a.value : b.value < a.value) ? b : a));
  // The episode's name is a result too: its years ("2021-22") are numbers the checker reads.
  const figures: Record<string, number | string> = {
    episode: name,
    start: window.start,
    end: window.end,
    episode_start: e.start,
    episode_end: e.end,
  };
  if (dir) {
    const p = best(dir);
    figures.extreme = r.growth ? round(p.value, r.decimals) : p.value;
    figures.extreme_date = p.date;
    const word = dir === "max" ? "peaked at" : "bottomed at";
    return {
      text: `${r.name} ${word} ${r.show(p.value)} ${atDate(p.date, v.frequency)} during ${name} (${windowNote(e, window, v)}).`,
      figures,
      computed: "extreme",
    };
  }
  const before = pointAtOrBefore(r.pts, addMonths(window.start, -1)) ?? within[0];
  const hi = best("max");
  const lo = best("min");
  const far = Math.abs(hi.value - before.value) >= Math.abs(lo.value - before.value) ? hi : lo;
  const rose = far.value >= before.value;
  Object.assign(figures, {
    before: r.growth ? round(before.value, r.decimals) : before.value,
    before_date: before.date,
    extreme: r.growth ? round(far.value, r.decimals) : far.value,
    extreme_date: far.date,
  });
  const answer = yesNo ? (rose !== down ? "Yes: d" : "No: d") : "D";
  return {
    text: `${answer}uring ${name}, ${lowered(v, r.name)} ${rose ? "rose" : "fell"} from ${r.show(before.value)} ${atDate(before.date, v.frequency)} to a ${rose ? "peak" : "low"} of ${r.show(far.value)} ${atDate(far.date, v.frequency)} (${windowNote(e, window, v)}).`,
    figures,
    computed: "extreme",
  };
}

/**
 * "Has unemployment fallen since its peak?" The newest value against the peak (or low) of the episode given, or of
 * all the data held when `episode` is null (asked "all-time" or "record").
 */
export function sincePeakLead(
  v: View,
  intent: Extract<Intent, { kind: "since_peak" }>,
  yesNo: boolean,
  episode: { e: Episode; window: { start: string; end: string } } | null,
  ofGrowth: boolean,
): Lead {
  const r = readingOf(v, ofGrowth);
  const last = r.pts.at(-1);
  const pool = episode
    ? r.pts.filter((p) => p.date >= episode.window.start && p.date <= `${episode.window.end.slice(0, 7)}-31`)
    : r.pts;
  if (!last || pool.length === 0)
    return { text: `${r.name} has no value held${episode ? ` during ${episodeName(episode.e)}` : ""}.`, figures: {} };
  const peak = pool.reduce((a, b) => ((intent.dir === "max" ? b.value > a.value : b.value < a.value) ? b : a));
  const gap = last.value - peak.value;
  const shownGap = round(gap, r.decimals);
  const below = shownGap < 0;
  const same = shownGap === 0;
  const claim = intent.claim ?? (intent.dir === "max" ? "below" : "above");
  const holds = claim === "below" ? below : !below;
  const prefix = yesNo ? (holds ? "Yes: " : "No: ") : "";
  const pct =
    !r.growth && percentChangeApplies(v.values) && peak.value > 0 && !same
      ? ` (${formatPercent(Math.abs(round((gap / peak.value) * 100, 1)))})`
      : "";
  const distance = same
    ? "at"
    : `${r.growth ? formatChange(gap, "percent", r.decimals) : formatChange(gap, v.unit, r.decimals)}${pct} ${below ? "below" : "above"}`;
  const word = intent.dir === "max" ? (episode ? "peak" : "all-time high") : episode ? "low" : "all-time low";
  const where = episode
    ? ` during ${episodeName(episode.e)}`
    : ` in the data held (from ${formatDate(r.pts[0].date, v.frequency)})`;
  const text = `${r.name} ${was(v.label)} ${r.show(last.value)} ${atDate(last.date, v.frequency)}, ${distance} its ${word} of ${r.show(peak.value)} ${atDate(peak.date, v.frequency)}${where}.`;
  return {
    text: after(prefix, text, r.growth ? (v.growthLabel ?? v.label) : v.label),
    figures: {
      latest: r.growth ? round(last.value, r.decimals) : last.value,
      date: last.date,
      extreme: r.growth ? round(peak.value, r.decimals) : peak.value,
      extreme_date: peak.date,
      gap: Math.abs(shownGap),
      ...(pct ? { gap_percent: Math.abs(round((gap / peak.value) * 100, 1)) } : {}),
      ...(episode
        ? { episode: episodeName(episode.e), from: episode.window.start, to: episode.window.end }
        : { from: r.pts[0].date }),
    },
    computed: "extreme",
  };
}
