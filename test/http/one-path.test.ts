// One path for every request: a middleware registered in the app applies to every answer, page memo hits
// included, since the memo is looked up inside the Hono pipeline after routing and answers through the same gate.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../src/http/app-env";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";
import { monthStarts, writeSeries, type Row } from "../support/series";

setDefaultTimeout(240_000);

const PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=5";

describe("a middleware registered in the app sees every answer", () => {
  let t: TestApp;
  const seen: string[] = [];
  const witness: MiddlewareHandler<AppEnv> = async function witness(c, next) {
    await next();
    seen.push(`${c.req.method} ${c.req.path} ${c.res.status}`);
    c.res.headers.set("X-Witness", "seen");
  };
  // Series heads trusted for an hour, as a busy server trusts them for its revalidation interval: pages are memoised.
  beforeAll(async () => {
    t = await makeTestApp({ keyAccess: true, middleware: [witness], config: { seriesCacheRevalidateMs: 3_600_000 } });
    const months = monthStarts("2024-01", 24);
    await writeSeries(t.database.db, "fred", "UNRATE", "US", months.map((d, k): Row => [d, 4 + k / 10]), new Date("2026-01-10T00:00:00Z"));
  });
  afterAll(() => t?.close());

  test("cold reads, memo hits, refusals, free routes and unknown paths", async () => {
    const { headers } = await testKey(t, { rateLimitPerMinute: 1000 });
    const answers: Response[] = [];
    // On PostgreSQL the seeding write's notification may reach the caches after the first read and drop the page it
    // recorded: read until the memo answers (a cold read, then hits), then once more.
    for (let i = 0; i < 4 && t.app.pages!.served === 0; i++) answers.push(await t.request(PAGE, { headers }));
    expect(t.app.pages!.served).toBe(1);
    answers.push(await t.request(PAGE, { headers }));
    expect(t.app.pages!.served).toBe(2);
    const reads = answers.length;
    answers.push(await t.request(PAGE, { headers: { authorization: "Bearer sk_live_unknownunknownunknownunknown" } }));
    answers.push(await t.request("/v1/indicators?limit=1"));
    answers.push(await t.request("/v1/nothing-here"));
    expect(answers.map((r) => r.status)).toEqual([...Array(reads).fill(200), 401, 200, 404]);
    for (const res of answers) expect(res.headers.get("x-witness")).toBe("seen");
    expect(seen).toHaveLength(answers.length);
    // Memo hits carry what the app's own middleware adds, as cold answers do.
    const [cold, hit] = [answers[0], answers[reads - 1]];
    for (const name of ["x-request-id", "access-control-allow-origin", "x-ratelimit-limit", "content-type", "vary"]) {
      expect(hit!.headers.get(name)).not.toBeNull();
      expect(hit!.headers.get(name) === null).toBe(cold!.headers.get(name) === null);
    }
    expect(await hit!.text()).toBe(await cold!.text());
  });
});
