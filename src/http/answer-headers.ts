// Headers every answer carries, each set by a middleware of its own (the order is in src/app.ts). Before the handler
// they are set through the context, so they go into every response built through it (c.json, c.body, onError) without
// a copy; a Response a handler returns as is (a payment challenge, the MCP transport) gets them afterwards, in place
// (late-headers.ts).
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { setOnResponse } from "./late-headers";

/** No answer is sniffed into another type (a JSON error repeating what a client sent, read as HTML). */
export function noSniff(): MiddlewareHandler {
  return function noSniffMiddleware(c, next) {
    c.header("X-Content-Type-Options", "nosniff");
    return next();
  };
}

/**
 * The request id (set by Hono's requestId before the handler) on a Response returned as is, which the context's
 * headers do not reach.
 */
export function requestIdOnEveryAnswer(): MiddlewareHandler<AppEnv> {
  return async function requestIdOnEveryAnswerMiddleware(c, next) {
    await next();
    const id = c.get("requestId");
    if (c.res.headers.get("x-request-id") !== id) setOnResponse(c, { "X-Request-Id": id });
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
export function contextVariables(set: (c: Context<AppEnv>) => void): MiddlewareHandler<AppEnv> {
  return function contextVariablesMiddleware(c, next) {
    set(c);
    return next();
  };
}
