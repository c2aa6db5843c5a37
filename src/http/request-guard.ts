// Request-shape guards that hold for every route, present and future, so each route's zod schema only has to
// describe its own parameters (each a middleware of its own, in the order src/app.ts lists them):
// - a request whose Host header is missing or not a host (`Host: a b`, an HTTP/1.0 request without one) is a 400
//   before anything else runs (hostGuard): the runtime hands such a request over with a URL every later step would
//   fail to parse;
// - a NUL character (U+0000, `%00`) anywhere in the path or query is a 400: PostgreSQL text cannot hold it, and no
//   code, region or search term contains one (rejectMalformedQuery);
// - on the /v1 API, a query parameter the operation does not list is a 400 naming it (spec: "the query parameters
//   listed are the only ones"); a typo such as `start=` would otherwise be ignored and a paid request would return
//   data the caller did not ask for. FRED's names (`observation_start`, `units`, `api_key`, ...) are answered with
//   ours (domain/fred-habits.ts). Discovery, docs and checkout pages are opened from links that may carry
//   tracking or provider parameters (Stripe's `session_id`), so they ignore unknown ones (rejectMalformedQuery);
// - request bodies are capped (limitBody: 413).
// Which methods a path takes (405 with `Allow`, HEAD on a paid route) is src/http/methods.ts.
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./app-env";
import type { Check } from "./checks";
import { envelope, fail } from "../errors";
import { translateFredParameters } from "../domain/fred-habits";
import { requestTarget } from "./url-parts";
import type { BoundedCache } from "../services/bounded-cache";

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
      envelope(
        "INVALID_PARAMETER",
        "The Host header is missing or is not a valid host name: send 'Host: <name>[:port]'.",
        { in: "header", parameter: "host" },
      ),
      { status: 400, headers },
    );
    res.headers.set("X-Request-Id", crypto.randomUUID());
    return res;
  };
}

/** Largest accepted request body. JSON bodies here are a few hundred bytes; Stripe events stay far below this. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Bun.serve options for the runtime's own limits. The runtime refuses a body longer than its
 * maxRequestBodySize (128 MB by default) itself, with an empty 413; raised out of the way, every too-large body
 * reaches limitBody() and gets the envelope (a declared length is refused before a byte is read; a chunked body is
 * cut after MAX_BODY_BYTES). Headers over 16 KB (431) and a malformed request line (400, 505) are answered by the
 * runtime before the app sees anything, with an empty body: the README says so.
 */
export const SERVE_LIMITS = { maxRequestBodySize: Number.MAX_SAFE_INTEGER } as const;

/** A body over MAX_BODY_BYTES is a 413 with the envelope (hono/body-limit; a request without a body skips its layer). */
export function limitBody(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      c.json(
        envelope("PAYLOAD_TOO_LARGE", `The request body exceeds ${MAX_BODY_BYTES} bytes.`, {
          max_bytes: MAX_BODY_BYTES,
        }),
        413,
      ),
  });
  return function limitBodyMiddleware(c, next) {
    return c.req.raw.body ? limit(c, next) : next();
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
      fail("INVALID_PARAMETER", `Invalid parameter ${JSON.stringify(name)}: contains a NUL character (%00).`, {
        parameter: name,
        in: "query",
      });
    }
  }
}

/**
 * NUL in the path or query, a malformed percent-escape in the query, then (on /v1 operations) unknown query
 * parameters: 400 INVALID_PARAMETER. The verdict is a function of the method and the request target alone, so the
 * targets that passed are remembered (bounded) and not parsed again: reads repeat the same URLs.
 */
export function rejectMalformedQuery(passed: BoundedCache<string, true>): Check {
  return (c) => {
    const href = c.req.url;
    const target = `${c.req.method} ${requestTarget(href)}`;
    if (passed.has(target)) return null;
    const url = new URL(href);
    if (/%00/i.test(url.pathname) || decodeSegment(url.pathname).includes("\u0000")) {
      fail("INVALID_PARAMETER", "The path contains a NUL character (%00).", { in: "path" });
    }
    const malformed = malformedEscape(url.search);
    if (malformed) {
      fail(
        "INVALID_PARAMETER",
        `Invalid parameter ${JSON.stringify(malformed)}: a malformed percent-escape (each '%' starts two hex digits of UTF-8; send '%25' for a literal '%').`,
        { parameter: malformed, in: "query" },
      );
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
            (allowed.length
              ? `${c.req.method} ${url.pathname} takes: ${allowed.join(", ")}.`
              : `${c.req.method} ${url.pathname} takes no query parameters.`),
          { parameter: unknown[0], parameters: unknown, in: "query", allowed, ...(fred.length ? { fred } : {}) },
        );
      }
    }
    passed.set(target, true);
    return null;
  };
}

/** The query parameters the OpenAPI contract lists for the operation this request matched; null when it is not one. */
function allowedQueryParameters(c: Context<AppEnv>): string[] | null {
  const endpoint = matchedRoutes(c)
    .filter((r) => r.method !== "ALL")
    .at(-1);
  const operations = c.get("operations");
  if (!endpoint || !operations) return null;
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const shape = operations.describe(method, endpoint.path);
  return shape ? Object.keys(shape.queryParamsSchema.properties) : null;
}
