// GET /openapi.json: the contract the app serves (the rest of discovery is test/routes/discovery.test.ts).
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { priceList } from "../../src/pricing";
import { CONTRACT_VERSION, SERVICE_NAME } from "../../src/version";
import { listOperations } from "../../src/contract/operations";
import { SCALAR_BUNDLE_PATH } from "../../src/docs/scalar";
import { DATA_HOLDINGS_PLACE } from "../../src/docs/openapi";
import { sourceFreshness } from "../../src/services/catalog";
import { DISCOVERY_PUBLIC, discoveryApps, servedPaths } from "../support/discovery";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const PUBLIC = DISCOVERY_PUBLIC;

const fx = discoveryApps();

describe("GET /openapi.json", () => {
  let doc: any;
  beforeAll(async () => {
    const res = await fx.t.request("/openapi.json");
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
    const store = { db: fx.t.database.db, caches: fx.t.deps.caches };
    const fred = (await sourceFreshness(store)).find((r) => r.slug === "fred")!;
    expect(fred.latestDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(description).toContain(
      `- \`fred\` ${fred.name}: ${fred.indicatorsHeld} of ${fred.indicators} indicators hold data, the latest observation ${fred.latestDate}`,
    );
    expect(description).not.toContain(DATA_HOLDINGS_PLACE);
    expect(description).not.toMatch(/late 20\d\d/);
  });

  test("servers follow PUBLIC_BASE_URL, and each base URL gets its own cached document", async () => {
    expect(((await (await fx.pub.request("http://10.1.2.3/openapi.json")).json()) as any).servers).toEqual([
      { url: PUBLIC },
    ]);
    expect(((await (await fx.t.request("http://127.0.0.1:8080/openapi.json")).json()) as any).servers).toEqual([
      { url: "http://127.0.0.1:8080" },
    ]);
    // Another Host is not reflected: a 10 KB one neither.
    for (const host of ["evil.example.com", `${"h".repeat(10_000)}.example`]) {
      const res = await fx.t.request(`http://${host}/openapi.json`);
      expect(((await res.json()) as any).servers).toEqual([{ url: "http://localhost" }]);
    }
    const a = await (await fx.t.request("/openapi.json")).text();
    const b = await (await fx.t.request("/openapi.json")).text();
    expect(b).toBe(a);
  });

  test("security schemes for API keys and both payment rails; every operation states its requirement", () => {
    expect(doc.components.securitySchemes.ApiKeyBearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.ApiKeyHeader).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
    expect(doc.components.securitySchemes.X402Payment).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-PAYMENT",
    });
    expect(doc.components.securitySchemes.L402).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
    const keys = [{ ApiKeyBearer: [] }, { ApiKeyHeader: [] }];
    const byId = Object.fromEntries(listOperations(doc).map((e) => [e.operation.operationId, e.operation.security]));
    expect(byId.get_observations).toEqual([...keys, { X402Payment: [] }, { L402: [] }]);
    expect(byId.get_latest).toEqual([...keys, { X402Payment: [] }, { L402: [] }]);
    expect(byId.rotate_key).toEqual(keys);
    expect(byId.mcp).toEqual([...keys, {}]);
    for (const id of [
      "get_index",
      "get_health",
      "list_sources",
      "list_regions",
      "get_region",
      "search_indicators",
      "get_indicator",
      "signup",
      "checkout",
    ]) {
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
      expect({ where: `${method} ${path}`, success: statuses.some((s) => /^[23]/.test(s)) }).toEqual({
        where: `${method} ${path}`,
        success: true,
      });
      for (const status of statuses.filter((s) => !/^[23]/.test(s))) {
        const where = `${method.toUpperCase()} ${path} ${status}`;
        // The FRED-compatible surface answers FRED's error document (JSON or XML), except an internal failure.
        if (path.startsWith("/fred/") && status !== "500") {
          expect({ where, content: Object.keys(operation.responses[status].content ?? {}) }).toEqual({
            where,
            content: ["application/json", "text/xml"],
          });
          expect({ where, schema: operation.responses[status].content["application/json"].schema }).toEqual({
            where,
            schema: { $ref: "#/components/schemas/FredError" },
          });
          continue;
        }
        expect({ where, content: Object.keys(operation.responses[status].content ?? {}) }).toEqual({
          where,
          content: ["application/json"],
        });
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
    const served = servedPaths(fx.t.app).filter((p) => !notApi.has(p));
    expect(served.filter((p) => !documented.has(p))).toEqual([]);
    for (const p of ["/", "/openapi.json", "/llms.txt", "/llms-full.txt", "/changelog.md", "/api/health"])
      expect(documented.has(p)).toBe(true);
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
