// The deterministic composer of ask answers (pure): prose built only from tool results, so every number it writes is
// one the results hold (verify.ts checks it anyway). Per series, in the order the question named them:
//   "<Subject> was <value in its unit> <at its date>[ (preliminary)]." then its most salient insight facts (their own
//   sentences, from get_insights), then for a peer (the nation for a state, the state for a county) "For comparison,
//   <subject> was <value> <at its date>."; then the active signals' sentences (get_active_signals), strongest first.
// A series without a value says so instead of guessing.
import type { Frequency } from "../calendar";
import { atDate, decimalsOf, formatValue, seriesSubject } from "../prose";

export const DETERMINISTIC_MODEL = "deterministic-composer-v1 (no language model, no network)";

export type ComposedSeries = {
  name: string;
  place: string;
  frequency: Frequency;
  unit: string | null;
  latest: { date: string; value: number; preliminary: boolean } | null;
  /** Fact sentences, most salient first (already cut to the depth's count). */
  facts: readonly string[];
  peers: readonly { name: string; place: string; frequency: Frequency; unit: string | null; latest: { date: string; value: number } | null }[];
};

export type Composition = { series: readonly ComposedSeries[]; signals: readonly string[] };

function valueSentence(s: { name: string; place: string; frequency: Frequency; unit: string | null }, latest: { date: string; value: number }): string {
  return `${seriesSubject(s.name, s.place)} was ${formatValue(latest.value, s.unit, decimalsOf([latest.value]))} ${atDate(latest.date, s.frequency)}`;
}

export function composeAnswer(c: Composition): string {
  const parts: string[] = [];
  for (const s of c.series) {
    if (!s.latest) {
      parts.push(`No value of ${seriesSubject(s.name, s.place).replace(/^The /, "the ")} is held.`);
      continue;
    }
    parts.push(`${valueSentence(s, s.latest)}${s.latest.preliminary ? " (preliminary)" : ""}.`);
    parts.push(...s.facts);
    for (const p of s.peers) if (p.latest) parts.push(`For comparison, ${valueSentence(p, p.latest).replace(/^The /, "the ")}.`);
  }
  parts.push(...c.signals);
  return parts.join(" ");
}
