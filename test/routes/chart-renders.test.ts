// GET /v1/chart under many uncached renders (src/services/chart-renders.ts, src/services/compute-pool.ts), with the
// pool's thread held (test/support/held-threads.ts) so "renders under way" is a state, not a race:
// - one key may have CHART_RENDERS_PER_CALLER (here 2) renders under way; the next is a 429 RATE_LIMIT_EXCEEDED with
//   Retry-After, while another key is still served;
// - the pool's queue (here 1 waiting beside the 1 running) full: a 503 SERVICE_UNAVAILABLE with Retry-After;
// - a chart already being drawn is waited for, not drawn again nor counted again; refusals carry the key's rate headers.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createCaches } from "../../src/services/caches";
import { computePool } from "../../src/services/compute-pool";
import { makeTestApp, type TestApp } from "../support/app";
import { makeTestDatabase } from "../support/db";
import { heldThreads } from "../support/held-threads";
import { testKey } from "../support/keys";
import { clearSeries, monthStarts, writeSeries, type Row } from "../support/series";

setDefaultTimeout(120_000);

const threads = heldThreads();
let t: TestApp;
let first: Record<string, string>;
let second: Record<string, string>;

beforeAll(async () => {
  const database = await makeTestDatabase();
  const compute = computePool({ threads: 1, queueMax: 1, startThread: threads.startThread });
  t = await makeTestApp({ database, keyAccess: true, caches: createCaches(database, { compute, chartRendersPerCaller: 2 }) });
  t.clock.set("2026-11-22T12:00:00Z");
  await clearSeries(database.db, "fred", "UNRATE", "US");
  await writeSeries(database.db, "fred", "UNRATE", "US", monthStarts("2006-01", 120).map((d, k): Row => [d, 4 + k / 10]));
  first = (await testKey(t, { plan: "professional" })).headers;
  second = (await testKey(t, { plan: "professional" })).headers;
}, 120_000);
afterAll(() => t?.close());

/** A chart of its own (a window starting `month` months after 2006-01): never drawn before. */
const chart = (month: number, headers: Record<string, string>) =>
  t.request(`/v1/chart?indicator=UNRATE&region=US&start_date=${monthStarts("2006-01", month + 1)[month]}`, { headers });

async function refusal(res: Response) {
  const body = (await res.json()) as { error: { code: string; details?: Record<string, unknown> } };
  const rate = res.headers.get("x-ratelimit-limit");
  return { status: res.status, code: body.error.code, details: body.error.details, retryAfter: res.headers.get("retry-after"), cache: res.headers.get("cache-control"), rate };
}

describe("uncached renders under way", () => {
  test("one key: 2 under way are drawn, a 3rd is 429; another key still queues; the queue past its bound is 503", async () => {
    const a = chart(1, first);
    await threads.whenHeld(1);
    // Running: a. Waiting: b (the queue's one place). The same chart as a joins a.
    const b = chart(2, first);
    const aAgain = chart(1, first);
    for (let i = 0; i < 1000 && t.deps.caches.compute.queued() < 1; i++) await Bun.sleep(5);
    expect([threads.held(), t.deps.caches.compute.queued(), t.deps.caches.charts.underWay()]).toEqual([1, 1, 2]);

    expect(await refusal(await chart(3, first))).toEqual({ status: 429, code: "RATE_LIMIT_EXCEEDED", details: { renders_under_way: 2, limit: 2 }, retryAfter: "1", cache: "no-store", rate: "1000" });
    expect(await refusal(await chart(4, second))).toEqual({ status: 503, code: "SERVICE_UNAVAILABLE", details: { queued: 1 }, retryAfter: "1", cache: "no-store", rate: "1000" });

    await threads.releaseAll();
    await threads.whenHeld(1);
    await threads.releaseAll();
    const [ra, rb, raAgain] = await Promise.all([a, b, aAgain]);
    expect([ra.status, rb.status, raAgain.status]).toEqual([200, 200, 200]);
    expect(await raAgain.text()).toBe(await ra.text());
    expect(t.deps.caches.charts.underWay()).toBe(0);
  });

  test("the places free again once the renders end; a chart drawn before is served while others are drawn", async () => {
    const c = chart(5, first);
    const d = chart(6, first);
    await threads.whenHeld(1);
    // Kept from the test before: served with no render, though the key has 2 under way.
    expect((await chart(1, first)).status).toBe(200);
    await threads.releaseAll();
    await threads.whenHeld(1);
    await threads.releaseAll();
    expect([(await c).status, (await d).status]).toEqual([200, 200]);
  });
});
