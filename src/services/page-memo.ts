// The page memo: a store of what a paid URL resolved to, never a second way in. When a paid route (src/http/paid.ts)
// has answered a GET of a page with 200, it records here what that URL resolved to (the resolution, the quote and how
// the rails describe it, all functions of the URL and the catalog) and a check, without I/O, that yields the body a
// full read of it would return now (src/services/observations.ts observationsPageCheck: the catalog generation and the
// series version the page was read at are still current and trusted). The lookup runs inside the Hono pipeline, as
// the paid route's first middleware (after routing and every app middleware, before validation): a hit skips
// validation, resolution and the handler, and is admitted, rendered and metered by the same code as a cold request.
// A URL whose check fails is forgotten and goes on to the full route, which records it again. It is a BoundedCache
// like every other cache (bounds in CACHE_BOUNDS.pageMemo: URLs, and the bytes their bodies hold, least recently
// answered out first), made with the app's caches (caches.ts). PAGE_MEMO=off leaves it unused.
import type { Quote, Serving } from "../pricing";
import { BoundedCache, type CacheBounds } from "./bounded-cache";
import type { PaymentDescription, ReadPolicy } from "./paid-read";
import type { RenderedJson } from "./rendered";

export type PageEntry = {
  /** The body a full read of this URL returns now, or null when only a full read can tell. */
  body: () => RenderedJson | null;
  /** The Vary header of the recorded answer (the request headers its body depends on). */
  vary: string;
  quote: Quote;
  serving: Serving;
  policy: ReadPolicy;
  /** How the payment rails describe the request (asked only when a payment is): a function, so a hit passes the entry as it is. */
  payment: () => PaymentDescription;
};

/** An entry as held: weighed by the bytes of the body it was recorded with (bodies are shared with the page cache). */
type HeldEntry = PageEntry & { readonly bytes: number };

export class PageMemo extends BoundedCache<string, HeldEntry> {
  /** Requests answered from the memo since start. */
  served = 0;

  constructor(bounds: CacheBounds) {
    super(bounds, (entry) => entry.bytes);
  }

  /** After a 200: the request `key` may be answered from `entry` while its check yields a body. */
  record(key: string, entry: PageEntry): void {
    const bytes = entry.body()?.body.size;
    if (bytes !== undefined) this.set(key, { ...entry, bytes });
  }

  /** What `key` was recorded with and the body to answer now, or null (an entry whose check fails is forgotten). */
  lookup(key: string): { entry: PageEntry; body: RenderedJson } | null {
    const entry = this.get(key);
    if (entry === undefined) return null;
    const body = entry.body();
    if (!body) {
      this.delete(key);
      return null;
    }
    this.served++;
    return { entry, body };
  }
}
