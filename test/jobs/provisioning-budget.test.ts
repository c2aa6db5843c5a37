// Bounded work for callers without a key. Before: 6,000 anonymous requests for series offered but
// not held made 6,000 provisioning rows and 5,983 jobs (nine hours of upstream work) ahead of a real user's request.
// Now a new fetch is bounded per client address and minute (429), per upstream and minute and by a share of the
// upstream's own allowance (503), and by the queue length (503), all with Retry-After; re-asking for a series under
// way stays a free 202; a caller with a key of a paid plan starts fetches past the strangers' bounds and its job
// runs first (at most its own per-minute limit of new fetches). A free key is a stranger (before: six free keys from
// one address filled the whole queue and locked a Professional key out), counted per key and per client address. The real job engine runs with the fetch stalled, so the queue holds what was started.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { countProvisioning } from "../../db/repos/provisioning";
import { indicatorId } from "../../db/seed/catalog";
import { anonymousAllowance, paidQueueReserve } from "../../src/domain/provisioning-budget";
import type { ApiError } from "../../src/errors";
import { keyedCaller, provisioningBudget } from "../../src/services/provisioning-budget";
import { memoryRateLimitStore } from "../../src/services/rate-limit-stores";
import { seriesJobKey } from "../../src/domain/provisioning";
import { PROVISION_QUEUE } from "../../src/jobs/queues";
import { providerLimits } from "../../src/upstream/limiter";
import { fromIp, testKey } from "../support/keys";
import { fredUs, makeJobsTestApp } from "../support/jobs";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(120_000);

const CODES = ["UNRATE", "CPIAUCSL", "FEDFUNDS", "GDP", "INDPRO", "M2SL", "HOUST"];
const haveData = sharedDataPath("fred-macro-us", "UNRATE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));
const d = haveData ? describe : describe.skip;

let t: Awaited<ReturnType<typeof makeJobsTestApp>>;
beforeAll(async () => {
  if (!haveData) return;
  t = await makeJobsTestApp({
    keyAccess: true,
    env: {
      PROVISION_ANON_PER_CLIENT_PER_MINUTE: "2",
      PROVISION_ANON_PER_SOURCE_PER_MINUTE: "3",
      PROVISION_ANON_QUEUE_MAX: "4",
      PROVISION_QUEUE_MAX: "6",
    },
    unheld: fredUs(...CODES),
  });
  for (const c of CODES) t.fetcher.set(c, { kind: "stall" });
}, 120_000);
afterAll(async () => {
  t?.fetcher.release();
  await t?.close();
});

const ask = (code: string, ip: string, headers: Record<string, string> = {}) =>
  t.app.request(`/v1/observations?indicator=${code}&region=US`, { headers }, fromIp(ip));
const queued = () => countProvisioning(t.database.db);

d("a stranger's fetches", () => {
  test("per client: 2 new series a minute, the third 429 with Retry-After to the minute's end; asking again for one under way is a free 202", async () => {
    t.clock.set("2026-11-26T12:00:10Z");
    expect((await ask("UNRATE", "198.51.100.1")).status).toBe(202);
    expect((await ask("CPIAUCSL", "198.51.100.1")).status).toBe(202);
    const third = await ask("FEDFUNDS", "198.51.100.1");
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("50");
    expect(await third.json()).toEqual({
      error: {
        code: "RATE_LIMIT_EXCEEDED",
        message:
          "At most 2 series not held yet may be requested per minute without a key; retry in 50 s. Send an API key to be served first (free keys: POST /v1/signup).",
        details: { limit: 2, retry_after_seconds: 50 },
      },
    });
    // Under way already: nothing new is started, so nothing is refused.
    for (let i = 0; i < 5; i++) expect((await ask("UNRATE", "198.51.100.1")).status).toBe(202);
    expect(await queued()).toBe(2);
  });

  test("per upstream: 3 new fetches from FRED a minute for all strangers together, then 503 with Retry-After", async () => {
    expect((await ask("FEDFUNDS", "198.51.100.2")).status).toBe(202);
    const res = await ask("GDP", "198.51.100.3");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("50");
    const body = (await res.json()) as any;
    expect(body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(body.error.details).toEqual({ upstream: "fred", limit: 3, retry_after_seconds: 50 });
    expect(await queued()).toBe(3);
  });

  test("queue: the next minute, strangers start nothing more once 4 series are being fetched", async () => {
    t.clock.set("2026-11-26T12:01:00Z");
    expect((await ask("GDP", "198.51.100.4")).status).toBe(202);
    const res = await ask("INDPRO", "198.51.100.5");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(((await res.json()) as any).error.details).toEqual({
      queued: 4,
      queue_max: 4,
      reserved_for_paid_plans: 2,
      retry_after_seconds: 30,
    });
    expect(await queued()).toBe(4);
  });

  test("a fake key is a stranger: refused like one before the 401 it would get", async () => {
    const res = await ask("INDPRO", "198.51.100.6", { "X-API-Key": `svc_live_${"x".repeat(32)}` });
    expect(res.status).toBe(503);
    expect(await queued()).toBe(4);
  });

  test("a free key is a stranger: six free keys from one address meet the strangers' queue bound, the paid reserve named", async () => {
    for (let i = 0; i < 6; i++) {
      const { headers } = await testKey(t, { plan: "free", rateLimitPerMinute: 1000 });
      const res = await ask("INDPRO", "203.0.113.9", headers);
      expect(res.status).toBe(503);
      const error = ((await res.json()) as any).error;
      expect(error.details).toEqual({ queued: 4, queue_max: 4, reserved_for_paid_plans: 2, retry_after_seconds: 30 });
      expect(error.message).toBe(
        "4 series are being fetched; new fetches for callers without a paid plan start once fewer than 4 are. Keys of a paid plan are served first (plans: GET /checkout).",
      );
    }
    expect(await queued()).toBe(4);
  });
});

d("free keys counted per key and per client address (the budget itself, with room in the queue)", () => {
  const limits = {
    perClientPerMinute: 2,
    perSourcePerMinute: 100,
    upstreamShare: 1,
    anonymousQueueMax: 1000,
    queueMax: 1000,
  };
  const budget = () =>
    provisioningBudget({ rateLimits: memoryRateLimitStore(), limits, upstreamAllowance: () => null });
  const free = (id: string, client: string) =>
    keyedCaller({ id, hint: `svc_live_${id}`, rateLimitPerMinute: 1000, plan: "free" }, client);
  const refusal = (p: Promise<void>) =>
    p.then(
      () => null,
      (e: ApiError) => ({ code: e.code, message: e.message }),
    );
  const now = new Date("2026-11-26T13:00:00Z");

  test("six free keys from one address start 2 a minute together, not 2 each; the third is 429 naming the address", async () => {
    const b = budget();
    expect(await refusal(b.admit(t.database.db, free("k1", "203.0.113.9"), "fred", now))).toBeNull();
    expect(await refusal(b.admit(t.database.db, free("k2", "203.0.113.9"), "fred", now))).toBeNull();
    for (const id of ["k3", "k4", "k5", "k6"]) {
      expect(await refusal(b.admit(t.database.db, free(id, "203.0.113.9"), "fred", now))).toEqual({
        code: "RATE_LIMIT_EXCEEDED",
        message:
          "Free keys from one address together may start at most 2 fetches of series not held yet per minute; retry in 1 min. Keys of a paid plan are served first (plans: GET /checkout).",
      });
    }
  });

  test("one free key from rotating addresses: 2 a minute as a key", async () => {
    const b = budget();
    expect(await refusal(b.admit(t.database.db, free("k1", "203.0.113.1"), "fred", now))).toBeNull();
    expect(await refusal(b.admit(t.database.db, free("k1", "203.0.113.2"), "fred", now))).toBeNull();
    expect((await refusal(b.admit(t.database.db, free("k1", "203.0.113.3"), "fred", now)))?.message).toStartWith(
      "Key svc_live_k1 (free plan) may start at most 2 fetches",
    );
  });

  test("a paid plan's key is not counted with the strangers: past both bounds at once", async () => {
    const b = budget();
    const paid = keyedCaller(
      { id: "p1", hint: "svc_live_p1", rateLimitPerMinute: 1000, plan: "professional" },
      "203.0.113.9",
    );
    expect(paid.class).toBe("paying");
    for (let i = 0; i < 10; i++) expect(await refusal(b.admit(t.database.db, paid, "fred", now))).toBeNull();
  });
});

d("a paying customer's fetches", () => {
  test("a key starts at most its own per-minute limit of new fetches (the free 202 comes before its rate window): then 429", async () => {
    const { headers, row } = await testKey(t, { plan: "professional", rateLimitPerMinute: 1 });
    expect((await ask("INDPRO", "198.51.100.7", headers)).status).toBe(202);
    const res = await ask("M2SL", "198.51.100.7", headers);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(((await res.json()) as any).error).toEqual({
      code: "RATE_LIMIT_EXCEEDED",
      message: `Key ${row.hint} may start at most 1 fetches of series not held yet per minute; retry in 1 min.`,
      details: { limit: 1, retry_after_seconds: 60 },
    });
    expect(await queued()).toBe(5);
  });

  test("a paid plan's key starts past the strangers' bounds (up to the queue's own), and its job is taken first", async () => {
    const { headers } = await testKey(t, { plan: "professional", rateLimitPerMinute: 1000 });
    expect((await ask("INDPRO", "198.51.100.1", headers)).status).toBe(202);
    expect((await ask("M2SL", "198.51.100.1", headers)).status).toBe(202);
    const full = await ask("HOUST", "198.51.100.1", headers);
    expect(full.status).toBe(503);
    expect(((await full.json()) as any).error.details).toEqual({ queued: 6, queue_max: 6, retry_after_seconds: 30 });
    const priority = async (code: string) =>
      (await t.jobs.boss!.findJobs(PROVISION_QUEUE, { key: seriesJobKey(indicatorId("fred", code), "US") }))[0]!
        .priority;
    expect([await priority("UNRATE"), await priority("INDPRO"), await priority("M2SL")]).toEqual([0, 10, 10]);
  });
});

describe("a stranger's share of an upstream's allowance", () => {
  const limits = {
    perClientPerMinute: 5,
    perSourcePerMinute: 10,
    upstreamShare: 0.25,
    anonymousQueueMax: 50,
    queueMax: 500,
  };
  test("FRED: 120 a minute -> 30, capped by the per-upstream 10; no daily bound", () => {
    expect(anonymousAllowance(limits, providerLimits({ bls: true, census: true }).fred)).toEqual({
      perMinute: 10,
      perDay: null,
    });
    expect(
      anonymousAllowance({ ...limits, perSourcePerMinute: 100 }, providerLimits({ bls: true, census: true }).fred),
    ).toEqual({ perMinute: 30, perDay: null });
  });
  test("BLS: a quarter of 500 a day with a key (125), of 25 without (6); Census without a key: 125 of 500", () => {
    expect(anonymousAllowance(limits, providerLimits({ bls: true, census: false }).bls)).toEqual({
      perMinute: 10,
      perDay: 125,
    });
    expect(anonymousAllowance(limits, providerLimits({ bls: false, census: false }).bls)).toEqual({
      perMinute: 10,
      perDay: 6,
    });
    expect(anonymousAllowance(limits, providerLimits({ bls: false, census: false }).census)).toEqual({
      perMinute: 10,
      perDay: 125,
    });
  });
  test("the queue kept for paid plans: the queue bound less the strangers' (500 - 50 = 450), never below 0", () => {
    expect(paidQueueReserve(limits)).toBe(450);
    expect(paidQueueReserve({ anonymousQueueMax: 500, queueMax: 500 })).toBe(0);
    expect(paidQueueReserve({ anonymousQueueMax: 600, queueMax: 500 })).toBe(0);
  });
  test("a share that rounds to nothing still lets one through; a share of 0 none", () => {
    expect(anonymousAllowance({ ...limits, upstreamShare: 0.01 }, { perMinute: null, perDay: 25 })).toEqual({
      perMinute: 10,
      perDay: 1,
    });
    expect(anonymousAllowance({ ...limits, upstreamShare: 0 }, { perMinute: 120, perDay: 500 })).toEqual({
      perMinute: 0,
      perDay: 0,
    });
  });
});
