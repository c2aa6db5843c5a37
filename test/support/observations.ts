// What the GET /v1/observations tests share (test/routes/observations*.test.ts): the app and its reads, and the
// shipped FRED series they work their expected numbers out from.
import { afterAll, beforeAll, expect } from "bun:test";
import { makeTestApp, type TestApp } from "./app";
import { fredRows, fredValue, type FredRow } from "./snapshot";

/**
 * A test app for the file's tests, `get(qs)` on /v1/observations, and `expect400(qs, parameter, contains?)`: the body
 * of its 400 naming `parameter`. A function, so each file gets its own: test files may share one module registry.
 */
export function observationsApp() {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  }, 120_000);
  afterAll(() => t?.close());
  const get = (qs: string) => t.getJson(`/v1/observations?${qs}`);
  return {
    get t() {
      return t;
    },
    get,
    async expect400(qs: string, parameter: string, contains?: string) {
      const r = await get(qs);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("INVALID_PARAMETER");
      expect(r.body.error.details?.parameter).toBe(parameter);
      if (contains) expect(r.body.error.message).toContain(contains);
      return r.body;
    },
  };
}

/** The shipped series the observations tests read, as the seed holds them (test/support/snapshot.ts fredRows). */
export function shippedFredSeries() {
  // CPIAUCSL (monthly): 1980-01 .. 2025-11; October 2025 is empty (no BLS release), kept as a null observation.
  const CPI = fredRows("CPIAUCSL");
  // GDP (quarterly): 1980Q1 .. 2025Q3.
  const GDP = fredRows("GDP");
  return {
    CPI,
    cpi: (date: string) => fredValue(CPI, date)!,
    // DGS10 (daily, business days): 1980-01-01 .. Tuesday 2025-12-30, empty on market holidays; December 2025 is incomplete.
    DGS: fredRows("DGS10"),
    // ICSA (weekly, weeks ending Saturday): 1980-01-05 .. 2025-12-27.
    ICSA: fredRows("ICSA"),
    GDP,
    gdp: (date: string) => fredValue(GDP, date)!,
  };
}

/** The values of `rows`, nulls left out. */
export const valuesOf = (rows: readonly FredRow[]) => rows.map((r) => r.value).filter((v): v is number => v !== null);
