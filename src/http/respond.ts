// Response helpers shared by every route, so headers and envelopes are set in one place.
import type { Context } from "hono";

/** Catalog data changes only with a seed or import: let CDNs and browsers cache it. */
export const CATALOG_CACHE_CONTROL = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";

/**
 * A JSON body serialised once, with its strong entity tag. The tag is a hash of the bytes (and their length), so two
 * processes serving the same catalog hand out the same tag and a CDN or client revalidates against either. The body
 * is a Blob: every Response made from it shares its bytes (a Uint8Array body is copied into each one; the county
 * list is 444 KB).
 */
export type RenderedJson = { readonly body: Blob; readonly etag: string };

const encoder = new TextEncoder();

export function renderJson(value: unknown): RenderedJson {
  const bytes = encoder.encode(JSON.stringify(value));
  return { body: new Blob([bytes], { type: "application/json" }), etag: `"${bytes.length.toString(36)}-${Bun.hash(bytes).toString(36)}"` };
}

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
 * the request's If-None-Match already names this representation.
 */
export function catalogResponse(c: Context, rendered: RenderedJson): Response {
  const headers = { "Cache-Control": CATALOG_CACHE_CONTROL, ETag: rendered.etag };
  if (etagMatches(c.req.header("if-none-match"), rendered.etag)) return c.body(null, 304, headers);
  return c.body(rendered.body as never, 200, { ...headers, "Content-Type": "application/json" });
}

/** catalogResponse for a body built per request. */
export function catalogJson<T>(c: Context, body: T): Response {
  return catalogResponse(c, renderJson(body));
}

/** OpenAPI: the headers of a catalog 200 or 304. */
export const catalogResponseHeaders = {
  "Cache-Control": { description: "Public CDN cache policy of the catalog.", schema: { type: "string" as const, example: CATALOG_CACHE_CONTROL } },
  ETag: { description: "Strong entity tag of the representation; send it back as `If-None-Match` to revalidate.", schema: { type: "string" as const, example: '"9ix-1q2w3e4r5t6y"' } },
};

/** OpenAPI: the 304 a catalog route answers to a matching If-None-Match. */
export const notModifiedResponse = {
  304: { description: "Not modified: the request's `If-None-Match` names the current representation (no body).", headers: catalogResponseHeaders },
};
