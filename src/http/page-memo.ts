// The page memo: a store of what a paid URL resolved to, never a second way in. When registerPaid (paid.ts) has
// answered a GET of a page with 200, it records here what that URL resolved to (the resolution, the quote and how
// the rails describe it, all functions of the URL and the catalog) and a check, without I/O, that yields the body a
// full read of it would return now (src/services/observations.ts observationsPageCheck: the catalog generation and the
// series version the page was read at are still current and trusted). The lookup runs inside the Hono pipeline, as
// the paid route's first middleware (after routing and every app middleware, before validation): a hit skips
// validation, resolution and the handler, and is admitted, rendered and metered by the same code as a cold request
// (paid.ts servePaid, respond.ts renderPage). A URL whose check fails is forgotten and goes on to the full route,
// which records it again. PAGE_MEMO=off switches the memo off.
import type { Context } from "hono";
import type { Quote, Serving } from "../pricing";
import type { PaymentDescription, ReadPolicy } from "../services/admission";
import type { RenderedJson } from "../services/rendered";
import { acceptedFormat } from "./content-coding";
import { requestTarget } from "./url-parts";
import { CACHE_BOUNDS } from "../services/caches";

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

/** URLs remembered, and the bytes their bodies may hold in all (bodies are shared with the page cache). */
const { maxEntries: MAX_ENTRIES, maxWeight: MAX_BYTES, maxEntryWeight: MAX_ENTRY_BYTES } = CACHE_BOUNDS.pageMemo;

type Entry = PageEntry & { bytes: number };

export class PageMemo {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** Requests answered from the memo since start. */
  served = 0;

  /**
   * The key of a request: its target (`url`: the request URL without any secret it carries), and the format its
   * Accept header chose (content-coding.ts acceptedFormat): the same URL may be recorded as JSON and as CSV.
   */
  static keyOf(c: Context, url: string): string {
    return `${acceptedFormat(c.req.header("accept"))} ${requestTarget(url)}`;
  }

  /** After a 200: the request `key` may be answered from `entry` while its check yields a body. */
  record(key: string, entry: PageEntry): void {
    const size = entry.body()?.body.size;
    if (size === undefined || size > MAX_ENTRY_BYTES) return;
    this.forget(key);
    this.entries.set(key, { ...entry, bytes: size });
    this.bytes += size;
    for (const [k] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.forget(k);
    }
  }

  /** What `key` was recorded with and the body to answer now, or null (an entry whose check fails is forgotten). */
  lookup(key: string): { entry: PageEntry; body: RenderedJson } | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    const body = entry.body();
    if (!body) {
      this.forget(key);
      return null;
    }
    this.served++;
    return { entry, body };
  }

  /** How many URLs are remembered. */
  get size(): number {
    return this.entries.size;
  }

  private forget(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.bytes;
  }
}
