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
import { countRequest, handOverCount, type RateCount } from "./rate-limit";
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

export type HotReadDeps = Pick<Deps, "clock" | "keys" | "logger" | "rateLimits"> & { access: AccessGate };

export class HotReads {
  private readonly entries = new Map<string, HotEntry & { bytes: number }>();
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
    this.entries.set(target, { ...entry, bytes: size });
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
    const grant = this.deps.access.authorizeHot!(key, entry.quote, entry.resolved);
    if (!grant) return null;
    const headers: Record<string, string> = { ...this.commonHeaders, "X-Request-Id": requestIdFor(req.headers.get("x-request-id")), "Content-Type": entry.contentType };
    if (!key) {
      grant.settle?.(null, now);
      this.served++;
      return new Response(body, { status: 200, headers });
    }
    const counted = countRequest(this.deps, key, now);
    return counted instanceof Promise
      ? counted.then((c) => this.finish(req, key, now, c, body, headers, grant, full))
      : this.finish(req, key, now, counted, body, headers, grant, full);
  }

  /** After the count: the answer, or the full pipeline's for a refused count or a meter that cannot write. */
  private finish(
    req: Request, key: AuthenticatedKey, now: Date, counted: RateCount | null, body: Blob, headers: Record<string, string>, grant: HotGrant, full: (req: Request) => Response | Promise<Response>,
  ): Response | Promise<Response> {
    // Null: the limiter is down; as in the middleware, the request is served uncounted (countRequest logged it).
    if (counted && !counted.decision.allowed) {
      handOverCount(req, counted);
      return full(req);
    }
    try {
      grant.settle?.(key, now);
    } catch {
      // The meter could not write: the full pipeline answers (it tries again, and refuses to serve unmetered).
      if (counted) handOverCount(req, counted);
      return full(req);
    }
    if (counted) Object.assign(headers, counted.headers);
    this.served++;
    return new Response(body, { status: 200, headers });
  }
}
