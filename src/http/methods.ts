// Which methods a path is served with, and the answers that depend on it:
// - a known path called with a method it does not serve is a 405 with `Allow`, not a 404 (notFoundOrMethodNotAllowed,
//   the app's notFound handler: it runs only when no route matched, so it costs nothing on a served request);
// - HEAD on a paid route (as the app's route registry records it) is a 405 too (refusePaidHead). Hono answers HEAD with its GET handler minus the body, so a
//   paid HEAD would run the paid pipeline: metered to a key, or spending a payment proof, for no data. No client needs
//   it (the price and the challenge come with a GET), so it is refused before any of that. Free routes (catalog,
//   discovery, docs) keep HEAD as GET without a body, with the Content-Length their GET would have (headContentLength).
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import type { Check } from "./checks";
import { envelope } from "../errors";
import type { RouteRegistry } from "./route-registry";
import { quotedPath } from "./url-parts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Router = {
  match(method: string, path: string): [Array<[[unknown, { method: string; path: string }], unknown]>, unknown?];
};

/**
 * Methods a path is served with (routes, not app-wide middleware); empty when no route has the path at all. HEAD
 * goes with GET, except on a paid route.
 */
export function allowedMethods(router: Router, registry: RouteRegistry, path: string): string[] {
  const out: string[] = [];
  let paidGet = false;
  for (const m of METHODS) {
    const [matches] = router.match(m, path);
    const routes = matches.filter(([[, route]]) => route.method !== "ALL");
    if (routes.length > 0) out.push(m);
    if (m === "GET") paidGet = routes.some(([[, route]]) => registry.at(route.method, route.path)?.paid);
  }
  if (out.includes("GET") && !paidGet) out.splice(1, 0, "HEAD");
  return out;
}

/**
 * HEAD on a paid route: 405 METHOD_NOT_ALLOWED with `Allow`. Registered before the key middleware, so nothing of the
 * paid pipeline runs: no key is looked up, counted against its rate limit or metered, and no payment proof is read.
 */
export function refusePaidHead(router: Router, registry: RouteRegistry): Check {
  return (c) => {
    // Hono routes HEAD to GET handlers: the matched routes are the GET route's.
    if (c.req.method !== "HEAD" || !registry.matched(c)?.paid) return null;
    const path = new URL(c.req.url).pathname;
    const allowed = allowedMethods(router, registry, c.req.path);
    c.header("Allow", [...allowed, "OPTIONS"].join(", "));
    return c.json(
      envelope(
        "METHOD_NOT_ALLOWED",
        `HEAD is not allowed on ${path}, a paid operation: it would be charged without returning data; use ${allowed.join(", ")}.`,
        { allowed },
      ),
      405,
    );
  };
}

/** The notFound answer: 405 with `Allow` for a known path and another method, else 404. */
export function notFoundOrMethodNotAllowed(router: Router, registry: RouteRegistry) {
  return (c: Context<AppEnv>) => {
    const path = quotedPath(new URL(c.req.url).pathname);
    const allowed = c.req.method === "OPTIONS" ? [] : allowedMethods(router, registry, c.req.path);
    if (allowed.length > 0) {
      c.header("Allow", [...allowed, "OPTIONS"].join(", "));
      return c.json(
        envelope("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${path}; use ${allowed.join(", ")}.`, {
          allowed,
        }),
        405,
      );
    }
    return c.json(envelope("RESOURCE_NOT_FOUND", `No route for ${c.req.method} ${path}`), 404);
  };
}

/**
 * HEAD answers with the headers its GET would have, Content-Length included: Hono answers HEAD by running the GET route
 * and dropping its body, after which the length is lost (the runtime would send `content-length: 0`). Registered
 * outermost, so the body it measures is the one the GET would send, compressed (routes that code their own bodies code
 * it for HEAD too).
 */
export function headContentLength(): MiddlewareHandler {
  const measure = async (c: Context) => {
    if (!c.res.body || c.res.headers.has("content-length")) return;
    const bytes = await c.res.arrayBuffer();
    const res = new Response(bytes, c.res);
    res.headers.set("Content-Length", String(bytes.byteLength));
    c.res = res;
  };
  // Not async: any other method passes on without a layer of its own.
  return function headContentLengthMiddleware(c, next) {
    return c.req.method === "HEAD" ? next().then(() => measure(c)) : next();
  };
}

/** `middleware` run on a HEAD request as on its GET (Hono's compress leaves HEAD alone; its GET would be compressed). */
export function headAsGet(middleware: MiddlewareHandler): MiddlewareHandler {
  return function headAsGetMiddleware(c, next) {
    return middleware(c.req.method === "HEAD" ? asGet(c) : c, next) as Promise<void>;
  };
}

/** A view of a HEAD request's context in which the method reads GET. */
function asGet<C extends Context>(c: C): C {
  const bound = <T extends object>(target: T, prop: string | symbol) => {
    const v = Reflect.get(target, prop, target);
    return typeof v === "function" ? v.bind(target) : v;
  };
  const req = new Proxy(c.req, { get: (target, prop) => (prop === "method" ? "GET" : bound(target, prop)) });
  return new Proxy(c, {
    get: (target, prop) => (prop === "req" ? req : bound(target, prop)),
    set: (target, prop, value) => Reflect.set(target, prop, value, target),
  });
}
