import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { priceList, publishedPriceList } from "../../src/pricing";
import { paidSurfaces } from "../../src/http/paid-marker";
import { publicPlans } from "../../src/plans";
import { healthReportSchema, serviceIndexSchema } from "../../src/schemas/discovery";
import { CONTRACT_VERSION, SERVICE_NAME, SERVICE_VERSION } from "../../src/version";
import { listOperations } from "../../src/contract/operations";
import { SCALAR_BUNDLE_CACHE_CONTROL, SCALAR_BUNDLE_PATH } from "../../src/docs/scalar";
import { DISCOVERY_CACHE_CONTROL } from "../../src/routes/discovery";
import { DATA_HOLDINGS_PLACE } from "../../src/docs/openapi";
import { sourceFreshness } from "../../src/services/catalog";
import { checkHealth } from "../../src/services/health";
import { DEFAULT_REFRESH_SCHEDULES } from "../../src/config";
import { makeTestApp, type TestApp } from "../support/app";
import { testBackend } from "../support/db";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PUBLIC = "https://api.example.com";

let t: TestApp; // no PUBLIC_BASE_URL: links come from the request
let pub: TestApp; // PUBLIC_BASE_URL set, same database
beforeAll(async () => {
  t = await makeTestApp();
  pub = await makeTestApp({ database: t.database, config: { ...t.deps.config, publicBaseUrl: PUBLIC } });
  // The process's first seeded snapshot takes longer than bun's default hook timeout.
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Paths the app serves (from Hono's router), in OpenAPI notation, minus middleware. */
function servedPaths(app: TestApp["app"]): string[] {
  const paths = app.routes.filter((r) => r.method !== "ALL").map((r) => r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}"));
  return [...new Set(paths)];
}

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
    pricing: { currency: "USD" as const, per_request: publishedPriceList(paidSurfaces(t.app)), plans: publicPlans(base) },
    checkout: `${base}/checkout`,
    checkout_plans: { developer: `${base}/checkout/developer`, professional: `${base}/checkout/professional` },
  };
}

describe("GET /", () => {
  test("without PUBLIC_BASE_URL: links from a loopback request URL, never from another Host (issue 28)", async () => {
    const { res, status, body } = await t.getJson("/");
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(DISCOVERY_CACHE_CONTROL);
    expect(serviceIndexSchema.parse(body)).toEqual(expectedIndex("http://localhost"));
    expect((await t.getJson("http://127.0.0.1:8080/")).body).toEqual(expectedIndex("http://127.0.0.1:8080"));
    expect((await t.getJson("http://10.1.2.3:8080/")).body).toEqual(expectedIndex("http://localhost"));
    expect((await t.getJson("http://evil.example.com/")).body).toEqual(expectedIndex("http://localhost"));
  });

  test("absolute links from PUBLIC_BASE_URL when set, whatever the request host", async () => {
    const { status, body } = await pub.getJson("http://10.1.2.3:8080/");
    expect(status).toBe(200);
    expect(body).toEqual(expectedIndex(PUBLIC));
  });

  test("the spec's prices and plans; only surfaces whose routes exist are published", async () => {
    expect(priceList()).toEqual({
      observations: "0.01", latest: "0.01", insights: "0.01", derived_series: "0.05", latest_batch: "0.01", flows: "0.01",
      panel: "0.05", signals: "0.05", ask: "0.25", ask_briefing: "1.50", briefing_read: "0.10", catalog: "0.00",
    });
    const { body } = await t.getJson("/");
    expect(body.pricing.per_request).toEqual({ observations: "0.01", latest: "0.01", insights: "0.01", derived_series: "0.05", latest_batch: "0.01", flows: "0.01", panel: "0.05", signals: "0.05", ask: "0.25", ask_briefing: "1.50", briefing_read: "0.10", catalog: "0.00" });
    expect(body.pricing.plans.map((p: any) => [p.id, p.price_usd_per_month, p.included_requests_per_month, p.rate_limit_per_minute, p.overage_usd_per_1000_requests])).toEqual([
      ["free", "0.00", null, 60, null],
      ["developer", "19.00", 100_000, 300, "0.50"],
      ["professional", "99.00", 1_000_000, 1_000, "0.25"],
    ]);
  });
});

describe("GET /openapi.json", () => {
  let doc: any;
  beforeAll(async () => {
    const res = await t.request("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    doc = await res.json();
  });

  test("is a valid OpenAPI 3.1 document, contract version 1.0.0", async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(doc));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe("3.1");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(CONTRACT_VERSION);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.title).toBe(SERVICE_NAME);
    expect(doc.servers).toEqual([{ url: "http://localhost" }]);
  });

  test("the description's data dates are the catalog's: each source's newest observation held, none written by hand", async () => {
    const description = doc.info.description as string;
    const store = { db: t.database.db, caches: t.deps.caches };
    const fred = (await sourceFreshness(store)).find((r) => r.slug === "fred")!;
    expect(fred.latestDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(description).toContain(`- \`fred\` ${fred.name}: ${fred.indicatorsHeld} of ${fred.indicators} indicators hold data, the latest observation ${fred.latestDate}`);
    expect(description).not.toContain(DATA_HOLDINGS_PLACE);
    expect(description).not.toMatch(/late 20\d\d/);
  });

  test("servers follow PUBLIC_BASE_URL, and each base URL gets its own cached document", async () => {
    expect(((await (await pub.request("http://10.1.2.3/openapi.json")).json()) as any).servers).toEqual([{ url: PUBLIC }]);
    expect(((await (await t.request("http://127.0.0.1:8080/openapi.json")).json()) as any).servers).toEqual([{ url: "http://127.0.0.1:8080" }]);
    // Another Host is not reflected (issue 28): a 10 KB one neither.
    for (const host of ["evil.example.com", `${"h".repeat(10_000)}.example`]) {
      const res = await t.request(`http://${host}/openapi.json`);
      expect(((await res.json()) as any).servers).toEqual([{ url: "http://localhost" }]);
    }
    const a = await (await t.request("/openapi.json")).text();
    const b = await (await t.request("/openapi.json")).text();
    expect(b).toBe(a);
  });

  test("security schemes for API keys and both payment rails; every operation states its requirement", () => {
    expect(doc.components.securitySchemes.ApiKeyBearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.ApiKeyHeader).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(doc.components.securitySchemes.X402Payment).toMatchObject({ type: "apiKey", in: "header", name: "X-PAYMENT" });
    expect(doc.components.securitySchemes.L402).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    const keys = [{ ApiKeyBearer: [] }, { ApiKeyHeader: [] }];
    const byId = Object.fromEntries(listOperations(doc).map((e) => [e.operation.operationId, e.operation.security]));
    expect(byId.get_observations).toEqual([...keys, { X402Payment: [] }, { L402: [] }]);
    expect(byId.get_latest).toEqual([...keys, { X402Payment: [] }, { L402: [] }]);
    expect(byId.rotate_key).toEqual(keys);
    expect(byId.mcp).toEqual([...keys, {}]);
    for (const id of ["get_index", "get_health", "list_sources", "list_regions", "get_region", "search_indicators", "get_indicator", "signup", "checkout"]) {
      expect({ id, security: byId[id] }).toEqual({ id, security: [] });
    }
    for (const word of ["x402", "X-PAYMENT", "L402", "WWW-Authenticate", "Authorization: L402 <macaroon>:<preimage>"]) {
      expect(doc.info.description).toContain(word);
    }
  });

  test("named components, and every $ref resolves", () => {
    for (const name of ["Error", "ServiceIndex", "Pricing", "Plan", "HealthReport", "Region"]) {
      expect(doc.components.schemas[name]).toBeDefined();
    }
    const refs = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (k === "$ref" && typeof x === "string") refs.add(x);
          else walk(x);
        }
      }
    };
    walk(doc);
    expect(refs.size).toBeGreaterThan(0);
    for (const ref of refs) {
      const [, , kind, name] = ref.split("/");
      expect(doc.components[kind]?.[name]).toBeDefined();
    }
  });

  test("every operation has a unique operationId and the Error envelope on every error response", () => {
    const ops = listOperations(doc);
    expect(ops.length).toBeGreaterThanOrEqual(6);
    const ids = ops.map((e) => e.operation.operationId);
    for (const id of ids) expect(typeof id).toBe("string");
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, operation } of ops) {
      const statuses = Object.keys(operation.responses);
      expect({ where: `${method} ${path}`, success: statuses.some((s) => /^[23]/.test(s)) }).toEqual({ where: `${method} ${path}`, success: true });
      for (const status of statuses.filter((s) => !/^[23]/.test(s))) {
        const where = `${method.toUpperCase()} ${path} ${status}`;
        // The FRED-compatible surface answers FRED's error document (JSON or XML), except an internal failure.
        if (path.startsWith("/fred/") && status !== "500") {
          expect({ where, content: Object.keys(operation.responses[status].content ?? {}) }).toEqual({ where, content: ["application/json", "text/xml"] });
          expect({ where, schema: operation.responses[status].content["application/json"].schema }).toEqual({ where, schema: { $ref: "#/components/schemas/FredError" } });
          continue;
        }
        expect({ where, content: Object.keys(operation.responses[status].content ?? {}) }).toEqual({ where, content: ["application/json"] });
        expect({ where, schema: operation.responses[status].content["application/json"].schema }).toEqual({
          where,
          schema: { $ref: "#/components/schemas/Error" },
        });
      }
    }
  });

  test("every route registered on the app is in the contract (generated, not hand-listed)", () => {
    const documented = new Set(Object.keys(doc.paths));
    // Pages for people (the reference, the self-service key page) are not API operations.
    const notApi = new Set(["/docs", SCALAR_BUNDLE_PATH, "/favicon.ico", "/keys"]);
    const served = servedPaths(t.app).filter((p) => !notApi.has(p));
    expect(served.filter((p) => !documented.has(p))).toEqual([]);
    for (const p of ["/", "/openapi.json", "/llms.txt", "/llms-full.txt", "/changelog.md", "/api/health"]) expect(documented.has(p)).toBe(true);
  });

  test("an operation marked x-price-surface carries its price from the pricing table", () => {
    const prices = priceList() as Record<string, string>;
    for (const { operation } of listOperations(doc)) {
      const surface = operation["x-price-surface"];
      if (surface === undefined) {
        expect(operation["x-price-usd"]).toBeUndefined();
        continue;
      }
      expect(operation["x-price-usd"]).toBe(prices[Array.isArray(surface) ? surface[0] : surface]);
    }
  });
});

describe("GET /llms.txt and /llms-full.txt", () => {
  let doc: any;
  let compact: string;
  let full: string;
  beforeAll(async () => {
    doc = await (await pub.request("/openapi.json")).json();
    const a = await pub.request("/llms.txt");
    const b = await pub.request("/llms-full.txt");
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
    for (const path of servedPaths(pub.app).filter((p) => !notApi.has(p))) {
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
    const prices = compact.slice(compact.indexOf("## Prices per request"), compact.indexOf("## Plans")).split("\n").filter((l) => l.startsWith("- "));
    expect(prices.map((l) => l.slice(l.lastIndexOf(": ") + 2))).toEqual(Object.values(publishedPriceList(paidSurfaces(pub.app))).map((usd) => `${usd} USD`));
    expect(compact).toContain(`- Professional: 99.00 USD per month, 1,000,000 requests/month included, 1,000 requests/min, overage 0.25 USD per 1,000 (subscribe: ${PUBLIC}/checkout/professional)`);
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
    const res = await t.request("/changelog.md");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const body = await res.text();
    expect(body).toBe(readFileSync(join(import.meta.dir, "../../CHANGELOG.md"), "utf8"));
    expect(body.startsWith("# Changelog\n")).toBe(true);
  });
});

describe("GET /docs", () => {
  test("the Scalar page loads our own renderer bundle and /openapi.json, nothing from a CDN", async () => {
    const res = await t.request("/docs");
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
    const res = await t.request(SCALAR_BUNDLE_PATH);
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
    const { res, status, body } = await t.getJson("/api/health");
    expect(status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const report = healthReportSchema.parse(body);
    expect(report).toEqual({
      status: "ok",
      version: SERVICE_VERSION,
      contract_version: "1.0.0",
      database: { kind: testBackend, ok: true, latency_ms: report.database.latency_ms },
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
    expect(report.database.kind).toBe(testBackend);
    expect(report.database.ok).toBe(false);
    expect(report.version).toBe(SERVICE_VERSION);
  });

  const sharedCounts = { kind: "redis" as const, shared: () => true };

  test("degraded (still 200) while rate-limit counts cannot be shared; ok again once they are", async () => {
    let shared = false;
    const counts = { kind: "redis" as const, shared: () => shared };
    const db = { kind: "postgres" as const, ping: async () => true };
    expect(await checkHealth(db, counts, { version: "1" })).toMatchObject({ status: "degraded", rate_limits: { store: "redis", shared: false } });
    shared = true;
    expect((await checkHealth(db, counts, { version: "1" })).status).toBe("ok");
  });

  test("a probe that hangs is down after the timeout; latency is measured around the probe", async () => {
    const times = [1000, 1012.345];
    const report = await checkHealth(
      { kind: "postgres", ping: () => new Promise<boolean>(() => {}) },
      sharedCounts,
      { version: "9.9.9", timeoutMs: 5, now: () => times.shift()! },
    );
    expect(report).toEqual({
      status: "unavailable",
      version: "9.9.9",
      contract_version: "1.0.0",
      database: { kind: "postgres", ok: false, latency_ms: 12.35 },
      rate_limits: { store: "redis", shared: true },
    });
    const failing = await checkHealth({ kind: "pglite", ping: () => Promise.reject(new Error("gone")) }, sharedCounts, { version: "1", now: () => 5 });
    expect(failing.database).toEqual({ kind: "pglite", ok: false, latency_ms: 0 });
  });
});

describe("every response", () => {
  test("unknown route: 404 RESOURCE_NOT_FOUND envelope", async () => {
    const { status, body } = await t.getJson("/v1/no-such-thing");
    expect(status).toBe(404);
    expect(errorEnvelopeSchema.parse(body)).toEqual({ error: { code: "RESOURCE_NOT_FOUND", message: "No route for GET /v1/no-such-thing" } });
  });

  test("carries a uuid X-Request-Id, fresh per request", async () => {
    const paths = ["/", "/openapi.json", "/llms.txt", "/llms-full.txt", "/changelog.md", "/api/health", "/docs", SCALAR_BUNDLE_PATH, "/favicon.ico", "/v1/no-such-thing"];
    const seen = new Set<string>();
    for (const p of paths) {
      const res = await t.request(p);
      const id = res.headers.get("x-request-id") ?? "";
      expect({ p, id: UUID.test(id) }).toEqual({ p, id: true });
      seen.add(id);
      await res.arrayBuffer();
    }
    expect(seen.size).toBe(paths.length);
  });
});
