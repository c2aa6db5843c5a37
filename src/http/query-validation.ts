// Query validation with a memory: what a query schema makes of a query string is a pure function of that string
// (the schemas read no clock and no data), and reads repeat the same few URLs over and over, so each route keeps the
// validated object of the query strings it saw last and skips zod for them. Failures are not remembered: they take
// the hook's path (400 INVALID_PARAMETER naming the parameter) every time, exactly as without the memory.
//
// The OpenAPI document is unchanged: the route is registered with its query schema as before; only the middleware
// that validates it at request time is this one instead of @hono/zod-openapi's.
import { OpenAPIHono, type Hook } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { ZodType } from "zod";
import type { AppEnv } from "./app-env";
import { ServiceRouter } from "./router";
import { BoundedCache } from "../services/bounded-cache";
import { CACHE_BOUNDS } from "../services/caches";
import { rawQuery } from "./url-parts";

/** Longer query strings are validated every time rather than held in memory. */
const MAX_REMEMBERED_LENGTH = 1024;

/** The request's query as zod-validator hands it to a schema: one string per name, an array when repeated. */
function queryObject(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = v.length === 1 ? v[0]! : v;
  return out;
}

export function memoisedQueryValidator(schema: ZodType, hook: Hook<any, any, any, any>): MiddlewareHandler<AppEnv> {
  // Distinct query strings remembered per route, least recently validated out first.
  const remembered = new BoundedCache<string, unknown>(CACHE_BOUNDS.validatedQueries);
  return async function queryValidator(c, next) {
    const raw = rawQuery(c.req.url);
    let data = remembered.get(raw);
    if (data === undefined) {
      const value = queryObject(c);
      const result = await schema.safeParseAsync(value);
      if (!result.success) {
        const answer = await hook({ ...result, data: value, target: "query" } as never, c as never);
        if (answer instanceof Response) return answer;
        if (answer && typeof answer === "object" && "response" in answer) return (answer as { response: Response }).response;
        return c.json(result, 400);
      }
      // Handlers share the remembered object: frozen, so none can change what the next request reads.
      data = Object.freeze(result.data);
      if (raw.length <= MAX_REMEMBERED_LENGTH) {
        remembered.set(raw, data);
      }
    }
    c.req.addValidatedData("query", data as object);
    return next();
  };
}

type OpenApi = OpenAPIHono<AppEnv>["openapi"];

/**
 * An OpenAPIHono whose routes validate their query through memoisedQueryValidator, matched by the ServiceRouter
 * (src/http/router.ts). Every other part of a route (path parameters, bodies, the document) is @hono/zod-openapi's own.
 */
export function serviceOpenApiApp(defaultHook: Hook<any, any, any, any>): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook, router: new ServiceRouter() });
  const register = app.openapi.bind(app) as OpenApi;
  app.openapi = ((route, handler, hook) => {
    const query = route.request?.query as ZodType | undefined;
    if (!query) return register(route, handler, hook);
    const { middleware, ...documented } = route;
    if (!route.hide) app.openAPIRegistry.registerPath(documented);
    const own = middleware ? (Array.isArray(middleware) ? middleware : [middleware]) : [];
    return register(
      { ...route, hide: true, request: { ...route.request, query: undefined }, middleware: [...own, memoisedQueryValidator(query, hook ?? defaultHook)] } as never,
      handler as never,
      hook as never,
    );
  }) as OpenApi;
  return app;
}
