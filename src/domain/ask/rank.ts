// Ranking places by one series at one period (pure): "which state has the highest unemployment rate". Every place
// of the kind is read at the same period (like with like); places that hold no value for it are counted and said.
// Ties share a rank and are all named.
import type { Frequency } from "../calendar";
import { atDate, capitalise, decimalsOf, formatValue } from "../prose";
import type { Direction } from "./intent";
import type { Lead } from "./lead";

export type Ranked = { code: string; place: string; value: number };

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
};

/** The places in order (highest first for max), ties broken by name so the order is stable. */
export function rankPlaces(values: readonly Ranked[], dir: Direction): Ranked[] {
  return [...values].sort((a, b) => (dir === "max" ? b.value - a.value : a.value - b.value) || a.place.localeCompare(b.place));
}

export function rankLead(r: RankInput): Lead & { top: Ranked[] } {
  const sorted = rankPlaces(r.values, r.dir);
  if (sorted.length === 0) return { text: `No place among the ${r.scope} has a value of ${r.label} ${atDate(r.date, r.frequency)}.`, figures: {}, top: [] };
  const d = decimalsOf(sorted.slice(0, 10).map((s) => s.value));
  const fmt = (x: number) => formatValue(x, r.unit, d);
  const best = sorted[0].value;
  const tied = sorted.filter((s) => s.value === best);
  const top = sorted.slice(0, Math.max(r.count, tied.length));
  const word = r.dir === "max" ? "highest" : "lowest";
  const label = r.label.replace(/^the /, "");
  const when = atDate(r.date, r.frequency);
  // The states' list holds DC: "the 50 states and DC", as the insights say it.
  const withDc = r.scope === "states" && sorted.some((s) => s.code === "11");
  const count = (withDc ? sorted.length - 1 : sorted.length).toLocaleString("en-US");
  const of = `of the ${count} ${withDc ? "states and DC" : r.scope}`;
  let text: string;
  if (r.count <= 1) {
    const who = tied.map((t) => t.place);
    const names = who.length === 1 ? who[0] : `${who.slice(0, -1).join(", ")} and ${who.at(-1)}`;
    text = `${capitalise(names)} had the ${word} ${label} ${of} ${when}: ${fmt(best)}.`;
    const next = sorted[top.length];
    if (next) text += ` Next was ${next.place} at ${fmt(next.value)}.`;
  } else {
    text = `The ${r.scope} with the ${word} ${label} ${when}, out of ${count}: ${top.map((t) => `${t.place} (${fmt(t.value)})`).join(", ")}.`;
  }
  if (r.missing > 0) text += ` ${r.missing} more ${r.missing === 1 ? "place holds" : "places hold"} no value for that period and ${r.missing === 1 ? "is" : "are"} not ranked.`;
  const figures: Record<string, number | string> = { date: r.date, places: sorted.length, counted: Number(count.replace(/,/g, "")), missing: r.missing };
  top.forEach((t, i) => (figures[`${i + 1}:${t.code}`] = t.value));
  const next = sorted[top.length];
  if (next) figures.next = next.value;
  return { text, figures, top };
}
