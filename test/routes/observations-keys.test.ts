// GET /v1/observations and /v1/observations/latest behind the real key rail: rate-limit headers, metering,
// premium entitlement per indicator in batch latest, region-restricted keys.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";
import { keyUsage } from "../../src/services/keys";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  t.clock.set("2026-11-22T12:00:10Z");
}, 120_000);
afterAll(() => t.close());

// A held series (the shipped FRED UNRATE, monthly, US).
const PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=2";
const json = async (res: Response) => (await res.json()) as any;

describe("keyed observations", () => {
  test("200 with rate-limit headers; each served page is metered once", async () => {
    const { headers, row } = await testKey(t);
    const res = await t.app.request(PAGE, { headers });
    expect(res.status).toBe(200);
    expect((await json(res)).data.length).toBe(2);
    expect([res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining"), res.headers.get("x-ratelimit-reset")]).toEqual([
      "60",
      "59",
      String(Date.UTC(2026, 10, 22, 12, 1, 0) / 1000),
    ]);
    await t.app.request(PAGE, { headers });
    // Not metered: a 404 and a key-management call.
    expect((await t.app.request("/v1/observations?indicator=NOPE_NOT_A_CODE", { headers })).status).toBe(404);
    await t.app.request("/v1/ping", { headers });
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(2);
  });

  test("without a key (and no payment rail configured here): 401", async () => {
    const res = await t.app.request(PAGE);
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe("INVALID_API_KEY");
  });

  test("403 REGION_NOT_ALLOWED outside a region-restricted key's regions", async () => {
    const { headers } = await testKey(t, { allowedRegions: ["06"] });
    const res = await t.app.request(PAGE, { headers });
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe("REGION_NOT_ALLOWED");
  });

  test("batch latest: a free key gets CATEGORY_NOT_ALLOWED for the premium code only (207)", async () => {
    const { headers } = await testKey(t);
    const res = await t.app.request("/v1/observations/latest?indicators=UNRATE,svc:sahm_rule&region=US", { headers });
    expect(res.status).toBe(207);
    const b = await json(res);
    expect(b.data.map((d: any) => d.indicator)).toEqual(["UNRATE"]);
    expect(b.errors.map((e: any) => [e.indicator, e.code])).toEqual([["svc:sahm_rule", "CATEGORY_NOT_ALLOWED"]]);
  });

  // Before the fix, a batch item refused for its region said only CATEGORY_NOT_ALLOWED (the batch form's one refusal code,
  // spec "Batch form"), as if it were premium data. It now says why: details.reason REGION_NOT_ALLOWED and the region.
  test("batch latest: a region-restricted key's refusal outside its regions names REGION_NOT_ALLOWED and the region (207)", async () => {
    const { headers, row } = await testKey(t, { allowedRegions: ["06"] });
    const res = await t.app.request("/v1/observations/latest?indicators=UNRATE,PAYEMS&region=US", { headers });
    expect(res.status).toBe(207);
    const b = await json(res);
    expect(b.data).toEqual([]);
    expect(b.errors).toEqual(
      ["UNRATE", "PAYEMS"].map((indicator) => ({
        indicator,
        code: "CATEGORY_NOT_ALLOWED",
        message: "This key does not permit region 'US' (allowed: 06).",
        details: { key_hint: row.hint, indicator, reason: "REGION_NOT_ALLOWED", region: "US" },
      })),
    );
  });

  test("batch latest: the svc-premium scope lifts the premium refusal", async () => {
    const { headers } = await testKey(t, { scopes: ["svc-premium"] });
    const b = await json(await t.app.request("/v1/observations/latest?indicators=UNRATE,svc:sahm_rule&region=US", { headers }));
    expect(b.errors.map((e: any) => e.code)).not.toContain("CATEGORY_NOT_ALLOWED");
    // UNRATE is held, so the premium sahm rule computes: both answered.
    expect([b.data.map((d: any) => d.indicator), b.errors]).toEqual([["UNRATE", "svc:sahm_rule"], []]);
  });
});
