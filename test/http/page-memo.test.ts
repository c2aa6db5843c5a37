// test-tier: once (the local chain: anvil)
// The page memo (src/services/page-memo.ts, looked up by src/http/paid.ts) is a cache in front of the admission core,
// never a second decision:
// - differential: one scenario of the paid-route contract (valid, revoked, rotated, expired, region-limited and
//   premium-refused keys, a malformed key, the 429 edge, anonymous 402, L402 and x402 bought and replayed, a meter
//   that cannot write) runs on two apps that differ only in PAGE_MEMO; every answer (status, headers but the request
//   id, body), every key's metered count and every rate count must be the same, and the memo must have answered;
// - one catalog: a change of an indicator's access_tier, is_active or offered regions in a running process is obeyed
//   by the very next request on every path (page memo, full pipeline, latest, batch, concepts, the catalog).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { decodeBase64Json, type PaymentRequirements } from "payments";
import { keccak256, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { upsertIndicators } from "../../db/repos/catalog";
import { indicators } from "../../db/schema";
import { usageMonth } from "../../src/domain/access";
import { keyUsage } from "../../src/services/keys";
import { ANVIL_KEYS, NETWORK, startChain, type LocalChain } from "../support/chain";
import { ManualClock } from "../support/clock";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";
import { APERTURE_CHALLENGE, makePaymentsApp } from "../support/payments";
import { monthStarts, writeSeries, type Row } from "../support/series";
import { signedPayment } from "../support/x402";

setDefaultTimeout(120_000);

type PaymentsApp = Awaited<ReturnType<typeof makePaymentsApp>>;
const HOUR = 3_600_000;
const PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=5";
const PREMIUM_PAGE = "/v1/observations?indicator=PAYEMS&region=US&limit=5";
const keyOf = (label: string) => keccak256(toHex(label)) as Hex;
const addr = (key: Hex) => privateKeyToAccount(key).address;

let chain: LocalChain;
let start: Date;

async function makeApp(pageMemo: boolean): Promise<PaymentsApp> {
  const t = await makePaymentsApp({
    clock: new ManualClock(start),
    testRoute: false,
    // Heads trusted for an hour, as a busy production server trusts them for its revalidation interval.
    config: { pageMemo, seriesCacheRevalidateMs: HOUR },
    x402: {
      networks: [{ network: NETWORK, asset: chain.asset, payTo: addr(keyOf("memo-pay-to")), rpcUrl: chain.rpcUrl }],
      settlement: { mode: "self", settlerKey: ANVIL_KEYS[0] },
      pollingIntervalMs: 50,
    },
  });
  await writeTestSeries(t);
  return t;
}

/** Two years of UNRATE and PAYEMS for the US; PAYEMS made premium. */
async function writeTestSeries(t: TestApp): Promise<void> {
  const months = monthStarts("2024-01", 24);
  await writeSeries(
    t.database.db,
    "fred",
    "UNRATE",
    "US",
    months.map((d, k): Row => [d, 4 + k / 10]),
    new Date("2026-01-10T00:00:00Z"),
  );
  await writeSeries(
    t.database.db,
    "fred",
    "PAYEMS",
    "US",
    months.map((d, k): Row => [d, 150_000 + k]),
    new Date("2026-01-10T00:00:00Z"),
  );
  await setIndicator(t, "PAYEMS", { accessTier: "premium" });
}

async function setIndicator(t: TestApp, code: string, change: Partial<typeof indicators.$inferInsert>) {
  const [row] = await t.database.db
    .select()
    .from(indicators)
    .where(sql`${indicators.code} = ${code} and ${indicators.sourceSlug} = 'fred'`);
  await upsertIndicators(t.database.db, [{ ...row!, ...change }]);
  return row!;
}

type Step = { label: string; status: number; headers: Record<string, string>; body: string };

/** What a client sees of an answer: the request id is new per request; a settlement receipt names its own transaction. */
async function seen(label: string, res: Response): Promise<Step> {
  const headers: Record<string, string> = {};
  for (const [k, v] of res.headers) {
    if (k === "x-request-id") continue;
    headers[k] =
      k === "payment-response" ? JSON.stringify({ success: (decodeBase64Json(v) as { success: boolean }).success }) : v;
  }
  // A 500 names its request id in the message too.
  const body = (await res.text()).replaceAll(res.headers.get("x-request-id") ?? "\u0000", "<request id>");
  return { label, status: res.status, headers, body };
}

/** The scenario: the same requests, keys and clock moves on either app; `payer` funds the x402 purchase. */
async function scenario(t: PaymentsApp, payer: Hex): Promise<{ steps: Step[]; usage: Record<string, number> }> {
  const steps: Step[] = [];
  const get = async (label: string, path: string, headers: Record<string, string> = {}) => {
    const step = await seen(label, await t.request(path, { headers }));
    steps.push(step);
    return step;
  };
  const free = await testKey(t);
  const premium = await testKey(t, { scopes: ["svc-premium"] });
  const texas = await testKey(t, { allowedRegions: ["TX"] });
  const expiring = await testKey(t, { expiresAt: new Date(start.getTime() + 60_000) });
  const revoked = await testKey(t);
  const rotated = await testKey(t);
  const limited = await testKey(t, { rateLimitPerMinute: 3 });

  await get("free: first read", PAGE, free.headers);
  await get("free: repeat", PAGE, free.headers);
  // A page large enough to be compressed (PAGE is under the 1 KB threshold).
  const wide = "/v1/observations?indicator=UNRATE&region=US&limit=24";
  await get("free: a wider page", wide, free.headers);
  await get("free: the wider page, brotli accepted", wide, { ...free.headers, "accept-encoding": "gzip, br" });
  await get("free: the wider page, gzip accepted", wide, { ...free.headers, "accept-encoding": "gzip" });
  await get("premium key: premium page", PREMIUM_PAGE, premium.headers);
  await get("premium key: premium page again", PREMIUM_PAGE, premium.headers);
  await get("free key: premium page refused", PREMIUM_PAGE, free.headers);
  await get("texas key: region refused", PAGE, texas.headers);
  await get("texas key: refused again", PAGE, texas.headers);
  await get("malformed key", PAGE, { "x-api-key": "svc_live_nope" });
  await get("expiring key: before expiry", PAGE, expiring.headers);
  t.clock.advance(120_000);
  await get("expiring key: expired", PAGE, expiring.headers);
  await get("revoked key: before", PAGE, revoked.headers);
  steps.push(
    await seen(
      "revoke",
      await t.request("/v1/keys/revoke", {
        method: "POST",
        headers: { ...revoked.headers, "content-type": "application/json" },
        body: "{}",
      }),
    ),
  );
  await get("revoked key: after", PAGE, revoked.headers);
  await get("rotated key: before", PAGE, rotated.headers);
  const rotation = await t.request("/v1/keys/rotate", { method: "POST", headers: rotated.headers });
  const newKey = ((await rotation.clone().json()) as { data: { key: string } }).data.key;
  steps.push(await seen("rotate", rotation));
  await get("rotated key: old secret", PAGE, rotated.headers);
  await get("rotated key: new secret", PAGE, { authorization: `Bearer ${newKey}` });
  for (let i = 1; i <= 5; i++) await get(`limited key: request ${i}`, PAGE, limited.headers);

  const challenge = await t.request(PAGE);
  const l402 = APERTURE_CHALLENGE.exec(challenge.headers.get("www-authenticate") ?? "");
  const requirement = (
    decodeBase64Json(challenge.headers.get("payment-required")!) as { accepts: PaymentRequirements[] }
  ).accepts[0]!;
  steps.push(await seen("anonymous: 402", challenge));
  const paid = t.dev.pay(l402![3]!);
  if (!paid.ok) throw new Error(paid.message);
  const token = `L402 ${l402![2]}:${paid.preimage}`;
  await get("L402: bought", PAGE, { authorization: token });
  await get("L402: replayed", PAGE, { authorization: token });
  const proof = await signedPayment(payer, requirement, {
    validBefore: BigInt(Math.floor(start.getTime() / 1000) + 300),
  });
  await get("x402: bought", PAGE, { "payment-signature": proof });
  await get("x402: replayed", PAGE, { "payment-signature": proof });

  const month = usageMonth(t.clock.now());
  const usage: Record<string, number> = {};
  for (const [name, k] of Object.entries({ free, premium, texas, expiring, revoked, rotated, limited }))
    usage[name] = await keyUsage(t.deps, k.row.id, month);

  // A usage journal that cannot be written: nothing is served unmetered.
  await t.deps.keys.meter.close();
  await get("meter cannot write", PAGE, free.headers);
  return { steps, usage };
}

let withMemo: PaymentsApp;
let withoutMemo: PaymentsApp;
let on: Awaited<ReturnType<typeof scenario>>;
let off: Awaited<ReturnType<typeof scenario>>;

beforeAll(async () => {
  chain = await startChain();
  start = new Date(Number(await chain.latestTimestamp()) * 1000);
  withMemo = await makeApp(true);
  withoutMemo = await makeApp(false);
  for (const [i, payer] of [keyOf("memo-payer-on"), keyOf("memo-payer-off")].entries())
    await chain.mint(addr(payer), 1_000_000n * BigInt(i + 1));
  on = await scenario(withMemo, keyOf("memo-payer-on"));
  off = await scenario(withoutMemo, keyOf("memo-payer-off"));
});
afterAll(async () => {
  await withMemo?.close();
  await withoutMemo?.close();
});

describe("the page memo answers exactly as the full pipeline", () => {
  test("PAGE_MEMO=off has no memo; with it on, the memo answered most of the scenario", () => {
    expect(withoutMemo.app.pages).toBeUndefined();
    expect(withMemo.app.pages!.served).toBeGreaterThanOrEqual(20);
  });

  test("every answer is the same: status, headers (but the request id) and body", () => {
    expect(on.steps.map((s) => s.label)).toEqual(off.steps.map((s) => s.label));
    for (let k = 0; k < on.steps.length; k++) expect(on.steps[k]).toEqual(off.steps[k]!);
  });

  test("the scenario meant what it says", () => {
    const status = Object.fromEntries(on.steps.map((s) => [s.label, s.status]));
    expect(status).toMatchObject({
      "free: repeat": 200,
      "free: the wider page, brotli accepted": 200,
      "free key: premium page refused": 403,
      "texas key: region refused": 403,
      "malformed key": 401,
      "expiring key: expired": 401,
      "revoked key: after": 401,
      "rotated key: old secret": 401,
      "rotated key: new secret": 200,
      "limited key: request 3": 200,
      "limited key: request 4": 429,
      "anonymous: 402": 402,
      "L402: bought": 200,
      "L402: replayed": 402,
      "x402: bought": 200,
      "x402: replayed": 402,
      "meter cannot write": 503,
    });
    const limited = on.steps
      .filter((s) => s.label.startsWith("limited key"))
      .map((s) => s.headers["x-ratelimit-remaining"]);
    expect(limited).toEqual(["2", "1", "0", "0", "0"]);
    expect(on.steps.find((s) => s.label === "x402: bought")!.headers["payment-response"]).toBe('{"success":true}');
    const codings = on.steps
      .filter((s) => s.label.startsWith("free: the wider page"))
      .map((s) => s.headers["content-encoding"]);
    expect(codings).toEqual(["br", "gzip"]);
  });

  test("every key is metered the same, exactly once per served page", () => {
    expect(on.usage).toEqual(off.usage);
    expect(on.usage).toEqual({ free: 5, premium: 2, texas: 0, expiring: 1, revoked: 1, rotated: 2, limited: 3 });
  });
});

describe("one catalog: a change is obeyed by the very next request on every path", () => {
  const paths = (t: TestApp) => ({
    page: () => t.getJson(PAGE, { headers: { "x-api-key": keyFor.get(t)! } }),
    latest: () =>
      t.getJson("/v1/observations/latest?indicator=UNRATE&region=US", { headers: { "x-api-key": keyFor.get(t)! } }),
    batch: () =>
      t.getJson("/v1/observations/latest?indicators=UNRATE,PAYEMS&region=US", {
        headers: { "x-api-key": keyFor.get(t)! },
      }),
    concept: () =>
      t.getJson("/v1/observations?indicator=unemployment_rate&region=US&limit=5", {
        headers: { "x-api-key": keyFor.get(t)! },
      }),
    catalog: () => t.getJson("/v1/indicators/UNRATE"),
  });
  const keyFor = new Map<TestApp, string>();

  for (const memo of [true, false]) {
    describe(`page memo ${memo ? "on" : "off"}`, () => {
      let t: TestApp;
      const app = () => t;
      beforeAll(async () => {
        t = await makeTestApp({ keyAccess: true, config: { pageMemo: memo, seriesCacheRevalidateMs: HOUR } });
        await writeTestSeries(t);
        const { key } = await testKey(t, { rateLimitPerMinute: 10_000 });
        keyFor.set(t, key);
        const p = paths(t);
        for (const read of [p.page, p.page, p.latest, p.concept, p.concept]) expect((await read()).status).toBe(200);
      });
      afterAll(() => t?.close());

      test("access_tier premium: 403 for a free key at once, on the memoised page too; the catalog says premium", async () => {
        const t = app();
        const p = paths(t);
        const served = t.app.pages?.served ?? 0;
        expect((await p.page()).status).toBe(200);
        if (memo) expect(t.app.pages!.served).toBe(served + 1);
        const row = await setIndicator(t, "UNRATE", { accessTier: "premium" });
        try {
          const page = await p.page();
          expect([page.status, page.body.error.code]).toEqual([403, "CATEGORY_NOT_ALLOWED"]);
          expect((await p.latest()).status).toBe(403);
          const batch = await p.batch();
          expect(batch.status).toBe(207);
          expect(batch.body.errors.map((e: any) => [e.indicator, e.code])).toEqual([
            ["UNRATE", "CATEGORY_NOT_ALLOWED"],
            ["PAYEMS", "CATEGORY_NOT_ALLOWED"],
          ]);
          expect((await p.concept()).status).toBe(403);
          expect((await p.catalog()).body.data.access_tier).toBe("premium");
        } finally {
          await upsertIndicators(t.database.db, [row]);
        }
        expect((await p.page()).status).toBe(200);
      });

      test("is_active false: the indicator is not offered (404) at once, and the concept no longer resolves to it", async () => {
        const t = app();
        const p = paths(t);
        expect((await p.page()).status).toBe(200);
        const row = await setIndicator(t, "UNRATE", { isActive: false });
        try {
          const page = await p.page();
          expect([page.status, page.body.error.code]).toEqual([404, "RESOURCE_NOT_FOUND"]);
          expect((await p.latest()).status).toBe(404);
          const concept = await p.concept();
          expect(concept.status === 404 || concept.body.meta.concept.resolved_indicator !== "UNRATE").toBe(true);
          expect((await p.catalog()).status).toBe(404);
        } finally {
          await upsertIndicators(t.database.db, [row]);
        }
        expect((await p.page()).status).toBe(200);
      });

      test("offered regions: a default region moved elsewhere makes region=US not offered (404) at once", async () => {
        const t = app();
        const p = paths(t);
        expect((await p.page()).status).toBe(200);
        const row = await setIndicator(t, "UNRATE", { defaultRegionCode: "GB" });
        try {
          const page = await p.page();
          expect([page.status, page.body.error.code]).toEqual([404, "RESOURCE_NOT_FOUND"]);
          expect(page.body.error.message).toContain("GB only");
          expect((await p.latest()).status).toBe(404);
          expect((await p.catalog()).body.data.default_region.code).toBe("GB");
        } finally {
          await upsertIndicators(t.database.db, [row]);
        }
        expect((await p.page()).status).toBe(200);
      });
    });
  }
});

describe("the memo steps aside for new data", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ keyAccess: true, config: { seriesCacheRevalidateMs: HOUR } });
    await writeTestSeries(t);
  });
  afterAll(() => t?.close());

  test("a new observation is served at once: the old page is never answered again", async () => {
    const { key } = await testKey(t, { rateLimitPerMinute: 10_000 });
    const page = "/v1/observations?indicator=UNRATE&region=US&limit=1";
    const headers = { "x-api-key": key };
    expect((await t.getJson(page, { headers })).body.data[0].date).toBe("2026-05-01");
    await t.request(page, { headers });
    const served = t.app.pages!.served;
    await writeSeries(t.database.db, "fred", "UNRATE", "US", [["2026-06-01", 9.9]], new Date("2026-07-10T00:00:00Z"));
    expect((await t.getJson(page, { headers })).body.data[0]).toMatchObject({ date: "2026-06-01", value: 9.9 });
    expect(t.app.pages!.served).toBe(served);
    // Recorded again from the new version.
    expect((await t.getJson(page, { headers })).body.data[0].value).toBe(9.9);
    expect(t.app.pages!.served).toBe(served + 1);
  });

  test("HEAD stays a 405 on a memoised paid route", async () => {
    const { headers } = await testKey(t);
    for (let i = 0; i < 2; i++) expect((await t.request(PAGE, { headers })).status).toBe(200);
    expect((await t.request(PAGE, { method: "HEAD", headers })).status).toBe(405);
  });
});
