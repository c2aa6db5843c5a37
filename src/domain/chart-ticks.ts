// Axis ticks of a chart. Pure.
// Dates (the horizontal axis) follow the series' frequency: ticks fall on its periods or on multiples of them, never
// finer (an annual series gets years, a quarterly one quarters or years, a monthly one months or years; weekly and
// daily ones days, months or years). Steps, finest first:
//   daily: 1 day, 7 days, then months;  weekly: 7 and 14 days, then months;  monthly: 1, 3 and 6 months;
//   quarterly: 3 and 6 months;  then for all: 1, 2, 5, 10, 20, 25, 50, 100, ... years.
// A tick of m months falls on a month whose index from January is a multiple of m (Jan, Apr, Jul, Oct for 3); of y
// years on January 1 of a year divisible by y; of d days on the first date drawn and every d days after it.
// The finest step is chosen whose labels, centred on their ticks and kept inside [minX, maxX], are at least
// LABEL_GAP pixels apart and whose ticks are at least MIN_TICK_SPACING apart.
// Labels: years "2026"; months "Jan 2026" at the first tick and at each January, else "Apr"; quarters "Q1 2026" at
// the first tick and each first quarter, else "Q2"; days "May 4, 2026" at the first tick and each new year, else "May 11".
// Values (the vertical axis): the axis runs from PAD of the values' range below their least to PAD above their
// greatest; ticks fall on the multiples of a step of 1, 2 or 5 times a power of ten (valueTicks). Labels carry the step's decimals and thousands separators; on an axis reaching a million
// or more they are written in millions, billions or trillions ("9.8M", "1.25B").
import { addDays, formatYmd, type Frequency } from "./calendar";
import { textWidth } from "./text-width";

export const LABEL_GAP = 10;
export const MIN_TICK_SPACING = 48;
/** The room left above and below a value axis' data, as a share of its range. */
export const PAD = 0.05;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
type Step = { days: number } | { months: number };
const YEAR_STEPS: Step[] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].map((y) => ({ months: 12 * y }));
const MONTH_STEPS: Step[] = [1, 3, 6].map((months) => ({ months }));
const STEPS: Record<Frequency, Step[]> = {
  daily: [{ days: 1 }, { days: 7 }, ...MONTH_STEPS, ...YEAR_STEPS],
  weekly: [{ days: 7 }, { days: 14 }, ...MONTH_STEPS, ...YEAR_STEPS],
  monthly: [...MONTH_STEPS, ...YEAR_STEPS],
  quarterly: [{ months: 3 }, { months: 6 }, ...YEAR_STEPS],
  annual: YEAR_STEPS,
};

export type DateTick = { date: string; label: string; x: number };

/** The dates of one step from `from` to `to` (inclusive). */
function stepDates(from: string, to: string, step: Step): string[] {
  const out: string[] = [];
  if ("days" in step) {
    for (let d = from; d <= to; d = addDays(d, step.days)) out.push(d);
    return out;
  }
  // Months counted from year 0, rounded up to the first month start on or after `from`, then to a multiple of the step.
  let month = Number(from.slice(0, 4)) * 12 + Number(from.slice(5, 7)) - 1 + (from.slice(8) === "01" ? 0 : 1);
  month = Math.ceil(month / step.months) * step.months;
  for (
    let d = formatYmd(Math.floor(month / 12), (month % 12) + 1, 1);
    d <= to;
    month += step.months, d = formatYmd(Math.floor(month / 12), (month % 12) + 1, 1)
  )
    out.push(d);
  return out;
}

function dateLabel(date: string, prev: string | null, step: Step, frequency: Frequency): string {
  const [y, m, d] = [date.slice(0, 4), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
  const newYear = prev === null || prev.slice(0, 4) !== y;
  if ("days" in step) return `${MONTHS[m - 1]} ${d}${newYear ? `, ${y}` : ""}`;
  if (step.months >= 12) return y;
  if (frequency === "quarterly") return `Q${Math.floor((m - 1) / 3) + 1}${newYear || m === 1 ? ` ${y}` : ""}`;
  return `${MONTHS[m - 1]}${newYear || m === 1 ? ` ${y}` : ""}`;
}

/** Where each label's box starts once kept inside [minX, maxX]. */
export function placedLeft(x: number, width: number, minX: number, maxX: number): number {
  return Math.max(minX, Math.min(maxX - width, x - width / 2));
}

/**
 * Ticks of the date axis: `x(date)` is a date's position, `size` the label font size, [minX, maxX] where labels may
 * be drawn. Empty only when no period of the frequency falls between `from` and `to`.
 */
export function dateTicks(
  from: string,
  to: string,
  frequency: Frequency,
  x: (date: string) => number,
  size: number,
  minX: number,
  maxX: number,
): DateTick[] {
  let fallback: DateTick[] = [];
  for (const step of STEPS[frequency]) {
    const dates = stepDates(from, to, step);
    if (dates.length === 0) continue;
    const ticks = dates.map((date, k) => ({
      date,
      label: dateLabel(date, k ? dates[k - 1]! : null, step, frequency),
      x: x(date),
    }));
    if (fallback.length === 0) fallback = ticks.slice(0, 1);
    let fits = true;
    for (let k = 1; k < ticks.length && fits; k++) {
      const [a, b] = [ticks[k - 1]!, ticks[k]!];
      const wa = textWidth(a.label, size);
      const wb = textWidth(b.label, size);
      fits =
        b.x - a.x >= MIN_TICK_SPACING &&
        placedLeft(a.x, wa, minX, maxX) + wa + LABEL_GAP <= placedLeft(b.x, wb, minX, maxX);
    }
    if (fits) return ticks;
  }
  return fallback;
}

export type ValueAxis = { lo: number; hi: number; ticks: number[]; labels: string[] };

const LARGE = [
  { of: 1e12, suffix: "T", digits: 12 },
  { of: 1e9, suffix: "B", digits: 9 },
  { of: 1e6, suffix: "M", digits: 6 },
];

/** A tick value as its label: `decimals` places, thousands grouped, never "-0". */
export function tickLabel(v: number, decimals: number): string {
  const s = v.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return /^-[0.,]*$/.test(s) ? s.slice(1) : s;
}

/** Ticks at the multiples of `step` in [lo, hi], labelled. */
function stepTicks(lo: number, hi: number, m: number, power: number): { ticks: number[]; labels: string[] } {
  const step = m * 10 ** power;
  const decimals = Math.max(0, -power);
  const [first, last] = [Math.ceil(lo / step - 1e-9), Math.floor(hi / step + 1e-9)];
  const ticks = Array.from({ length: Math.max(0, last - first + 1) }, (_, k) =>
    Number(((first + k) * step).toFixed(decimals)),
  );
  const scale = LARGE.find((l) => Math.max(...ticks.map(Math.abs)) >= l.of);
  const labels = scale
    ? ticks.map((t) => (t === 0 ? "0" : `${tickLabel(t / scale.of, Math.max(0, scale.digits - power))}${scale.suffix}`))
    : ticks.map((t) => tickLabel(t, decimals));
  return { ticks, labels };
}

/**
 * The value axis of [min, max] drawn `length` pixels long: from PAD of the range below min to PAD above max, ticks
 * at the multiples of the finest step that puts them `spacing` pixels apart or more; when that leaves fewer than two,
 * the finest that puts two or more at least `least` pixels apart.
 */
export function valueTicks(min: number, max: number, length: number, spacing: number, least: number): ValueAxis {
  if (max === min) {
    // A flat line: an axis around it, a tenth of its size (or 1) either side.
    const half = Math.abs(min) / 10 || 1;
    return valueTicks(min - half, max + half, length, spacing, least);
  }
  const pad = (max - min) * PAD;
  const [lo, hi] = [min - pad, max + pad];
  const pixels = (step: number) => (step / (hi - lo)) * length;
  let fallback: { ticks: number[]; labels: string[] } | null = null;
  for (let power = Math.floor(Math.log10(((hi - lo) * least) / length)) - 1; ; power++) {
    for (const m of [1, 2, 5]) {
      const gap = pixels(m * 10 ** power);
      if (gap < least) continue;
      const t = stepTicks(lo, hi, m, power);
      if (gap >= spacing && t.ticks.length >= 2) return { lo, hi, ...t };
      if (!fallback && t.ticks.length >= 2) fallback = t;
      if (gap >= spacing) return { lo, hi, ...(fallback ?? t) };
    }
  }
}
