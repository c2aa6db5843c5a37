// The page memo: a store of what a paid URL resolved to, never a second way in. When a paid route (src/http/paid.ts)
// has answered a GET of a page with 200, it records here what that URL resolved to (the resolution, the quote and how
// the rails describe it, all functions of the URL and the catalog) and the body a full read of it returns, with one
// validity token: the caches' epoch when it was recorded, and until when the catalog and the series head it was read
// at are trusted (src/services/observations.ts observationsPageCheck). Any invalidation of the catalog or of a series
// in this process moves the epoch (catalog-index.ts, series-cache.ts); another process's writes are seen no later than
// the trust runs out, as the caches see them. A hit compares the token and nothing else: no key is rebuilt, no head
// or catalog asked. The lookup runs inside the Hono pipeline, as the paid route's first middleware (after routing and
// every app middleware, before validation): a hit skips validation, resolution and the handler, and is admitted,
// rendered and metered by the same code as a cold request. A URL whose token is spent is forgotten and goes on to the
// full route, which records it again. It is a BoundedCache like every other cache (bounds in CACHE_BOUNDS.pageMemo:
// URLs, and the bytes their bodies hold, least recently answered out first), made with the app's caches (caches.ts).
// PAGE_MEMO=off leaves it unused.
import type { Quote, Serving } from "../pricing";
import { BoundedCache, type CacheBounds } from "./bounded-cache";
import type { PaymentDescription, ReadPolicy } from "./paid-read";
import type { RenderedJson } from "./rendered";

/** Moved by every invalidation of what recorded pages were read from (the catalog, a series) in this process. */
export type Epoch = { value: number };

/**
 * A page a full read returns now and until when it holds: `until` on the caches' trust clock (performance.now(): the
 * catalog's and the series head's trust), `dayEnd` on the app's clock (ms; a page whose meta depends on the day).
 */
export type PageCheck = { body: RenderedJson; until: number; dayEnd: number };

export type PageEntry = PageCheck & {
  /** The Vary header of the recorded answer (the request headers its body depends on). */
  vary: string;
  quote: Quote;
  serving: Serving;
  policy: ReadPolicy;
  /** How the payment rails describe the request (asked only when a payment is): a function, so a hit passes the entry as it is. */
  payment: () => PaymentDescription;
};

/** An entry as held: the epoch it was recorded at, weighed by its body's bytes (bodies are shared with the page cache). */
type HeldEntry = PageEntry & { readonly epoch: number; readonly bytes: number };

export class PageMemo extends BoundedCache<string, HeldEntry> {
  /** Requests answered from the memo since start. */
  served = 0;

  constructor(
    bounds: CacheBounds,
    readonly epoch: Epoch = { value: 0 },
  ) {
    super(bounds, (entry) => entry.bytes);
  }

  /** After a 200: the request `key` may be answered from `entry` until its token is spent. */
  record(key: string, entry: PageEntry): void {
    this.set(key, { ...entry, epoch: this.epoch.value, bytes: entry.body.body.size });
  }

  /** What `key` was recorded with while its token holds at `at` (the app's clock, ms), else null (and forgotten). */
  lookup(key: string, at: number): PageEntry | null {
    const entry = this.get(key);
    if (entry === undefined) return null;
    if (entry.epoch !== this.epoch.value || performance.now() >= entry.until || at >= entry.dayEnd) {
      this.delete(key);
      return null;
    }
    this.served++;
    return entry;
  }
}
