// Content codings of rendered bodies (RFC 9110 §12.5.3): brotli when the client accepts it, else gzip, else the body
// as it is. A rendered body is compressed once (src/services/rendered.ts) and served compressed from then on; other
// responses are compressed by Hono's compress middleware (app.ts), which leaves these alone.
import type { BodyForm, ContentCoding, RenderedJson } from "../services/rendered";

/** Smaller bodies are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

const PREFERENCE: readonly ContentCoding[] = ["br", "gzip"];

/** The coding to answer in for an Accept-Encoding header, or null for the body as it is. */
export function acceptedCoding(header: string | null | undefined): ContentCoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name, weight === undefined ? 1 : Number(weight));
  }
  for (const coding of PREFERENCE) {
    const weight = q.get(coding) ?? q.get("*");
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

/** The headers that say how a coded body was chosen and sent. */
export function codingHeaders(coded: CodedBody): Record<string, string> {
  return coded.coding ? { "Content-Encoding": coded.coding, Vary: "Accept-Encoding" } : { Vary: "Accept-Encoding" };
}
