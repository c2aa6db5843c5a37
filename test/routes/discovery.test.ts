// The discovery routes: GET / (the service index), /llms.txt and /llms-full.txt, /changelog.md, /docs, /api/health
// and what every response carries. GET /openapi.json is test/routes/discovery-openapi.test.ts.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { priceList, publishedPriceList } from "../../src/pricing";
import { publicPlans } from "../../src/plans";
import { healthReportSchema, serviceIndexSchema } from "../../src/schemas/discovery";
import { SERVICE_NAME, SERVICE_VERSION } from "../../src/version";
import { listOperations } from "../../src/contract/operations";
import { SCALAR_BUNDLE_CACHE_CONTROL, SCALAR_BUNDLE_PATH } from "../../src/docs/scalar";
import { DISCOVERY_CACHE_CONTROL } from "../../src/routes/discovery";
import { checkHealth, JOBS_SECTION_FRESH_MS, type JobsSection } from "../../src/services/health";
import { BoundedCache } from "../../src/services/bounded-cache";
import { DEFAULT_REFRESH_SCHEDULES } from "../../src/config";
import { makeTestApp } from "../support/app";
import { DISCOVERY_PUBLIC, discoveryApps, servedPaths } from "../support/discovery";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PUBLIC = DISCOVERY_PUBLIC;

const fx = discoveryApps();

function expectedIndex(base: string) {
  return {
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    contract_version: "1.0.0",
    docs: `${base}/docs`,
    openapi: `${base}/openapi.json`,
    mcp: `${base}/api/mcp`,
    llms: `${base}/llms.txt`,
    llms_full: `${base}/llms-full.txt`,
    changelog: `${base}/changelog.md`,
    health: `${base}/api/health`,
    pricing: {
      currency: "USD" as const,
      per_request: publishedPriceList(fx.t.app.registry.paidSurfaces()),
      plans: publicPlans(base),
    },
    checkout: `${base}/checkout`,
    checkout_plans: { developer: `${base}/checkout/developer`, professional: `${base}/checkout/professional` },
  };
}

describe("GET /", () => {
  test("without PUBLIC_BASE_URL: links from a loopback request URL, never from another Host", async () => {
    const { res, status, body } = await fx.t.getJson("/");
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(DISCOVERY_CACHE_CONTROL);
    expect(serviceIndexSchema.parse(body)).toEqual(expectedIndex("http://localhost"));
    expect((await fx.t.getJson("http://127.0.0.1:8080/")).body).toEqual(expectedIndex("http://127.0.0.1:8080"));
    expect((await fx.t.getJson("http://10.1.2.3:8080/")).body).toEqual(expectedIndex("http://localhost"));
    expect((await fx.t.getJson("http://evil.example.com/")).body).toEqual(expectedIndex("http://localhost"));
  });

  test("absolute links from PUBLIC_BASE_URL when set, whatever the request host", async () => {
    const { status, body } = await fx.pub.getJson("http://10.1.2.3:8080/");
    expect(status).toBe(200);
    expect(body).toEqual(expectedIndex(PUBLIC));
  });

  test("the spec's prices and plans; only surfaces whose routes exist are published", async () => {
    expect(priceList()).toEqual({
      observations: "0.01",
      latest: "0.01",
      insights: "0.01",
      derived_series: "0.05",
      latest_batch: "0.01",
      flows: "0.01",
      panel: "0.05",
      signals: "0.05",
      ask: "0.25",
      ask_briefing: "1.50",
      briefing_read: "0.10",
      catalog: "0.00",
    });
    const { body } = await fx.t.getJson("/");
    expect(body.pricing.per_request).toEqual({
      observations: "0.01",
      latest: "0.01",
      insights: "0.01",
      derived_series: "0.05",
      latest_batch: "0.01",
      flows: "0.01",
      panel: "0.05",
      signals: "0.05",
      ask: "0.25",
      ask_briefing: "1.50",
      briefing_read: "0.10",
      catalog: "0.00",
    });
    expect(
      body.pricing.plans.map((p: any) => [
        p.id,
        p.price_usd_per_month,
        p.included_requests_per_month,
        p.rate_limit_per_minute,
        p.overage_usd_per_1000_requests,
      ]),
    ).toEqual([
      ["free", "0.00", null, 60, null],
      ["developer", "19.00", 100_000, 300, "0.50"],
      ["professional", "99.00", 1_000_000, 1_000, "0.25"],
    ]);
  });
});

describe("GET /llms.txt and /llms-full.txt", () => {
  let doc: any;
  let compact: string;
  let full: string;
  beforeAll(async () => {
    doc = await (await fx.pub.request("/openapi.json")).json();
    const a = await fx.pub.request("/llms.txt");
    const b = await fx.pub.request("/llms-full.txt");
    for (const r of [a, b]) {
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(r.headers.get("cache-control")).toBe(DISCOVERY_CACHE_CONTROL);
    }
    compact = await a.text();
    full = await b.text();
  });

  test("both mention every registered path and every operation", () => {
    // Pages for people (the reference, the self-service key page) are not API operations.
    const notApi = new Set(["/docs", SCALAR_BUNDLE_PATH, "/favicon.ico", "/keys"]);
    for (const path of servedPaths(fx.pub.app).filter((p) => !notApi.has(p))) {
      expect(compact).toContain(`${PUBLIC}${path})`);
      expect(full).toContain(`${PUBLIC}${path}.`);
    }
    for (const { method, path, operation } of listOperations(doc)) {
      expect(compact).toContain(`- [${method.toUpperCase()} ${path}](${PUBLIC}${path}): ${operation.summary}.`);
      expect(full).toContain(`### ${method.toUpperCase()} ${path}\n`);
      expect(full).toContain(`(operationId \`${operation.operationId}\`)`);
    }
  });

  test("llms.txt: title, summary, auth, every published price and plan", () => {
    expect(compact.startsWith(`# ${SERVICE_NAME}\n\n> `)).toBe(true);
    expect(compact).toContain("`X-API-Key: <key>`");
    const prices = compact
      .slice(compact.indexOf("## Prices per request"), compact.indexOf("## Plans"))
      .split("\n")
      .filter((l) => l.startsWith("- "));
    expect(prices.map((l) => l.slice(l.lastIndexOf(": ") + 2))).toEqual(
      Object.values(publishedPriceList(fx.pub.app.registry.paidSurfaces())).map((usd) => `${usd} USD`),
    );
    expect(compact).toContain(
      `- Professional: 99.00 USD per month, 1,000,000 requests/month included, 1,000 requests/min, overage 0.25 USD per 1,000 (subscribe: ${PUBLIC}/checkout/professional)`,
    );
    expect(compact).toContain(`- [Full agent reference](${PUBLIC}/llms-full.txt)`);
  });

  test("llms-full.txt: region conventions, categories, error table and schemas", () => {
    expect(full).toContain("## Region codes\n\nCanonical region codes: countries use ISO 3166-1 alpha-2");
    expect(full).toContain("## Catalog categories\n\n");
    expect(full).toContain("| `INVALID_PARAMETER` | 400 |");
    expect(full).toContain("### Error\n\nobject\n- `error` (object; required)");
    for (const name of Object.keys(doc.components.schemas)) expect(full).toContain(`### ${name}\n`);
  });
});

describe("GET /changelog.md", () => {
  test("serves CHANGELOG.md as markdown", async () => {
    const res = await fx.t.request("/changelog.md");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const body = await res.text();
    expect(body).toBe(readFileSync(join(import.meta.dir, "../../CHANGELOG.md"), "utf8"));
    expect(body.startsWith("# Changelog\n")).toBe(true);
  });
});

describe("GET /docs", () => {
  test("the Scalar page loads our own renderer bundle and /openapi.json, nothing from a CDN", async () => {
    const res = await fx.t.request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    const html = await res.text();
    expect(html).toContain(`<script src="${SCALAR_BUNDLE_PATH.slice(1)}"></script>`);
    expect(html).toContain('"url": "openapi.json"');
    expect(html).toContain('"withDefaultFonts": false');
    expect(html).not.toContain("cdn.jsdelivr.net");
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
  });

  test("the renderer bundle is served with a year-long immutable cache", async () => {
    const res = await fx.t.request(SCALAR_BUNDLE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe(SCALAR_BUNDLE_CACHE_CONTROL);
    const body = await res.text();
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(body).toContain("createApiReference");
  });
});

describe("GET /api/health", () => {
  test("200 when the database answers", async () => {
    const { res, status, body } = await fx.t.getJson("/api/health");
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const report = healthReportSchema.parse(body);
    expect(report).toEqual({
      status: "ok",
      version: SERVICE_VERSION,
      contract_version: "1.0.0",
      database: { kind: fx.t.database.kind, ok: true, latency_ms: report.database.latency_ms },
      rate_limits: { store: "memory", shared: true },
      // No job engine in this test app; the default refresh schedules, none run yet.
      jobs: {
        runs_here: false,
        queues: null,
        refresh: ["bls", "census", "fred", "worldbank"].map((source) => ({
          source,
          schedule: DEFAULT_REFRESH_SCHEDULES[source],
          timezone: "America/New_York",
          status: "never",
          last_started_at: null,
          last_finished_at: null,
          last_success_at: null,
          changed_series: null,
          error: null,
        })),
      },
    });
    expect(report.database.latency_ms).toBeGreaterThanOrEqual(0);
  });

  test("503 SERVICE_UNAVAILABLE with the report in details when the database is closed", async () => {
    const down = await makeTestApp();
    await down.close();
    const { res, status, body } = await down.getJson("/api/health");
    expect(status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(UUID);
    const env = errorEnvelopeSchema.parse(body);
    expect(env.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(env.error.message).toBe("The database is not answering.");
    const report = healthReportSchema.parse(env.error.details);
    expect(report.status).toBe("unavailable");
    expect(report.database.kind).toBe(down.database.kind);
    expect(report.database.ok).toBe(false);
    expect(report.version).toBe(SERVICE_VERSION);
  });

  const sharedCounts = { kind: "redis" as const, shared: () => true };

  test("degraded (still 200) while rate-limit counts cannot be shared; ok again once they are", async () => {
    let shared = false;
    const counts = { kind: "redis" as const, shared: () => shared };
    const db = { kind: "postgres" as const, ping: async () => true };
    expect(await checkHealth(db, counts, { version: "1" })).toMatchObject({
      status: "degraded",
      rate_limits: { store: "redis", shared: false },
    });
    shared = true;
    expect((await checkHealth(db, counts, { version: "1" })).status).toBe("ok");
  });

  test("the jobs section is read at most once a second; the ping every time", async () => {
    let depthReads = 0;
    let pings = 0;
    const queue = { runsJobs: true, depth: async () => (depthReads++, []) };
    const db = { kind: "pglite" as const, ping: async () => (pings++, true) };
    const jobs = {
      queue,
      database: fx.t.deps.database,
      config: fx.t.deps.config.jobs,
      memo: new BoundedCache<string, JobsSection>({ maxEntries: 1 }),
    };
    let clock = 10_000;
    const check = () => checkHealth(db, sharedCounts, { version: "1", now: () => clock, jobs });
    const first = await check();
    expect(first.jobs).toMatchObject({ runs_here: true, queues: [] });
    clock += JOBS_SECTION_FRESH_MS - 1;
    expect((await check()).jobs).toEqual(first.jobs);
    expect([pings, depthReads]).toEqual([2, 1]);
    clock += 1;
    await check();
    expect([pings, depthReads]).toEqual([3, 2]);
  });

  test("a probe that hangs is down after the timeout; latency is measured around the probe", async () => {
    const times = [1000, 1012.345];
    const report = await checkHealth({ kind: "postgres", ping: () => new Promise<boolean>(() => {}) }, sharedCounts, {
      version: "9.9.9",
      timeoutMs: 5,
      now: () => times.shift()!,
    });
    expect(report).toEqual({
      status: "unavailable",
      version: "9.9.9",
      contract_version: "1.0.0",
      database: { kind: "postgres", ok: false, latency_ms: 12.35 },
      rate_limits: { store: "redis", shared: true },
    });
    const failing = await checkHealth({ kind: "pglite", ping: () => Promise.reject(new Error("gone")) }, sharedCounts, {
      version: "1",
      now: () => 5,
    });
    expect(failing.database).toEqual({ kind: "pglite", ok: false, latency_ms: 0 });
  });
});

describe("every response", () => {
  test("unknown route: 404 RESOURCE_NOT_FOUND envelope", async () => {
    const { status, body } = await fx.t.getJson("/v1/no-such-thing");
    expect(status).toBe(404);
    expect(errorEnvelopeSchema.parse(body)).toEqual({
      error: { code: "RESOURCE_NOT_FOUND", message: "No route for GET /v1/no-such-thing" },
    });
  });

  test("carries a uuid X-Request-Id, fresh per request", async () => {
    const paths = [
      "/",
      "/openapi.json",
      "/llms.txt",
      "/llms-full.txt",
      "/changelog.md",
      "/api/health",
      "/docs",
      SCALAR_BUNDLE_PATH,
      "/favicon.ico",
      "/v1/no-such-thing",
    ];
    const seen = new Set<string>();
    for (const p of paths) {
      const res = await fx.t.request(p);
      const id = res.headers.get("x-request-id") ?? "";
      expect({ p, id: UUID.test(id) }).toEqual({ p, id: true });
      seen.add(id);
      await res.arrayBuffer();
    }
    expect(seen.size).toBe(paths.length);
  });
});
