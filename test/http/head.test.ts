// HEAD answers with the headers GET would have (RFC 9110 9.3.2), Content-Length included, over a real Bun.serve socket
// (the runtime, not Hono, writes a HEAD answer's length). Paid routes keep refusing HEAD (405) before anything runs.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/app";

setDefaultTimeout(120_000);

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let base: string;
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  server.stop(true);
  await t.close();
});

/**
 * Headers but those that differ between any two answers (the request id, the date) and the framing: a compressed GET is
 * streamed (chunked), its HEAD states the length of those bytes (checked apart).
 */
const comparable = (h: Headers) =>
  Object.fromEntries(
    [...h].filter(([k]) => !["x-request-id", "date", "content-length", "transfer-encoding"].includes(k)),
  );

describe("HEAD mirrors GET", () => {
  for (const [path, accept] of [
    ["/", "application/json"],
    ["/", "text/html"],
    ["/v1/sources", "*/*"],
    ["/v1/regions?type=country", "*/*"],
    ["/openapi.json", "*/*"],
    ["/keys", "text/html"],
  ] as const) {
    test(`${path} (${accept})`, async () => {
      const headers = { accept, "accept-encoding": "gzip" };
      // The bytes as sent (Bun's fetch would otherwise decode gzip and drop the coding headers).
      const get = await fetch(base + path, { headers, decompress: false } as RequestInit);
      const body = await get.arrayBuffer();
      const head = await fetch(base + path, { method: "HEAD", headers, decompress: false } as RequestInit);
      expect(head.status).toBe(get.status);
      expect(head.headers.get("content-length")).toBe(String(body.byteLength));
      expect(comparable(head.headers)).toEqual(comparable(get.headers));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    });
  }

  test("a paid route still refuses HEAD before any of its pipeline runs", async () => {
    const res = await fetch(`${base}/v1/observations?indicator=UNRATE&region=US&limit=1`, { method: "HEAD" });
    expect(res.status).toBe(405);
  });
});
