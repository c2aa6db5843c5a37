// Response helpers shared by every route, so headers and envelopes are set in one place.
import type { Context } from "hono";

/** Catalog data changes only with a seed or import: let CDNs and browsers cache it. */
export const CATALOG_CACHE_CONTROL = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";

export function catalogJson<T>(c: Context, body: T) {
  c.header("Cache-Control", CATALOG_CACHE_CONTROL);
  return c.json(body as any, 200);
}
