// FRED's query parameters for fred/series/observations, fred/series, fred/series/search and
// fred/series/vintagedates, parsed and checked as FRED checks them, with FRED's defaults:
// - file_type xml (or json); realtime_start and realtime_end today (1776-07-04 and 9999-12-31 for vintagedates);
// - observations: observation_start 1776-07-04, observation_end 9999-12-31, limit 1..100000 (default 100000),
//   offset >= 0, sort_order asc, units lin, no frequency, aggregation_method avg, output_type 1..4 (default 1),
//   vintage_dates a comma-separated list of dates (it replaces the real-time period);
// - search: search_text (required), search_type full_text or series_id, limit 1..1000 (default 1000), order_by
//   (default search_rank), sort_order (default desc for search_rank and popularity, asc otherwise);
// - vintagedates: limit 1..10000 (default 10000).
// Parameters FRED does not know are ignored, as FRED ignores them. `api_key` is not read here: it is a credential.
import { isIsoDate } from "../calendar";
import { AGGREGATION_METHODS, parseFrequency, type AggregationMethod, type AskedFrequency } from "./frequency";
import { FRED_ERRORS, type FredError, type FredFileType } from "./errors";
import { UNITS, type Units } from "./units";

export type Query = Readonly<Record<string, string | undefined>>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: FredError; fileType: FredFileType };
export type SortOrder = "asc" | "desc";

export const EARLIEST_DATE = "1776-07-04";
export const LATEST_DATE = "9999-12-31";
export const OBSERVATIONS_LIMIT = 100_000;
export const SEARCH_LIMIT = 1000;
export const VINTAGE_DATES_LIMIT = 10_000;
export const SEARCH_ORDER_BY = [
  "search_rank",
  "series_id",
  "title",
  "units",
  "frequency",
  "seasonal_adjustment",
  "realtime_start",
  "realtime_end",
  "last_updated",
  "observation_start",
  "observation_end",
  "popularity",
  "group_popularity",
] as const;
export type SearchOrderBy = (typeof SEARCH_ORDER_BY)[number];

type Common = { fileType: FredFileType; realtimeStart: string; realtimeEnd: string };
export type ObservationsQuery = Common & {
  seriesId: string;
  observationStart: string;
  observationEnd: string;
  limit: number;
  offset: number;
  sortOrder: SortOrder;
  units: Units;
  frequency: AskedFrequency | null;
  /** The frequency parameter as sent, echoed nowhere but kept for the memo key. */
  frequencyValue: string | null;
  aggregationMethod: AggregationMethod;
  outputType: 1 | 2 | 3 | 4;
  vintageDates: string[] | null;
};
export type SeriesQuery = Common & { seriesId: string };
export type SearchQuery = Common & {
  searchText: string;
  searchType: "full_text" | "series_id";
  limit: number;
  offset: number;
  orderBy: SearchOrderBy;
  sortOrder: SortOrder;
};
export type VintageDatesQuery = Common & { seriesId: string; limit: number; offset: number; sortOrder: SortOrder };

class Refusal {
  constructor(readonly error: FredError) {}
}
const refuse = (error: FredError): never => {
  throw new Refusal(error);
};

/** The file type errors are written in: json only when asked for exactly. */
export function fileTypeOf(q: Query): FredFileType {
  return q.file_type === "json" ? "json" : "xml";
}

function run<T>(q: Query, parse: () => T): Parsed<T> {
  try {
    return { ok: true, value: parse() };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, error: e.error, fileType: fileTypeOf(q) };
    throw e;
  }
}

function oneOf<T extends string>(q: Query, name: string, allowed: readonly T[], fallback: T): T {
  const v = q[name];
  if (v === undefined || v === "") return fallback;
  return (allowed as readonly string[]).includes(v) ? (v as T) : refuse(FRED_ERRORS.notOneOf(name, allowed));
}

function date(q: Query, name: string, fallback: string): string {
  const v = q[name];
  if (v === undefined || v === "") return fallback;
  return isIsoDate(v) ? v : refuse(FRED_ERRORS.notDate(name));
}

function integer(q: Query, name: string, low: number, high: number, fallback: number): number {
  const v = q[name];
  if (v === undefined || v === "") return fallback;
  if (!/^\d{1,9}$/.test(v))
    return refuse(low === 0 ? FRED_ERRORS.notNonNegative(name) : FRED_ERRORS.notBetween(name, low, high));
  const n = Number(v);
  if (n < low || n > high)
    return refuse(low === 0 ? FRED_ERRORS.notNonNegative(name) : FRED_ERRORS.notBetween(name, low, high));
  return n;
}

function required(q: Query, name: string): string {
  const v = q[name];
  return v === undefined || v.trim() === "" ? refuse(FRED_ERRORS.notSet(name)) : v.trim();
}

function common(q: Query, today: string, defaults = { start: today, end: today }): Common {
  const fileType = oneOf(q, "file_type", ["xml", "json"] as const, "xml");
  const realtimeStart = date(q, "realtime_start", defaults.start);
  const realtimeEnd = date(q, "realtime_end", defaults.end);
  if (realtimeStart > realtimeEnd) refuse(FRED_ERRORS.after("realtime_start", "realtime_end"));
  return { fileType, realtimeStart, realtimeEnd };
}

const OFFSET_MAX = 999_999_999;

export function parseObservationsQuery(q: Query, today: string): Parsed<ObservationsQuery> {
  return run(q, () => {
    const seriesId = required(q, "series_id");
    const c = common(q, today);
    const observationStart = date(q, "observation_start", EARLIEST_DATE);
    const observationEnd = date(q, "observation_end", LATEST_DATE);
    if (observationStart > observationEnd) refuse(FRED_ERRORS.after("observation_start", "observation_end"));
    const frequencyValue = q.frequency === undefined || q.frequency === "" ? null : q.frequency;
    const frequency =
      frequencyValue === null
        ? null
        : (parseFrequency(frequencyValue) ?? refuse(FRED_ERRORS.notOneOf("frequency", FREQUENCY_LIST)));
    const outputType = integer(q, "output_type", 1, 4, 1) as 1 | 2 | 3 | 4;
    let vintageDates: string[] | null = null;
    if (q.vintage_dates !== undefined && q.vintage_dates !== "") {
      vintageDates = [...new Set(q.vintage_dates.split(","))].sort();
      if (!vintageDates.every(isIsoDate)) refuse(FRED_ERRORS.notDate("vintage_dates"));
    }
    return {
      ...c,
      seriesId,
      observationStart,
      observationEnd,
      limit: integer(q, "limit", 1, OBSERVATIONS_LIMIT, OBSERVATIONS_LIMIT),
      offset: integer(q, "offset", 0, OFFSET_MAX, 0),
      sortOrder: oneOf(q, "sort_order", ["asc", "desc"] as const, "asc"),
      units: oneOf(q, "units", UNITS, "lin"),
      frequency,
      frequencyValue,
      aggregationMethod: oneOf(q, "aggregation_method", AGGREGATION_METHODS, "avg"),
      outputType,
      vintageDates,
    };
  });
}

const FREQUENCY_LIST = [
  "d",
  "w",
  "bw",
  "m",
  "q",
  "sa",
  "a",
  "wef",
  "weth",
  "wew",
  "wetu",
  "wem",
  "wesu",
  "wesa",
  "bwew",
  "bwem",
];

export function parseSeriesQuery(q: Query, today: string): Parsed<SeriesQuery> {
  return run(q, () => ({ seriesId: required(q, "series_id"), ...common(q, today) }));
}

export function parseSearchQuery(q: Query, today: string): Parsed<SearchQuery> {
  return run(q, () => {
    const searchText = required(q, "search_text");
    const c = common(q, today);
    const orderBy = oneOf(q, "order_by", SEARCH_ORDER_BY, "search_rank");
    const descending = orderBy === "search_rank" || orderBy === "popularity" || orderBy === "group_popularity";
    return {
      ...c,
      searchText,
      searchType: oneOf(q, "search_type", ["full_text", "series_id"] as const, "full_text"),
      limit: integer(q, "limit", 1, SEARCH_LIMIT, SEARCH_LIMIT),
      offset: integer(q, "offset", 0, OFFSET_MAX, 0),
      orderBy,
      sortOrder: oneOf(q, "sort_order", ["asc", "desc"] as const, descending ? "desc" : "asc"),
    };
  });
}

export function parseVintageDatesQuery(q: Query, today: string): Parsed<VintageDatesQuery> {
  return run(q, () => ({
    seriesId: required(q, "series_id"),
    ...common(q, today, { start: EARLIEST_DATE, end: LATEST_DATE }),
    limit: integer(q, "limit", 1, VINTAGE_DATES_LIMIT, VINTAGE_DATES_LIMIT),
    offset: integer(q, "offset", 0, OFFSET_MAX, 0),
    sortOrder: oneOf(q, "sort_order", ["asc", "desc"] as const, "asc"),
  }));
}
