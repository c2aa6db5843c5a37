// GET /api/health: 200 with the health report when the database answers (`degraded` while Redis does not), 503
// (error envelope carrying the same report in `details`) when it does not, so load balancers and humans read one status.
import { createRoute, z } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { fail } from "../errors";
import { errorResponses } from "../schemas/errors";
import { healthReportSchema, healthStartingSchema } from "../schemas/discovery";
import { checkHealth } from "../services/health";
import { DISCOVERY_TAG } from "../docs/openapi";

// Health must reflect this instant, never a cached answer (no-store, on 200 and 503 alike).
const healthRoute = createRoute({
  method: "get",
  path: "/api/health",
  operationId: "get_health",
  tags: [DISCOVERY_TAG],
  summary: "Service health",
  description:
    "Pings the database. 200 with `status: ok` when it answers, or `status: degraded` when it does but the Redis that " +
    "shares rate-limit counts between nodes does not (each node counts alone meanwhile); 503 `SERVICE_UNAVAILABLE` when " +
    "the database does not answer (or not within 2 s), with the same report (`status: unavailable`) in `error.details`. " +
    "`jobs` reports the provisioning, refresh and briefing queues' depth and the last refresh of each source. While the " +
    "server starts (opening the database; on a first start, loading the data snapshot), 200 with `status: starting` and " +
    "the step under way, and every data route answers 503 `SERVICE_UNAVAILABLE` with `Retry-After`; then, on a first start, `loading` " +
    "lists the parts of its data still being stored. Never cached.",
  responses: {
    200: {
      description:
        "The service and its database are up (rate limits possibly counted per node: `degraded`), or the server is starting (`starting`)",
      content: { "application/json": { schema: z.union([healthReportSchema, healthStartingSchema]) } },
    },
    ...errorResponses(500, 503),
  },
});

export const registerHealthRoutes: RegisterRoutes = (app, deps) => {
  app.openapi(healthRoute, async (c) => {
    const report = await checkHealth(deps.database, deps.rateLimits, {
      version: deps.version,
      jobs: {
        queue: deps.jobs,
        database: deps.database,
        config: deps.config.jobs,
        memo: deps.caches.memos.of("health.jobs"),
      },
    });
    const loading = deps.caches.catalog.loading;
    if (!loading.complete) {
      const r = loading.report();
      report.loading = { stored: r.stored, total: r.total, families: r.loading };
    }
    if (report.status === "unavailable")
      fail("SERVICE_UNAVAILABLE", "The database is not answering.", report, { noStore: true });
    c.header("Cache-Control", "no-store");
    return c.json(report, 200);
  });
};
