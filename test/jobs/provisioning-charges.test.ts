// A 202 costs nothing: it is answered while the paid route resolves, before the admission core runs, so a keyed
// request is not metered (and gets no rate-limit headers) and an anonymous one is not asked to pay (202, not 402).
// The page memo never remembers a 202 as the page of its URL.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { DevLightning, L402Rail, Payments, fixedRate, memoryInvoiceStore } from "payments";
import { paymentProofStore } from "../../db/repos/payments";
import { keyUsage } from "../../src/services/keys";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { fredUs, makeJobsTestApp, waitFor, type JobsTestApp } from "../support/jobs";
import { testKey } from "../support/keys";
import { TEST_BTC_USD, TEST_NODE_KEY, TEST_ROOT_SECRET } from "../support/payments";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(120_000);

const haveData = sharedDataPath("fred-macro-us", "UNRATE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));
const d = haveData ? describe : describe.skip;

let t: JobsTestApp;
beforeAll(async () => {
  if (!haveData) return;
  const database = await makeTestDatabase();
  const clock = new ManualClock("2026-11-22T12:00:10Z");
  const random = seededRandom(11);
  const l402 = new L402Rail({
    secrets: [TEST_ROOT_SECRET],
    backend: new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random),
    rates: fixedRate(TEST_BTC_USD),
    clock,
    random,
  });
  const payments = new Payments({ x402: null, l402, store: paymentProofStore(database.db), clock });
  t = await makeJobsTestApp({ database, clock, keyAccess: true, payments, unheld: fredUs("UNRATE", "CPIAUCSL") });
}, 120_000);
afterAll(async () => {
  t?.fetcher.release();
  await t?.close();
});

d("a 202 is never charged", () => {
  test("a keyed request: 202 without metering or rate-limit headers; the 200 that follows is metered once", async () => {
    const { headers, row } = await testKey(t);
    t.fetcher.set("UNRATE", { kind: "stall" });
    const path = "/v1/observations?indicator=UNRATE&region=US&limit=3";
    for (let i = 0; i < 3; i++) {
      const r = await t.request(path, { headers });
      expect(r.status).toBe(202);
      expect(r.headers.get("x-ratelimit-limit")).toBeNull();
    }
    const latest = await t.request("/v1/observations/latest?indicator=UNRATE", { headers });
    expect(latest.status).toBe(202);
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(0);
    // Nothing of the 202s was remembered as the URL's page.
    expect(t.app.pages?.size).toBe(0);

    t.fetcher.release();
    const ok = await waitFor("UNRATE to be held", async () => {
      const r = await t.request(path, { headers });
      return r.status === 200 ? r : undefined;
    });
    expect(ok.headers.get("x-ratelimit-limit")).toBe("60");
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(1);
  });

  test("an anonymous request gets 202, not 402; a held series asks for payment as before", async () => {
    t.fetcher.set("CPIAUCSL", { kind: "stall" });
    const r = await t.request("/v1/observations?indicator=CPIAUCSL&region=US");
    expect(r.status).toBe(202);
    expect(r.headers.get("www-authenticate")).toBeNull();
    expect(((await r.json()) as { status: string }).status).toBe("provisioning");
    const single = await t.request("/v1/observations/latest?indicator=CPIAUCSL&region=US");
    expect(single.status).toBe(202);
    const held = await t.request("/v1/observations?indicator=PAYEMS&region=US");
    expect(held.status).toBe(402);
    expect(held.headers.get("www-authenticate")).toStartWith("L402 ");
    t.fetcher.release();
  });
});
