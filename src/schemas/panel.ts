// GET /v1/panel: its parameters and the panel response (spec "GET /v1/panel", "Panel response").
import { z } from "@hono/zod-openapi";
import { PANEL_MAX_POINTS, PANEL_MAX_SERIES, PANEL_MISSING, type PanelMissing } from "../domain/panel";
import { RESAMPLE_METHODS, RESAMPLE_TARGETS, type ResampleMethod, type ResampleTarget } from "../domain/resample";
import { codeParam, conceptDisclosureSchema, dateParam, freshnessSchema } from "./observations";

const q = (name: string) => ({ param: { name, in: "query" as const } });

/**
 * The codes of `indicators`, in order, trimmed, or why the list is refused: an empty item, a code given twice, none,
 * or more than PANEL_MAX_SERIES.
 */
export function parsePanelIndicators(raw: string): { codes: string[] } | { error: string } {
  const codes = raw.split(",").map((c) => c.trim());
  if (codes.length === 1 && codes[0] === "") return { error: "must list at least one code" };
  const empty = codes.findIndex((c) => c === "");
  if (empty >= 0) return { error: `item ${empty + 1} is empty` };
  const dup = codes.find((c, k) => codes.indexOf(c) !== k);
  if (dup !== undefined) return { error: `'${dup.length > 100 ? `${dup.slice(0, 100)}…` : dup}' is listed twice` };
  if (codes.length > PANEL_MAX_SERIES) return { error: `at most ${PANEL_MAX_SERIES} codes (got ${codes.length})` };
  return { codes };
}

/** A comma-separated list parameter (parsePanelIndicators' rules): its items, in order. GET /v1/chart's lists too. */
export const codeListParam = (name: string, description: string, example: string) =>
  z
    .string()
    .max(4000)
    .transform((raw, ctx) => {
      const parsed = parsePanelIndicators(raw);
      if ("codes" in parsed) return parsed.codes;
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    })
    .openapi({ ...q(name), type: "string", description, example });

export const panelQuerySchema = z
  .object({
    indicators: codeListParam(
      "indicators",
      `Comma-separated indicator codes or concepts, 1 to ${PANEL_MAX_SERIES}, each once. The series arrays come back in this order, keyed by the code as given.`,
      "PAYEMS,UNRATE,CPIAUCSL",
    ),
    region: codeParam(
      "region",
      "Region of every series (code or what people type). Default: each indicator's default region. Required for concepts.",
      "US",
    ).optional(),
    frequency: z
      .enum(RESAMPLE_TARGETS as [ResampleTarget, ...ResampleTarget[]], {
        message: `must be one of ${RESAMPLE_TARGETS.join(", ")}`,
      })
      .openapi({
        ...q("frequency"),
        description:
          "Resample every series to calendar buckets of this frequency. Default: the series' shared frequency, or the coarsest one when they differ. " +
          "Required (monthly or coarser) when the coarsest series is weekly.",
      })
      .optional(),
    start_date: dateParam(
      "start_date",
      "First date (inclusive): periods overlapping [start_date, end_date] are kept.",
      "2010-01-01",
    ).optional(),
    end_date: dateParam("end_date", "Last date (inclusive).", "2015-12-31").optional(),
    resample_method: z
      .enum(RESAMPLE_METHODS as [ResampleMethod, ...ResampleMethod[]], {
        message: `must be one of ${RESAMPLE_METHODS.join(", ")}`,
      })
      .default("mean")
      .openapi({
        ...q("resample_method"),
        description: "How a resampled bucket aggregates its rows: mean, last (latest value), sum.",
        default: "mean",
      }),
    missing: z
      .enum(PANEL_MISSING as [PanelMissing, ...PanelMissing[]], {
        message: `must be one of ${PANEL_MISSING.join(", ")}`,
      })
      .default("drop")
      .openapi({
        ...q("missing"),
        description:
          "`drop`: keep only dates where every series has a value. `ffill`: keep every date any series has, carry each series' last value forward; dates before a series' first value stay null.",
        default: "drop",
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
  });

const byCode = <T extends z.ZodType>(value: T) => z.record(z.string(), value);

export const panelResponseSchema = z
  .object({
    dates: z.array(z.string().openapi({ format: "date" })).openapi({
      description: "The grid: each date is its period's first day.",
      example: ["2025-08-01", "2025-09-01"],
    }),
    series: byCode(z.array(z.number().nullable())).openapi({
      description: "One array per requested code (keyed as given, in request order), each as long as `dates`.",
      example: { PAYEMS: [159485, 159593], UNRATE: [4.3, 4.4] },
    }),
    meta: z.object({
      units: byCode(z.string().nullable()),
      alignment: z.object({
        basis: z.enum(["native", "resampled"]).openapi({
          description:
            "`native`: the series share a frequency and align on it; `resampled`: calendar buckets of `frequency`.",
        }),
        missing: z.enum(PANEL_MISSING as [PanelMissing, ...PanelMissing[]]),
      }),
      region: z.string().nullable().openapi({
        description: "The region of every series, or null when they default to different regions (see `regions`).",
      }),
      regions: byCode(z.string()),
      frequency: z.string().openapi({ example: "monthly" }),
      points: z
        .number()
        .int()
        .min(0)
        .max(PANEL_MAX_POINTS)
        .openapi({ description: `dates x series; at most ${PANEL_MAX_POINTS}.` }),
      resample: z
        .object({
          method: z.enum(RESAMPLE_METHODS as [ResampleMethod, ...ResampleMethod[]]),
          target_frequency: z.string(),
          series: byCode(
            z.object({
              source_frequency: z.string(),
              dropped_period_start: z
                .string()
                .nullable()
                .openapi({ description: "The newest bucket, dropped while incomplete." }),
            }),
          ),
        })
        .optional()
        .openapi({
          description:
            "Present when a series was resampled: which ones, from what frequency, and any incomplete newest bucket dropped.",
        }),
      concepts: byCode(conceptDisclosureSchema)
        .optional()
        .openapi({ description: "For each requested concept code, the series it resolved to." }),
      freshness: byCode(freshnessSchema).optional().openapi({
        description:
          "For each requested code, how current its series is as of the request (additive to the spec's meta).",
      }),
    }),
  })
  .openapi("Panel");

export type PanelResponse = z.infer<typeof panelResponseSchema>;
