// Response helpers shared by every route, so headers and envelopes are set in one place.
import type { Context } from "hono";
import { isDatabaseUnavailable } from "../../db/client";
import { envelope } from "../errors";
import type { Logger } from "../logger";
import { renderJson, type RenderedJson } from "../services/rendered";
import type { ProvisioningBody } from "../schemas/provisioning";
import type { AppEnv } from "./app-env";
import { bodyToWrite, codedBody, codingHeaders } from "./content-coding";

export { renderJson, type RenderedJson };

/** Catalog data changes only with a seed or import: let CDNs and browsers cache it. */
export const CATALOG_CACHE_CONTROL = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";

/**
 * Whether an If-None-Match header names this tag (RFC 9110 §13.1.2: weak comparison, so `W/"x"` matches `"x"`;
 * `*` matches any current representation).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const want = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const raw of ifNoneMatch.split(",")) {
    const tag = raw.trim();
    if (tag === "*") return true;
    if ((tag.startsWith("W/") ? tag.slice(2) : tag) === want) return true;
  }
  return false;
}

/**
 * A catalog 200 with the CDN Cache-Control and a strong ETag, or a bodiless 304 carrying the same two headers when
 * the request's If-None-Match already names this representation. A cached body (rendered once) is sent in the coding
 * the client accepts, compressed once; a body built per request is left to the compress middleware.
 */
export function catalogResponse(c: Context<AppEnv>, rendered: RenderedJson, cached = true): Response {
  const coded = cached
    ? codedBody(rendered, c.req.header("accept-encoding"))
    : { form: { blob: rendered.body, bytes: rendered.bytes }, coding: null, etag: rendered.etag };
  const headers: Record<string, string> = {
    "Cache-Control": CATALOG_CACHE_CONTROL,
    ETag: coded.etag,
    ...(cached ? codingHeaders(coded) : {}),
  };
  if (etagMatches(c.req.header("if-none-match"), coded.etag)) {
    delete headers["Content-Encoding"];
    return c.body(null, 304, headers);
  }
  return c.body(bodyToWrite(coded.form, c.get("turn")) as never, 200, {
    ...headers,
    "Content-Type": "application/json",
  });
}

/** A read of a series being provisioned: 202 with Retry-After, never charged. */
export function provisioningAnswer(c: Context, body: ProvisioningBody): Response {
  return c.json(body, 202, { "Retry-After": String(body.retry_after_seconds), "Cache-Control": "no-store" });
}

/** catalogResponse for a body built per request. */
export function catalogJson<T>(c: Context<AppEnv>, body: T): Response {
  return catalogResponse(c, renderJson(body), false);
}

/** OpenAPI: the headers of a catalog 200 or 304. */
export const catalogResponseHeaders = {
  "Cache-Control": {
    description: "Public CDN cache policy of the catalog.",
    schema: { type: "string" as const, example: CATALOG_CACHE_CONTROL },
  },
  ETag: {
    description: "Strong entity tag of the representation; send it back as `If-None-Match` to revalidate.",
    schema: { type: "string" as const, example: '"9ix-1q2w3e4r5t6y"' },
  },
};

/** OpenAPI: the 304 a catalog route answers to a matching If-None-Match. */
export const notModifiedResponse = {
  304: {
    description: "Not modified: the request's `If-None-Match` names the current representation (no body).",
    headers: catalogResponseHeaders,
  },
};

/**
 * The answer to an unexpected failure: logged with the request id and its stack, answered 500 with the envelope and
 * nothing else (a stack trace never leaves the process).
 */
export function internalErrorResponse(
  logger: Logger,
  err: unknown,
  req: { requestId: string; method: string; url: string },
): Response {
  logger.error("unhandled error", {
    request_id: req.requestId,
    method: req.method,
    path: pathForLog(req.url),
    error: String(err),
    stack: (err as Error)?.stack,
  });
  return Response.json(envelope("INTERNAL_SERVER_ERROR", `Internal server error (request ${req.requestId}).`), {
    status: 500,
  });
}

/** Seconds a client is asked to wait while the database is not answering (the connection gate retries twice a second). */
export const DATABASE_RETRY_AFTER_S = 2;

/**
 * The answer to a failure no route handled: 503 with Retry-After when the database is not answering (an outage, a
 * restart, a statement timeout: the connection gate logs the outage once, not per request), else the 500 above.
 */
export function failureResponse(
  logger: Logger,
  err: unknown,
  req: { requestId: string; method: string; url: string },
): Response {
  if (!isDatabaseUnavailable(err)) return internalErrorResponse(logger, err, req);
  logger.debug("database unavailable", {
    request_id: req.requestId,
    method: req.method,
    path: pathForLog(req.url),
    error: String(err),
  });
  return Response.json(
    envelope("SERVICE_UNAVAILABLE", "The database is not answering; retry shortly.", {
      retry_after_seconds: DATABASE_RETRY_AFTER_S,
    }),
    {
      status: 503,
      headers: { "Retry-After": String(DATABASE_RETRY_AFTER_S), "Cache-Control": "no-store" },
    },
  );
}

/**
 * Bun.serve's `error` handler: what answers if the app's own fetch throws anyway, instead of the runtime's error page
 * (which shows source lines and paths whenever development mode is on).
 */
export function lastResortErrorResponse(logger: Logger): (err: Error) => Response {
  return (err) => failureResponse(logger, err, { requestId: crypto.randomUUID(), method: "-", url: "-" });
}

/** The path of a request URL for a log line; never throws (this runs while answering a failure). */
function pathForLog(url: string): string {
  try {
    return new URL(url, "http://invalid").pathname;
  } catch {
    return "(unparseable)";
  }
}
