// A body rendered once and shared by every response that serves it (catalog lists, region lists, observation pages
// in JSON or CSV), with its compressed forms made once, on first demand, and kept with it.
import { brotliCompressSync, constants as zlib } from "node:zlib";
import type { ObservationsMeta } from "./observations-page";

/** A content coding a client may accept and a rendered body can be served in. */
export type ContentCoding = "br" | "gzip";

/** One form of a rendered body: a Blob every Response shares, and the same bytes (for a one-chunk stream). */
export type BodyForm = { readonly blob: Blob; readonly bytes: Uint8Array };

/**
 * A JSON body serialised once, with its strong entity tag. The tag is a hash of the bytes (and their length), so two
 * processes serving the same catalog hand out the same tag and a CDN or client revalidates against either. The body
 * is a Blob: every Response made from it shares its bytes (a Uint8Array body is copied into each one; the county
 * list is 444 KB).
 */
export type RenderedJson = {
  readonly body: Blob;
  readonly contentType: string;
  /** The page's meta when the body leaves it out (a CSV page): data, which the http layer sends beside the body. */
  readonly meta: ObservationsMeta | null;
  readonly bytes: Uint8Array;
  readonly etag: string;
  /** The body in `coding`, compressed on first demand and kept (so a hot body is never compressed twice). */
  encoded(coding: ContentCoding): BodyForm;
};

const encoder = new TextEncoder();

/**
 * Compression levels: middle ones. A cached body is compressed once, but a body rendered per request (a page of
 * revisions) is compressed per request, and brotli's top qualities cost tens of milliseconds on a 250 KB page.
 */
const compress: Record<ContentCoding, (bytes: Uint8Array) => Uint8Array> = {
  br: (bytes) =>
    brotliCompressSync(bytes, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
  gzip: (bytes) => Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>, { level: 6 }),
};

export function renderJson(value: unknown): RenderedJson {
  return renderBody(JSON.stringify(value), "application/json");
}

export function renderBody(text: string, contentType: string, meta: ObservationsMeta | null = null): RenderedJson {
  const bytes = encoder.encode(text);
  const forms: Partial<Record<ContentCoding, BodyForm>> = {};
  return {
    body: new Blob([bytes], { type: contentType }),
    contentType,
    meta,
    bytes,
    etag: `"${bytes.length.toString(36)}-${Bun.hash(bytes).toString(36)}"`,
    encoded(coding) {
      let form = forms[coding];
      if (!form) {
        const out = compress[coding](bytes);
        forms[coding] = form = { blob: new Blob([out]), bytes: out };
      }
      return form;
    },
  };
}
