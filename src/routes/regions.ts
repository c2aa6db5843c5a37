// GET /v1/regions and GET /v1/regions/{code}: the free region catalog.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { errorResponses } from "../schemas/errors";
import { freeOperation, registerFreeOperations } from "../http/free";
import { catalogResponseHeaders, notModifiedResponse, renderJson } from "../http/respond";
import {
  regionListQuerySchema,
  regionListResponseSchema,
  regionPathSchema,
  regionResponseSchema,
} from "../schemas/regions";
import { getRegion, renderRegionList } from "../services/regions";

const listRoute = createRoute({
  method: "get",
  path: "/v1/regions",
  operationId: "list_regions",
  tags: ["Catalog"],
  summary: "List regions",
  description:
    "Countries (ISO 3166-1 alpha-2), the 50 states and DC (2-digit FIPS) and 3,144 county equivalents (5-digit FIPS, " +
    "Census vintage 2024), ordered by code. `parent` accepts what people type (`CA`, `US-CA`, `california`, `06`): " +
    "a parent is read as a state first, so `parent=CA` is California. `search` finds regions by any part of their code, " +
    "name or other names. Without `limit` every match is returned (the full list is about 3,450 rows); `limit` and " +
    "`offset` page it, and `meta.total` counts every match.",
  request: { query: regionListQuerySchema },
  responses: {
    200: {
      description: "Regions",
      headers: catalogResponseHeaders,
      content: { "application/json": { schema: regionListResponseSchema } },
    },
    ...notModifiedResponse,
    ...errorResponses(400, 404, 500),
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/v1/regions/{code}",
  operationId: "get_region",
  tags: ["Catalog"],
  summary: "Get one region",
  description:
    "One region by code or by what people type (`US-CA`, `ny`, `USA`, `california`, `los-angeles-county-ca`). A canonical code always " +
    "means itself (`CA` is Canada, `DE` Germany), so codes read back from responses round-trip. An input naming several regions is a 400 listing them.",
  request: { params: regionPathSchema },
  responses: {
    200: {
      description: "The region",
      headers: catalogResponseHeaders,
      content: { "application/json": { schema: regionResponseSchema } },
    },
    ...notModifiedResponse,
    ...errorResponses(400, 404, 500),
  },
});

export const registerRegionRoutes: RegisterRoutes = (app, deps) => {
  const store = { db: deps.database.db, caches: deps.caches };
  registerFreeOperations(app, [
    freeOperation(listRoute, ({ query }) => renderRegionList(store, query)),
    freeOperation(getRoute, async ({ params }) => renderJson({ data: await getRegion(store, params.code) }), {
      cached: false,
    }),
  ]);
};
