// createApp(deps) is the only constructor of the HTTP application. server.ts passes real
// dependencies; tests pass a fresh database, a manual clock and a seeded random source.
import { OpenAPIHono } from "@hono/zod-openapi";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import type { Deps } from "./deps";
import type { App, AppEnv } from "./http/app-env";
import { ApiError, envelope } from "./http/errors";
import { operationCatalog } from "./http/operations";
import { requestId } from "./http/request-id";
import { identify } from "./http/auth";
import { rateLimit } from "./http/rate-limit";
import { validationHook } from "./http/validation";
import { registerRoutes } from "./routes";

export function createApp(deps: Deps): App {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use("*", requestId());
  app.use(
    "*",
    cors({
      origin: "*",
      // @x402/fetch sends Access-Control-Expose-Headers as a request header on its paid retry (x402 PR #3478).
      allowHeaders: ["Authorization", "X-API-Key", "Content-Type", "X-PAYMENT", "PAYMENT-SIGNATURE", "X-Request-Id", "Access-Control-Expose-Headers"],
      exposeHeaders: [
        "X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After",
        "WWW-Authenticate", "PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE",
      ],
    }),
  );

  // Keys: attach the request's API key (401 for a bad one), then count it against the key's per-minute limit.
  app.use("*", identify(deps));
  app.use("*", rateLimit(deps));

  // Paid routes describe their input and output in the x402 bazaar extension from this app's own OpenAPI document.
  const operations = operationCatalog(() => app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "operations", version: deps.version } }));
  app.use("*", async (c, next) => {
    c.set("operations", operations);
    await next();
  });

  registerRoutes(app, deps);

  app.notFound((c) => c.json(envelope("RESOURCE_NOT_FOUND", `No route for ${c.req.method} ${new URL(c.req.url).pathname}`), 404));

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
      return c.json(envelope(err.code, err.message, err.details), err.status as any);
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono raises these for malformed bodies and the like: a client mistake, not a server fault.
      return c.json(envelope("INVALID_PARAMETER", err.message || "Malformed request"), 400);
    }
    const rid = c.get("requestId");
    deps.logger.error("unhandled error", { request_id: rid, method: c.req.method, path: new URL(c.req.url).pathname, error: String(err), stack: (err as Error)?.stack });
    return c.json(envelope("INTERNAL_SERVER_ERROR", `Internal server error (request ${rid}).`), 500);
  });

  return app;
}
