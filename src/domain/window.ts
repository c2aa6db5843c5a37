// The `window` parameter of insights, ask and briefings (spec "GET /v1/insights"): `all`, or a positive integer
// followed by `d` (days), `m` (months) or `y` (years). Anything else is refused (the caller answers 400).
// - Digits only, no sign, no leading zero, no spaces, lower-case unit: `12m`, `5y`, `30d`, `all`.
// - Bounded so that date arithmetic stays in range: at most 365,250 days, 12,000 months or 1,000 years (a
//   millennium, longer than any series held).
// - A window is anchored at the series' latest observation, not at today, so the same data and window always give
//   the same answer: it covers the dates from `latest - n units` to `latest`, both included (12m on a monthly series
//   holds 13 observations: the latest and the one a year earlier, so "over the past year" compares the two ends).
//   Month and year steps clamp to the end of a shorter month (calendar.ts addMonths): 1y before 2024-02-29 is
//   2023-02-28.
import { addDays, addMonths } from "./calendar";

export type WindowUnit = "d" | "m" | "y";
export type Window = { kind: "all" } | { kind: "span"; n: number; unit: WindowUnit };

export const WINDOW_MAX: Record<WindowUnit, number> = { d: 365_250, m: 12_000, y: 1_000 };
export const WINDOW_SYNTAX = "`all` or a positive integer followed by d, m or y (e.g. 30d, 12m, 5y)";

const SPAN = /^([1-9][0-9]{0,6})([dmy])$/;

/** The window a string names, or null when it is not one (then the caller answers 400 INVALID_PARAMETER). */
export function parseWindow(s: string): Window | null {
  if (s === "all") return { kind: "all" };
  const m = SPAN.exec(s);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] as WindowUnit;
  return n <= WINDOW_MAX[unit] ? { kind: "span", n, unit } : null;
}

export function formatWindow(w: Window): string {
  return w.kind === "all" ? "all" : `${w.n}${w.unit}`;
}

/** The first date a window anchored at `latest` covers; null for `all` (every date). */
export function windowStart(w: Window, latest: string): string | null {
  if (w.kind === "all") return null;
  const start = w.unit === "d" ? addDays(latest, -w.n) : addMonths(latest, -(w.unit === "m" ? w.n : 12 * w.n));
  // Before year 0 the string no longer sorts as a date; every held date is later anyway.
  return start.startsWith("-") ? "0000-01-01" : start;
}

/** "the past 12 months", "the past year", "the past 30 days": the span a window names, for prose. */
export function windowSpanPhrase(w: Window & { kind: "span" }): string {
  const noun = { d: "day", m: "month", y: "year" }[w.unit];
  return w.n === 1 ? `the past ${noun}` : `the past ${w.n} ${noun}s`;
}
