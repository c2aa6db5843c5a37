// Dates as data providers write them, mapped to our convention: an observation is dated by the first day of the
// period it covers (YYYY-MM-DD). Provider forms:
// - BLS: year + period code. M01..M12 months; Q01..Q04 quarters (Q01 = Jan-Mar); S01, S02 half years (S01 = Jan-Jun);
//   A01 the year. M13, Q05 and S03 are the annual average of the monthly, quarterly or half-year values: dated
//   YYYY-01-01 and marked as such, so a caller keeps them only for an annual-average series.
// - World Bank: "2023" (year), "2023Q2" (quarter), "2023M07" (month).
// - FRED update time: "2024-06-07 07:51:02-05" (local time with a UTC offset in hours, or hours:minutes).
// - World Bank update time: "2025-07-01" (a day, taken as 00:00 UTC).

export type ProviderPeriod = { date: string; annualAverage: boolean };

const YEAR = /^\d{4}$/;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The period a BLS (year, period) pair covers, or null for a code that is no calendar period. */
export function blsPeriodDate(year: string, period: string): ProviderPeriod | null {
  if (!YEAR.test(year)) return null;
  const m = /^([MQSA])(\d{2})$/.exec(period);
  if (!m) return null;
  const n = Number(m[2]);
  const at = (month: number, annualAverage = false): ProviderPeriod => ({
    date: `${year}-${pad2(month)}-01`,
    annualAverage,
  });
  switch (m[1]) {
    case "M":
      if (n >= 1 && n <= 12) return at(n);
      return n === 13 ? at(1, true) : null;
    case "Q":
      if (n >= 1 && n <= 4) return at(3 * (n - 1) + 1);
      return n === 5 ? at(1, true) : null;
    case "S":
      if (n === 1 || n === 2) return at(6 * (n - 1) + 1);
      return n === 3 ? at(1, true) : null;
    default:
      return n === 1 ? at(1) : null;
  }
}

/** The first day of the period a World Bank `date` names, or null. */
export function worldBankDate(date: string): string | null {
  if (YEAR.test(date)) return `${date}-01-01`;
  const q = /^(\d{4})Q([1-4])$/.exec(date);
  if (q) return `${q[1]}-${pad2(3 * (Number(q[2]) - 1) + 1)}-01`;
  const m = /^(\d{4})M(\d{2})$/.exec(date);
  if (m && Number(m[2]) >= 1 && Number(m[2]) <= 12) return `${m[1]}-${m[2]}-01`;
  return null;
}

/** FRED's `last_updated` ("2024-06-07 07:51:02-05") as an ISO instant, or null when it is not in that form. */
export function fredUpdatedAt(text: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})([+-])(\d{2})(?::?(\d{2}))?$/.exec(text.trim());
  if (!m) return null;
  const t = new Date(`${m[1]}T${m[2]}${m[3]}${m[4]}:${m[5] ?? "00"}`);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

/** A provider's update day ("2025-07-01") as an ISO instant at 00:00 UTC, or null. */
export function dayUpdatedAt(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const t = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return t.getUTCMonth() === Number(m[2]) - 1 && t.getUTCDate() === Number(m[3]) ? t.toISOString() : null;
}

/**
 * Seconds from `now` to the next midnight on the wall clock of `timeZone` (an IANA name): when a daily quota that
 * resets at local midnight (BLS: US Eastern) opens again. On a daylight-saving change day the answer may be an hour
 * off, which is harmless for a retry delay.
 */
export function secondsUntilMidnight(now: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsed = (get("hour") % 24) * 3600 + get("minute") * 60 + get("second");
  return 86_400 - elapsed;
}

/**
 * An HTTP Retry-After value in whole seconds from `now`: delta-seconds ("120") or an HTTP date ("Wed, 21 Oct 2015
 * 07:28:00 GMT"; a date in the past is 0). Null when absent or unreadable.
 */
export function retryAfterSeconds(value: string | null | undefined, now: Date): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  if (!/[a-z]/i.test(v)) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.max(0, Math.ceil((t - now.getTime()) / 1000));
}
