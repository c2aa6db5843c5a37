// Calendar arithmetic on ISO dates ("YYYY-MM-DD" strings, proleptic Gregorian, UTC, no time of day).
// Definitions used by transforms, resampling and derived series:
// - day number: days since 1970-01-01 (negative before it); weekday 0 = Sunday ... 6 = Saturday.
// - leap year: divisible by 4, except centuries not divisible by 400 (2000 leap, 1900 not).
// - periods: week = ISO week, Monday to Sunday; month; quarter = Jan-Mar, Apr-Jun, Jul-Sep, Oct-Dec; year.
//   A period index is an integer that grows by one per period (month index = year*12 + month-1, ...),
//   so "the same month a year earlier" is index - 12 whatever the day of the month or the year's length.
// - addMonths clamps to the end of the target month (Jan 31 + 1 month = Feb 28, or Feb 29 in a leap year).

export type PeriodUnit = "day" | "week" | "month" | "quarter" | "year";
export type Frequency = "daily" | "weekly" | "monthly" | "quarterly" | "annual";

export const FREQUENCIES: readonly Frequency[] = ["daily", "weekly", "monthly", "quarterly", "annual"];

/** Coarseness order: a frequency may only be resampled to one of equal or higher rank. */
export const FREQUENCY_RANK: Record<Frequency, number> = { daily: 0, weekly: 1, monthly: 2, quarterly: 3, annual: 4 };

/** The calendar period one observation of a series at this frequency stands for. */
export const FREQUENCY_UNIT: Record<Frequency, PeriodUnit> = {
  daily: "day",
  weekly: "week",
  monthly: "month",
  quarterly: "quarter",
  annual: "year",
};

export function isFrequency(s: string | null | undefined): s is Frequency {
  return s === "daily" || s === "weekly" || s === "monthly" || s === "quarterly" || s === "annual";
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in month m (1-12) of year y. */
export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : MONTH_DAYS[m - 1];
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export type Ymd = { y: number; m: number; d: number };

/** Parses a strict YYYY-MM-DD calendar date; null for anything else (including 2023-02-29). */
export function parseIsoDate(s: string): Ymd | null {
  const match = ISO_DATE.exec(s);
  if (!match) return null;
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return { y, m, d };
}

export function isIsoDate(s: string): boolean {
  return parseIsoDate(s) !== null;
}

// Hot path (thousands of calls per resample): slices, no regex; callers pass dates already validated.
function ymd(s: string): Ymd {
  return { y: Number(s.slice(0, 4)), m: Number(s.slice(5, 7)), d: Number(s.slice(8, 10)) };
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export function formatYmd(y: number, m: number, d: number): string {
  const ys = y >= 0 && y < 10000 ? String(y).padStart(4, "0") : String(y);
  return `${ys}-${pad2(m)}-${pad2(d)}`;
}

/** Days since 1970-01-01 (H. Hinnant's days_from_civil: exact for every proleptic Gregorian year). */
export function dayNumber(s: string): number {
  const { y: y0, m, d } = ymd(s);
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Inverse of dayNumber (civil_from_days). */
export function fromDayNumber(n: number): string {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return formatYmd(yoe + era * 400 + (m <= 2 ? 1 : 0), m, d);
}

export function addDays(s: string, n: number): string {
  return fromDayNumber(dayNumber(s) + n);
}

/** b - a in days. */
export function diffDays(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(s: string): number {
  return (((dayNumber(s) + 4) % 7) + 7) % 7;
}

export function isWeekday(s: string): boolean {
  const w = weekday(s);
  return w >= 1 && w <= 5;
}

/** Adds n calendar months, clamping the day to the target month's length. */
export function addMonths(s: string, n: number): string {
  const { y, m, d } = ymd(s);
  const idx = y * 12 + (m - 1) + n;
  const ty = Math.floor(idx / 12);
  const tm = idx - ty * 12 + 1;
  return formatYmd(ty, tm, Math.min(d, daysInMonth(ty, tm)));
}

export function isMonthEnd(s: string): boolean {
  const { y, m, d } = ymd(s);
  return d === daysInMonth(y, m);
}

/** Adds n months; a month-end date stays a month end (Feb 28 2023 + 1 month = Mar 31 2023). */
export function addMonthsKeepingMonthEnd(s: string, n: number): string {
  if (!isMonthEnd(s)) return addMonths(s, n);
  const { y, m } = ymd(s);
  const idx = y * 12 + (m - 1) + n;
  const ty = Math.floor(idx / 12);
  const tm = idx - ty * 12 + 1;
  return formatYmd(ty, tm, daysInMonth(ty, tm));
}

export function addYears(s: string, n: number): string {
  return addMonths(s, 12 * n);
}

/** Integer index of the period containing s; consecutive periods have consecutive indexes. */
export function periodIndex(s: string, unit: PeriodUnit): number {
  switch (unit) {
    case "day":
      return dayNumber(s);
    case "week":
      // 1970-01-01 is a Thursday, so day -3 is the Monday that starts week 0.
      return Math.floor((dayNumber(s) + 3) / 7);
    case "month": {
      const { y, m } = ymd(s);
      return y * 12 + (m - 1);
    }
    case "quarter": {
      const { y, m } = ymd(s);
      return y * 4 + Math.floor((m - 1) / 3);
    }
    case "year":
      return ymd(s).y;
  }
}

/** First day of the period with the given index. */
export function periodStartOfIndex(index: number, unit: PeriodUnit): string {
  switch (unit) {
    case "day":
      return fromDayNumber(index);
    case "week":
      return fromDayNumber(index * 7 - 3);
    case "month": {
      const y = Math.floor(index / 12);
      return formatYmd(y, index - y * 12 + 1, 1);
    }
    case "quarter": {
      const y = Math.floor(index / 4);
      return formatYmd(y, (index - y * 4) * 3 + 1, 1);
    }
    case "year":
      return formatYmd(index, 1, 1);
  }
}

/** Last day of the period with the given index. */
export function periodEndOfIndex(index: number, unit: PeriodUnit): string {
  switch (unit) {
    case "day":
      return fromDayNumber(index);
    case "week":
      return fromDayNumber(index * 7 + 3);
    case "month": {
      const y = Math.floor(index / 12);
      const m = index - y * 12 + 1;
      return formatYmd(y, m, daysInMonth(y, m));
    }
    case "quarter": {
      const y = Math.floor(index / 4);
      const m = (index - y * 4) * 3 + 3;
      return formatYmd(y, m, daysInMonth(y, m));
    }
    case "year":
      return formatYmd(index, 12, 31);
  }
}

export function periodStart(s: string, unit: PeriodUnit): string {
  return periodStartOfIndex(periodIndex(s, unit), unit);
}

export function periodEnd(s: string, unit: PeriodUnit): string {
  return periodEndOfIndex(periodIndex(s, unit), unit);
}

/** The first weekday (Monday to Friday) strictly after s. */
export function nextWeekday(s: string): string {
  const w = weekday(s);
  // Friday -> Monday (+3), Saturday -> Monday (+2), otherwise the next day.
  return addDays(s, w === 5 ? 3 : w === 6 ? 2 : 1);
}

/** Human name of a date's period, for messages: "2024-03", "2024-Q1", "2024", week of 2024-03-04. */
export function periodLabel(s: string, unit: PeriodUnit): string {
  const { y, m } = ymd(s);
  switch (unit) {
    case "day":
      return s;
    case "week":
      return `week of ${periodStart(s, "week")}`;
    case "month":
      return `${String(y).padStart(4, "0")}-${pad2(m)}`;
    case "quarter":
      return `${String(y).padStart(4, "0")}-Q${Math.floor((m - 1) / 3) + 1}`;
    case "year":
      return String(y).padStart(4, "0");
  }
}
