// CORS for a public API (any origin, no credentials): the headers of hono/cors with origin "*", set so that a response
// built through the context is not copied. hono/cors writes to `c.res.headers` before the handler runs, which makes
// Hono copy every handler response (body included) into a new Response to merge the headers; headers set with
// c.header() before next() go into the handler's own response instead. A Response a handler returns as is (a payment
// challenge, the MCP transport) does not carry them, so they are added afterwards when missing.
import type { MiddlewareHandler } from "hono";
import { setOnResponse } from "./late-headers";

export type CorsOptions = { allowHeaders: readonly string[]; exposeHeaders: readonly string[] };

/** Methods announced in preflight answers (hono/cors's default list). */
const ALLOW_METHODS = "GET,HEAD,PUT,POST,DELETE,PATCH,QUERY";

/** The CORS headers of every response that is not a preflight answer. */
export function corsResponseHeaders(opts: CorsOptions): Record<string, string> {
  const expose = opts.exposeHeaders.join(",");
  return { "Access-Control-Allow-Origin": "*", ...(expose ? { "Access-Control-Expose-Headers": expose } : {}) };
}

/**
 * CORS for every answer: the headers set through the context before the handler and, for a preflight (OPTIONS), its
 * 204 answer; afterwards, added to a response returned as is that lacks them. Hono's own cors() costs more on every
 * request (PERFORMANCE.md).
 */
export function publicCors(opts: CorsOptions): MiddlewareHandler {
  const expose = opts.exposeHeaders.join(",");
  const allow = opts.allowHeaders.join(",");
  const simple = corsResponseHeaders(opts);
  return async function publicCorsMiddleware(c, next) {
    c.header("Access-Control-Allow-Origin", "*");
    if (expose) c.header("Access-Control-Expose-Headers", expose);
    if (c.req.method === "OPTIONS") {
      c.header("Access-Control-Allow-Methods", ALLOW_METHODS);
      if (allow) {
        c.header("Access-Control-Allow-Headers", allow);
        c.header("Vary", "Access-Control-Request-Headers", { append: true });
      }
      c.res = c.body(null, 204);
      return;
    }
    await next();
    if (!c.res.headers.has("access-control-allow-origin")) setOnResponse(c, simple);
  };
}
