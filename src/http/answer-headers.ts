// Headers every answer carries. Before the handler they are set through the context (checks: src/http/checks.ts), so
// they go into every response built through it (c.json, c.body, onError) without a copy; a Response a handler returns
// as is (a payment challenge, the MCP transport) gets the request id and the CORS headers afterwards, in place.
//
// CORS for a public API (any origin, no credentials): the headers of hono/cors with origin "*", set so that a response
// built through the context is not copied. hono/cors writes to `c.res.headers` before the handler runs, which makes
// Hono copy every handler response (body included) into a new Response to merge the headers; headers set with
// c.header() before next() go into the handler's own response instead (PERFORMANCE.md).
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import type { Check } from "./checks";

export type CorsOptions = { allowHeaders: readonly string[]; exposeHeaders: readonly string[] };

/** Methods announced in preflight answers (hono/cors's default list). */
const ALLOW_METHODS = "GET,HEAD,PUT,POST,DELETE,PATCH,QUERY";

/** No answer is sniffed into another type (a JSON error repeating what a client sent, read as HTML). */
export const noSniff: Check = (c) => {
  c.header("X-Content-Type-Options", "nosniff");
};

/** The CORS headers of every response that is not a preflight answer. */
export function corsResponseHeaders(opts: CorsOptions): Record<string, string> {
  const expose = opts.exposeHeaders.join(",");
  return { "Access-Control-Allow-Origin": "*", ...(expose ? { "Access-Control-Expose-Headers": expose } : {}) };
}

/**
 * CORS, before the handler: the headers set through the context and, for a preflight (OPTIONS), its 204 answer. A
 * Response returned as is gets them afterwards (headersOnReturnedResponses).
 */
export function publicCors(opts: CorsOptions): Check {
  const expose = opts.exposeHeaders.join(",");
  const allow = opts.allowHeaders.join(",");
  return (c) => {
    c.header("Access-Control-Allow-Origin", "*");
    if (expose) c.header("Access-Control-Expose-Headers", expose);
    if (c.req.method !== "OPTIONS") return null;
    c.header("Access-Control-Allow-Methods", ALLOW_METHODS);
    if (allow) {
      c.header("Access-Control-Allow-Headers", allow);
      c.header("Vary", "Access-Control-Request-Headers", { append: true });
    }
    return c.body(null, 204);
  };
}

/** The request id (Hono's requestId sets it before the handler) and `cors`, on a Response returned as is. */
export function headersOnReturnedResponses(cors: Readonly<Record<string, string>>): MiddlewareHandler<AppEnv> {
  return async function headersOnReturnedResponsesMiddleware(c, next) {
    await next();
    const id = c.get("requestId");
    if (c.res.headers.get("x-request-id") !== id) setOnResponse(c, { "X-Request-Id": id });
    if (!c.res.headers.has("access-control-allow-origin")) setOnResponse(c, cors);
  };
}

/** An HTML page's security headers (Content-Security-Policy and the like), unless the page set its own. */
export function htmlPageHeaders(headersFor: (path: string) => Readonly<Record<string, string>>): MiddlewareHandler {
  return async function htmlPageHeadersMiddleware(c, next) {
    await next();
    if (c.res.headers.get("content-type")?.startsWith("text/html") && !c.res.headers.has("content-security-policy"))
      setOnResponse(c, headersFor(c.req.path));
  };
}

/**
 * Sets headers on a response a handler returned, in place; only when its headers are immutable (a fetched Response)
 * is it copied once. c.header() after next() would copy the whole response (body included) on every call.
 */
function setOnResponse(c: Context, headers: Record<string, string>): void {
  try {
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  } catch {
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
  }
}
