// The app's first middleware: the header work every answer gets, in one async layer (each layer of Hono's chain
// costs a closure and a promise on every request, which showed on the page memo's hits). In order:
// X-Request-Id and CORS set through the context (a preflight answered here), HEAD on a paid route refused, the
// request's context variables set; after the rest of the chain: compression of what no route compressed itself
// (a HEAD as its GET would be: Hono's compress leaves HEAD alone), an HTML page's security headers unless it set its
// own, CORS and the id on a Response returned as is, and a HEAD's Content-Length.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { publicCors, type CorsOptions } from "./cors";
import { asGet, paidHeadRefusal, setHeadLength } from "./request-guard";
import { requestIdAfter, requestIdBefore } from "./request-id";
import { setOnResponse } from "./late-headers";

type Router = Parameters<typeof paidHeadRefusal>[0];

export type EveryAnswerOptions = {
  cors: CorsOptions;
  router: Router;
  /** Hono's compress(), or any middleware that rewrites the finished response. */
  compress: MiddlewareHandler;
  /** Sets the app's context variables (admission core, operations, page memo). */
  variables(c: Context<AppEnv>): void;
  /** The security headers of an HTML answer at a path that sets no Content-Security-Policy itself. */
  pageHeaders(path: string): Readonly<Record<string, string>>;
};

export function everyAnswer(opts: EveryAnswerOptions): MiddlewareHandler<AppEnv> {
  const cors = publicCors(opts.cors);
  const refusePaidHead = paidHeadRefusal(opts.router);
  return async function everyAnswerMiddleware(c, next) {
    const id = requestIdBefore(c);
    // No answer is sniffed into another type (a JSON error repeating what a client sent, read as HTML).
    c.header("X-Content-Type-Options", "nosniff");
    const head = c.req.method === "HEAD";
    // A preflight's 204 or a paid HEAD's 405 ends the chain here, and still gets a HEAD's Content-Length below.
    const early = cors.before(c) ?? refusePaidHead(c);
    if (early) c.res = early;
    else {
      opts.variables(c);
      await opts.compress(head ? asGet(c) : c, next);
    }
    if (c.res.headers.get("content-type")?.startsWith("text/html") && !c.res.headers.has("content-security-policy")) setOnResponse(c, opts.pageHeaders(c.req.path));
    cors.after(c);
    requestIdAfter(c, id);
    if (head) await setHeadLength(c);
  };
}
