// GET /v1/indicators and GET /v1/indicators/{code}: the free indicator catalog.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { errorResponses } from "../schemas/errors";
import { freeOperation, registerFreeOperations } from "../http/free";
import { catalogResponseHeaders, notModifiedResponse } from "../http/respond";
import {
  indicatorDetailQuerySchema,
  indicatorDetailResponseSchema,
  indicatorListQuerySchema,
  indicatorListResponseSchema,
  indicatorPathSchema,
} from "../schemas/catalog";
import { renderIndicatorDetail, renderIndicators } from "../services/catalog";

const listRoute = createRoute({
  method: "get",
  path: "/v1/indicators",
  operationId: "search_indicators",
  tags: ["Catalog"],
  summary: "List and search indicators",
  description:
    "Indicators filtered by `source`, `category` and `frequency`, and searched (case-insensitive substring) over name, " +
    "code and description. Ordered by code, with a search's exact code matches, then code prefixes, then name matches " +
    "first. `meta.total` counts every match; `limit` 0 returns only the count. An unknown `source` or `category` is a " +
    "400 listing the valid values.",
  request: { query: indicatorListQuerySchema },
  responses: {
    200: {
      description: "A page of indicators",
      headers: catalogResponseHeaders,
      content: { "application/json": { schema: indicatorListResponseSchema } },
    },
    ...notModifiedResponse,
    ...errorResponses(400, 500),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/v1/indicators/{code}",
  operationId: "get_indicator",
  tags: ["Catalog"],
  summary: "Describe one indicator",
  description:
    "One indicator with its default region, the regions that hold data and the span of its observations. When " +
    "several sources publish the code, the original publisher is returned and `meta.ambiguous_with` lists the " +
    "others; pass `source` to choose.",
  request: { params: indicatorPathSchema, query: indicatorDetailQuerySchema },
  responses: {
    200: {
      description: "The indicator",
      headers: catalogResponseHeaders,
      content: { "application/json": { schema: indicatorDetailResponseSchema } },
    },
    ...notModifiedResponse,
    ...errorResponses(400, 404, 500),
  },
});

export const registerIndicatorRoutes: RegisterRoutes = (app, deps) => {
  const store = { db: deps.database.db, caches: deps.caches };
  registerFreeOperations(app, [
    freeOperation(listRoute, ({ query }) => renderIndicators(store, query, deps.clock.now())),
    freeOperation(getRoute, ({ params, query }) => renderIndicatorDetail(store, params.code, query), { cached: false }),
  ]);
};
