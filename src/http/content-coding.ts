// How a representation is chosen. Formats (RFC 9110 §12.5.1): an observations page is JSON unless the client prefers
// CSV. Content codings of rendered bodies (RFC 9110 §12.5.3): brotli when the client accepts it, else gzip, else the body
// as it is. A rendered body is compressed once (src/services/rendered.ts) and served compressed from then on; other
// responses are compressed by Hono's compress middleware (app.ts), which leaves these alone. And how the bytes chosen
// are handed to Bun.serve (bodyToWrite, below).
import type { Context } from "hono";
import { accepts } from "hono/accepts";
import { parseAccept } from "hono/utils/accept";
import type { PageFormat } from "../services/observations";
import type { ObservationsMeta } from "../services/observations-page";
import type { AppEnv, Turn } from "./app-env";
import type { BodyForm, ContentCoding, RenderedJson } from "../services/rendered";

/** Smaller bodies are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

const PREFERENCE: readonly ContentCoding[] = ["br", "gzip"];

/** The q-value an Accept-style header (parsed by Hono) gives `type` (case-insensitive), or undefined when not named. */
function weightOf(accepted: ReturnType<typeof parseAccept>, type: string): number | undefined {
  return accepted.find((a) => a.type.toLowerCase() === type)?.q;
}

/**
 * The coding to answer in for an Accept-Encoding header, or null for the body as it is: brotli, then gzip, whichever
 * the client accepts with a q above 0 (named, or through `*`). Parsed on every request: Hono's parser costs well under
 * a microsecond of a page memo hit's 20 (PERFORMANCE.md).
 */
export function acceptedCoding(header: string | null | undefined): ContentCoding | null {
  if (!header) return null;
  const accepted = parseAccept(header);
  for (const coding of PREFERENCE) {
    const weight = weightOf(accepted, coding) ?? weightOf(accepted, "*");
    if (weight !== undefined && weight > 0) return coding;
  }
  return null;
}

export type CodedBody = { form: BodyForm; coding: ContentCoding | null; etag: string };

/** The form of `rendered` to send for this Accept-Encoding, and its entity tag (one per coding: they are different bytes). */
export function codedBody(rendered: RenderedJson, acceptEncoding: string | null | undefined): CodedBody {
  const coding = rendered.bytes.length >= COMPRESS_MIN_BYTES ? acceptedCoding(acceptEncoding) : null;
  if (!coding) return { form: { blob: rendered.body, bytes: rendered.bytes }, coding: null, etag: rendered.etag };
  return { form: rendered.encoded(coding), coding, etag: `${rendered.etag.slice(0, -1)}-${coding}"` };
}

/** The headers that say how a coded body was chosen (`vary`: the request headers it depends on) and sent. */
export function codingHeaders(coded: CodedBody, vary = "Accept-Encoding"): Record<string, string> {
  return coded.coding ? { "Content-Encoding": coded.coding, Vary: vary } : { Vary: vary };
}

/** What an observations page depends on besides its URL. */
export const PAGE_VARY = "Accept, Accept-Encoding";

/**
 * CSV when the Accept header asks for `text/csv` (or `text/*`) over JSON: named explicitly, JSON must be named with a
 * lower q to lose; against a wildcard, CSV wins at an equal q. Anything else (no header, a browser's, JSON) is JSON.
 */
// A browser's Accept lists text/html first. A wildcard alone (curl, fetch), no Accept, or a tie with JSON listed first
// stays JSON: what API clients have always been given.
export function prefersHtml(c: Context): boolean {
  return (
    accepts(c, { header: "Accept", supports: ["application/json", "text/html"], default: "application/json" }) ===
    "text/html"
  );
}

export function acceptedFormat(accept: string | null | undefined): PageFormat {
  // Most requests name neither (API clients, browsers): answered without parsing.
  if (!accept || !/csv|text\/\*/i.test(accept)) return "json";
  const accepted = parseAccept(accept);
  const csv = weightOf(accepted, "text/csv") ?? weightOf(accepted, "text/*");
  if (csv === undefined || csv <= 0) return "json";
  const json = weightOf(accepted, "application/json");
  if (json !== undefined) return csv > json ? "csv" : "json";
  return csv >= (weightOf(accepted, "application/*") ?? weightOf(accepted, "*/*") ?? 0) ? "csv" : "json";
}

/**
 * A rendered page as a 200: in the coding the client accepts (compressed once per coding), with its meta's headers (a
 * CSV page's metadata: a body that carries its meta itself, JSON or SVG, has none) and what it varies on. A paid route's cold answer and the page memo's hit both answer through
 * this, so they are the same bytes.
 */
export function renderPage(c: Context<AppEnv>, page: RenderedJson, vary: string): Response {
  const coded = codedBody(page, c.req.header("accept-encoding"));
  return c.body(bodyToWrite(coded.form, c.get("turn")) as never, 200, {
    "Content-Type": page.contentType,
    ...(page.meta ? csvMetaHeaders(page.meta) : null),
    ...codingHeaders(coded, vary),
  });
}

/**
 * A CSV page's metadata as headers (README "CSV"): the service returns the page's meta beside its rendered body; what
 * JSON carries in `meta`, a CSV answer carries in `X-` headers (the order is the order they go out in).
 */
export function csvMetaHeaders(m: ObservationsMeta): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Total-Count": String(m.total),
    "X-Limit": String(m.limit),
    "X-Offset": String(m.offset),
    "X-Indicator": m.indicator,
    "X-Region": m.region,
    "X-Frequency": m.frequency,
  };
  if (m.unit !== null) headers["X-Unit"] = m.unit;
  if (m.transform) headers["X-Transform"] = m.transform;
  if (m.concept) headers["X-Concept"] = `${m.concept.code}=${m.concept.resolved_indicator}`;
  if (m.freshness) {
    headers["X-Newest-Period"] = m.freshness.newest_period;
    headers["X-Stale"] = String(m.freshness.stale);
  }
  return headers;
}

// ---------------------------------------------------------------------------------------------------------------
// How a coded body is handed to Bun.serve so that its answer leaves in one write, whenever it is completed.
//
// Bun (1.4.5) writes an answer completed in its request's own turn of the event loop in one send(). One completed in a
// later turn (after a rate count from Redis, a key or a page read from the database, a payment verified) is written
// so too while its body is under 15 KiB; from 15 KiB on, Bun writes it with one send() per header name, separator and
// value: about 45 for a keyed 100-row observations page, some 300 µs of CPU per request, which held a Redis-counted
// node to a third of one counting in process (bench/scale-out.ts). Such a body is handed over as a stream of one
// chunk instead: the headers and the chunk leave in one writev, the terminating chunk in one send (chunked, no
// Content-Length). An answer completed in its request's own turn keeps its fixed-length body.

/** The smallest body Bun writes a send() per header token when its answer is deferred (Bun 1.4.5: 15,359 bytes are not). */
export const UNCORKED_BODY_BYTES = 15 * 1024;

/**
 * The turn of the event loop now running, one object for every request arriving in it. Its end is observed by one
 * setImmediate per turn that saw a request (run after the turn's I/O callbacks and their microtasks, before the next
 * poll), not one per request.
 */
export function eventLoopTurns(): () => Turn {
  let current: Turn | null = null;
  const end = () => {
    current!.ended = true;
    current = null;
  };
  return () => {
    if (current) return current;
    current = { ended: false };
    setImmediate(end);
    return current;
  };
}

/**
 * The body to give Bun for a rendered form: its Blob (sent with Content-Length) unless the answer is completed after
 * the turn its request arrived in and the body is at least UNCORKED_BODY_BYTES, then the same bytes as a one-chunk
 * stream (sent chunked). `arrival`: the turn the request arrived in (undefined: the Blob).
 */
export function bodyToWrite(form: BodyForm, arrival: Turn | undefined): Blob | ReadableStream<Uint8Array> {
  if (!arrival?.ended || form.bytes.byteLength < UNCORKED_BODY_BYTES) return form.blob;
  return oneChunkStream(form.bytes);
}

/** Bun's "direct" stream: the bytes are handed to the socket as they are, in one write. */
function oneChunkStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  const source = {
    type: "direct",
    pull(controller: { write(b: Uint8Array): void; close(): void }) {
      controller.write(bytes);
      controller.close();
    },
  };
  return new ReadableStream(source as unknown as ConstructorParameters<typeof ReadableStream<Uint8Array>>[0]);
}
