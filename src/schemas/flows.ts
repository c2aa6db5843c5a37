// GET /v1/flows: its parameters and the flow row (spec "GET /v1/flows", "Flow row").
import { z } from "@hono/zod-openapi";
import { isIsoDate } from "../domain/calendar";
import { FLOW_DATASETS, FLOW_MEASURES, FLOW_MEASURE_NAMES, type FlowMeasure } from "../domain/flows";
import { codeParam } from "./observations";
import { integerQuery } from "./query";

const q = (name: string) => ({ param: { name, in: "query" as const } });

export const FLOWS_MAX_LIMIT = 1000;

const measureEnum = z.enum(FLOW_MEASURE_NAMES as [FlowMeasure, ...FlowMeasure[]], {
  message: `must be one of ${FLOW_MEASURE_NAMES.join(", ")}`,
});
const measureList = FLOW_MEASURE_NAMES.map(
  (m) => `\`${m}\` (${FLOW_MEASURES[m].unit}): ${FLOW_MEASURES[m].description}`,
).join("; ");

export const flowsQuerySchema = z
  .object({
    origin: codeParam(
      "origin",
      "Region the flows leave (state or county: a code or what people type). At least one of origin and destination.",
      "06075",
    ).optional(),
    destination: codeParam(
      "destination",
      "Region the flows reach. With origin too: the one edge between them.",
      "06001",
    ).optional(),
    measure: measureEnum
      .openapi({
        ...q("measure"),
        description: `What is counted: ${measureList}. Default: the first of ${FLOW_MEASURE_NAMES.join(", ")} held for the filters.`,
        example: "returns",
      })
      .optional(),
    period: z
      .string()
      .refine((s) => /^\d{4}$/.test(s) || isIsoDate(s), {
        message: "must be a year (YYYY) or a period start (YYYY-MM-DD)",
      })
      .openapi({
        ...q("period"),
        description:
          "The period: its start date (YYYY-MM-DD), or a year (YYYY: the latest period starting in it). Default: the latest period held for the filters and measure, reported in `meta.period`.",
        example: "2014",
      })
      .optional(),
    limit: integerQuery({
      name: "limit",
      min: 1,
      max: FLOWS_MAX_LIMIT,
      default: 100,
      description: `Rows, largest value first, 1 to ${FLOWS_MAX_LIMIT}.`,
    }),
  })
  .superRefine((v, ctx) => {
    if (v.origin === undefined && v.destination === undefined)
      ctx.addIssue({ code: "custom", path: ["origin"], message: "pass origin, destination or both" });
  });

const placeSchema = z
  .object({
    code: z.string().openapi({ example: "06075" }),
    name: z.string().openapi({ example: "San Francisco County" }),
  })
  .openapi("FlowPlace");

const datasetNames = Object.entries(FLOW_DATASETS)
  .map(([k, d]) => `\`${k}\` (${d.name})`)
  .join(", ");

export const flowRowSchema = z
  .object({
    origin: placeSchema,
    destination: placeSchema,
    measure: z.enum(FLOW_MEASURE_NAMES as [FlowMeasure, ...FlowMeasure[]]),
    period_start: z.string().openapi({ format: "date", example: "2014-01-01" }),
    period_end: z.string().openapi({ format: "date", example: "2015-12-31" }),
    value: z.number().nullable().openapi({ description: "Null when the source suppressed it.", example: 4322 }),
    moe: z
      .number()
      .nullable()
      .openapi({ description: "Margin of error (90%), where the source publishes one; else null." }),
    unit: z.string().openapi({ example: "returns" }),
    source: z.string().openapi({ description: "Source slug: `census` or `irs-soi`.", example: "irs-soi" }),
    dataset: z.string().openapi({
      description: `The dataset and window the row comes from: ${datasetNames}.`,
      example: "irs-soi-county",
    }),
  })
  .openapi("Flow", {
    description:
      "A directed origin-to-destination flow: `value` of `measure` moved from `origin` to `destination` over [period_start, period_end].",
  });

export const flowsResponseSchema = z
  .object({
    data: z.array(flowRowSchema),
    meta: z.object({
      origin: placeSchema.nullable(),
      destination: placeSchema.nullable(),
      measure: z.enum(FLOW_MEASURE_NAMES as [FlowMeasure, ...FlowMeasure[]]),
      unit: z.string(),
      period: z
        .object({ start: z.string().openapi({ format: "date" }), end: z.string().openapi({ format: "date" }) })
        .openapi({ description: "The period served: the one asked for, or the latest held." }),
      total: z
        .number()
        .int()
        .min(0)
        .openapi({ description: "Rows of this measure and period for the filters (data holds the largest `limit`)." }),
      limit: z.number().int(),
      sources: z
        .array(z.object({ source: z.string(), dataset: z.string(), name: z.string() }))
        .openapi({ description: "The datasets the rows come from." }),
    }),
  })
  .openapi("FlowList");

export type FlowsResponse = z.infer<typeof flowsResponseSchema>;
