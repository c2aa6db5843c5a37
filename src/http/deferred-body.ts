// How a rendered body is handed to Bun.serve so that its answer leaves in one write, whenever it is completed.
//
// Bun (1.4.5) writes an answer completed in its request's own turn of the event loop in one send(). One completed in a
// later turn (after a rate count from Redis, a key or a page read from the database, a payment verified) is written
// so too while its body is under 15 KiB; from 15 KiB on, Bun writes it with one send() per header name, separator and
// value: about 45 for a keyed 100-row observations page, some 300 µs of CPU per request, which held a Redis-counted
// node to a third of one counting in process (bench/scale-out.ts). Such a body is handed over as a stream of one
// chunk instead: the headers and the chunk leave in one writev, the terminating chunk in one send (chunked, no
// Content-Length). An answer completed in its request's own turn keeps its fixed-length body.
import type { BodyForm } from "../services/rendered";

/** The smallest body Bun writes a send() per header token when its answer is deferred (Bun 1.4.5: 15,359 bytes are not). */
export const UNCORKED_BODY_BYTES = 15 * 1024;

/** A turn of the event loop in which requests arrived: `ended` once it is over. */
export type Turn = { ended: boolean };

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
