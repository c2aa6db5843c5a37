// Compression: rendered bodies (catalog lists, observation pages) in the coding the client accepts, compressed once;
// other bodies through Hono's compress middleware; Vary and per-coding ETags. Decompressed bytes equal the plain ones.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { acceptedCoding } from "../../src/http/content-coding";
import { renderJson } from "../../src/services/rendered";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  // Series heads trusted for an hour, as on a busy server: the page memo answers repeats.
  t = await makeTestApp({ keyAccess: true, config: { seriesCacheRevalidateMs: 3_600_000 } });
});
afterAll(() => t?.close());

const decode = async (res: Response) => {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const coding = res.headers.get("content-encoding");
  const plain = coding === "br" ? brotliDecompressSync(bytes) : coding === "gzip" ? gunzipSync(bytes) : bytes;
  return { coding, size: bytes.length, text: new TextDecoder().decode(plain) };
};

describe("Accept-Encoding", () => {
  test("brotli first, then gzip; q=0 refuses a coding; * stands for the others; nothing or identity: the body as it is", () => {
    expect(acceptedCoding("gzip, deflate, br")).toBe("br");
    expect(acceptedCoding("gzip")).toBe("gzip");
    expect(acceptedCoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(acceptedCoding("br;q=0, gzip;q=0")).toBeNull();
    expect(acceptedCoding("*")).toBe("br");
    expect(acceptedCoding("*;q=0, gzip")).toBe("gzip");
    expect(acceptedCoding("identity")).toBeNull();
    expect(acceptedCoding("")).toBeNull();
    expect(acceptedCoding(undefined)).toBeNull();
  });

  test("a rendered body is compressed once per coding", () => {
    const r = renderJson({ data: Array.from({ length: 200 }, (_, i) => ({ i })) });
    expect(r.encoded("br")).toBe(r.encoded("br"));
    expect(new TextDecoder().decode(gunzipSync(r.encoded("gzip").bytes))).toBe(new TextDecoder().decode(r.bytes));
  });
});

describe("the county list", () => {
  const path = "/v1/regions?type=county";
  test("br, gzip or plain as accepted: the same JSON, Vary: Accept-Encoding, an ETag per coding, and a 304 for its own tag", async () => {
    const plain = await t.request(path);
    const br = await t.request(path, { headers: { "accept-encoding": "gzip, deflate, br" } });
    const gzip = await t.request(path, { headers: { "accept-encoding": "gzip" } });
    for (const res of [plain, br, gzip]) expect(res.headers.get("vary")).toBe("Accept-Encoding");
    const [p, b, g] = [await decode(plain), await decode(br), await decode(gzip)];
    expect([p.coding, b.coding, g.coding]).toEqual([null, "br", "gzip"]);
    expect(b.text).toBe(p.text);
    expect(g.text).toBe(p.text);
    expect(p.size).toBeGreaterThan(400_000);
    expect(b.size).toBeLessThan(p.size / 8);
    const tags = [plain, br, gzip].map((r) => r.headers.get("etag"));
    expect(new Set(tags).size).toBe(3);
    const again = await t.request(path, { headers: { "accept-encoding": "br", "if-none-match": tags[1]! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-encoding")).toBeNull();
    expect(again.headers.get("etag")).toBe(tags[1]);
  });
});

describe("other bodies", () => {
  test("the OpenAPI document is gzipped by the middleware when accepted", async () => {
    const res = await t.request("/openapi.json", { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(JSON.parse((await decode(res)).text).openapi).toBe("3.1.0");
  });
});

describe("observation pages", () => {
  test("a page in br equals the plain page, whether the full pipeline or the page memo answers", async () => {
    const { headers } = await testKey(t, { rateLimitPerMinute: 1000 });
    const path = "/v1/observations?indicator=PAYEMS&region=US&limit=100";
    const plain = await decode(await t.request(path, { headers }));
    const served = t.app.pages!.served;
    const viaMemo = await t.request(path, { headers: { ...headers, "accept-encoding": "br" } });
    expect(t.app.pages!.served).toBe(served + 1);
    expect(viaMemo.headers.get("vary")).toBe("Accept, Accept-Encoding");
    const coded = await decode(viaMemo);
    expect(coded.coding).toBe("br");
    expect(coded.text).toBe(plain.text);
    expect(coded.size).toBeLessThan(plain.text.length / 3);
  });
});
