// Keyed admission through the real paid() gate and the admission core, on a paid route registered by this test
// only: entitlement (premium, signals, svc: series, regions), metering exactness, and what is not metered.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createRoute, z } from "@hono/zod-openapi";
import { makeTestApp, type TestApp } from "../support/app";
import { bearer, fromIp, testKey, testSubscription } from "../support/keys";
import { jsonAnswer, registerPaid, serve } from "../../src/http/paid";
import { keyUsage } from "../../src/services/keys";
import { usageFor } from "../../db/repos/keys";
import { createUsageMeter } from "../../src/services/key-runtime";
import { openUsageJournal } from "../../src/services/usage-journal";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/logger";
import type { Serving, Surface } from "../../src/pricing";
import { fail } from "../../src/errors";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
let handled = 0;

const probe = createRoute({
  method: "get",
  path: "/v1/test-paid",
  request: {
    query: z.object({
      indicator: z.string().optional(),
      region: z.string().optional(),
      premium: z.enum(["true", "false"]).optional(),
      surface: z.enum(["observations", "signals"]).optional(),
      fail: z.enum(["404"]).optional(),
    }),
  },
  responses: { 200: { description: "ok" } },
  // Its surface is picked per request, so it declares both (registerPaid refuses a dynamic surface declared nowhere).
  "x-price-surface": ["observations", "signals"],
});

beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  registerPaid<typeof probe, Serving & { fail: boolean }>(t.app, t.deps, probe, {
      surface: (r) => (r.resource.endsWith("#signals") ? "signals" : "observations") as Surface,
      reads: "all",
      async resolve(q) {
        const surface: Surface = q.surface === "signals" ? "signals" : "observations";
        const read = { indicator: q.indicator ?? null, region: q.region ?? null, premium: q.premium === "true", surface };
        return serve({ indicator: read.indicator, region: read.region, resource: q.surface === "signals" ? "/v1/test-paid#signals" : "/v1/test-paid", reads: [read], fail: q.fail === "404" });
      },
      async answer(served) {
        handled++;
        if (served.fail) fail("RESOURCE_NOT_FOUND", "no");
        return jsonAnswer({ data: "served" });
      },
  });
}, 120_000);
afterAll(() => t.close());

const get = async (qs: string, headers: Record<string, string> = {}): Promise<Response> => t.app.request(`/v1/test-paid${qs}`, { headers }, fromIp("203.0.113.77"));
const month = () => t.clock.now().toISOString().slice(0, 7);

describe("entitlement", () => {
  test("a free key reads standard data", async () => {
    const { headers } = await testKey(t);
    expect((await get("?indicator=UNRATE", headers)).status).toBe(200);
  });

  test("403 CATEGORY_NOT_ALLOWED for premium data, signals and svc: series on a free key; the handler never runs", async () => {
    const { headers } = await testKey(t);
    const before = handled;
    for (const qs of ["?indicator=X&premium=true", "?surface=signals", "?indicator=svc:labor_slack"]) {
      const res = await get(qs, headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error.code).toBe("CATEGORY_NOT_ALLOWED");
    }
    expect(handled).toBe(before);
  });

  test("the svc-premium scope and the unrestricted plans (Developer, Professional) read premium data", async () => {
    const scoped = await testKey(t, { scopes: ["svc-premium"] });
    const developer = await testSubscription(t, { plan: "developer", email: "dev@example.com" });
    const professional = await testKey(t, { plan: "professional" });
    for (const headers of [scoped.headers, developer.headers, professional.headers]) {
      for (const qs of ["?indicator=X&premium=true", "?surface=signals", "?indicator=svc:labor_slack"]) expect((await get(qs, headers)).status).toBe(200);
    }
  });

  test("403 REGION_NOT_ALLOWED outside a key's regions", async () => {
    const { headers } = await testKey(t, { allowedRegions: ["06"] });
    expect((await get("?indicator=UNRATE&region=06", headers)).status).toBe(200);
    const res = await get("?indicator=UNRATE&region=48", headers);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe("REGION_NOT_ALLOWED");
  });

  test("without a key and without a payment rail: 401 INVALID_API_KEY", async () => {
    const res = await get("?indicator=UNRATE");
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("INVALID_API_KEY");
  });

  test("rate-limit headers on the paid route's 200", async () => {
    const { headers } = await testKey(t);
    const res = await get("?indicator=UNRATE", headers);
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("59");
  });
});

describe("metering", () => {
  test("N successful requests leave a usage count of exactly N; refusals, failures, ping and key management are not metered", async () => {
    const { key, row } = await testKey(t, { rateLimitPerMinute: 1000 });
    for (let i = 0; i < 7; i++) expect((await get("?indicator=UNRATE", bearer(key))).status).toBe(200);
    expect((await get("?indicator=X&premium=true", bearer(key))).status).toBe(403);
    expect((await get("?indicator=UNRATE&fail=404", bearer(key))).status).toBe(404);
    expect((await t.app.request("/v1/ping", { headers: bearer(key) })).status).toBe(200);
    expect(await keyUsage(t.deps, row.id, month())).toBe(7);
    const rotated = (await (await t.app.request("/v1/keys/rotate", { method: "POST", headers: bearer(key) })).json()) as any;
    expect(await keyUsage(t.deps, row.id, month())).toBe(7);
    // Usage belongs to the key, not the secret.
    expect((await get("?indicator=UNRATE", bearer(rotated.data.key))).status).toBe(200);
    expect(await keyUsage(t.deps, row.id, month())).toBe(8);
  });

  test("exact under concurrency: 150 parallel requests count 150", async () => {
    const { headers, row } = await testKey(t, { rateLimitPerMinute: 1000 });
    const statuses = await Promise.all(Array.from({ length: 150 }, () => get("?indicator=UNRATE", headers).then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await keyUsage(t.deps, row.id, month())).toBe(150);
  });

  test("usage is counted per calendar month", async () => {
    t.clock.set("2026-11-30T23:59:59Z");
    const { headers, row } = await testKey(t);
    await get("?indicator=UNRATE", headers);
    t.clock.set("2026-12-01T00:00:00Z");
    await get("?indicator=UNRATE", headers);
    await get("?indicator=UNRATE", headers);
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(1);
    expect(await keyUsage(t.deps, row.id, "2026-12")).toBe(2);
  });

  test("counts wait in the usage journal and are written once a second as one batch; a new app over the same database reads them", async () => {
    const { headers, row } = await testKey(t);
    for (let i = 0; i < 3; i++) await get("?indicator=UNRATE", headers);
    expect(await usageFor(t.database.db, row.id, month())).toBe(0);
    expect(t.deps.keys.meter.pending(row.id, month())).toBe(3);
    await t.deps.keys.meter.flush();
    expect(await usageFor(t.database.db, row.id, month())).toBe(3);
    expect(t.deps.keys.meter.pending(row.id, month())).toBe(0);
    const other = await makeTestApp({ database: t.database, clock: t.clock });
    const ping = (await (await other.app.request("/v1/ping", { headers })).json()) as any;
    expect(ping.data.usage.requests).toBe(3);
    expect(await keyUsage(other.deps, row.id, month())).toBe(3);
  });
});

describe("usage meter", () => {
  const dirs: string[] = [];
  const journalDir = () => {
    const d = mkdtempSync(join(tmpdir(), "svc-meter-"));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test("close writes what is pending: a restart loses nothing; concurrent counts and flushes neither lose nor double-count", async () => {
    const { row } = await testKey(t);
    const meter = createUsageMeter({ database: t.database, logger: createLogger("silent"), journal: openUsageJournal(journalDir()), flushMs: 60_000 });
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 1000; i++) {
      meter.count(row.id, "2027-01");
      if (i % 97 === 0) flushes.push(meter.flush());
      // Counts keep coming while flushes are in flight.
      if (i % 250 === 0) await Bun.sleep(0);
    }
    await Promise.all(flushes);
    meter.count(row.id, "2027-01");
    await meter.close();
    expect(await usageFor(t.database.db, row.id, "2027-01")).toBe(1001);
  });

  test("a failed write keeps its counts in the journal for the next flush", async () => {
    const { row } = await testKey(t);
    let fail = true;
    const database = { ...t.database, db: new Proxy(t.database.db, { get: (target, p) => (p === "transaction" && fail ? () => Promise.reject(new Error("database down")) : (target as any)[p]) }) };
    const meter = createUsageMeter({ database, logger: createLogger("silent"), journal: openUsageJournal(journalDir()), flushMs: 60_000 });
    for (let i = 0; i < 5; i++) meter.count(row.id, "2027-02");
    await meter.flush();
    expect(meter.pending(row.id, "2027-02")).toBe(5);
    expect(await usageFor(t.database.db, row.id, "2027-02")).toBe(0);
    fail = false;
    await meter.close();
    expect(await usageFor(t.database.db, row.id, "2027-02")).toBe(5);
  });
});
