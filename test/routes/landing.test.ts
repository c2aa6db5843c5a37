// GET /favicon.ico.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { FAVICON_CACHE_CONTROL } from "../../src/docs/favicon";
import { makeTestApp, type TestApp } from "../support/app";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("GET /favicon.ico", () => {
  test("a 16 and 32 pixel icon, served as image/x-icon", async () => {
    const res = await t.request("/favicon.ico");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    expect(res.headers.get("cache-control")).toBe(FAVICON_CACHE_CONTROL);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const view = new DataView(bytes.buffer);
    expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 2]);
    const entries = [0, 1].map((k) => {
      const at = 6 + 16 * k;
      return { size: bytes[at], bits: view.getUint16(at + 6, true), length: view.getUint32(at + 8, true), offset: view.getUint32(at + 12, true) };
    });
    expect(entries.map((e) => [e.size, e.bits])).toEqual([[16, 32], [32, 32]]);
    expect(entries[0].offset).toBe(6 + 32);
    expect(entries[1].offset).toBe(entries[0].offset + entries[0].length);
    expect(entries[1].offset + entries[1].length).toBe(bytes.length);
    // Each image is a BMP header for its size (height doubled for the mask) and not blank.
    for (const e of entries) {
      expect([view.getUint32(e.offset, true), view.getInt32(e.offset + 4, true), view.getInt32(e.offset + 8, true)]).toEqual([40, e.size, e.size * 2]);
      const alpha = bytes.subarray(e.offset + 40, e.offset + 40 + e.size * e.size * 4).filter((_, k) => k % 4 === 3);
      expect(alpha.some((a) => a === 255)).toBe(true);
    }
  });
});
