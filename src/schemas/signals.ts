// Signal resources (spec "Signal (interval)", "InsightSignal") and the parameters of GET /v1/signals/active and
// GET /v1/signals. List filters are repeatable or comma-separated (`type=extreme&type=acceleration` or
// `type=extreme,acceleration`); values are trimmed, empty ones ignored, duplicates kept once.
import { z } from "@hono/zod-openapi";
import { isIsoDate } from "../domain/calendar";
import { SIGNAL_TYPES, STRENGTHS, type SignalType, type Strength } from "../domain/signals";
import { integerQuery } from "./query";

/** At most this many values per list filter. */
export const MAX_FILTER_VALUES = 100;
export const SIGNALS_LIMIT = { min: 1, max: 500, default: 100 } as const;

const q = (name: string) => ({ param: { name, in: "query" as const } });

/** Splits repeated and comma-separated values: trimmed, non-empty, in order, each once. */
export function splitValues(raw: string | readonly string[]): string[] {
  const out: string[] = [];
  for (const part of (typeof raw === "string" ? [raw] : raw).flatMap((s) => s.split(","))) {
    const v = part.trim();
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

// A repeated parameter arrives as an array (@hono/zod-openapi's query validator), a single one as a string that may hold
// several values separated by commas; the contract documents an array of strings (form style, exploded).
const listParam = <T extends string>(name: string, description: string, example: string, allowed?: readonly T[]) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform(splitValues)
    .pipe(
      z
        .array(
          allowed
            ? z.enum(allowed as [T, ...T[]], { message: `must be one of ${allowed.join(", ")}` })
            : z.string().max(200),
        )
        .min(1, { message: "must name at least one value" })
        .max(MAX_FILTER_VALUES, { message: `at most ${MAX_FILTER_VALUES} values` }),
    )
    .optional()
    .openapi({
      param: { name, in: "query", style: "form", explode: true },
      type: "array",
      items: { type: "string", ...(allowed ? { enum: [...allowed] } : {}) },
      description: `${description} Repeatable or comma-separated, at most ${MAX_FILTER_VALUES} values.`,
      example: [example],
    });

const dateParam = (name: string, description: string, example: string) =>
  z
    .string()
    .refine(isIsoDate, { message: "must be a YYYY-MM-DD calendar date" })
    .optional()
    .openapi({ ...q(name), description, example, format: "date" });

// The examples name series the seed holds and signals its data shows (documented examples answer on a fresh install).
// The active example is an annual series (the World Bank's US population, its 2025 growth slowing): an annual series
// stays current for two years after its year, so the example shows an active signal for as long as the snapshot can.
const listFilters = (exampleIndicator: string, exampleType: SignalType) => ({
  indicator: listParam(
    "indicator",
    "Indicator codes or concepts (a concept stands for every series it curates).",
    exampleIndicator,
  ),
  region: listParam("region", "Region codes or what people type (`US`, `06`, `california`).", "US"),
  type: listParam("type", "Signal types: acceleration, extreme, trend_break.", exampleType, SIGNAL_TYPES),
  strength: z
    .enum(STRENGTHS as [Strength, ...Strength[]], { message: `must be one of ${STRENGTHS.join(", ")}` })
    .default("neutral")
    .openapi({
      ...q("strength"),
      description: "Minimum strength: weak (every signal), neutral (neutral and strong), strong.",
      default: "neutral",
    }),
  limit: integerQuery({
    name: "limit",
    min: SIGNALS_LIMIT.min,
    max: SIGNALS_LIMIT.max,
    default: SIGNALS_LIMIT.default,
    description: "Signals per page, 1 to 500.",
  }),
  cursor: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .openapi({
      ...q("cursor"),
      description: "`meta.next_cursor` of the previous page of the same query; a cursor of another query is refused.",
    }),
});

export const activeSignalsQuerySchema = z.object(listFilters("SP.POP.TOTL", "acceleration"));

export const signalsQuerySchema = z
  .object({
    ...listFilters("PAYEMS", "extreme"),
    active: z
      .enum(["true", "false"], { message: "must be true or false" })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === "true"))
      .openapi({
        ...q("active"),
        type: "boolean",
        description:
          "true: active intervals only (open, on a series that is current for its cadence, as /v1/signals/active); false: the others (closed, or open on a series behind schedule); omitted: both.",
      }),
    from: dateParam("from", "Intervals still open on or after this date (valid_to null or >= from).", "2020-01-01"),
    to: dateParam("to", "Intervals that started on or before this date (valid_from <= to).", "2020-12-31"),
  })
  .superRefine((v, ctx) => {
    if (v.from && v.to && v.from > v.to)
      ctx.addIssue({ code: "custom", path: ["from"], message: `from ${v.from} is after to ${v.to}` });
  });

export type ActiveSignalsQuery = z.output<typeof activeSignalsQuerySchema>;
export type SignalsQuery = z.output<typeof signalsQuerySchema>;

export const vocabularySchema = z
  .object({
    glyph: z.string().openapi({ example: "▲" }),
    label: z
      .string()
      .openapi({ description: "Adjusted for whether up is good for the indicator.", example: "Alarming jump" }),
    tone: z
      .enum(["positive", "negative", "neutral"])
      .openapi({ description: "Good news, bad news, or no polarity, for this indicator.", example: "negative" }),
  })
  .openapi("SignalVocabulary");

const dateTime = z.string().openapi({ format: "date-time" });

export const signalSchema = z
  .object({
    id: z.string().uuid(),
    indicator: z.object({
      code: z.string().openapi({ example: "PAYEMS" }),
      name: z.string(),
      category: z.string().nullable(),
      unit: z.string().nullable(),
      frequency: z.string().nullable(),
      source: z.object({ slug: z.string(), name: z.string() }),
    }),
    region: z.object({
      code: z.string().openapi({ example: "US" }),
      name: z.string().openapi({ example: "United States" }),
    }),
    type: z.enum(SIGNAL_TYPES as unknown as [SignalType, ...SignalType[]]),
    strength: z.enum(STRENGTHS as [Strength, ...Strength[]]),
    direction: z.string().nullable().openapi({ example: "down" }),
    valid_from: dateTime.openapi({
      description: "Start of the current run: the first observation where the condition held.",
    }),
    valid_to: dateTime.nullable().openapi({
      description: "The first observation where it no longer held, or the direction flip; null while open.",
    }),
    detected_at: dateTime.openapi({ description: "When a detection run first found it." }),
    last_seen_at: dateTime.openapi({ description: "The last detection run that confirmed it with new data." }),
    evidence: z.record(z.string(), z.unknown()).openapi({
      description:
        "The statistic, its threshold, the comparison window, and `last_date`, the latest observation that confirmed it.",
    }),
    vocabulary: vocabularySchema,
    text: z.string(),
  })
  .openapi("Signal");

export const signalListResponseSchema = z
  .object({
    data: z.array(signalSchema),
    meta: z.object({
      count: z.number().int().min(0).openapi({ description: "Signals on this page." }),
      limit: z.number().int().min(1).max(500),
      next_cursor: z
        .string()
        .optional()
        .openapi({ description: "Present when more signals match: pass it as `cursor`." }),
      filters: z
        .record(z.string(), z.unknown())
        .openapi({ description: "The filters applied, normalised (codes resolved, lists split)." }),
    }),
  })
  .openapi("SignalList");

export const insightSignalSchema = z
  .object({
    id: z.string(),
    indicator: z.string().openapi({ example: "UNRATE" }),
    region: z.string().openapi({ example: "US" }),
    kind: z.enum(SIGNAL_TYPES as unknown as [SignalType, ...SignalType[]]),
    salience: z.number().min(0).max(1),
    summary: z.string().openapi({ description: "The vocabulary label and since when." }),
    observed_at: dateTime.openapi({ description: "Start of the current run (valid_from)." }),
    evidence: z.record(z.string(), z.unknown()).optional(),
    strength: z.enum(STRENGTHS as [Strength, ...Strength[]]),
    direction: z.string().nullable(),
    text: z.string(),
    vocabulary: vocabularySchema,
  })
  .openapi("InsightSignal");

export type SignalOut = z.infer<typeof signalSchema>;
export type InsightSignalOut = z.infer<typeof insightSignalSchema>;
