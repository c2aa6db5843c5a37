// The FRED-compatible surface's parameters and documents (GET /fred/series/observations, /fred/series,
// /fred/series/search, /fred/series/vintagedates). Every parameter is text here and checked by
// src/domain/fred/query.ts, which answers a bad one as FRED does ({"error_code":400,"error_message":"Bad Request.  ..."}
// or <error code="400" message="..."/>), not with this API's envelope.
import { z } from "@hono/zod-openapi";

const text = (name: string, description: string, example?: string) =>
  z
    .string()
    .optional()
    .openapi({ param: { name, in: "query" }, description, ...(example ? { example } : {}) });

const common = {
  api_key: text(
    "api_key",
    "This service's API key (svc_live_… or svc_test_…), as FRED clients send theirs. A secret: never logged or repeated. Without one (or with a FRED key) the request is paid for with x402 or L402 (402).",
  ),
  file_type: text("file_type", "`xml` (FRED's default) or `json`.", "json"),
  realtime_start: text("realtime_start", "Start of the real-time period (YYYY-MM-DD); default today."),
  realtime_end: text("realtime_end", "End of the real-time period (YYYY-MM-DD); default today."),
};
const seriesId = text(
  "series_id",
  "A FRED series id (UNRATE, CPIAUCSL, TXUR, …); see README “Using FRED clients” for other catalog series.",
  "UNRATE",
);

export const fredObservationsQuerySchema = z.object({
  series_id: seriesId,
  ...common,
  observation_start: text("observation_start", "First observation date (YYYY-MM-DD); default 1776-07-04."),
  observation_end: text("observation_end", "Last observation date (YYYY-MM-DD); default 9999-12-31."),
  limit: text("limit", "1 to 100000; default 100000."),
  offset: text("offset", "Rows to skip; default 0."),
  sort_order: text("sort_order", "`asc` (default) or `desc` by observation date."),
  units: text("units", "lin, chg, ch1, pch, pc1, pca, cch, cca or log; default lin."),
  frequency: text(
    "frequency",
    "d, w, bw, m, q, sa, a or a weekly-ending variant (wef, weth, wew, wetu, wem, wesu, wesa, bwew, bwem); coarser than the series' own only.",
  ),
  aggregation_method: text("aggregation_method", "avg (default), sum or eop."),
  output_type: text(
    "output_type",
    "1 by real-time period (default), 2 by vintage date, 3 new and revised by vintage date, 4 initial release only.",
  ),
  vintage_dates: text("vintage_dates", "Comma-separated YYYY-MM-DD dates; they replace the real-time period."),
});

export const fredSeriesQuerySchema = z.object({ series_id: seriesId, ...common });

export const fredSearchQuerySchema = z.object({
  search_text: text("search_text", "Words to find (full_text) or an id pattern with * (series_id).", "unemployment"),
  search_type: text("search_type", "`full_text` (default) or `series_id`."),
  ...common,
  limit: text("limit", "1 to 1000; default 1000."),
  offset: text("offset", "Rows to skip; default 0."),
  order_by: text(
    "order_by",
    "search_rank (default), series_id, title, units, frequency, seasonal_adjustment, realtime_start, realtime_end, last_updated, observation_start, observation_end, popularity or group_popularity.",
  ),
  sort_order: text("sort_order", "`asc` or `desc`; default desc for search_rank and popularity, asc otherwise."),
});

export const fredVintageDatesQuerySchema = z.object({
  series_id: seriesId,
  ...common,
  limit: text("limit", "1 to 10000; default 10000."),
  offset: text("offset", "Rows to skip; default 0."),
  sort_order: text("sort_order", "`asc` (default) or `desc`."),
});

const observation = z.object({
  realtime_start: z.string(),
  realtime_end: z.string(),
  date: z.string(),
  value: z.string(),
});
export const fredObservationsSchema = z
  .object({
    realtime_start: z.string(),
    realtime_end: z.string(),
    observation_start: z.string(),
    observation_end: z.string(),
    units: z.string(),
    output_type: z.number().int(),
    file_type: z.string(),
    order_by: z.literal("observation_date"),
    sort_order: z.string(),
    count: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    // Output types 2 and 3 give rows of date and one SERIES_YYYYMMDD column per vintage instead.
    observations: z.array(observation.or(z.record(z.string(), z.string()))),
  })
  .openapi("FredObservations");

export const fredSeriesEntrySchema = z
  .object({
    id: z.string(),
    realtime_start: z.string(),
    realtime_end: z.string(),
    title: z.string(),
    observation_start: z.string(),
    observation_end: z.string(),
    frequency: z.string(),
    frequency_short: z.string(),
    units: z.string(),
    units_short: z.string(),
    seasonal_adjustment: z.string(),
    seasonal_adjustment_short: z.string(),
    last_updated: z.string(),
    popularity: z.number().int(),
    notes: z.string(),
  })
  .openapi("FredSeries");

export const fredSeriesSchema = z
  .object({ realtime_start: z.string(), realtime_end: z.string(), seriess: z.array(fredSeriesEntrySchema) })
  .openapi("FredSeriess");
export const fredSearchSchema = z
  .object({
    realtime_start: z.string(),
    realtime_end: z.string(),
    order_by: z.string(),
    sort_order: z.string(),
    count: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    seriess: z.array(fredSeriesEntrySchema),
  })
  .openapi("FredSearch");
export const fredVintageDatesSchema = z
  .object({
    realtime_start: z.string(),
    realtime_end: z.string(),
    order_by: z.literal("vintage_date"),
    sort_order: z.string(),
    count: z.number().int(),
    offset: z.number().int(),
    limit: z.number().int(),
    vintage_dates: z.array(z.string()),
  })
  .openapi("FredVintageDates");

export const fredErrorSchema = z
  .object({ error_code: z.number().int(), error_message: z.string() })
  .openapi("FredError");
