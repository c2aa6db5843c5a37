// Which way a series went over a span (pure): "is unemployment going up or down?" is answered by its move over a
// stated period, with the arithmetic its values allow (value-kinds.ts).
// - The span: `months` when asked; else 12 months (a daily or weekly series too: its newest value against the
//   newest one at or before the same date a year earlier). An annual series with `months` under 12 compares with
//   the year before.
// - from: the newest value at or before (end date - span); to: the newest value. change = to - from.
// - percent: (to - from) / from * 100, only for a level or an index (a rate's move is in its own unit, percentage
//   points for a percent) and only when from > 0.
// - dir: "up" or "down" by the sign of the change as it is written (rounded to `decimals`, the data's own precision
//   plus none); "flat" when it rounds to zero.
// - A change already computed (GDP growth, annual %) has two readings: its own move (is inflation going up: the rate
//   rose) and the sign of the value itself (is the economy growing: growth above zero). `signOf` gives the latter.
import { addMonths } from "./calendar";
import type { Point } from "./series";
import { percentChangeApplies, type ValueSpec } from "./value-kinds";

export type Dir = "up" | "down" | "flat";
type Valued = { date: string; value: number };
export type Move = { dir: Dir; from: Valued; to: Valued; change: number; percent: number | null; months: number };

const valued = (points: readonly Point[]): Valued[] =>
  points.filter((p): p is Valued => p.value !== null && Number.isFinite(p.value));

/** The newest valued point at or before `date`, or null. */
export function pointAtOrBefore(points: readonly Valued[], date: string): Valued | null {
  let lo = 0;
  let hi = points.length - 1;
  let found: Valued | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].date <= date) {
      found = points[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The move over `months` (default 12) to the newest value, or to `end` when given; null without two values. */
export function moveOver(
  points: readonly Point[],
  spec: ValueSpec,
  opts: { months?: number | null; end?: string | null; decimals: number },
): Move | null {
  const pts = valued(points);
  const to = opts.end ? pointAtOrBefore(pts, opts.end) : (pts.at(-1) ?? null);
  if (!to) return null;
  const months = opts.months ?? 12;
  const from = pointAtOrBefore(pts, addMonths(to.date, -months));
  if (!from || from.date === to.date) return null;
  const change = to.value - from.value;
  const percent = percentChangeApplies(spec) && from.value > 0 ? (change / from.value) * 100 : null;
  const shown = Number(change.toFixed(opts.decimals));
  return { dir: shown > 0 ? "up" : shown < 0 ? "down" : "flat", from, to, change, percent, months };
}

/** The sign of a value that is itself a change (growth above zero: up). */
export function signOf(value: number, decimals: number): Dir {
  const shown = Number(value.toFixed(decimals));
  return shown > 0 ? "up" : shown < 0 ? "down" : "flat";
}
