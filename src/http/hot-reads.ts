// The hot-read lane: a repeated GET of a paid read answered without the framework, when nothing about it needs the
// full pipeline.
//
// Everything the full pipeline decides before the access check (query guard, validation, resolution, price) is a
// function of the URL and of the catalog, and an observation page is a function of that and of the series version.
// So when paid() has served a URL with 200, it records here what it resolved and priced and a check, without I/O,
// that yields the body a full read would return now (src/services/observations.ts hotObservationsPage: the catalog
// generation and the series version it was read at are still current and trusted). The next GET of that URL:
//   1. takes the lane only if the recorded check still yields a body, and the request is a GET whose key (if any) is
//      well formed and already in the key cache, valid and not expired;
//   2. asks the access gate's authorizeHot (entitlement for keys; anonymous requests only where no access layer is
//      configured: a payment is always verified, a 401 or 402 always built, by the full pipeline);
//   3. counts the request against the key's per-minute window (the same counter as the middleware); a refusal (429)
//      is handed to the full pipeline with its count, so it is answered there and counted once;
//   4. meters it (the same journal as the key rail's settle) and answers with the recorded body and exactly the
//      headers the full pipeline sets (request id, CORS, rate limit, content type).
// Anything else, at any step before the count, goes to the full pipeline untouched, which records the URL again.
import type { Quote, Resolved } from "../pricing";
import { readCredential } from "../domain/keys";
import { authenticateCachedKey, type AuthenticatedKey } from "../services/keys";
import type { Deps } from "../deps";
import type { AccessGate, HotGrant } from "./paid";
import { rateWindow, remainingAfter, windowEndMs, windowIndex } from "../domain/access";
import { handOverCount, hitWindow, rateCountOf } from "./rate-limit";
import { requestIdFor } from "./request-id";
import { requestTarget } from "./url-parts";

export type HotEntry = {
  /** The body a full read of this URL returns now, or null when only a full read can tell. */
  body: () => Blob | null;
  contentType: string;
  quote: Quote;
  resolved: Resolved;
};

/** URLs remembered, and the bytes their bodies may hold in all (bodies are shared with the page cache). */
const MAX_ENTRIES = 4096;
const MAX_BYTES = 64_000_000;

/** Hono's fetch (env and execution context passed through as they come). */
type Fetch = (req: Request, env?: any, ctx?: any) => Response | Promise<Response>;

/** A remembered URL: the entry, its body's size, and its response headers but the request id and rate limit. */
type Entry = HotEntry & {
  bytes: number;
  headers: Headers;
  keyed: { limit: number; window: number; headers: Headers } | null;
  grant: { key: AuthenticatedKey | null; grant: HotGrant | null } | null;
};

export type HotReadDeps = Pick<Deps, "clock" | "keys" | "logger" | "rateLimits"> & { access: AccessGate };

export class HotReads {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly deps: HotReadDeps,
    /** Headers every response carries besides the request id (CORS). */
    private readonly commonHeaders: Record<string, string>,
  ) {}

  /** Called by paid() after a 200: this URL may be answered from `entry` while its check yields a body. */
  record(url: string, entry: HotEntry): void {
    if (!this.deps.access.authorizeHot) return;
    const target = requestTarget(url);
    const size = entry.body()?.size;
    if (size === undefined || size > MAX_BYTES / 16) return;
    this.forget(target);
    this.entries.set(target, { ...entry, bytes: size, headers: new Headers({ ...this.commonHeaders, "Content-Type": entry.contentType }), keyed: null, grant: null });
    this.bytes += size;
    for (const [t] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_BYTES) break;
      this.forget(t);
    }
  }

  private forget(target: string): void {
    const old = this.entries.get(target);
    if (!old) return;
    this.entries.delete(target);
    this.bytes -= old.bytes;
  }

  /** Requests answered by the lane since start. */
  served = 0;

  /** How many URLs are remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** Wraps the app's fetch: a request the lane can answer is answered here, every other one by `full`. */
  fetch(full: Fetch): Fetch {
    return (req, env, ctx) => this.serve(req, (r) => full(r, env, ctx)) ?? full(req, env, ctx);
  }

  /** The lane's answer, or null to leave the request to the full pipeline (nothing has been counted then). */
  private serve(req: Request, full: (req: Request) => Response | Promise<Response>): Response | Promise<Response> | null {
    if (req.method !== "GET" || this.entries.size === 0) return null;
    const target = requestTarget(req.url);
    const entry = this.entries.get(target);
    if (!entry) return null;
    const body = entry.body();
    if (!body) {
      this.forget(target);
      return null;
    }
    const cred = readCredential(req.headers.get("authorization") ?? undefined, req.headers.get("x-api-key") ?? undefined);
    let key: AuthenticatedKey | null = null;
    if (cred.kind === "malformed") return null;
    const now = this.deps.clock.now();
    if (cred.kind === "key") {
      const auth = authenticateCachedKey(this.deps, cred.key, now);
      if (!auth || !auth.ok || auth.expired) return null;
      key = auth.key;
    }
    const grant = this.grantFor(entry, key);
    if (!grant) return null;
    const requestId = requestIdFor(req.headers.get("x-request-id"));
    if (!key) {
      grant.settle?.(null, now);
      this.served++;
      return answer(body, entry.headers, requestId);
    }
    const t = now.getTime();
    const window = windowIndex(t);
    const counted = hitWindow(this.deps, key, window, windowEndMs(window) - t);
    return counted instanceof Promise
      ? counted.then((n) => this.finish(req, entry, key, now, window, n, body, requestId, grant, full))
      : this.finish(req, entry, key, now, window, counted, body, requestId, grant, full);
  }

  /**
   * authorizeHot's answer for this entry and key, kept on the entry while the same key asks: an authenticated key is
   * one frozen object until the key changes (src/services/keys.ts), and the entry's quote and resolution are fixed.
   */
  private grantFor(entry: Entry, key: AuthenticatedKey | null): HotGrant | null {
    const kept = entry.grant;
    if (kept && kept.key === key) return kept.grant;
    const grant = this.deps.access.authorizeHot!(key, entry.quote, entry.resolved);
    entry.grant = { key, grant };
    return grant;
  }

  /** After the count: the answer, or the full pipeline's for a refused count or a meter that cannot write. */
  private finish(
    req: Request, entry: Entry, key: AuthenticatedKey, now: Date, window: number, count: number | null, body: Blob, requestId: string, grant: HotGrant,
    full: (req: Request) => Response | Promise<Response>,
  ): Response | Promise<Response> {
    // Null: the limiter is down; as in the middleware, the request is served uncounted (hitWindow logged it).
    const remaining = count === null ? null : remainingAfter(count, key.rateLimitPerMinute);
    if (remaining === -1) {
      handOverCount(req, rateCountOf(count, key, rateWindow(now))!);
      return full(req);
    }
    try {
      grant.settle?.(key, now);
    } catch {
      // The meter could not write: the full pipeline answers (it tries again, and refuses to serve unmetered).
      if (count !== null) handOverCount(req, rateCountOf(count, key, rateWindow(now))!);
      return full(req);
    }
    this.served++;
    if (remaining === null) return answer(body, entry.headers, requestId);
    return answer(body, keyedHeaders(entry, key.rateLimitPerMinute, window), requestId, String(remaining));
  }
}

/**
 * A 200 with the recorded body and headers, plus this request's id and (keyed) remaining count. The fixed headers are
 * copied from a prepared Headers object (a native copy) and only what differs per request is set: each header of a
 * plain object costs about 0.25 us to convert, so this halves the cost of the response.
 */
function answer(body: Blob, headers: Headers, requestId: string, rateLimitRemaining?: string): Response {
  const res = new Response(body, { status: 200, headers });
  const h = res.headers;
  h.set("X-Request-Id", requestId);
  if (rateLimitRemaining !== undefined) h.set("X-RateLimit-Remaining", rateLimitRemaining);
  return res;
}

/** The entry's fixed headers with a key's limit and a window's reset (kept while they repeat: a busy key). */
function keyedHeaders(entry: Entry, limit: number, window: number): Headers {
  const kept = entry.keyed;
  if (kept && kept.limit === limit && kept.window === window) return kept.headers;
  const headers = new Headers(entry.headers);
  headers.set("X-RateLimit-Limit", String(limit));
  headers.set("X-RateLimit-Reset", String(windowEndMs(window) / 1000));
  entry.keyed = { limit, window, headers };
  return headers;
}
