// A JSON body rendered once and shared by every response that serves it (catalog lists, region lists).

/**
 * A JSON body serialised once, with its strong entity tag. The tag is a hash of the bytes (and their length), so two
 * processes serving the same catalog hand out the same tag and a CDN or client revalidates against either. The body
 * is a Blob: every Response made from it shares its bytes (a Uint8Array body is copied into each one; the county
 * list is 444 KB).
 */
export type RenderedJson = { readonly body: Blob; readonly etag: string };

const encoder = new TextEncoder();

export function renderJson(value: unknown): RenderedJson {
  const bytes = encoder.encode(JSON.stringify(value));
  return { body: new Blob([bytes], { type: "application/json" }), etag: `"${bytes.length.toString(36)}-${Bun.hash(bytes).toString(36)}"` };
}
