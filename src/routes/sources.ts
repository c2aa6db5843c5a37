// GET /v1/sources: the free list of data sources.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { errorResponses } from "../schemas/errors";
import { freeOperation, registerFreeOperations } from "../http/free";
import { catalogResponseHeaders, notModifiedResponse } from "../http/respond";
import { sourceListQuerySchema, sourceListResponseSchema } from "../schemas/catalog";
import { renderSources } from "../services/catalog";

const listRoute = createRoute({
  method: "get",
  path: "/v1/sources",
  operationId: "list_sources",
  tags: ["Catalog"],
  summary: "List data sources",
  description:
    "Every data source the catalog draws on, by slug, with the number of indicators it publishes. Inactive sources " +
    "(and inactive indicators in the counts) appear only with `include_inactive=true`.",
  request: { query: sourceListQuerySchema },
  responses: {
    200: {
      description: "Sources",
      headers: catalogResponseHeaders,
      content: { "application/json": { schema: sourceListResponseSchema } },
    },
    ...notModifiedResponse,
    ...errorResponses(400, 500),
  },
});

export const registerSourceRoutes: RegisterRoutes = (app, deps) => {
  const store = { db: deps.database.db, caches: deps.caches };
  registerFreeOperations(app, [freeOperation(listRoute, ({ query }) => renderSources(store, query))]);
};
