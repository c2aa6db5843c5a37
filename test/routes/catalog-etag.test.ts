// The catalog's conditional responses: 200s carry a strong ETag, and a matching If-None-Match gets a bodiless 304
// with the same caching headers; and the RenderedCache behind them. The in-memory catalog is catalog-cache.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { indicators } from "../../db/schema";
import { CATALOG_CACHE_CONTROL } from "../../src/http/respond";
import { regionListResponseSchema } from "../../src/schemas/regions";
import { RenderedCache } from "../../src/services/catalog-index";
import { makeTestApp, type TestApp } from "../support/app";

setDefaultTimeout(120_000);

async function json(t: TestApp, path: string, init?: RequestInit) {
  const res = await t.request(path, init);
  expect(res.status).toBe(200);
  return { res, body: (await res.json()) as any };
}

describe("ETag and If-None-Match", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const paths = [
    "/v1/regions?type=county",
    "/v1/regions?parent=CA",
    "/v1/regions/06",
    "/v1/sources",
    "/v1/indicators?search=unemployment",
    "/v1/indicators/UNRATE",
  ];

  test("200s carry a strong ETag that the same representation repeats", async () => {
    for (const p of paths) {
      const a = await t.request(p);
      const b = await t.request(p);
      expect(a.status).toBe(200);
      const tag = a.headers.get("etag")!;
      expect(tag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
      expect(b.headers.get("etag")).toBe(tag);
      expect(await a.text()).toBe(await b.text());
      expect(a.headers.get("content-type")).toBe("application/json");
    }
  });

  test("a different representation has a different tag; parent=CA and parent=06 are one representation", async () => {
    const tags = await Promise.all(
      ["/v1/regions?type=county", "/v1/regions?type=state", "/v1/sources?include_inactive=true", "/v1/sources"].map(
        async (p) => (await t.request(p)).headers.get("etag"),
      ),
    );
    expect(new Set(tags).size).toBe(4);
    const ca = await t.request("/v1/regions?parent=CA");
    const fips = await t.request("/v1/regions?parent=06");
    expect(ca.headers.get("etag")).toBe(fips.headers.get("etag"));
    expect(regionListResponseSchema.parse(await ca.json()).data.length).toBe(58);
  });

  test("If-None-Match naming the tag: 304, no body, the same Cache-Control and ETag", async () => {
    for (const p of paths) {
      const tag = (await t.request(p)).headers.get("etag")!;
      for (const inm of [tag, `W/${tag}`, `"nope", ${tag}`, `  ${tag}  `, "*"]) {
        const res = await t.request(p, { headers: { "If-None-Match": inm } });
        expect({ p, inm, status: res.status }).toEqual({ p, inm, status: 304 });
        expect(await res.text()).toBe("");
        expect(res.headers.get("etag")).toBe(tag);
        expect(res.headers.get("cache-control")).toBe(CATALOG_CACHE_CONTROL);
      }
    }
  });

  test("If-None-Match naming another tag, or an empty one: 200 with the body", async () => {
    for (const p of paths) {
      const tag = (await t.request(p)).headers.get("etag")!;
      for (const inm of ['"nope"', tag.slice(0, -2) + '"', ""]) {
        const res = await t.request(p, { headers: { "If-None-Match": inm } });
        expect({ p, inm, status: res.status }).toEqual({ p, inm, status: 200 });
        expect((await res.text()).length).toBeGreaterThan(10);
      }
    }
  });

  test("errors are not conditional: a 404 stays a 404 whatever If-None-Match says", async () => {
    const res = await t.request("/v1/indicators/NOT_A_SERIES", { headers: { "If-None-Match": "*" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("etag")).toBeNull();
  });

  test("two apps over equal databases hand out equal tags (one process or many behind a CDN)", async () => {
    const u = await makeTestApp();
    try {
      for (const p of paths)
        expect((await u.request(p)).headers.get("etag")).toBe((await t.request(p)).headers.get("etag"));
    } finally {
      await u.close();
    }
  });

  test("OpenAPI documents the 304 and the ETag header on every catalog operation", () => {
    const doc = t.app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } }) as any;
    for (const [path, id] of [
      ["/v1/sources", "list_sources"],
      ["/v1/regions", "list_regions"],
      ["/v1/regions/{code}", "get_region"],
      ["/v1/indicators", "search_indicators"],
      ["/v1/indicators/{code}", "get_indicator"],
    ]) {
      const op = doc.paths[path].get;
      expect(op.operationId).toBe(id);
      expect(Object.keys(op.responses["304"].headers).sort()).toEqual(["Cache-Control", "ETag"]);
      expect(Object.keys(op.responses["200"].headers).sort()).toEqual(["Cache-Control", "ETag"]);
    }
  });
});

describe("RenderedCache", () => {
  test("renders once per key, evicts the least recently used past its byte budget, never keeps an oversized body", async () => {
    const cache = new RenderedCache({ maxWeight: 30, maxEntryWeight: 30 });
    let renders = 0;
    const value = (s: string) => () => (renders++, s);
    const a = cache.get("a", value("aaaaaaaa")); // 10 bytes as JSON
    expect(await a.body.text()).toBe('"aaaaaaaa"');
    expect(cache.get("a", value("other"))).toBe(a);
    expect(renders).toBe(1);
    cache.get("b", value("bbbbbbbb"));
    cache.get("a", value("x")); // a is now the most recent
    cache.get("c", value("cccccccccccccccc")); // 18 bytes: 38 > 30, b (least recent) goes
    expect(cache.size).toBe(2);
    cache.get("a", value("x"));
    expect(renders).toBe(3);
    cache.get("b", value("bbbbbbbb")); // rendered again
    expect(renders).toBe(4);
    const big = cache.get("big", value("y".repeat(40)));
    expect(big.body.size).toBe(42);
    cache.get("big", value("y".repeat(40)));
    expect(renders).toBe(6);
  });
});
