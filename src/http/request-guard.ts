// Request-shape guards that hold for every route, present and future, so each route's zod schema only has to
// describe its own parameters:
// - a NUL character (U+0000, `%00`) anywhere in the path or query is a 400: PostgreSQL text cannot hold it, and no
//   code, region or search term contains one;
// - on the /v1 API, a query parameter the operation does not list is a 400 naming it (spec: "the query parameters
//   listed are the only ones"); a typo such as `start=` would otherwise be ignored and a paid request would return
//   data the caller did not ask for. FRED's names (`observation_start`, `units`, `api_key`, ...) are answered with
//   ours (domain/fred-habits.ts). Discovery, docs and checkout pages are opened from links that may carry
//   tracking or provider parameters (Stripe's `session_id`), so they ignore unknown ones;
// - request bodies are capped (413);
// - a known path called with a method it does not serve is a 405 with `Allow`, not a 404;
// - a request whose Host header is missing or not a host (`Host: a b`, an HTTP/1.0 request without one) is a 400
//   before anything else runs (hostGuard): the runtime hands such a request over with a URL every later step would
//   fail to parse;
// - HEAD on a paid route is a 405 too (paidHeadRefusal). Hono answers HEAD with its GET handler minus the body, so a
//   paid HEAD would run the paid pipeline: metered to a key, or spending a payment proof, for no data. No client
//   needs it (the price and the challenge come with a GET), so it is refused before any of that. Free routes
//   (catalog, discovery, docs) keep HEAD as GET without a body.
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./app-env";
import { envelope, fail } from "../errors";
import { translateFredParameters } from "../domain/fred-habits";
import { isPaidHandler } from "./paid-marker";
import { quotedPath, requestTarget } from "./url-parts";
import { requestIdFor } from "./request-id";
import { BoundedCache } from "../services/bounded-cache";
import { CACHE_BOUNDS } from "../services/caches";

type Fetch = (req: Request, ...rest: any[]) => Response | Promise<Response>;

/**
 * Wraps the app's fetch: a request whose URL is not absolute and valid (Bun builds it from the Host header, and gives
 * a bare path when the header is missing or malformed) is answered 400 with the envelope. The scheme, host and port
 * of the last valid URL are remembered, so a request to the same host costs one string comparison, not a parse.
 */
export function hostGuard(fetch: Fetch, headers: Record<string, string>): Fetch {
  let validOrigin = "\0";
  return (req, ...rest) => {
    const url = req.url;
    if (url.startsWith(validOrigin)) return fetch(req, ...rest);
    if (url.charCodeAt(0) !== 47 /* "/": no host at all */ && URL.canParse(url)) {
      const pathAt = url.indexOf("/", url.indexOf("//") + 2);
      if (pathAt > 0) validOrigin = url.slice(0, pathAt + 1);
      return fetch(req, ...rest);
    }
    const res = Response.json(
      envelope("INVALID_PARAMETER", "The Host header is missing or is not a valid host name: send 'Host: <name>[:port]'.", { in: "header", parameter: "host" }),
      { status: 400, headers },
    );
    res.headers.set("X-Request-Id", requestIdFor(req.headers.get("x-request-id")));
    return res;
  };
}

/** Largest accepted request body. JSON bodies here are a few hundred bytes; Stripe events stay far below this. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Bun.serve options for the runtime's own limits (issue 28). The runtime refuses a body longer than its
 * maxRequestBodySize (128 MB by default) itself, with an empty 413; raised out of the way, every too-large body
 * reaches limitBody() and gets the envelope (a declared length is refused before a byte is read; a chunked body is
 * cut after MAX_BODY_BYTES). Headers over 16 KB (431) and a malformed request line (400, 505) are answered by the
 * runtime before the app sees anything, with an empty body: the README says so.
 */
export const SERVE_LIMITS = { maxRequestBodySize: Number.MAX_SAFE_INTEGER } as const;

function limitBody(): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json(envelope("PAYLOAD_TOO_LARGE", `The request body exceeds ${MAX_BODY_BYTES} bytes.`, { max_bytes: MAX_BODY_BYTES }), 413),
  });
}

/**
 * The app middleware after everyAnswer (every-answer.ts), in one async layer: `keyed` (admission.ts admitKeyed: a bad
 * key is a 401 on any route), then guardQuery (NUL characters, unknown /v1 query parameters: 400), then a body over
 * MAX_BODY_BYTES (413), before any route runs.
 */
export function guardRequest(keyed: (c: Context<AppEnv>) => Response | null | Promise<Response | null>): MiddlewareHandler<AppEnv> {
  const checkQuery = guardQuery();
  const limit = limitBody();
  const rest = (c: Context<AppEnv>, next: () => Promise<void>) => {
    checkQuery(c);
    return c.req.raw.body ? limit(c, next) : next();
  };
  // Not async: a request whose key needs no lookup (a paid route, a cached key) passes on without a promise of its
  // own (issue 27). A check that throws is caught by Hono's dispatch as a rejection would be.
  return function guardRequestMiddleware(c, next) {
    const verdict = keyed(c);
    if (verdict instanceof Promise) return verdict.then((refused) => refused ?? rest(c, next));
    return verdict ? Promise.resolve(verdict) : rest(c, next);
  };
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The name of the first query parameter whose name or value holds a malformed percent-escape ('%' not followed by two
 * hex digits, or escapes that are not UTF-8), or null. URL parsing keeps such text as it is, and the query decoder
 * dropped what followed: "/v1/ask?q=jobs%in%20Texas" answered (and charged) for the United States.
 */
export function malformedEscape(search: string): string | null {
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (!part.includes("%")) continue;
    const eq = part.indexOf("=");
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const ok = (text: string) => {
      try {
        decodeURIComponent(text.replace(/\+/g, " "));
        return true;
      } catch {
        return false;
      }
    };
    if (!ok(rawName)) return rawName;
    if (eq >= 0 && !ok(part.slice(eq + 1))) return decodeURIComponent(rawName.replace(/\+/g, " "));
  }
  return null;
}

/** A query parameter whose name or value holds a NUL character is a 400 (PostgreSQL text cannot hold it). */
export function refuseNulInQuery(params: URLSearchParams): void {
  for (const name of new Set(params.keys())) {
    if (name.includes("\u0000") || params.getAll(name).some((v) => v.includes("\u0000"))) {
      fail("INVALID_PARAMETER", `Invalid parameter ${JSON.stringify(name)}: contains a NUL character (%00).`, { parameter: name, in: "query" });
    }
  }
}

/**
 * NUL in the path or query, a malformed percent-escape in the query, then (on /v1 operations) unknown query parameters: 400 INVALID_PARAMETER. The verdict is
 * a function of the method and the request target alone, so the targets that passed are remembered (bounded) and
 * not parsed again: reads repeat the same URLs.
 */
function guardQuery(): (c: Context<AppEnv>) => void {
  const passed = new BoundedCache<string, true>(CACHE_BOUNDS.passedTargets);
  return (c) => {
    const href = c.req.url;
    const target = `${c.req.method} ${requestTarget(href)}`;
    if (passed.has(target)) return;
    const url = new URL(href);
    if (/%00/i.test(url.pathname) || decodeSegment(url.pathname).includes("\u0000")) {
      fail("INVALID_PARAMETER", "The path contains a NUL character (%00).", { in: "path" });
    }
    const malformed = malformedEscape(url.search);
    if (malformed) {
      fail("INVALID_PARAMETER", `Invalid parameter ${JSON.stringify(malformed)}: a malformed percent-escape (each '%' starts two hex digits of UTF-8; send '%25' for a literal '%').`, { parameter: malformed, in: "query" });
    }
    const names = [...new Set(url.searchParams.keys())];
    refuseNulInQuery(url.searchParams);
    if (names.length > 0 && url.pathname.startsWith("/v1/")) {
      const allowed = allowedQueryParameters(c);
      const unknown = allowed ? names.filter((n) => !allowed.includes(n)) : [];
      if (allowed && unknown.length > 0) {
        const list = unknown.map((n) => JSON.stringify(n)).join(", ");
        // Names only, never values: an unknown parameter may be FRED's `api_key`, a secret.
        const fred = translateFredParameters(new Map(unknown.map((n) => [n, url.searchParams.getAll(n)])), allowed);
        fail(
          "INVALID_PARAMETER",
          `Unknown ${unknown.length > 1 ? "parameters" : "parameter"} ${list}. ` +
            fred.map((t) => `${t.message} `).join("") +
            (allowed.length ? `${c.req.method} ${url.pathname} takes: ${allowed.join(", ")}.` : `${c.req.method} ${url.pathname} takes no query parameters.`),
          { parameter: unknown[0], parameters: unknown, in: "query", allowed, ...(fred.length ? { fred } : {}) },
        );
      }
    }
    passed.set(target, true);
  };
}

/** The query parameters the OpenAPI contract lists for the operation this request matched; null when it is not one. */
function allowedQueryParameters(c: Context<AppEnv>): string[] | null {
  const endpoint = matchedRoutes(c).filter((r) => r.method !== "ALL").at(-1);
  const operations = c.get("operations");
  if (!endpoint || !operations) return null;
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const shape = operations.describe(method, endpoint.path);
  return shape ? Object.keys(shape.queryParamsSchema.properties) : null;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Router = { match(method: string, path: string): [Array<[[unknown, { method: string }], unknown]>, unknown?] };

/**
 * Methods a path is served with (routes, not app-wide middleware); empty when no route has the path at all. HEAD
 * goes with GET, except on a paid route (paidHeadRefusal).
 */
export function allowedMethods(router: Router, path: string): string[] {
  const out: string[] = [];
  let paidGet = false;
  for (const m of METHODS) {
    const [matches] = router.match(m, path);
    const routes = matches.filter(([[, route]]) => route.method !== "ALL");
    if (routes.length > 0) out.push(m);
    if (m === "GET") paidGet = routes.some(([[handler]]) => isPaidHandler(handler));
  }
  if (out.includes("GET") && !paidGet) out.splice(1, 0, "HEAD");
  return out;
}

/**
 * HEAD on a paid route: 405 METHOD_NOT_ALLOWED with `Allow`, or null for any other request. Asked before the key
 * middleware, so nothing of the paid pipeline runs: no key is looked up, counted against its rate limit or metered,
 * and no payment proof is read.
 */
export function paidHeadRefusal(router: Router): (c: Context<AppEnv>) => Response | null {
  return (c) => {
    // Hono routes HEAD to GET handlers: the matched routes are the GET route's.
    if (c.req.method !== "HEAD" || !matchedRoutes(c).some((r) => r.method !== "ALL" && isPaidHandler(r.handler))) return null;
    const path = new URL(c.req.url).pathname;
    const allowed = allowedMethods(router, c.req.path);
    c.header("Allow", [...allowed, "OPTIONS"].join(", "));
    return c.json(
      envelope("METHOD_NOT_ALLOWED", `HEAD is not allowed on ${path}, a paid operation: it would be charged without returning data; use ${allowed.join(", ")}.`, { allowed }),
      405,
    );
  };
}

/**
 * HEAD answers with the headers its GET would have, Content-Length included: Hono answers HEAD by running the GET route
 * and dropping its body, after which the length is lost (the runtime would send `content-length: 0`). Run last, after
 * compression, so the body it measures is the one the GET would send (routes that code their own bodies code it for
 * HEAD too).
 */
export async function setHeadLength(c: Context): Promise<void> {
  if (c.req.method !== "HEAD" || !c.res.body || c.res.headers.has("content-length")) return;
  const bytes = await c.res.arrayBuffer();
  const res = new Response(bytes, c.res);
  res.headers.set("Content-Length", String(bytes.byteLength));
  c.res = res;
}

/** A view of a HEAD request's context in which the method reads GET (for middleware that treats HEAD apart). */
export function asGet<C extends Context>(c: C): C {
  const bound = <T extends object>(target: T, prop: string | symbol) => {
    const v = Reflect.get(target, prop, target);
    return typeof v === "function" ? v.bind(target) : v;
  };
  const req = new Proxy(c.req, { get: (target, prop) => (prop === "method" ? "GET" : bound(target, prop)) });
  return new Proxy(c, { get: (target, prop) => (prop === "req" ? req : bound(target, prop)), set: (target, prop, value) => Reflect.set(target, prop, value, target) });
}

/** The notFound answer: 405 with `Allow` for a known path and another method, else 404. */
export function notFoundOrMethodNotAllowed(router: Router) {
  return (c: Context<AppEnv>) => {
    const path = quotedPath(new URL(c.req.url).pathname);
    const allowed = c.req.method === "OPTIONS" ? [] : allowedMethods(router, c.req.path);
    if (allowed.length > 0) {
      c.header("Allow", [...allowed, "OPTIONS"].join(", "));
      return c.json(envelope("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${path}; use ${allowed.join(", ")}.`, { allowed }), 405);
    }
    return c.json(envelope("RESOURCE_NOT_FOUND", `No route for ${c.req.method} ${path}`), 404);
  };
}
