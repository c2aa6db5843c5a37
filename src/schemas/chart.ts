// GET /v1/chart: its parameters. The data parameters are those of GET /v1/observations (same meaning, same
// validation); `indicator` and `region` may each list several, comma-separated, for a chart of several series.
import { z } from "@hono/zod-openapi";
import { CHART_SIZE_STEPS, snapChartSize } from "../domain/chart-size";
import { PANEL_MAX_POINTS, PANEL_MAX_SERIES } from "../domain/panel";
import { observationsQuerySchema } from "./observations";
import { codeListParam } from "./panel";

const q = (name: string) => ({ param: { name, in: "query" as const } });

export const CHART_MIN_SIZE = 200;
export const CHART_MAX_SIZE = 2000;
export const CHART_MAX_SERIES = PANEL_MAX_SERIES;
export const CHART_MAX_POINTS = PANEL_MAX_POINTS;

const sizeParam = (name: string, dflt: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: "must be a whole number of pixels" })
    .transform(Number)
    .pipe(z.number().int().min(CHART_MIN_SIZE).max(CHART_MAX_SIZE))
    .transform(snapChartSize)
    .default(dflt)
    .openapi({
      ...q(name),
      description: `${name === "width" ? "Width" : "Height"} of the picture in pixels, ${CHART_MIN_SIZE} to ${CHART_MAX_SIZE}, drawn at the first of ${CHART_SIZE_STEPS.join(", ")} at or above it.`,
      type: "integer",
      minimum: CHART_MIN_SIZE,
      maximum: CHART_MAX_SIZE,
      default: dflt,
    });

const shared = observationsQuerySchema.shape;

export const chartQuerySchema = z
  .object({
    indicator: codeListParam(
      "indicator",
      `Indicator codes or concepts, comma-separated (1 to ${CHART_MAX_SERIES}), as in GET /v1/observations: one line each.`,
      "UNRATE",
    ),
    region: codeListParam(
      "region",
      "Region code or what people type; several comma-separated (`06,48,36`) draw one indicator in each place. Default: the indicator's default region. Required for concepts.",
      "US",
    ).optional(),
    source: shared.source,
    start_date: shared.start_date,
    end_date: shared.end_date,
    transform: shared.transform,
    frequency: shared.frequency,
    resample_method: shared.resample_method,
    width: sizeParam("width", 800),
    height: sizeParam("height", 400),
    format: z
      .string()
      .refine((f) => f === "svg", {
        message:
          "only svg is offered: a PNG would need a browser or a native canvas on the server; an SVG scales to any size and any browser or converter draws it",
      })
      .default("svg")
      .openapi({
        ...q("format"),
        type: "string",
        enum: ["svg"],
        default: "svg",
        description: "The picture's format: `svg`.",
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
    const regions = v.region?.length ?? 1;
    if (v.indicator.length > 1 && regions > 1) {
      ctx.addIssue({
        code: "custom",
        path: ["region"],
        message: "several indicators are drawn in one region, or one indicator in several regions: not both",
      });
    }
    if (v.indicator.length * regions > CHART_MAX_SERIES) {
      ctx.addIssue({
        code: "custom",
        path: ["region"],
        message: `at most ${CHART_MAX_SERIES} series in one chart (got ${v.indicator.length * regions})`,
      });
    }
  });

export type ChartQuery = z.output<typeof chartQuerySchema>;
