// createApp(deps) is the only constructor of the HTTP application. server.ts passes real
// dependencies; tests pass a fresh database, a manual clock and a seeded random source.
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { OpenAPIHono } from "@hono/zod-openapi";
import { compress } from "hono/compress";
import type { Deps } from "./deps";
import type { App, AppEnv } from "./http/app-env";
import { ApiError, envelope } from "./errors";
import { operationCatalog } from "./http/operations";
import { requestId } from "hono/request-id";
import { eventLoopTurns } from "./http/content-coding";
import { pageHeaders } from "./docs/page-policy";
import {
  corsResponseHeaders,
  headersOnReturnedResponses,
  htmlPageHeaders,
  noSniff,
  publicCors,
  type CorsOptions,
} from "./http/answer-headers";
import { inOrder } from "./http/checks";
import { headAsGet, headContentLength, notFoundOrMethodNotAllowed, refusePaidHead } from "./http/methods";
import type { PageMemo } from "./services/page-memo";
import { admitKeyed } from "./http/admission";
import { adviceHeaders } from "./http/verdicts";
import { failureResponse } from "./http/respond";
import { Admission } from "./services/admission";
import { hostGuard, limitBody, rejectMalformedQuery } from "./http/request-guard";
import { validationHook } from "./http/validation";
import { registerRoutes } from "./routes";
import { RouteRegistry } from "./http/route-registry";
import { routePatterns, withMetrics } from "./http/metrics";

const CORS: CorsOptions = {
  // @x402/fetch sends Access-Control-Expose-Headers as a request header on its paid retry (x402 PR #3478).
  allowHeaders: [
    "Authorization",
    "X-API-Key",
    "Content-Type",
    "X-PAYMENT",
    "PAYMENT-SIGNATURE",
    "X-Request-Id",
    "Access-Control-Expose-Headers",
    "Mcp-Protocol-Version",
    "Mcp-Session-Id",
    "Last-Event-ID",
  ],
  exposeHeaders: [
    "X-Request-Id",
    "ETag",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Retry-After",
    "WWW-Authenticate",
    "PAYMENT-REQUIRED",
    "PAYMENT-RESPONSE",
    "X-PAYMENT-RESPONSE",
    // The metadata of a CSV observations page.
    "X-Total-Count",
    "X-Limit",
    "X-Offset",
    "X-Indicator",
    "X-Region",
    "X-Unit",
    "X-Frequency",
    "X-Transform",
    "X-Concept",
    "X-Newest-Period",
    "X-Stale",
  ],
};

/** The app, with its page memo (undefined when PAGE_MEMO=off): its counters are what tests and benchmarks read. */
export type ServiceApp = App & { readonly pages: PageMemo | undefined };

/** `middleware`: registered on every route after the app's own (tests use it to see that every answer passes it). */
export type AppOptions = { middleware?: readonly MiddlewareHandler<AppEnv>[] };

export function createApp(deps: Deps, opts: AppOptions = {}): ServiceApp {
  // Hono's default router and @hono/zod-openapi's own validators (PERFORMANCE.md: neither costs enough to replace).
  // Its route registry is filled as routes are registered below, and read by the middleware before each route.
  const app: App = Object.assign(new OpenAPIHono<AppEnv>({ defaultHook: validationHook }), {
    registry: new RouteRegistry(),
  });

  // The one admission core of this app: paid() (cold requests and page memo hits alike) and the key middleware ask it.
  const admission = new Admission(deps);
  const pages = deps.config.pageMemo ? deps.caches.pages : undefined;
  // The turn each request arrives in: a large rendered body of an answer completed later is written as one chunk.
  const currentTurn = eventLoopTurns();

  // Paid routes describe their input and output in the x402 bazaar extension from this app's own OpenAPI document.
  const operations = operationCatalog(() =>
    app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "operations", version: deps.version } }),
  );
  // The app's middleware, in order. Work after the handler runs in reverse order: the HEAD's length is measured last,
  // on the finished (compressed) answer. Checks that act only before the handler run in order in one layer each
  // group (src/http/checks.ts inOrder: PERFORMANCE.md).
  app.use("*", headContentLength());
  // X-Request-Id: a client's id as hono/request-id accepts it is kept for tracing, else a new UUID.
  app.use("*", requestId({ limitLength: 128 }));
  app.use("*", headersOnReturnedResponses(corsResponseHeaders(CORS)));
  // An HTML page's security headers, unless it set its own.
  app.use("*", htmlPageHeaders(pageHeaders));
  app.use(
    "*",
    inOrder(
      noSniff,
      // CORS headers, and a preflight's 204.
      publicCors(CORS),
      // HEAD on a paid route would be charged without returning data: 405 before anything of the paid pipeline runs.
      refusePaidHead(app.router as never, app.registry),
      // The request's context variables: the turn it arrived in, the admission core, operations, the page memo.
      (c) => {
        c.set("turn", currentTurn());
        c.set("admission", admission);
        c.set("operations", operations);
        if (pages) c.set("pages", pages);
      },
    ),
  );
  // Compresses what no route compressed itself (a HEAD as its GET would be): rendered bodies (catalog lists,
  // observation pages) come compressed once per coding (src/http/content-coding.ts) and are left alone here.
  app.use("*", headAsGet(compress()));
  app.use(
    "*",
    inOrder(
      // Keys on routes paid() does not price: 401 for a bad key on any route, the per-minute window on data routes.
      admitKeyed(deps, app.registry),
      // NUL characters, malformed escapes and unknown /v1 query parameters: 400 before any route runs.
      rejectMalformedQuery(deps.caches.passedTargets),
    ),
  );
  app.use("*", limitBody());
  for (const m of opts.middleware ?? []) app.use("*", m);

  registerRoutes(app, deps);

  app.notFound(notFoundOrMethodNotAllowed(app.router as never, app.registry));

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      const advice = adviceHeaders(err.advice);
      if (advice) for (const k in advice) c.header(k, advice[k]);
      return c.json(envelope(err.code, err.message, err.details), err.status as any);
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono raises these for malformed bodies and the like: a client mistake, not a server fault.
      if (err.status === 413) return c.json(envelope("PAYLOAD_TOO_LARGE", "The request body is too large."), 413);
      if (err.status === 415) {
        return c.json(
          envelope(
            "INVALID_PARAMETER",
            `Unsupported Content-Type ${JSON.stringify(c.req.header("content-type") ?? "")}: send the body as JSON with 'Content-Type: application/json'.`,
            { in: "body" },
          ),
          400,
        );
      }
      return c.json(envelope("INVALID_PARAMETER", err.message || "Malformed request"), 400);
    }
    return failureResponse(deps.logger, err, { requestId: c.get("requestId"), method: c.req.method, url: c.req.url });
  });

  // /metrics itself (METRICS_TOKEN) is answered here.
  app.fetch = withMetrics(app.fetch, deps.config.metricsToken ?? null, {
    deps,
    admission,
    pages,
    routeOf: routePatterns(app.router as never),
  }) as typeof app.fetch;
  // Before anything reads the URL: a missing or malformed Host is a 400 (every later step parses the URL).
  app.fetch = hostGuard(app.fetch, corsResponseHeaders(CORS)) as typeof app.fetch;
  return Object.assign(app, { pages });
}
