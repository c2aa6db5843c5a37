// GET /v1/insights (spec "InsightFact", "GET /v1/insights"): parameters and the response. Facts are typed per kind
// (their params below); definitions and the salience formula: src/domain/insights.ts.
import { z } from "@hono/zod-openapi";
import { WINDOW_SYNTAX, parseWindow } from "../domain/window";
import { codeParam, conceptDisclosureSchema, freshnessSchema } from "./observations";
import { insightSignalSchema } from "./signals";

const q = (name: string) => ({ param: { name, in: "query" as const } });

export const insightsQuerySchema = z.object({
  indicator: codeParam("indicator", "Indicator code or concept (as on /v1/observations).", "PAYEMS"),
  source: codeParam("source", "Source slug; disambiguates a code published by several sources.", "fred").optional(),
  region: codeParam(
    "region",
    "Region code or what people type. Default: the indicator's default region. Required for concepts.",
    "US",
  ).optional(),
  window: z
    .string()
    .refine((s) => parseWindow(s) !== null, { message: `must be ${WINDOW_SYNTAX}; at most 365250d, 12000m or 1000y` })
    .default("all")
    .openapi({
      ...q("window"),
      description: `${WINDOW_SYNTAX}. Anchored at the latest observation: \`12m\` covers the latest and the 12 months before it.`,
      example: "10y",
      default: "all",
      pattern: "^(all|[1-9][0-9]{0,6}[dmy])$",
    }),
});

export type InsightsQuery = z.output<typeof insightsQuerySchema>;

const tone = z
  .enum(["positive", "negative", "neutral"])
  .openapi({ description: "Good news, bad news, or no polarity, for this indicator." });
const direction = z.enum(["up", "down", "flat"]);
const date = z.string().openapi({ format: "date" });
const common = { subject: z.string(), tone };

const factBase = (kind: string, params: z.ZodRawShape, example: string) =>
  z.object({
    kind: z.literal(kind),
    params: z.object({ ...common, ...params }),
    humanTemplate: z.string().openapi({
      description:
        "The sentence with `{name}` placeholders: keys of params (formatted for people in `text`), and a few phrases derived from them (`{assessment}`, `{unusual}`, `{frequency}`).",
    }),
    text: z.string().openapi({ description: "The sentence rendered for people.", example }),
    salience: z.number().min(0).max(1),
  });

export const insightFactSchema = z
  .discriminatedUnion("kind", [
    factBase(
      "trend",
      {
        method: z.string(),
        direction,
        slope_per_year: z.number().openapi({ description: "Least-squares change per year, in the series' unit." }),
        percent_per_year: z.number().nullable().openapi({
          description: "Compound annual rate from a log-linear fit; null for rates or non-positive values.",
        }),
        r_squared: z.number().min(0).max(1),
        observations: z.number().int(),
        start_date: date,
        end_date: date,
        period: z.string(),
      },
      "All employees, total nonfarm in the United States has grown by about 1.3% a year over the past 10 years.",
    ),
    factBase(
      "latest_delta",
      {
        date,
        value: z.number(),
        previous_date: date,
        previous_value: z.number(),
        change: z.number(),
        change_percent: z.number().nullable(),
        direction,
        robust_z: z.number().nullable().openapi({
          description: "(change - median move) / robust scale of the window's other moves; null under 5 of them.",
        }),
      },
      "The unemployment rate in Texas rose 0.3 percentage points to 4.4% in October 2025, from 4.1% in September 2025.",
    ),
    factBase(
      "watermark_high_distance",
      {
        date,
        value: z.number(),
        high: z.number(),
        high_date: date,
        distance: z.number().min(0),
        distance_percent: z.number().nullable(),
        at_extreme: z.boolean(),
        new_extreme: z.boolean(),
        share_beyond: z.number().min(0).max(1),
        period: z.string(),
      },
      "The civilian unemployment rate in the United States, at 4.6% in November 2025, is at its highest over the past 12 months.",
    ),
    factBase(
      "watermark_low_distance",
      {
        date,
        value: z.number(),
        low: z.number(),
        low_date: date,
        distance: z.number().min(0),
        distance_percent: z.number().nullable(),
        at_extreme: z.boolean(),
        new_extreme: z.boolean(),
        share_beyond: z.number().min(0).max(1),
        period: z.string(),
      },
      "The civilian unemployment rate in the United States, at 4.6% in November 2025, is 1.2 percentage points above the lowest reading since January 1980, 3.4% in April 2023.",
    ),
    factBase(
      "longest_run",
      {
        longest_length: z.number().int().min(0),
        longest_direction: z.enum(["up", "down"]).nullable(),
        longest_start: date.nullable(),
        longest_end: date.nullable(),
        current_length: z.number().int().min(0),
        current_direction: z.enum(["up", "down"]).nullable(),
        current_is_longest: z.boolean(),
        period: z.string(),
      },
      "Gross domestic product in the United States has risen for 20 consecutive quarters, from the fourth quarter of 2020 to the third quarter of 2025.",
    ),
    factBase(
      "peer_rank",
      {
        date,
        value: z.number(),
        rank: z
          .number()
          .int()
          .min(1)
          .openapi({ description: "Rank from the nearer end (see position); equal values share a rank." }),
        rank_from_top: z.number().int().min(1),
        position: z.enum(["highest", "lowest"]),
        of: z.number().int().min(2),
        peers: z.string(),
        tied: z.boolean(),
      },
      "The unemployment rate in Texas, at 4.4%, was the 3rd highest among the 50 states and DC in October 2025.",
    ),
  ])
  .openapi("InsightFact");

export const sourceAttributionSchema = z
  .object({
    source: z.string().nullable().openapi({ example: "fred" }),
    agency: z.string().openapi({ example: "U.S. Bureau of Labor Statistics" }),
    text: z.string().openapi({
      example: "Source: U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis.",
    }),
    license: z.string().nullable(),
  })
  .openapi("SourceAttribution");

export const insightsResponseSchema = z
  .object({
    facts: z.array(insightFactSchema),
    signals: z.array(insightSignalSchema),
    meta: z.object({
      indicator: z.string(),
      region: z.string(),
      unit: z.string().nullable(),
      window: z.string(),
      observation_count: z.number().int().min(0).openapi({ description: "Observations with a value in the window." }),
      window_start: z
        .string()
        .nullable()
        .openapi({ format: "date", description: "First observation in the window; null without data." }),
      window_end: z
        .string()
        .nullable()
        .openapi({ format: "date", description: "Latest observation with a value (the window's anchor)." }),
      frequency: z.string(),
      source_attribution: sourceAttributionSchema.optional(),
      concept: conceptDisclosureSchema.optional(),
      freshness: freshnessSchema.optional(),
    }),
  })
  .openapi("Insights");

export type InsightsResponse = z.infer<typeof insightsResponseSchema>;
