// GET /v1/panel: several series on one grid of dates, a paid read through paid(...). resolve() resolves every code,
// plans the alignment and checks the grid before any payment; the handler serves the panel of the current versions.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import type { Deps } from "../deps";
import { errorResponses } from "../schemas/errors";
import { pageAnswer, paidOperation, registerOperations, serve, type PaidDefinition } from "../http/paid";
import { PANEL_MAX_POINTS, PANEL_MAX_SERIES } from "../domain/panel";
import type { Serving } from "../pricing";
import { panelQuerySchema, panelResponseSchema } from "../schemas/panel";
import { getPanel, resolvePanel, type PanelTarget } from "../services/panel";
import { readContext, seriesRead } from "../services/series-read";

const panelRoute = createRoute({
  method: "get",
  path: "/v1/panel",
  operationId: "get_panel",
  tags: ["Data"],
  summary: "Several series aligned on one grid of dates",
  description:
    `Up to ${PANEL_MAX_SERIES} indicators (codes or concepts) of one region as arrays over shared dates. Series of one frequency ` +
    "align at it; mixed frequencies are resampled to the coarsest (or to `frequency`) with the observations resampler " +
    "(calendar buckets labelled by their first day, the newest bucket dropped while incomplete). Weekly series need " +
    `\`frequency=monthly\` or coarser. The grid holds at most ${PANEL_MAX_POINTS.toLocaleString("en-US")} points (dates x series): ` +
    "a larger panel is a 400 saying how many points it would hold. A panel holding a `svc:` or premium series needs premium access. " +
    "Concepts are disclosed in `meta.concepts`.",
  request: { query: panelQuerySchema },
  responses: {
    200: { description: "The aligned panel", content: { "application/json": { schema: panelResponseSchema } } },
    ...errorResponses(400, 401, 402, 403, 404, 429, 500),
  },
});

type PanelServed = Serving & { target: PanelTarget };

/** This area's paid operations, one definition each (src/http/paid.ts PaidDefinition). */
export const panelOperations = (deps: Deps): PaidDefinition[] => {
  const ctx = readContext(deps);
  return [
    paidOperation<typeof panelRoute, PanelServed>(panelRoute, {
      surface: "panel",
      // Every series in its region (series may default to different regions).
      reads: "all",
      example: "/v1/panel?indicators=PAYEMS,UNRATE&region=US",
      cannotFailOncePaid: "resolve() builds the panel (every series held, the grid within bounds) before payment",
      resolve: async (query) => {
        const target = await resolvePanel(ctx, query);
        return serve({
          indicator: null,
          region: target.region,
          resource: "/v1/panel",
          reads: target.series.map((s) => seriesRead(s.target, "panel")),
          target,
        });
      },
      answer: async (r) => pageAnswer(await getPanel(ctx, r.target)),
    }),
  ];
};

export const registerPanelRoutes: RegisterRoutes = (app, deps) => registerOperations(app, deps, panelOperations(deps));
