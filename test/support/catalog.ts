// The app the catalog route tests share (test/routes/catalog*.test.ts), and their read of a catalog answer.
import { afterAll, beforeAll, expect } from "bun:test";
import { CATALOG_CACHE_CONTROL } from "../../src/http/respond";
import { indicatorDetailResponseSchema } from "../../src/schemas/catalog";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { makeTestApp, type TestApp } from "./app";

/**
 * A test app for the file's tests, and its reads: `ok(path)`, the body of a 200 catalog answer with the catalog's
 * public cache header; `detail`, an indicator's; `error`, a refusal's. A function, so each file gets its own: test files may share one module registry.
 */
export function catalogApp() {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  async function ok(path: string) {
    const { res, status, body } = await t.getJson(path);
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(CATALOG_CACHE_CONTROL);
    expect(CATALOG_CACHE_CONTROL).toMatch(/^public, /);
    return body;
  }
  return {
    get t() {
      return t;
    },
    ok,
    /** GET /v1/indicators/{path}, a 200 read by its schema. */
    detail: async (path: string) => indicatorDetailResponseSchema.parse(await ok(`/v1/indicators/${path}`)),
    /** The error of an answer that must be `status` with `code`. */
    async error(path: string, status: number, code: string) {
      const res = await t.request(path);
      expect(res.status).toBe(status);
      const body = errorEnvelopeSchema.parse(await res.json());
      expect(body.error.code).toBe(code as never);
      return body.error;
    },
  };
}
