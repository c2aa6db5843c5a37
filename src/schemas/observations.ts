// Observation resources (spec "Observation", "Resampled observation row", "LatestObservation", "Concept
// disclosure") and the parameters of GET /v1/observations and GET /v1/observations/latest.
import { z } from "@hono/zod-openapi";
import { FREQUENCIES, isIsoDate, type Frequency } from "../domain/calendar";
import { FRESHNESS_ALLOWANCE } from "../domain/freshness";
import { RESAMPLE_METHODS, RESAMPLE_TARGETS, type ResampleMethod, type ResampleTarget } from "../domain/resample";
import { TRANSFORM_SYNTAX, parseTransform } from "../domain/transforms";

/** Batch latest takes at most this many codes (spec "Limits"). */
export const BATCH_LATEST_MAX = 20;

/** Splits the `indicators` parameter: trimmed, non-empty, in order, duplicates kept once. */
export function splitIndicators(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(",")) {
    const code = part.trim();
    if (code && !out.includes(code)) out.push(code);
  }
  return out;
}

const q = (name: string) => ({ param: { name, in: "query" as const } });

export const dateParam = (name: string, description: string, example: string) =>
  z
    .string()
    .refine(isIsoDate, { message: "must be a YYYY-MM-DD calendar date" })
    .openapi({ ...q(name), description, example, format: "date" });

// Query strings are text: integers and booleans are parsed strictly (an empty `limit=` is not 0).
const intParam = (name: string, min: number, max: number, dflt: number, description: string) =>
  z
    .string()
    .regex(/^\d+$/, { message: "must be a non-negative integer" })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .default(dflt)
    .openapi({ ...q(name), description, example: dflt, type: "integer", minimum: min, maximum: max, default: dflt });

const boolParam = (name: string, description: string) =>
  z
    .enum(["true", "false"], { message: "must be true or false" })
    .default("false")
    .transform((v) => v === "true")
    .openapi({ ...q(name), description, type: "boolean", default: false });

export const codeParam = (name: string, description: string, example: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .openapi({ ...q(name), description, example });

const MAX_OFFSET = 10_000_000;

export const observationsQuerySchema = z
  .object({
    indicator: codeParam(
      "indicator",
      "Indicator code (e.g. `PAYEMS`, or a premium `svc:` derived code) or concept (`population`, `gdp`, `median_income`, `median_home_value`, `unemployment_rate`, `labor_force`, `employed`, `employment_rate`). Exact codes win over concepts.",
      "PAYEMS",
    ),
    source: codeParam("source", "Source slug; disambiguates a code published by several sources.", "fred").optional(),
    region: codeParam(
      "region",
      "Region code or what people type (`US`, `CA`, `06`, `06037`, `california`). Default: the indicator's default region. Required for concepts.",
      "US",
    ).optional(),
    start_date: dateParam(
      "start_date",
      "First date (inclusive). With `frequency`, buckets overlapping the range are returned.",
      "2010-01-01",
    ).optional(),
    end_date: dateParam("end_date", "Last date (inclusive).", "2015-12-31").optional(),
    include_revisions: boolParam(
      "include_revisions",
      "Return every stored revision (with `revision` and `source_updated_at`), ordered by date then revision, instead of the latest revision of each date. Not combinable with `transform` or `frequency`.",
    ),
    limit: intParam("limit", 0, 1000, 100, "Rows (or buckets) per page, 0 to 1000."),
    offset: intParam("offset", 0, MAX_OFFSET, 0, "Rows (or buckets) to skip."),
    order: z
      .enum(["asc", "desc"], { message: "must be asc or desc" })
      .default("desc")
      .openapi({ ...q("order"), description: "Date order.", default: "desc" }),
    transform: z
      .string()
      .refine((s) => parseTransform(s) !== null, { message: `unknown transform: expected ${TRANSFORM_SYNTAX}` })
      .openapi({
        ...q("transform"),
        description:
          "`yoy`, `mom`, `qoq`: percent change from the calendar-correct comparator (same month a year earlier, previous month, " +
          "previous quarter; weekly yoy: 52 weeks earlier), read from the whole series; null when the comparator is missing. " +
          "Daily series need `frequency` first. `index:YYYY-MM-DD`: rebased so that date = 100. `log`: natural log (values <= 0 are null).",
        example: "yoy",
      })
      .optional(),
    frequency: z
      .enum(RESAMPLE_TARGETS as [ResampleTarget, ...ResampleTarget[]], {
        message: `must be one of ${RESAMPLE_TARGETS.join(", ")}`,
      })
      .openapi({
        ...q("frequency"),
        description:
          "Downsample to calendar buckets labelled by their first day; the newest bucket is dropped while incomplete (see meta.resample). Upsampling is a 400.",
      })
      .optional(),
    resample_method: z
      .enum(RESAMPLE_METHODS as [ResampleMethod, ...ResampleMethod[]], {
        message: `must be one of ${RESAMPLE_METHODS.join(", ")}`,
      })
      .default("mean")
      .openapi({
        ...q("resample_method"),
        description: "How a bucket aggregates its rows: mean, last (latest value), sum.",
        default: "mean",
      }),
  })
  .superRefine((v, ctx) => {
    if (v.start_date && v.end_date && v.start_date > v.end_date) {
      ctx.addIssue({
        code: "custom",
        path: ["start_date"],
        message: `start_date ${v.start_date} is after end_date ${v.end_date}`,
      });
    }
    if (v.include_revisions && v.transform) {
      ctx.addIssue({
        code: "custom",
        path: ["transform"],
        message: "transform cannot be combined with include_revisions=true",
      });
    }
    if (v.include_revisions && v.frequency) {
      ctx.addIssue({
        code: "custom",
        path: ["frequency"],
        message: "frequency cannot be combined with include_revisions=true",
      });
    }
  });

export type ObservationsQueryInput = z.infer<typeof observationsQuerySchema>;

export const conceptDisclosureSchema = z
  .object({
    code: z.string().openapi({ example: "unemployment_rate" }),
    resolved_indicator: z.string().openapi({ example: "UNRATE" }),
    source: z.string().nullable().openapi({ example: "fred" }),
    inputs: z
      .array(z.object({ role: z.string(), concept: z.string(), indicator: z.string(), source: z.string().nullable() }))
      .optional()
      .openapi({ description: "Derived concepts: every input series." }),
  })
  .openapi("ConceptDisclosure");

export const observationSchema = z
  .object({
    date: z.string().openapi({ format: "date", example: "2025-11-01" }),
    value: z.number().nullable().openapi({ example: 159552 }),
    indicator: z.string().openapi({ example: "PAYEMS" }),
    region: z.string().openapi({ example: "US" }),
    unit: z.string().nullable().openapi({ example: "thousands of persons" }),
    source: z.string().nullable().openapi({ example: "fred" }),
    source_updated_at: z.string().nullable().openapi({ format: "date-time" }),
    is_preliminary: z.boolean(),
    revision: z.number().int().openapi({ example: 1 }),
  })
  .openapi("Observation");

export const resampledRowSchema = z
  .object({
    period_start: z.string().openapi({ format: "date", example: "2025-07-01" }),
    period_end: z.string().openapi({ format: "date", example: "2025-09-30" }),
    period_type: z.enum(RESAMPLE_TARGETS as [ResampleTarget, ...ResampleTarget[]]),
    value: z.number().nullable(),
  })
  .openapi("ResampledObservation");

export const resampleMetaSchema = z
  .object({
    method: z.enum(RESAMPLE_METHODS as [ResampleMethod, ...ResampleMethod[]]),
    source_frequency: z.string(),
    target_frequency: z.string(),
    completeness: z.string().openapi({ description: "The rule that decides whether the newest bucket is complete." }),
    dropped_incomplete_bucket: z.boolean(),
    dropped_period_start: z.string().nullable(),
  })
  .openapi("ResampleMeta");

export const resolvedRegionSchema = z
  .object({
    code: z.string().openapi({ example: "CA" }),
    name: z.string().openapi({ example: "Canada" }),
    type: z.string().openapi({ example: "country" }),
    note: z.string().optional().openapi({
      description:
        "Present when the region input also names other regions: the canonical reading wins, and this names the others and their codes.",
      example: "CA is Canada; California is 06 or US-CA.",
    }),
  })
  .openapi("ResolvedRegion", { description: "The region the request resolved to (additive to the spec's meta)." });

export const freshnessSchema = z
  .object({
    newest_period: z.string().openapi({
      format: "date",
      example: "2026-06-01",
      description: "The newest period the series holds (its first day).",
    }),
    cadence: z
      .enum(FREQUENCIES as [Frequency, ...Frequency[]])
      .openapi({ description: "The expected cadence: the series' frequency." }),
    periods_behind: z.number().int().min(0).openapi({
      example: 5,
      description: "Whole periods (days, ISO weeks, months, quarters, years) between the newest period and today's.",
    }),
    max_periods_behind: z
      .number()
      .int()
      .min(0)
      .openapi({
        example: 3,
        description: `How far behind a series of this cadence may be and still be on schedule: ${FREQUENCIES.map((f) => `${f} ${FRESHNESS_ALLOWANCE[f]}`).join(", ")}.`,
      }),
    stale: z
      .boolean()
      .openapi({ description: "Behind schedule for its cadence: periods_behind > max_periods_behind." }),
    stale_from: z.string().openapi({
      format: "date",
      description: "The first day on which the series counts as stale unless a newer period arrives.",
    }),
  })
  .openapi("Freshness", { description: "How current the data are, as of the request (additive to the spec's meta)." });

export const observationsResponseSchema = z
  .object({
    data: z.array(z.union([observationSchema, resampledRowSchema])),
    meta: z.object({
      indicator: z.string(),
      region: z.string().nullable(),
      unit: z.string().nullable(),
      total: z.number().int().min(0),
      limit: z.number().int(),
      offset: z.number().int(),
      source: z.string().nullable(),
      frequency: z.string().openapi({
        description: "Frequency of the rows returned: the requested `frequency` after resampling, else the series' own",
      }),
      native_frequency: z.string().openapi({ description: "The series' own frequency" }),
      resolved_region: resolvedRegionSchema,
      transform: z.string().optional(),
      resample: resampleMetaSchema.optional(),
      concept: conceptDisclosureSchema.optional(),
      freshness: freshnessSchema.optional(),
    }),
  })
  .openapi("ObservationList");

export const latestQuerySchema = z
  .object({
    indicator: codeParam("indicator", "Single form: one indicator code or concept.", "PAYEMS").optional(),
    indicators: z
      .string()
      .max(4000)
      .openapi({
        ...q("indicators"),
        description: `Batch form: comma-separated codes or concepts, at most ${BATCH_LATEST_MAX}.`,
        example: "PAYEMS,UNRATE,CPIAUCSL",
      })
      .optional(),
    source: codeParam("source", "Source slug (disambiguates duplicate codes).", "fred").optional(),
    region: codeParam(
      "region",
      "Region; default: each indicator's default region. Required for concepts.",
      "US",
    ).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.indicator !== undefined && v.indicators !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["indicators"],
        message: "pass either indicator (single form) or indicators (batch form), not both",
      });
    } else if (v.indicator === undefined && v.indicators === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["indicator"],
        message: "pass indicator (single form) or indicators (batch form)",
      });
    } else if (v.indicators !== undefined) {
      const n = splitIndicators(v.indicators).length;
      if (n === 0) ctx.addIssue({ code: "custom", path: ["indicators"], message: "must list at least one code" });
      if (n > BATCH_LATEST_MAX)
        ctx.addIssue({ code: "custom", path: ["indicators"], message: `at most ${BATCH_LATEST_MAX} codes (got ${n})` });
    }
  });

export const latestObservationSchema = z
  .object({
    indicator: z.string().openapi({ example: "PAYEMS" }),
    region: z.string().openapi({ example: "US" }),
    period_start: z.string().openapi({ format: "date", example: "2025-11-01" }),
    period_end: z.string().nullable().openapi({ format: "date" }),
    period_type: z.string().nullable().openapi({ example: "monthly" }),
    value: z.number(),
    revision: z.number().int(),
    is_preliminary: z.boolean(),
    source_updated_at: z.string().nullable().openapi({ format: "date-time" }),
    unit: z.string().nullable(),
    freshness: freshnessSchema
      .optional()
      .openapi({ description: "Batch form: how current this series is (the single form says it in meta.freshness)." }),
  })
  .openapi("LatestObservation");

export const latestSingleResponseSchema = z
  .object({
    data: z.union([latestObservationSchema, z.null()]),
    meta: z.object({
      indicator: z.string(),
      region: z.string(),
      unit: z.string().nullable(),
      total: z.number().int().min(0).max(1),
      limit: z.literal(1),
      offset: z.literal(0),
      resolved_region: resolvedRegionSchema,
      concept: conceptDisclosureSchema.optional(),
      freshness: freshnessSchema.optional(),
    }),
  })
  .openapi("LatestSingle");

export const batchErrorSchema = z
  .object({
    indicator: z.string(),
    code: z.enum(["INVALID_PARAMETER", "RESOURCE_NOT_FOUND", "CATEGORY_NOT_ALLOWED"]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("LatestBatchError");

export const latestBatchResponseSchema = z
  .object({ data: z.array(latestObservationSchema), errors: z.array(batchErrorSchema) })
  .openapi("LatestBatch");
