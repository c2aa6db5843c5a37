// GET /v1/flows: directed origin-to-destination rows, a paid read through paid(...). resolve() names the regions and
// the measure and period served (404 for what is not held, before any payment); the handler reads the ranked rows.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import type { Deps } from "../deps";
import { errorResponses } from "../schemas/errors";
import { jsonAnswer, paidOperation, registerOperations, serve, type PaidDefinition } from "../http/paid";
import type { Serving } from "../pricing";
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
    '`meta.period`. Totals, "other flows" and foreign rows of the source files are not places and never appear. ' +
    "Each row names its source and dataset.",
  request: { query: flowsQuerySchema },
  responses: {
    200: { description: "Flows, largest first", content: { "application/json": { schema: flowsResponseSchema } } },
    ...errorResponses(400, 401, 402, 403, 404, 429, 500),
  },
});

type FlowsServed = Serving & { target: FlowsTarget };

/** This area's paid operations, one definition each (src/http/paid.ts PaidDefinition). */
export const flowOperations = (deps: Deps): PaidDefinition[] => {
  const store = { db: deps.database.db, caches: deps.caches };
  return [
    paidOperation<typeof flowsRoute, FlowsServed>(flowsRoute, {
      surface: "flows",
      // Both ends given: a region-restricted key must hold both.
      reads: "all",
      example: "/v1/flows?origin=06075&measure=returns",
      cannotFailOncePaid: "resolve() chooses the measure and period among the slices held; the handler only reads them",
      resolve: async (query) => {
        const target = await resolveFlows(store, query);
        const ends = [target.origin, target.destination].filter((r) => r !== null && r !== undefined);
        const reads = ends.map((r) => ({ indicator: null, region: r.code, premium: false, surface: "flows" as const }));
        return serve({ indicator: null, region: ends[0]!.code, resource: "/v1/flows", reads, target });
      },
      answer: async (r) => jsonAnswer(await getFlows(store, r.target)),
    }),
  ];
};

export const registerFlowRoutes: RegisterRoutes = (app, deps) => registerOperations(app, deps, flowOperations(deps));
