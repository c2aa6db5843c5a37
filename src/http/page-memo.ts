// The page memo: a cache in front of the paid pipeline, never a second decision. When paid() has answered a GET of
// an observation page with 200, it records here what that URL resolved to (the resolution and the quote, which are
// functions of the URL and the catalog) and a check, without I/O, that yields the body a full read of it would
// return now (src/services/observations.ts observationsPageCheck: the catalog generation and the series version the
// page was read at are still current and trusted). The next GET of the URL skips validation, resolution and the
// handler while that check holds: the request goes to the same admission core (src/services/admission.ts) with the
// recorded resolution and quote, and the verdict is rendered exactly as paid() renders it (the same refusal bodies,
// rate-limit headers, metering, settlement and receipts). A URL whose check fails is forgotten and goes through the
// full pipeline, which records it again. PAGE_MEMO=off switches the memo off.
import type { Logger } from "../logger";
import type { Clock } from "../ports";
import type { Quote, Resolved } from "../pricing";
import type { Admission, Admitted, PaymentDescription, Verdict } from "../services/admission";
import type { RenderedJson } from "../services/rendered";
import { acceptedFormat, codedBody, codingHeaders } from "./content-coding";
import { RatedHeaders, credentialOf, refusalResponse } from "./verdicts";
import { failureResponse } from "./respond";
import { requestIdFor } from "./request-id";
import { requestTarget } from "./url-parts";

export type PageEntry = {
  /** The body a full read of this URL returns now, or null when only a full read can tell. */
  body: () => RenderedJson | null;
  /** The Vary header of the recorded answer (the request headers its body depends on). */
  vary: string | null;
  quote: Quote;
  resolved: Resolved;
  payment: PaymentDescription;
};

/** URLs remembered, and the bytes their bodies may hold in all (bodies are shared with the page cache). */
const MAX_ENTRIES = 4096;
const MAX_BYTES = 64_000_000;

/**
 * An answer completed after the turn of the event loop its request arrived in (a count from Redis, a key looked up,
 * a payment verified) and larger than this is written as a one-chunk stream. Bun (1.4) writes such a response,
 * once it no longer fits its 16 KB cork buffer, with one send() per header name, value and separator: a 20 KB page
 * cost about 100 µs of CPU that way (profile in the scale-out issue's closing note). A stream is written as one chunk.
 */
const DEFERRED_STREAM_MIN_BYTES = 4096;

/** Hono's fetch (env and execution context passed through as they come). */
type Fetch = (req: Request, env?: any, ctx?: any) => Response | Promise<Response>;

/** A remembered URL: the entry, its body's size, and the headers its 200s carry (CORS, content type, rate limit). */
type Entry = PageEntry & { bytes: number; headers: RatedHeaders };

export type PageMemoDeps = { clock: Clock; logger: Logger; admission: Admission };

export class PageMemo {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly deps: PageMemoDeps,
    /** Headers every response carries besides the request id (CORS). */
    private readonly commonHeaders: Record<string, string>,
  ) {}

  /**
   * The key of a request: its target, and the format its Accept header chose (content-coding.ts acceptedFormat): the
   * same URL may be recorded as JSON and as CSV.
   */
  private keyOf(req: Request): string {
    return `${acceptedFormat(req.headers.get("accept"))} ${requestTarget(req.url)}`;
  }

  /** Called by paid() after a 200: this request's URL and format may be answered from `entry` while its check yields a body. */
  record(req: Request, entry: PageEntry): void {
    const target = this.keyOf(req);
    const rendered = entry.body();
    const size = rendered?.body.size;
    if (size === undefined || size > MAX_BYTES / 16) return;
    this.forget(target);
    // The headers the handler sent with this body: its type, its own (a CSV page's metadata) and what it varies on.
    const headers = new Headers({ ...this.commonHeaders, "Content-Type": rendered!.contentType, ...rendered!.headers, ...(entry.vary ? { Vary: entry.vary } : {}) });
    this.entries.set(target, { ...entry, bytes: size, headers: new RatedHeaders(headers) });
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

  /** Requests answered from the memo since start. */
  served = 0;

  /** How many URLs are remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** Wraps the app's fetch: a request the memo can answer is answered here, every other one by `full`. */
  fetch(full: Fetch): Fetch {
    return (req, env, ctx) => this.serve(req) ?? full(req, env, ctx);
  }

  /** The answer from the memo, or null to leave the request to the full pipeline (nothing has happened then). */
  private serve(req: Request): Response | Promise<Response> | null {
    if (req.method !== "GET" || this.entries.size === 0) return null;
    const target = this.keyOf(req);
    const entry = this.entries.get(target);
    if (!entry) return null;
    const body = entry.body();
    if (!body) {
      this.forget(target);
      return null;
    }
    const now = this.deps.clock.now();
    const headers = req.headers;
    let verdict: Verdict | Promise<Verdict>;
    try {
      verdict = this.deps.admission.admit({
        purpose: "paid",
        credential: credentialOf(headers),
        now,
        quote: entry.quote,
        resolved: entry.resolved,
        header: (name) => headers.get(name) ?? undefined,
        url: req.url,
        describe: () => entry.payment,
      });
    } catch (e) {
      return this.failed(req, e);
    }
    this.served++;
    return verdict instanceof Promise
      ? verdict.then((v) => this.answer(req, entry, body, v, now, true), (e) => this.failed(req, e))
      : this.answer(req, entry, body, verdict, now, false);
  }

  /** An unexpected failure (a key lookup or settlement that threw): the answer app.onError gives the full pipeline's (503 while the database is down, else 500). */
  private failed(req: Request, e: unknown): Response {
    const requestId = requestIdFor(req.headers.get("x-request-id"));
    return this.common(failureResponse(this.deps.logger, e, { requestId, method: req.method, url: req.url }), requestId);
  }

  /** The verdict rendered as paid() renders it, with the recorded body as the handler's answer. */
  private answer(req: Request, entry: Entry, body: RenderedJson, verdict: Verdict, now: Date, deferred: boolean): Response | Promise<Response> {
    const requestId = requestIdFor(req.headers.get("x-request-id"));
    if (!verdict.ok) return this.common(refusalResponse(verdict), requestId);
    let served;
    try {
      served = this.deps.admission.served(verdict, now);
    } catch (e) {
      return this.failed(req, e);
    }
    return served instanceof Promise
      ? served.then((s) => this.ok(req, entry, body, verdict, s, requestId, true), (e) => this.failed(req, e))
      : this.ok(req, entry, body, verdict, served, requestId, deferred);
  }

  private ok(
    req: Request, entry: Entry, body: RenderedJson, verdict: Admitted, served: Awaited<ReturnType<Admission["served"]>>, requestId: string, deferred: boolean,
  ): Response {
    if (!served.ok) return this.common(refusalResponse(served), requestId);
    const coded = codedBody(body, req.headers.get("accept-encoding"));
    const form = coded.form;
    // The fixed headers are copied from a prepared Headers object (a native copy); only what differs is set.
    const content = deferred && form.bytes.length >= DEFERRED_STREAM_MIN_BYTES ? oneChunkStream(form.bytes) : form.blob;
    const res = new Response(content, { status: 200, headers: entry.headers.template(verdict.rate) });
    const h = res.headers;
    h.set("X-Request-Id", requestId);
    if (coded.coding) {
      const coding = codingHeaders(coded, entry.vary ?? undefined);
      for (const k in coding) h.set(k, coding[k]!);
    }
    entry.headers.finish(h, verdict.rate);
    if (served.headers) for (const k in served.headers) h.set(k, served.headers[k]!);
    return res;
  }

  /** A response built for this request: the CORS headers and the request id, as the app's middleware sets them. */
  private common(res: Response, requestId: string): Response {
    const h = res.headers;
    for (const k in this.commonHeaders) if (!h.has(k)) h.set(k, this.commonHeaders[k]!);
    h.set("X-Request-Id", requestId);
    return res;
  }
}

/** A body written as one chunk (Bun's "direct" stream: the bytes are handed to the socket as they are). */
function oneChunkStream(bytes: Uint8Array): ReadableStream {
  const source = {
    type: "direct",
    pull(controller: { write(b: Uint8Array): void; close(): void }) {
      controller.write(bytes);
      controller.close();
    },
  };
  return new ReadableStream(source as unknown as ConstructorParameters<typeof ReadableStream>[0]);
}
