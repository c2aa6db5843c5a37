// Headers every answer carries. Before the handler they are set through the context (checks: src/http/checks.ts), so
// they go into every response built through it (c.json, c.body, onError) without a copy; a Response a handler returns
// as is (a payment challenge, the MCP transport) gets the request id and the CORS headers afterwards, in place
// (late-headers.ts).
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import type { Check } from "./checks";
import { setOnResponse } from "./late-headers";

/** No answer is sniffed into another type (a JSON error repeating what a client sent, read as HTML). */
export const noSniff: Check = (c) => {
  c.header("X-Content-Type-Options", "nosniff");
};

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
    if (c.res.headers.get("content-type")?.startsWith("text/html") && !c.res.headers.has("content-security-policy")) setOnResponse(c, headersFor(c.req.path));
  };
}

/** Sets the request's context variables (the app's admission core, operations, page memo, the turn it arrived in). */
export function contextVariables(set: (c: Context<AppEnv>) => void): Check {
  return set;
}
