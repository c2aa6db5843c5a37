// The admission core (src/services/admission.ts) on its own: no HTTP, no framework. Real keys issued through the
// services, the real rate counters and usage meter; each verdict is the one a paid route or a memo hit would render.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { usageMonth } from "../../src/domain/access";
import { readCredential } from "../../src/domain/keys";
import { quote, type Read, type Serving } from "../../src/pricing";
import {
  Admission,
  type AdmissionRequest,
  type Admitted,
  type Refusal,
  type Verdict,
} from "../../src/services/admission";
import { keyUsage } from "../../src/services/keys";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(240_000);

let t: TestApp;
let admission: Admission;
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  admission = new Admission(t.deps);
});
afterAll(() => t?.close());

const read = (region: string | null, more: Partial<Read> = {}): Read => ({
  indicator: "UNRATE",
  region,
  premium: false,
  surface: "observations",
  ...more,
});
const serving = (reads: Read[]): Serving => ({ indicator: null, region: null, resource: "/v1/test", reads });

function paid(key: string | null, reads: Read[], policy: AdmissionRequest["policy"] = "all"): AdmissionRequest {
  const s = serving(reads);
  return {
    purpose: "paid",
    credential: readCredential(key ? `Bearer ${key}` : undefined, undefined),
    now: t.clock.now(),
    quote: quote("observations", s),
    serving: s,
    policy,
    url: "http://localhost/v1/test",
  };
}
const verdict = async (req: AdmissionRequest): Promise<Verdict> => await admission.admit(req);
const refused = (v: Verdict) => (v.ok ? null : (v as Refusal).code);

describe("credentials", () => {
  test("a malformed key is 401 INVALID_API_KEY; an unknown one too", async () => {
    const malformed = await verdict({
      ...paid(null, [read("US")]),
      credential: readCredential("Bearer nonsense", undefined),
    });
    expect(refused(malformed)).toBe("INVALID_API_KEY");
    expect(refused(await verdict(paid("svc_live_not-a-real-key", [read("US")])))).toBe("INVALID_API_KEY");
  });

  test("no key and no payment rails: 401 asking for a key, with the price", async () => {
    const v = await verdict(paid(null, [read("US")]));
    expect(v).toMatchObject({ ok: false, code: "INVALID_API_KEY", details: { price_usd: "0.01" } });
  });
});

describe("every read is entitled under the route's policy", () => {
  test("all: one read outside a region-restricted key's regions refuses the request", async () => {
    const { key } = await testKey(t, { allowedRegions: ["06"] });
    expect((await verdict(paid(key, [read("06")]))).ok).toBe(true);
    const v = await verdict(paid(key, [read("06"), read("48")]));
    expect(v).toMatchObject({ ok: false, code: "REGION_NOT_ALLOWED" });
  });

  test("premium data, and signals whatever they read, need premium access", async () => {
    const free = (await testKey(t)).key;
    const premium = (await testKey(t, { scopes: ["svc-premium"] })).key;
    for (const r of [
      read("US", { premium: true }),
      read("US", { indicator: "svc:probe" }),
      read(null, { indicator: null, surface: "signals" }),
    ]) {
      expect(refused(await verdict(paid(free, [r])))).toBe("CATEGORY_NOT_ALLOWED");
      expect((await verdict(paid(premium, [r]))).ok).toBe(true);
    }
  });

  test("any: admitted with the refused reads named, refused only when none is permitted", async () => {
    const { key } = await testKey(t, { allowedRegions: ["06"] });
    const v = (await verdict(paid(key, [read("48"), read("06")], "any"))) as Admitted;
    expect(v.ok).toBe(true);
    expect(v.refused.map((r) => r?.code ?? null)).toEqual(["REGION_NOT_ALLOWED", null]);
    expect(refused(await verdict(paid(key, [read("48"), read("36")], "any")))).toBe("REGION_NOT_ALLOWED");
  });

  test("each: admitted whatever the reads are, each refusal in place", async () => {
    const { key } = await testKey(t);
    const v = (await verdict(paid(key, [read("US"), read("US", { premium: true }), read("06")], "each"))) as Admitted;
    expect(v.ok).toBe(true);
    expect(v.refused.map((r) => r?.code ?? null)).toEqual([null, "CATEGORY_NOT_ALLOWED", null]);
  });

  test("nothing refused: no per-read refusals at all", async () => {
    const { key } = await testKey(t);
    expect(((await verdict(paid(key, [read("US")], "each"))) as Admitted).refused).toEqual([]);
  });
});

describe("rate window and metering", () => {
  test("an admitted keyed request carries its window; served() meters it once; the window's end is a 429", async () => {
    const { key, row } = await testKey(t, { rateLimitPerMinute: 2 });
    const first = (await verdict(paid(key, [read("US")]))) as Admitted;
    expect(first).toMatchObject({ ok: true, metered: true, payment: null, rate: { limit: 2, remaining: 1 } });
    expect(await admission.served(first, t.clock.now())).toEqual({ ok: true, receipt: null });
    expect((await verdict(paid(key, [read("US")]))).ok).toBe(true);
    const third = await verdict(paid(key, [read("US")]));
    expect(third).toMatchObject({ ok: false, code: "RATE_LIMIT_EXCEEDED" });
    // Only the request that was served is metered.
    expect(await keyUsage(t.deps, row.id, usageMonth(t.clock.now()))).toBe(1);
  });

  test("an entitlement refusal counts nothing against the window", async () => {
    const { key } = await testKey(t, { rateLimitPerMinute: 1, allowedRegions: ["06"] });
    for (let i = 0; i < 3; i++) expect(refused(await verdict(paid(key, [read("48")])))).toBe("REGION_NOT_ALLOWED");
    expect((await verdict(paid(key, [read("06")]))).ok).toBe(true);
  });
});
