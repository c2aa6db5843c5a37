// CORS for a public API (any origin, no credentials): the headers of hono/cors with origin "*", set so that a response
// built through the context is not copied. hono/cors writes to `c.res.headers` before the handler runs, which makes
// Hono copy every handler response (body included) into a new Response to merge the headers; headers set with
// c.header() before next() go into the handler's own response instead. A Response a handler returns as is (a payment
// challenge, the MCP transport) does not carry them, so they are added afterwards when missing.
import type { Check } from "./checks";

export type CorsOptions = { allowHeaders: readonly string[]; exposeHeaders: readonly string[] };

/** Methods announced in preflight answers (hono/cors's default list). */
const ALLOW_METHODS = "GET,HEAD,PUT,POST,DELETE,PATCH,QUERY";

/** The CORS headers of every response that is not a preflight answer. */
export function corsResponseHeaders(opts: CorsOptions): Record<string, string> {
  const expose = opts.exposeHeaders.join(",");
  return { "Access-Control-Allow-Origin": "*", ...(expose ? { "Access-Control-Expose-Headers": expose } : {}) };
}

/**
 * CORS, before the handler: the headers set through the context and, for a preflight (OPTIONS), its 204 answer. A
 * Response returned as is gets them afterwards (answer-headers.ts headersOnReturnedResponses). Hono's own cors()
 * costs more on every request (PERFORMANCE.md).
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
