// POST /api/mcp with the official SDK client (Client + StreamableHTTPClientTransport) against the real app served by
// Bun.serve: the tool list and its schemas (the REST operations' own parameters), every tool against its REST twin,
// keyed calls metered and rate limited like REST, entitlement refusals, anonymous data calls naming the price and the
// exact REST URL (paid over L402 to prove it), argument errors naming the parameter, and the transport's own answers.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DevLightning, L402Rail, Payments, fixedRate, memoryInvoiceStore } from "payments";
import { paymentProofStore } from "../../db/repos/payments";
import { keyUsage } from "../../src/services/keys";
import { MCP_TOOL_NAMES, restRequestOf, toolsFromOpenApi } from "../../src/mcp/tools";
import { makeTestApp, type TestApp } from "../support/app";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { testKey, testSubscription } from "../support/keys";
import { APERTURE_CHALLENGE, TEST_BTC_USD, TEST_NODE_KEY, TEST_ROOT_SECRET } from "../support/payments";
import { fredRows, sahmLatest } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const MONTH = "2026-11";
// A held series: the shipped FRED UNRATE, monthly, 1980-01 .. 2025-11 (4.6), October 2025 empty.
const HELD = { indicator: "UNRATE", region: "US" };
const UNRATE_ROWS = fredRows("UNRATE").length;
const SAHM = sahmLatest();

// App `pay`: keys plus the L402 payment rail (development Lightning backend). App `keysOnly`: keys, no payment rail.
let pay: TestApp & { dev: DevLightning };
let keysOnly: TestApp;
let servers: ReturnType<typeof Bun.serve>[] = [];
let payBase: string;
let keysBase: string;
const clients: Client[] = [];

beforeAll(async () => {
  const database = await makeTestDatabase();
  const clock = new ManualClock();
  const random = seededRandom(5);
  const dev = new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random);
  const l402 = new L402Rail({ secrets: [TEST_ROOT_SECRET], backend: dev, rates: fixedRate(TEST_BTC_USD), clock, random });
  const payments = new Payments({ x402: null, l402, store: paymentProofStore(database.db), clock });
  pay = { ...(await makeTestApp({ database, clock, random, payments })), dev };
  keysOnly = await makeTestApp({ database, clock, keyAccess: true });
  const a = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: pay.app.fetch });
  const b = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: keysOnly.app.fetch });
  servers = [a, b];
  payBase = `http://127.0.0.1:${a.port}`;
  keysBase = `http://127.0.0.1:${b.port}`;
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const s of servers) s.stop(true);
  // The two apps share one database: close the second app's own parts, then the first app with the database.
  await keysOnly.deps.keys.close();
  await keysOnly.deps.mail.close();
  keysOnly.deps.rateLimits.close();
  await pay.close();
});

async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const structured = (r: CallToolResult) => r.structuredContent as any;
const textJson = (r: CallToolResult) => JSON.parse((r.content[0] as { type: "text"; text: string }).text);
const rest = async (base: string, pathAndQuery: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${pathAndQuery}`, { headers });
  return { status: res.status, body: (await res.json()) as any };
};

describe("tools/list", () => {
  test("the five working tools, in the spec's order, each with the REST operation's own parameters", async () => {
    const client = await connect(payBase);
    expect(client.getServerVersion()).toEqual({ name: "Economic Time-Series API", version: pay.deps.version });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["search_indicators", "list_sources", "list_regions", "get_observations", "get_latest", "get_insights", "get_active_signals"]);

    // One schema: every tool property is the OpenAPI parameter of the operation with the same operationId.
    const doc = (await rest(payBase, "/openapi.json")).body;
    const ops = new Map<string, any>();
    for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) ops.set(op.operationId, op);
    for (const tool of tools) {
      const op = ops.get(tool.name);
      const expected: Record<string, unknown> = {};
      for (const p of op.parameters ?? []) {
        const { example: _e, ...schema } = p.schema;
        expected[p.name] = { ...schema, description: p.description };
      }
      expect({ tool: tool.name, properties: tool.inputSchema.properties as Record<string, unknown> }).toEqual({ tool: tool.name, properties: expected });
      expect({ tool: tool.name, required: tool.inputSchema.required }).toEqual({
        tool: tool.name,
        required: (op.parameters ?? []).some((p: any) => p.required) ? op.parameters.filter((p: any) => p.required).map((p: any) => p.name) : undefined,
      });
      expect((tool.inputSchema as any).additionalProperties).toBe(false);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(tool.title).toBe(op.summary);
    }
  });

  test("input schemas: types, bounds, defaults and enums as the REST contract states them", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema as any]));
    const obs = byName.get_observations;
    expect(Object.keys(obs.properties)).toEqual([
      "indicator", "source", "region", "start_date", "end_date", "include_revisions", "limit", "offset", "order", "transform", "frequency", "resample_method",
    ]);
    expect(obs.required).toEqual(["indicator"]);
    expect(obs.properties.limit).toMatchObject({ type: "integer", minimum: 0, maximum: 1000, default: 100 });
    expect(obs.properties.include_revisions).toMatchObject({ type: "boolean", default: false });
    expect(obs.properties.start_date).toMatchObject({ type: "string", format: "date" });
    expect(obs.properties.frequency).toMatchObject({ type: "string", enum: ["monthly", "quarterly", "annual"] });
    expect(byName.search_indicators.properties.limit).toMatchObject({ type: "integer", minimum: 0, maximum: 100, default: 50 });
    expect(byName.list_regions.properties.type).toMatchObject({ type: "string", enum: ["country", "state", "county"] });
    expect(Object.keys(byName.get_latest.properties)).toEqual(["indicator", "indicators", "source", "region"]);
    expect(byName.get_latest.required).toBeUndefined();
    expect(Object.keys(byName.list_sources.properties)).toEqual(["include_inactive"]);
  });

  test("descriptions: catalog tools are free; data tools state the price table's prices and how to authenticate", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const d = Object.fromEntries(tools.map((t) => [t.name, t.description!]));
    for (const name of ["search_indicators", "list_sources", "list_regions"]) expect(d[name]!.endsWith("Free: no credential needed.")).toBe(true);
    expect(d.get_observations).toContain("**Price:** 0.01 USD per request (0.05 for derived series), or covered by an API key's plan.");
    expect(d.get_latest).toContain("**Price:** 0.01 USD per request (0.05 for derived series, 0.01 for latest batch), or covered by an API key's plan.");
    expect(d.get_latest).toContain("send an API key with the MCP HTTP request (`Authorization: Bearer <key>` or `X-API-Key: <key>`");
  });

  test("a tool name without a GET operation of that operationId is refused when the tools are built", async () => {
    const doc = (await rest(payBase, "/openapi.json")).body;
    expect(toolsFromOpenApi(doc).map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    expect(() => toolsFromOpenApi(doc, ["no_such_tool"])).toThrow("MCP tool no_such_tool: no GET operation with operationId no_such_tool");
  });
});

describe("catalog tools: free, anonymous, the REST body", () => {
  test("search_indicators", async () => {
    const r = await call(await connect(payBase), "search_indicators", { search: "unemployment", limit: 2 });
    expect(r.isError).toBeUndefined();
    const twin = await rest(payBase, "/v1/indicators?search=unemployment&limit=2");
    expect(structured(r)).toEqual(twin.body);
    expect(textJson(r)).toEqual(twin.body);
    expect(structured(r).data.map((i: any) => i.code)).toEqual(["LASST03", "LAUCN03"]);
    expect(r._meta).toMatchObject({ http_status: 200, rest_url: `${payBase}/v1/indicators?search=unemployment&limit=2` });
  });

  test("list_sources", async () => {
    const r = await call(await connect(payBase), "list_sources");
    expect(structured(r).data.map((s: any) => s.slug)).toEqual(["bls", "cdc", "census", "eia", "fred", "gapminder", "scripps", "svc", "worldbank"]);
    expect(structured(r)).toEqual((await rest(payBase, "/v1/sources")).body);
  });

  test("list_regions", async () => {
    const r = await call(await connect(payBase), "list_regions", { parent: "CA", type: "county" });
    const data = structured(r).data;
    expect([data.length, data[0], data.at(-1).code]).toEqual([
      58,
      { code: "06001", type: "county", name: "Alameda County", slug: "alameda-county-ca", parent_code: "06", fips_state: "06", fips_county: "001" },
      "06115",
    ]);
    expect(structured(r)).toEqual((await rest(payBase, "/v1/regions?type=county&parent=CA")).body);
  });

  test("a REST refusal of a catalog call is the REST envelope (unknown parent: 404)", async () => {
    const r = await call(await connect(payBase), "list_regions", { parent: "atlantis" });
    const twin = await rest(payBase, "/v1/regions?parent=atlantis");
    expect(twin.status).toBe(404);
    expect(r.isError).toBe(true);
    expect(structured(r)).toEqual(twin.body);
    expect(textJson(r)).toEqual(twin.body);
  });
});

describe("data tools with an API key: the REST pipeline", () => {
  test("get_observations: the REST body; metered as one request, the MCP messages and catalog calls not at all", async () => {
    const { key, row, headers } = await testKey(pay);
    const client = await connect(payBase, { authorization: `Bearer ${key}` });
    await client.listTools();
    await call(client, "list_sources");
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(0);

    const r = await call(client, "get_observations", { ...HELD, limit: 2 });
    expect(r.isError).toBeUndefined();
    expect(structured(r).data).toEqual([
      { date: "2025-11-01", value: 4.6, indicator: "UNRATE", region: "US", unit: "percent", source: "fred", source_updated_at: null, is_preliminary: false, revision: 1 },
      { date: "2025-10-01", value: null, indicator: "UNRATE", region: "US", unit: "percent", source: "fred", source_updated_at: null, is_preliminary: false, revision: 1 },
    ]);
    expect(structured(r).meta).toMatchObject({ indicator: "UNRATE", region: "US", total: UNRATE_ROWS, limit: 2, offset: 0 });
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(1);
    const url = `/v1/observations?indicator=UNRATE&region=US&limit=2`;
    expect(r._meta).toMatchObject({ http_status: 200, rest_url: `${payBase}${url}` });
    // The REST twin with the same key answers the same body and is metered the same way.
    expect(structured(r)).toEqual((await rest(payBase, url, headers)).body);
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(2);
  });

  test("the key may come as X-API-Key; get_latest single and batch (207 with per-indicator errors is a result, not an error)", async () => {
    const { key, row } = await testKey(pay);
    const client = await connect(payBase, { "x-api-key": key });
    const single = await call(client, "get_latest", HELD);
    expect(structured(single)).toEqual({
      data: { indicator: "UNRATE", region: "US", period_start: "2025-11-01", period_end: "2025-11-30", period_type: "monthly", value: 4.6, revision: 1, is_preliminary: false, source_updated_at: null, unit: "percent" },
      meta: { indicator: "UNRATE", region: "US", resolved_region: { code: "US", name: "United States", type: "country" }, unit: "percent", total: 1, limit: 1, offset: 0 },
    });
    const batch = await call(client, "get_latest", { indicators: "UNRATE,svc:sahm_rule", region: "US" });
    expect(batch.isError).toBeUndefined();
    expect(batch._meta).toMatchObject({ http_status: 207 });
    expect(structured(batch).data.map((d: any) => [d.indicator, d.value])).toEqual([["UNRATE", 4.6]]);
    expect(structured(batch).errors.map((e: any) => [e.indicator, e.code])).toEqual([["svc:sahm_rule", "CATEGORY_NOT_ALLOWED"]]);
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(2);
  });

  test("premium series without entitlement: CATEGORY_NOT_ALLOWED with the envelope's details, not metered", async () => {
    const { key, row } = await testKey(pay);
    const r = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_observations", { indicator: "svc:sahm_rule", region: "US" });
    expect(r.isError).toBe(true);
    const e = structured(r).error;
    expect([e.code, e.details]).toEqual(["CATEGORY_NOT_ALLOWED", { key_hint: row.hint, indicator: "svc:sahm_rule" }]);
    expect(textJson(r)).toEqual(structured(r));
    expect(structured(r)).toEqual((await rest(payBase, "/v1/observations?indicator=svc%3Asahm_rule&region=US", { authorization: `Bearer ${key}` })).body);
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(0);
  });

  test("premium series with the svc-premium scope, and with a Developer subscription: served", async () => {
    const scoped = await testKey(pay, { scopes: ["svc-premium"] });
    const r = await call(await connect(payBase, { authorization: `Bearer ${scoped.key}` }), "get_latest", { indicator: "svc:sahm_rule" });
    expect(structured(r).data).toMatchObject({ indicator: "svc:sahm_rule", region: "US", period_start: SAHM.date, value: SAHM.value });
    const sub = await testSubscription(pay);
    const r2 = await call(await connect(payBase, { authorization: `Bearer ${sub.key}` }), "get_latest", { indicator: "svc:sahm_rule" });
    expect(structured(r2).data.value).toBe(SAHM.value);
  });

  test("REGION_NOT_ALLOWED for a region-restricted key", async () => {
    const { key } = await testKey(pay, { allowedRegions: ["06"] });
    const r = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_observations", HELD);
    expect([r.isError, structured(r).error.code]).toEqual([true, "REGION_NOT_ALLOWED"]);
  });

  test("rate limit as REST: each tool call counts once (catalog calls too), MCP messages not at all; one past the limit is refused", async () => {
    const { key } = await testKey(pay, { rateLimitPerMinute: 3 });
    const client = await connect(payBase, { authorization: `Bearer ${key}` });
    await client.listTools();
    await client.listTools();
    const reset = Date.UTC(2026, 10, 22, 12, 1, 0) / 1000;
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await call(client, i === 0 ? "list_sources" : "get_latest", i === 0 ? {} : HELD))._meta!.rate_limit);
    expect(seen).toEqual([0, 1, 2].map((k) => ({ limit: 3, remaining: 2 - k, reset })));
    const refused = await call(client, "get_latest", HELD);
    expect(refused.isError).toBe(true);
    expect(structured(refused).error).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", details: { limit: 3, reset, retry_after_seconds: 60 } });
    expect(refused._meta).toMatchObject({ http_status: 429, rate_limit: { limit: 3, remaining: 0, reset } });
  });

  test("a bad key on the MCP request is the REST 401, before any MCP processing", async () => {
    const res = await fetch(`${payBase}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer svc_live_notakey" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("INVALID_API_KEY");
  });
});

describe("data tools without a key", () => {
  test("a 402 on REST becomes PAYMENT_REQUIRED naming the price and the exact REST URL, which takes the L402 payment", async () => {
    const r = await call(await connect(payBase), "get_observations", { ...HELD, limit: 2 });
    expect(r.isError).toBe(true);
    const e = structured(r).error;
    const url = `${payBase}/v1/observations?indicator=UNRATE&region=US&limit=2`;
    expect(e.code).toBe("PAYMENT_REQUIRED");
    expect(e.message).toBe(
      "get_observations costs 0.01 USD for this call. Send an API key with the MCP request ('Authorization: Bearer <key>' or " +
        `'X-API-Key: <key>'; free keys: POST /v1/signup), or pay per request with L402 on the equivalent REST request: GET ${url}`,
    );
    expect(e.details).toMatchObject({ price_usd: "0.01", rest_url: url, method: "GET", rails: ["l402"], l402: { amount_sats: "10" } });
    expect(textJson(r)).toEqual(structured(r));

    // Paying the invoice and sending the macaroon to the REST URL buys exactly what a keyed tool call returns.
    const paid = pay.dev.pay(e.details.l402.invoice);
    if (!paid.ok) throw new Error(paid.message);
    const res = await fetch(url, { headers: { authorization: `L402 ${e.details.l402.macaroon}:${paid.preimage}` } });
    expect(res.status).toBe(200);
    const { key } = await testKey(pay);
    const keyed = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_observations", { ...HELD, limit: 2 });
    expect(await res.json()).toEqual(structured(keyed));
  });

  test("the price follows the resolved series: svc: series cost 0.05", async () => {
    const r = await call(await connect(payBase), "get_latest", { indicator: "svc:sahm_rule" });
    expect(structured(r).error).toMatchObject({
      code: "PAYMENT_REQUIRED",
      details: { price_usd: "0.05", rest_url: `${payBase}/v1/observations/latest?indicator=svc%3Asahm_rule`, l402: { amount_sats: "50" } },
    });
    expect(APERTURE_CHALLENGE.test(`L402 macaroon="${structured(r).error.details.l402.macaroon}", invoice="${structured(r).error.details.l402.invoice}"`)).toBe(true);
  });

  test("what does not exist costs nothing: the REST 404, no price", async () => {
    const r = await call(await connect(payBase), "get_observations", { indicator: "NOPE_NOT_A_CODE" });
    expect(structured(r)).toEqual((await rest(payBase, "/v1/observations?indicator=NOPE_NOT_A_CODE")).body);
    expect(structured(r).error.code).toBe("RESOURCE_NOT_FOUND");
  });

  test("a server without a payment rail: INVALID_API_KEY naming the price and the REST URL", async () => {
    const r = await call(await connect(keysBase), "get_latest", HELD);
    const url = `${keysBase}/v1/observations/latest?indicator=UNRATE&region=US`;
    expect(structured(r)).toEqual({
      error: {
        code: "INVALID_API_KEY",
        message:
          "get_latest costs 0.01 USD for this call. Send an API key with the MCP request ('Authorization: Bearer <key>' or " +
          `'X-API-Key: <key>'; free keys: POST /v1/signup); this server takes no per-request payment (the equivalent REST request is GET ${url}).`,
        details: { price_usd: "0.01", rest_url: url, method: "GET" },
      },
    });
    // The REST twin's 401 carries the same price.
    expect((await rest(keysBase, "/v1/observations/latest?indicator=UNRATE&region=US")).body.error.details).toEqual({ price_usd: "0.01" });
  });
});

describe("bad arguments: INVALID_PARAMETER naming the parameter, free", () => {
  let client: Client;
  let keyId: string;
  beforeAll(async () => {
    const { key, row } = await testKey(pay);
    keyId = row.id;
    client = await connect(payBase, { authorization: `Bearer ${key}` });
  });

  const refused = async (name: string, args: Record<string, unknown>) => {
    const r = await call(client, name, args);
    expect(r.isError).toBe(true);
    return structured(r).error;
  };

  test("bounds at the edge and one past it (validated by the REST route's zod schema)", async () => {
    const edge = await call(client, "get_observations", { ...HELD, limit: 1000 });
    expect(structured(edge).data.length).toBe(UNRATE_ROWS); // 551: every row on one page
    const past = await refused("get_observations", { ...HELD, limit: 1001 });
    expect([past.code, past.details.parameter]).toEqual(["INVALID_PARAMETER", "limit"]);
    expect(past.message).toStartWith("Invalid parameter limit:");
    expect((await refused("get_observations", { ...HELD, limit: -1 })).details.parameter).toBe("limit");
    expect((await refused("get_observations", { ...HELD, limit: 2.5 })).details.parameter).toBe("limit");
    expect(structured(await call(client, "search_indicators", { limit: 100 })).meta.limit).toBe(100);
    expect((await refused("search_indicators", { limit: 101 })).details.parameter).toBe("limit");
  });

  test("missing, misspelt, mistyped and contradictory arguments", async () => {
    expect((await refused("get_observations", {})).details.parameter).toBe("indicator");
    const unknown = await refused("get_observations", { indicatr: "UNRATE" });
    expect(unknown).toEqual({
      code: "INVALID_PARAMETER",
      message:
        "Invalid parameter indicatr: unknown argument; get_observations takes indicator, source, region, start_date, end_date, include_revisions, limit, offset, order, transform, frequency, resample_method",
      details: {
        parameter: "indicatr",
        parameters: ["indicatr"],
        in: "arguments",
        accepted: ["indicator", "source", "region", "start_date", "end_date", "include_revisions", "limit", "offset", "order", "transform", "frequency", "resample_method"],
      },
    });
    expect(await refused("get_observations", { indicator: 5 })).toEqual({
      code: "INVALID_PARAMETER",
      message: "Invalid parameter indicator: must be a string",
      details: { parameter: "indicator", parameters: ["indicator"], in: "arguments" },
    });
    expect((await refused("get_observations", { ...HELD, include_revisions: "yes" })).details.parameter).toBe("include_revisions");
    expect((await refused("get_observations", { ...HELD, start_date: "2020-02-30" })).details.parameter).toBe("start_date");
    expect((await refused("get_observations", { ...HELD, include_revisions: true, transform: "yoy" })).details.parameter).toBe("transform");
    expect((await refused("get_latest", { indicator: "UNRATE", indicators: "UNRATE" })).details.parameter).toBe("indicators");
    expect((await refused("list_regions", { type: "planet" })).details.parameter).toBe("type");
    expect(await keyUsage(pay.deps, keyId, MONTH)).toBe(1);
  });

  test("JSON null is an absent argument; booleans and integers may come as JSON or as their text", async () => {
    const a = await call(client, "get_observations", { ...HELD, limit: "3", include_revisions: false, source: null });
    const b = await call(client, "get_observations", { ...HELD, limit: 3, include_revisions: "false" });
    expect(structured(a)).toEqual(structured(b));
    expect(a._meta!.rest_url).toBe(`${payBase}/v1/observations?indicator=UNRATE&region=US&include_revisions=false&limit=3`);
  });

  test("an unknown tool is a JSON-RPC error (-32602), not a tool result", async () => {
    const err = await client.callTool({ name: "ask", arguments: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toContain("Unknown tool: ask. Tools: search_indicators, list_sources, list_regions, get_observations, get_latest, get_insights, get_active_signals");
  });

  // The MCP schema wants `arguments` absent or an object. Anything else is the caller's mistake: -32602 Invalid
  // params with one line naming it (the SDK alone answers -32603 Internal error with zod's multi-line report).
  const ARGUMENTS_LINE = (kind: string) =>
    `Invalid params for tools/call: params.arguments must be an object of named arguments (e.g. {"indicator": "UNRATE"}) or left out, not ${kind}.`;

  test("arguments that are not an object (a string, null, an array, a number): -32602 with one line, through the official client; nothing metered", async () => {
    const before = await keyUsage(pay.deps, keyId, MONTH);
    for (const [args, kind] of [["indicator=UNRATE", "a string"], [null, "null"], [[HELD], "an array"], [5, "a number"]] as const) {
      const err = await client.callTool({ name: "get_observations", arguments: args as any }).catch((e) => e);
      expect(err).toBeInstanceOf(McpError);
      expect({ kind, code: err.code, message: err.message }).toEqual({ kind, code: ErrorCode.InvalidParams, message: `MCP error -32602: ${ARGUMENTS_LINE(kind)}` });
    }
    expect(await keyUsage(pay.deps, keyId, MONTH)).toBe(before);
    // The same client still works: the session was not disturbed.
    expect((await call(client, "list_sources")).isError).toBeUndefined();
  });

  test("raw JSON-RPC: bad tools/call params are -32602 with exactly one plain line; left-out arguments are fine", async () => {
    const rpc = async (params: unknown) => {
      const res = await fetch(`${payBase}/api/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", ...(params === undefined ? {} : { params }) }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as any;
    };
    const invalid = (message: string) => ({ jsonrpc: "2.0", id: 9, error: { code: -32602, message } });
    expect(await rpc({ name: "list_sources", arguments: "x" })).toEqual(invalid(ARGUMENTS_LINE("a string")));
    expect(await rpc({ name: "list_sources", arguments: null })).toEqual(invalid(ARGUMENTS_LINE("null")));
    expect(await rpc({ name: "list_sources", arguments: [] })).toEqual(invalid(ARGUMENTS_LINE("an array")));
    expect(await rpc({ name: "list_sources", arguments: true })).toEqual(invalid(ARGUMENTS_LINE("a boolean")));
    expect(await rpc({ arguments: {} })).toEqual(invalid("Invalid params for tools/call: params.name must be the tool's name (a string), not missing."));
    expect(await rpc({ name: 7 })).toEqual(invalid("Invalid params for tools/call: params.name must be the tool's name (a string), not a number."));
    expect(await rpc(undefined)).toEqual(invalid("Invalid params for tools/call: params must be an object with the tool's name and its arguments, not missing."));
    for (const line of [ARGUMENTS_LINE("a string"), ARGUMENTS_LINE("null")]) expect(line).not.toContain("\n");
    // Left out, or an empty object: the tool runs.
    for (const params of [{ name: "list_sources" }, { name: "list_sources", arguments: {} }]) {
      const ok = await rpc(params);
      expect([ok.id, ok.result.isError, ok.result.structuredContent.data.length > 0]).toEqual([9, undefined, true]);
    }
    // A method this server does not serve is still the SDK's answer.
    const res = await fetch(`${payBase}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "resources/list" }),
    });
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } });
  });
});

describe("restRequestOf", () => {
  test("query in the operation's parameter order, encoded as a URL query", async () => {
    const [, , , obs] = toolsFromOpenApi((await rest(payBase, "/openapi.json")).body);
    expect(restRequestOf(obs!, { region: "US", indicator: "svc:sahm_rule", transform: "index:2024-01-01" })).toEqual({
      ok: true,
      pathAndQuery: "/v1/observations?indicator=svc%3Asahm_rule&region=US&transform=index%3A2024-01-01",
    });
    const [, sources] = toolsFromOpenApi((await rest(payBase, "/openapi.json")).body);
    expect(restRequestOf(sources!, undefined)).toEqual({ ok: true, pathAndQuery: "/v1/sources" });
  });
  test("repeatable parameters (get_active_signals): an array of strings or one comma-separated string", async () => {
    const signals = toolsFromOpenApi((await rest(payBase, "/openapi.json")).body).find((t) => t.name === "get_active_signals")!;
    expect(signals.inputSchema.properties.type).toMatchObject({ type: "array", items: { type: "string", enum: ["acceleration", "extreme", "trend_break"] } });
    expect(restRequestOf(signals, { type: ["extreme", "trend_break"], region: "US", limit: 5 })).toEqual({ ok: true, pathAndQuery: "/v1/signals/active?region=US&type=extreme&type=trend_break&limit=5" });
    expect(restRequestOf(signals, { indicator: "PAYEMS,UNRATE" })).toEqual({ ok: true, pathAndQuery: "/v1/signals/active?indicator=PAYEMS%2CUNRATE" });
    const bad = restRequestOf(signals, { type: [1] });
    expect(bad.ok ? null : bad.error.error.message).toBe("Invalid parameter type: must be a string or an array of strings");
  });
});

describe("transport", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${payBase}/api/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });

  test("GET and DELETE: 405 with a JSON-RPC error (stateless: no SSE stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${payBase}/api/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect([res.status, res.headers.get("allow")]).toEqual([405, "POST"]);
      expect(await res.json()).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST." }, id: null });
    }
  });

  test("bad JSON and non-JSON-RPC bodies: the SDK's -32700 errors, never a 500", async () => {
    const bad = await post("{not json");
    expect([bad.status, await bad.json()]).toEqual([400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null }]);
    const notRpc = await post(JSON.stringify({ hello: "world" }));
    expect([notRpc.status, await notRpc.json()]).toEqual([400, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON-RPC message" }, id: null }]);
  });

  test("wrong Content-Type 415, missing Accept 406", async () => {
    const ct = await post("{}", { "content-type": "text/plain" });
    expect([ct.status, ((await ct.json()) as any).error.code]).toEqual([415, -32000]);
    const acc = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), { accept: "application/json" });
    expect([acc.status, ((await acc.json()) as any).error.message]).toEqual([406, "Not Acceptable: Client must accept both application/json and text/event-stream"]);
  });

  test("a bare tools/list needs no initialize and is answered as JSON; a notification is 202", async () => {
    const res = await post(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }));
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/json"]);
    const body = (await res.json()) as any;
    expect([body.id, body.result.tools.length]).toEqual([7, 7]);
    const note = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect([note.status, await note.text()]).toEqual([202, ""]);
  });
});
