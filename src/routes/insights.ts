// GET /v1/insights: computed facts and active signals of one series, paid like observations, through paid(...).
// resolve() turns the code or concept into a held series before any payment is asked.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import type { Deps } from "../deps";
import { errorResponses } from "../schemas/errors";
import { jsonAnswer, paidOperation, registerOperations, serve, type PaidDefinition } from "../http/paid";
import type { Serving } from "../pricing";
import { insightsQuerySchema, insightsResponseSchema } from "../schemas/insights";
import { getInsights, resolveInsights, type InsightsTarget } from "../services/insights";
import { readContext, seriesRead, targetCode } from "../services/series-read";

const insightsRoute = createRoute({
  method: "get",
  path: "/v1/insights",
  operationId: "get_insights",
  tags: ["Data"],
  summary: "Computed facts and active signals of one series",
  description:
    "Deterministic facts over a window anchored at the latest observation: trend (least-squares fit, change per year " +
    "in the unit and in percent), latest change, distance from the window's high and low, longest run of rises or " +
    "falls, and rank among peer regions; each with typed params, a template, a sentence for people and a salience " +
    "(0 to 1; facts are ranked by it). `signals` lists the series' active signals. Same price, access tier and " +
    "errors as observations; premium series need premium access (403 CATEGORY_NOT_ALLOWED).",
  request: { query: insightsQuerySchema },
  responses: {
    200: {
      description: "Facts ranked by salience, active signals, and the window, unit and attribution",
      content: { "application/json": { schema: insightsResponseSchema } },
    },
    ...errorResponses(400, 401, 402, 403, 404, 429, 500),
  },
});

type InsightsServed = Serving & { target: InsightsTarget };

/** This area's paid operations, one definition each (src/http/paid.ts PaidDefinition). */
export const insightOperations = (deps: Deps): PaidDefinition[] => {
  const ctx = readContext(deps);
  return [
    paidOperation<typeof insightsRoute, InsightsServed>(insightsRoute, {
      surface: "insights",
      reads: "all",
      example: "/v1/insights?indicator=PAYEMS&region=US",
      cannotFailOncePaid:
        "resolve() checks the series is readable before payment; the facts are computed from whatever it holds",
      resolve: async (query) => {
        const target = await resolveInsights(ctx, query);
        return serve({
          indicator: targetCode(target),
          region: target.region.code,
          resource: "/v1/insights",
          reads: [seriesRead(target, "insights")],
          target,
        });
      },
      answer: async (r) => jsonAnswer(await getInsights(ctx, r.target)),
    }),
  ];
};

export const registerInsightRoutes: RegisterRoutes = (app, deps) =>
  registerOperations(app, deps, insightOperations(deps));
