// GET /v1/flows: directed origin-to-destination rows, a paid read through paid(...). resolve() names the regions and
// the measure and period served (404 for what is not held, before any payment); the handler reads the ranked rows.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { errorResponses, fail } from "../errors";
import { registerPaid } from "../http/paid";
import type { Resolved } from "../pricing";
import { flowsQuerySchema, flowsResponseSchema } from "../schemas/flows";
import { getFlows, resolveFlows, type FlowsTarget } from "../services/flows";

const flowsRoute = createRoute({
  method: "get",
  path: "/v1/flows",
  operationId: "get_flows",
  tags: ["Data"],
  summary: "Origin-to-destination flows",
  description:
    "Directed flows between states or counties (migration: Census ACS state-to-state movers; IRS SOI county-to-county " +
    "returns, exemptions and AGI), one measure and one period, largest value first. Pass `origin`, `destination` or both. " +
    "Without `measure`, the first measure held for the filters; without `period`, the latest period held, reported in " +
    "`meta.period`. Totals, \"other flows\" and foreign rows of the source files are not places and never appear. " +
    "Each row names its source and dataset.",
  request: { query: flowsQuerySchema },
  responses: {
    200: { description: "Flows, largest first", content: { "application/json": { schema: flowsResponseSchema } } },
    ...errorResponses(400, 401, 402, 403, 404, 429, 500),
  },
  "x-price-surface": "flows",
});

type FlowsResolved = Resolved & { target: FlowsTarget };

export const registerFlowRoutes: RegisterRoutes = (app, deps) => {
  const store = { db: deps.database.db, caches: deps.caches };

  registerPaid<typeof flowsRoute, FlowsResolved>(app, deps, flowsRoute, {
    surface: "flows",
    example: "/v1/flows?origin=06075&measure=returns",
    resolve: async (_c, query) => {
      const target = await resolveFlows(store, query);
      return { indicator: null, region: (target.origin ?? target.destination)!.code, premium: false, resource: "/v1/flows", target };
    },
    handler: async (c, r, _quote, admitted) => {
      // Both ends given: the admission core entitled the origin; a region-restricted key must also hold the destination.
      if (r.target.origin && r.target.destination && admitted.key) {
        const refused = c.get("admission").entitlement(admitted.key, { premium: false, region: r.target.destination.code, indicator: null });
        if (refused) fail(refused.code, refused.message, refused.details);
      }
      return c.json(await getFlows(store, r.target), 200);
    },
  });
};
