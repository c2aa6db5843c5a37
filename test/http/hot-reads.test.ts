// The hot-read lane (src/http/hot-reads.ts) answers a repeated observation page exactly as the full pipeline does,
// counts and meters it exactly once, and steps aside whenever the full pipeline has something to decide: a changed
// series, a revoked, expired, malformed or restricted key, a refused rate limit, an anonymous call to a paid route.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";

import { keyUsage } from "../../src/services/keys";
import { usageMonth } from "../../src/domain/access";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";
import { monthStarts, writeSeries, type Row } from "../support/series";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const HOUR = 3_600_000;
const PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=5";
let keyed: TestApp;
let open: TestApp;

beforeAll(async () => {
  // Heads trusted for an hour, as a busy production server trusts them for its revalidation interval.
  keyed = await makeTestApp({ keyAccess: true, config: { seriesCacheRevalidateMs: HOUR } });
  open = await makeTestApp({ config: { seriesCacheRevalidateMs: HOUR } });
  for (const t of [keyed, open]) {
    await writeSeries(t.database.db, "fred", "UNRATE", "US", monthStarts("2024-01", 24).map((d, k): Row => [d, 4 + k / 10]), new Date("2026-01-10T00:00:00Z"));
    // On PostgreSQL the first read also takes the catalog's first cross-process fingerprint (a new generation): a
    // page resolved across that change is not recorded, so the tests start after it.
    await t.request("/v1/indicators/UNRATE");
  }
}, 120_000);
afterAll(async () => {
  await keyed?.close();
  await open?.close();
});

const lane = (t: TestApp) => t.app.pages!;

/** Status, body and headers, with the request id's value (new per request) replaced by its shape. */
async function snapshot(res: Response): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers = Object.fromEntries([...res.headers].map(([k, v]) => [k, k === "x-request-id" ? (/^[0-9a-f-]{36}$/.test(v) ? "uuid" : v) : v]));
  return { status: res.status, headers, body: await res.text() };
}

describe("a repeated page", () => {
  test("is answered by the lane with exactly the full pipeline's status, headers and body", async () => {
    const { headers } = await testKey(keyed, { rateLimitPerMinute: 1000 });
    const before = lane(keyed).served;
    const full = await snapshot(await keyed.request(PAGE, { headers }));
    expect(full.status).toBe(200);
    expect(lane(keyed).served).toBe(before);
    const hot = await snapshot(await keyed.request(PAGE, { headers }));
    expect(lane(keyed).served).toBe(before + 1);
    // The rate-limit window moved on by one request: everything else is identical.
    expect(full.headers["x-ratelimit-remaining"]).toBe("999");
    expect(hot.headers["x-ratelimit-remaining"]).toBe("998");
    expect(full).toEqual({ ...hot, headers: { ...hot.headers, "x-ratelimit-remaining": "999" } });
    expect(full.headers["access-control-allow-origin"]).toBe("*");
    expect(full.headers["content-type"]).toBe("application/json");
  });

  test("keeps a well-formed client request id, as the full pipeline does", async () => {
    const { headers } = await testKey(keyed);
    await keyed.request(PAGE, { headers });
    const before = lane(keyed).served;
    const res = await keyed.request(PAGE, { headers: { ...headers, "x-request-id": "trace-0123456789" } });
    expect(lane(keyed).served).toBe(before + 1);
    expect(res.headers.get("x-request-id")).toBe("trace-0123456789");
  });

  test("N requests through both paths are metered exactly N times and counted exactly N times", async () => {
    const { row, headers } = await testKey(keyed, { rateLimitPerMinute: 1000 });
    const before = lane(keyed).served;
    // The first request of a key not yet cached takes the full pipeline (it looks the key up), as do the requests
    // that arrive while it does; the later ones take the lane.
    const answers = await Promise.all(Array.from({ length: 10 }, () => keyed.request(PAGE, { headers })));
    answers.push(...(await Promise.all(Array.from({ length: 15 }, () => keyed.request(PAGE, { headers })))));
    expect(answers.map((r) => r.status)).toEqual(Array(25).fill(200));
    const remaining = answers.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 25 }, (_, k) => 975 + k));
    expect(lane(keyed).served - before).toBe(15);
    expect(await keyUsage(keyed.deps, row.id, usageMonth(keyed.clock.now()))).toBe(25);
  });

  test("a new observation is served at once: the lane steps aside until the new page is read", async () => {
    const page = "/v1/observations?indicator=UNRATE&region=US&limit=1";
    const first = await open.getJson(page);
    await open.request(page);
    const before = lane(open).served;
    await writeSeries(open.database.db, "fred", "UNRATE", "US", [["2026-01-01", 9.9]], new Date("2026-02-10T00:00:00Z"));
    const after = await open.getJson(page);
    expect(first.body.data[0].date).toBe("2025-12-01");
    expect(after.body.data[0]).toMatchObject({ date: "2026-01-01", value: 9.9 });
    expect(lane(open).served).toBe(before);
    // Recorded again from the new version.
    expect((await open.getJson(page)).body.data[0].value).toBe(9.9);
    expect(lane(open).served).toBe(before + 1);
  });
});

describe("the lane steps aside", () => {
  test("for a key revoked after the page was recorded: 401 at once", async () => {
    const { key, headers } = await testKey(keyed);
    expect((await keyed.request(PAGE, { headers })).status).toBe(200);
    expect((await keyed.request(PAGE, { headers })).status).toBe(200);
    const revoked = await keyed.request("/v1/keys/revoke", { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: "{}" });
    expect(revoked.status).toBe(200);
    const res = await keyed.getJson(PAGE, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("INVALID_API_KEY");
  });

  test("for an expired key, a malformed key, and a key restricted to other regions", async () => {
    const { headers } = await testKey(keyed);
    await keyed.request(PAGE, { headers });
    const expired = await testKey(keyed, { expiresAt: new Date(keyed.clock.now().getTime() + 60_000) });
    expect((await keyed.request(PAGE, { headers: expired.headers })).status).toBe(200);
    keyed.clock.advance(120_000);
    const before = lane(keyed).served;
    expect((await keyed.getJson(PAGE, { headers: expired.headers })).body.error.code).toBe("EXPIRED_API_KEY");
    expect((await keyed.getJson(PAGE, { headers: { "x-api-key": "svc_live_nope" } })).body.error.code).toBe("INVALID_API_KEY");
    const texas = await testKey(keyed, { allowedRegions: ["TX"] });
    const refused = await keyed.getJson(PAGE, { headers: texas.headers });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("REGION_NOT_ALLOWED");
    expect(lane(keyed).served).toBe(before);
  });

  test("for keys taking turns on one URL: each key's own entitlement, every time", async () => {
    const open = await testKey(keyed);
    const texas = await testKey(keyed, { allowedRegions: ["TX"] });
    // Both keys in the key cache, so both reach the lane's entitlement check.
    expect((await keyed.request("/v1/ping", { headers: texas.headers })).status).toBe(200);
    await keyed.request(PAGE, { headers: open.headers });
    for (let i = 0; i < 2; i++) {
      const before = lane(keyed).served;
      expect((await keyed.request(PAGE, { headers: open.headers })).status).toBe(200);
      expect(lane(keyed).served).toBe(before + 1);
      const refused = await keyed.getJson(PAGE, { headers: texas.headers });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("REGION_NOT_ALLOWED");
      expect(lane(keyed).served).toBe(before + 1);
    }
  });

  test("for an anonymous call to a paid route: the full pipeline's 401 every time", async () => {
    const { headers } = await testKey(keyed);
    await keyed.request(PAGE, { headers });
    const before = lane(keyed).served;
    for (let i = 0; i < 2; i++) expect((await keyed.getJson(PAGE)).body.error.code).toBe("INVALID_API_KEY");
    expect(lane(keyed).served).toBe(before);
  });

  test("when the window is used up: the 429 comes from the full pipeline, counted once", async () => {
    const { headers } = await testKey(keyed, { rateLimitPerMinute: 3 });
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await keyed.request(PAGE, { headers });
      statuses.push(res.status);
      remaining.push(res.headers.get("x-ratelimit-remaining"));
      if (res.status === 429) {
        expect(res.headers.get("retry-after")).not.toBeNull();
        expect(((await res.json()) as any).error.code).toBe("RATE_LIMIT_EXCEEDED");
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(remaining).toEqual(["2", "1", "0", "0", "0"]);
  });

  test("for HEAD, which stays a 405 on a paid route", async () => {
    await open.request(PAGE);
    expect((await open.request(PAGE, { method: "HEAD" })).status).toBe(405);
  });
});

test("without an access layer, anonymous repeats are answered by the lane", async () => {
  const before = lane(open).served;
  const a = await open.request(PAGE);
  const b = await open.request(PAGE);
  expect(a.status).toBe(200);
  expect(await b.text()).toBe(await a.text());
  expect(lane(open).served).toBeGreaterThan(before);
});
