// The app the catalog route tests share (test/routes/catalog*.test.ts), and their read of a catalog answer.
import { afterAll, beforeAll, expect } from "bun:test";
import { CATALOG_CACHE_CONTROL } from "../../src/http/respond";
import { makeTestApp, type TestApp } from "./app";

/**
 * A test app for the file's tests, and `ok(path)`: the body of a 200 catalog answer, with the catalog's public cache
 * header. A function, so each file gets its own: test files may share one module registry.
 */
export function catalogApp() {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  return {
    get t() {
      return t;
    },
    async ok(path: string) {
      const { res, status, body } = await t.getJson(path);
      expect(status).toBe(200);
      expect(res.headers.get("cache-control")).toBe(CATALOG_CACHE_CONTROL);
      expect(CATALOG_CACHE_CONTROL).toMatch(/^public, /);
      return body;
    },
  };
}
