// How rendered bodies are handed to Bun.serve (src/http/content-coding.ts bodyToWrite): the turn of the event loop a request
// arrived in, and the body form chosen from it and the body's size, at and just past the 15 KiB edge; and the app over
// a socket, whose page memo hits answered in their own turn keep a fixed length. (A page whose count waits for Redis:
// test/services/rate-limit-redis.test.ts.)
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { UNCORKED_BODY_BYTES, bodyToWrite, eventLoopTurns } from "../../src/http/content-coding";
import { makeTestApp } from "../support/app";

setDefaultTimeout(120_000);

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function form(size: number) {
  const bytes = new Uint8Array(size).map((_, i) => 97 + (i % 26));
  return { bytes, blob: new Blob([bytes]) };
}

describe("eventLoopTurns", () => {
  test("requests arriving in one turn share it; it has not ended while that turn's microtasks run", async () => {
    const turn = eventLoopTurns();
    const a = turn();
    expect(turn()).toBe(a);
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(a.ended).toBe(false);
    expect(turn()).toBe(a);
  });

  test("the turn has ended once the event loop moved on (an immediate, a timer, I/O); the next request gets a new one", async () => {
    const turn = eventLoopTurns();
    const a = turn();
    await nextTurn();
    expect(a.ended).toBe(true);
    const b = turn();
    expect(b).not.toBe(a);
    expect(b.ended).toBe(false);
    await Bun.sleep(1);
    expect(b.ended).toBe(true);
  });

  test("a request arriving after turns without requests gets a turn that has not ended", async () => {
    const turn = eventLoopTurns();
    await nextTurn();
    const a = turn();
    expect(a.ended).toBe(false);
    await nextTurn();
    expect(a.ended).toBe(true);
  });
});

describe("bodyToWrite", () => {
  test("an answer completed in its request's turn keeps its Blob, however large", () => {
    const f = form(UNCORKED_BODY_BYTES * 4);
    expect(bodyToWrite(f, { ended: false })).toBe(f.blob);
    // Outside a server (no turn recorded) the same.
    expect(bodyToWrite(f, undefined)).toBe(f.blob);
  });

  test("a deferred answer: a body of 15,359 bytes stays a Blob; from 15,360 bytes it is one chunk of the same bytes", async () => {
    expect(UNCORKED_BODY_BYTES).toBe(15_360);
    const below = form(UNCORKED_BODY_BYTES - 1);
    expect(bodyToWrite(below, { ended: true })).toBe(below.blob);
    const at = form(UNCORKED_BODY_BYTES);
    const stream = bodyToWrite(at, { ended: true });
    expect(stream).toBeInstanceOf(ReadableStream);
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as ReadableStream<Uint8Array>) chunks.push(chunk);
    expect(chunks.length).toBe(1);
    expect(Buffer.from(chunks[0]!).equals(Buffer.from(at.bytes))).toBe(true);
  });

  test("over a socket: a deferred answer of 15,360 bytes goes chunked, the same answer in its own turn with its length; same bytes", async () => {
    const f = form(UNCORKED_BODY_BYTES);
    const turn = eventLoopTurns();
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(req) {
        const arrival = turn();
        const answer = () => new Response(bodyToWrite(f, arrival));
        return new URL(req.url).pathname === "/later" ? nextTurn().then(answer) : answer();
      },
    });
    try {
      const now = await fetch(`http://127.0.0.1:${server.port}/now`);
      expect(now.headers.get("content-length")).toBe(String(UNCORKED_BODY_BYTES));
      const later = await fetch(`http://127.0.0.1:${server.port}/later`);
      expect(later.headers.get("content-length")).toBeNull();
      expect(later.headers.get("transfer-encoding")).toBe("chunked");
      expect(Buffer.from(await later.bytes()).equals(Buffer.from(await now.bytes()))).toBe(true);
    } finally {
      server.stop(true);
    }
  });
});

describe("the app over a socket", () => {
  test("a page memo hit answered in its request's turn is sent with its length, the bytes of the cold read", async () => {
    const t = await makeTestApp({ config: { seriesCacheRevalidateMs: 3_600_000 } });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch, development: false });
    try {
      const page = `http://127.0.0.1:${server.port}/v1/observations?indicator=PAYEMS&region=US&limit=100`;
      const get = () => fetch(page, { headers: { "accept-encoding": "identity" } });
      // On PostgreSQL the catalog's first cross-process fingerprint may drop the first page recorded: read until the
      // memo answers (no key: nothing waits for a count, so a hit is answered in its request's turn).
      let cold = "";
      for (let i = 0; i < 4 && t.app.pages!.served === 0; i++) cold = await (await get()).text();
      const served = t.app.pages!.served;
      expect(served).toBeGreaterThan(0);
      const hit = await get();
      expect(t.app.pages!.served).toBe(served + 1);
      expect(hit.headers.get("transfer-encoding")).toBeNull();
      expect(hit.headers.get("content-length")).toBe(String(Buffer.byteLength(cold)));
      expect(Buffer.byteLength(cold)).toBeGreaterThanOrEqual(UNCORKED_BODY_BYTES);
      expect(await hit.text()).toBe(cold);
    } finally {
      server.stop(true);
      await t.close();
    }
  });
});
