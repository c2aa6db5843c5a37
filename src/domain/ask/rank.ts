// Ranking and filtering places by one series at one period (pure): "which state has the highest unemployment rate",
// "the 5 counties of Texas with the most people", "which states have an unemployment rate above 5%". Every place of
// the kind is read at the same period (like with like; place-sets.ts orders, cuts and filters); places that hold no
// value for it are counted and said. Ties share a rank and are all named. The first sentence names the place or
// places, the value and the period.
import type { Frequency } from "../calendar";
import { describeThreshold, filtered, ordered, topWithTies, type Ranked, type Threshold } from "../place-sets";
import { atDate, capitalise, decimalsOf, formatValue } from "../prose";
import type { Direction } from "./intent";
import { was, type Lead } from "./lead";

export type { Ranked } from "../place-sets";

export type RankInput = {
  label: string;
  unit: string | null;
  frequency: Frequency;
  date: string;
  /** "states", "counties of California", "countries". */
  scope: string;
  values: readonly Ranked[];
  /** Places of the kind that hold the series but no value for this period. */
  missing: number;
  dir: Direction;
  count: number;
  /** Keep only the places past it ("above 5%"), in the series' unit; null: rank them all. */
  filter?: Threshold | null;
};

/** Places named in the first sentence; past this, the rest are counted there and named after it, up to MAX_LISTED. */
const MAX_NAMED = 10;
const MAX_LISTED = 40;

/** The places in order (highest first for max), ties broken by name so the order is stable. */
export const rankPlaces = ordered;

const listOf = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

export function rankLead(r: RankInput): Lead & { top: Ranked[] } {
  const sorted = ordered(r.values, r.dir);
  const when = atDate(r.date, r.frequency);
  if (sorted.length === 0)
    return { text: `No place among the ${r.scope} has a value of ${r.label} ${when}.`, figures: {}, top: [] };
  const d = decimalsOf(sorted.slice(0, MAX_NAMED).map((s) => s.value));
  const fmt = (x: number) => formatValue(x, r.unit, d);
  const label = r.label.replace(/^the /, "");
  // The states' list holds DC: "the 50 states and DC", as the insights say it.
  const withDc = r.scope === "states" && sorted.some((s) => s.code === "11");
  const count = (withDc ? sorted.length - 1 : sorted.length).toLocaleString("en-US");
  const of = `of the ${count} ${withDc ? "states and DC" : r.scope}`;
  const figures: Record<string, number | string> = {
    date: r.date,
    places: sorted.length,
    counted: Number(count.replace(/,/g, "")),
    missing: r.missing,
  };
  let text: string;
  let top: Ranked[];
  if (r.filter) {
    const kept = filtered(r.values, r.filter);
    // The threshold as the question wrote it: its own decimals, not the data's.
    const bound = describeThreshold(r.filter, (x) => formatValue(x, r.unit, decimalsOf([x])));
    top = kept.slice(0, MAX_NAMED);
    figures.matching = kept.length;
    figures.more = Math.max(0, kept.length - top.length);
    figures.threshold = r.filter.value;
    const verb = was(r.label);
    if (kept.length === 0) {
      const nearest = ordered(r.values, r.filter.op.startsWith(">") ? "max" : "min")[0];
      text = `${capitalise(r.label)} ${verb} ${bound} in none ${of} ${when}; the ${r.filter.op.startsWith(">") ? "highest" : "lowest"} was ${nearest.place} at ${fmt(nearest.value)}.`;
      figures.nearest = nearest.value;
    } else {
      const more = kept.length - top.length;
      const names = `${top.map((t) => `${t.place} (${fmt(t.value)})`).join(", ")}${more > 0 ? `, and ${more.toLocaleString("en-US")} more` : ""}`;
      text = `${capitalise(r.label)} ${verb} ${bound} in ${kept.length.toLocaleString("en-US")} ${of} ${when}: ${names}.`;
      // The rest are named after the first sentence, up to a paragraph's worth.
      const others = kept.slice(top.length, top.length + MAX_LISTED);
      if (others.length) {
        const unnamed = kept.length - top.length - others.length;
        text += ` The others: ${others.map((t) => `${t.place} (${fmt(t.value)})`).join(", ")}${unnamed > 0 ? `, and ${unnamed.toLocaleString("en-US")} more` : ""}.`;
        others.forEach((t) => (figures[`${t.code}`] = t.value));
        figures.unnamed = Math.max(0, unnamed);
      }
    }
  } else if (r.count <= 1) {
    top = topWithTies(r.values, r.dir, 1);
    const word = r.dir === "max" ? "highest" : "lowest";
    text = `${capitalise(listOf(top.map((t) => t.place)))} had the ${word} ${label} ${of} ${when}: ${fmt(top[0].value)}.`;
    const next = sorted[top.length];
    if (next) text += ` Next was ${next.place} at ${fmt(next.value)}.`;
  } else {
    top = topWithTies(r.values, r.dir, Math.min(r.count, sorted.length));
    const word = r.dir === "max" ? "highest" : "lowest";
    text = `The ${r.scope} with the ${word} ${label} ${when}, out of ${withDc ? `the ${count} states and DC` : count}: ${top.map((t) => `${t.place} (${fmt(t.value)})`).join(", ")}.`;
  }
  if (r.missing > 0)
    text += ` ${r.missing} more ${r.missing === 1 ? "place holds" : "places hold"} no value for that period and ${r.missing === 1 ? "is" : "are"} not ranked.`;
  top.forEach((t, i) => (figures[`${i + 1}:${t.code}`] = t.value));
  const next = r.filter ? undefined : sorted[top.length];
  if (next) figures.next = next.value;
  return { text, figures, top };
}
