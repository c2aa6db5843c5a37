// GET /v1/chart: series drawn as an SVG, a paid read of the series it draws through paid(...). resolve() resolves
// every series and reads its window before any payment (404 for nothing to draw, 400 past the caps); the handler
// serves the SVG of the current versions (src/services/chart.ts).
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import type { Deps } from "../deps";
import { errorResponses } from "../schemas/errors";
import { pageAnswer, paidOperation, registerOperations, serveHeld, type PaidDefinition } from "../http/paid";
import type { Serving } from "../pricing";
import { CHART_MAX_POINTS, CHART_MAX_SERIES, chartQuerySchema } from "../schemas/chart";
import { provisioningResponse } from "../schemas/provisioning";
import { getChart, resolveChart, type ChartTarget } from "../services/chart";
import { renderCaller } from "../services/chart-renders";
import { readContext, seriesRead, targetCode } from "../services/series-read";

const chartRoute = createRoute({
  method: "get",
  path: "/v1/chart",
  operationId: "get_chart",
  tags: ["Data"],
  summary: "A chart of one or several series (SVG)",
  description:
    "The series GET /v1/observations reads (same `indicator`, `region`, dates, `transform`, `frequency`, `resample_method`), " +
    `drawn as an SVG: title, unit, source line, the newest value labelled, US recessions (NBER, from USREC) shaded behind US data. ` +
    "Series in different units never share an axis (two units: an axis each; three or more: a panel each); text is wrapped, never cut, and a chart " +
    "whose legend and plot cannot fit `width` by `height` is a 400 naming the height that fits (`details.needed_height`). " +
    `Several comma-separated indicators (one region) or regions (one indicator): up to ${CHART_MAX_SERIES} lines, ` +
    `${CHART_MAX_POINTS.toLocaleString("en-US")} points. One series is priced as observations, several as a panel. ` +
    "A series with no value in the window is a 404 (not charged). `width` and `height` are drawn at the next of a few steps up (so near sizes share one picture). " +
    "Charts not drawn before are drawn a few at a time: one caller (a key, or an address) with too many under way gets a 429, a server with too many queued a 503, both with `Retry-After` and not charged.",
  request: { query: chartQuerySchema },
  responses: {
    200: {
      description: "The chart, with `<title>` and `<desc>` naming the series, places, period and newest values.",
      content: { "image/svg+xml": { schema: { type: "string" } } },
    },
    ...provisioningResponse,
    ...errorResponses(400, 401, 402, 403, 404, 429, 500, 502, 503),
  },
  "x-price-surface": ["observations", "panel"],
});

type ChartServed = Serving & { target: ChartTarget };

/** This area's paid operations, one definition each (src/http/paid.ts PaidDefinition). */
export const chartOperations = (deps: Deps): PaidDefinition[] => {
  const ctx = readContext(deps, { provisioning: true });
  return [
    paidOperation<typeof chartRoute, ChartServed>(chartRoute, {
      surface: (r) => (r.target.reads.length === 1 ? "observations" : "panel"),
      // Every series it draws, each in its own region; the USREC shading is context, not a read.
      reads: "all",
      example: "/v1/chart?indicator=PAYEMS&region=US",
      cannotFailOncePaid:
        "resolve() reads every series' window before payment (nothing to draw is a 404, too many points a 400); the handler only draws it",
      resolve: async (query) =>
        serveHeld(await resolveChart(ctx, query), (target) => {
          const surface = target.reads.length === 1 ? "observations" : "panel";
          const one = target.reads.length === 1 ? target.reads[0]! : null;
          return {
            indicator: one ? targetCode(one) : null,
            region: target.region,
            resource: "/v1/chart",
            reads: target.reads.map((s) => seriesRead(s, surface)),
            target,
          };
        }),
      answer: async (r, admitted, _started, asked) => {
        const caller = renderCaller({
          class: admitted.key ? "keyed" : "stranger",
          client: asked.client,
          key: admitted.key,
        });
        return pageAnswer(await getChart(ctx, r.target, { client: { caller } }));
      },
    }),
  ];
};

export const registerChartRoutes: RegisterRoutes = (app, deps) => registerOperations(app, deps, chartOperations(deps));
