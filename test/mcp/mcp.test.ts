// POST /api/mcp with the official SDK client (Client + StreamableHTTPClientTransport) against the real app served by
// Bun.serve: the tool list and its schemas (the REST operations' own parameters and success bodies), every tool against
// its REST twin with good and bad arguments, results that validate against each tool's outputSchema (the client checks
// every structuredContent once it has listed the tools, errors included), MCP's page sizes and truncated flags, the text
// renderings, keyed calls metered and rate limited like REST, entitlement refusals, anonymous data calls answering a
// payment request (paid over L402 on the REST URL to prove it), and the transport's own answers. x402 paid in the call
// is test/mcp/x402.test.ts; a second, independent client (the MCP Inspector CLI) is test/mcp/inspector.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { DevLightning, L402Rail, Payments, fixedRate, memoryInvoiceStore } from "payments";
import { paymentProofStore } from "../../db/repos/payments";
import { keyUsage } from "../../src/services/keys";
import { restRequestOf, toolsFromOpenApi } from "../../src/mcp/tools";
import { MCP_TOOL_NAMES } from "../../src/contract/mcp";
import { toolResult } from "../../src/mcp/results";
import { MAX_ECHOED_URL } from "../../src/mcp/server";
import { CHART_TOOLS, INCLUDE_CHART, includeChartSchema } from "../../src/mcp/chart";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { mcpPaymentRequestSchema } from "../../src/schemas/mcp";
import { makeTestApp, type TestApp } from "../support/app";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { testKey, testSubscription } from "../support/keys";
import { APERTURE_CHALLENGE, TEST_BTC_USD, TEST_NODE_KEY, TEST_ROOT_SECRET } from "../support/payments";
import { fredRows, sahmLatest, snapshotText } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const MONTH = "2026-11";
// A held series: the shipped FRED UNRATE (January- and June-2026 vintages), monthly, 1948-01 .. 2026-05 (4.3), October
// 2025 empty.
const HELD = { indicator: "UNRATE", region: "US" };
const UNRATE = fredRows("UNRATE");
const UNRATE_ROWS = UNRATE.length;
const [UNRATE_FIRST, UNRATE_LATEST] = [UNRATE[0]!, UNRATE.at(-1)!];
// The 2026 months are the June-2026 vintage's (published 2026-06-05), first revisions (January's file ends 2025-11).
const JUNE_VINTAGE = "2026-06-05T00:00:00.000Z";
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

/**
 * A connected client that has listed the tools: from then on the SDK validates every structuredContent against the
 * tool's outputSchema and throws on a mismatch, so every call in this file checks it.
 */
const anonymousClients = new Map<string, Promise<Client>>();

async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
  // The server keeps no session, so one anonymous client per server serves every test (listing the tools compiles
  // their output validators: about 0.1 s per client).
  if (Object.keys(headers).length === 0) {
    if (!anonymousClients.has(base)) anonymousClients.set(base, newClient(base, headers));
    return anonymousClients.get(base)!;
  }
  return newClient(base, headers);
}

async function newClient(base: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers } }));
  await client.listTools();
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => (r.content[0] as { type: "text"; text: string }).text;
const structured = (r: CallToolResult) => r.structuredContent as any;
const textJson = (r: CallToolResult) => JSON.parse(text(r));
const rest = async (base: string, pathAndQuery: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${pathAndQuery}`, { headers });
  return { status: res.status, body: (await res.json()) as any };
};

describe("tools/list", () => {
  test("the tools, in the spec's order, each with the REST operation's own path and query parameters", async () => {
    const client = await connect(payBase);
    expect(client.getServerVersion()).toEqual({ name: "Economic Time-Series API", version: pay.deps.version });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    expect(tools.map((t) => t.name)).toEqual(["search_indicators", "get_indicator", "list_sources", "list_regions", "get_observations", "get_latest", "get_insights", "get_active_signals", "ask"]);

    // One schema: every tool property is the OpenAPI parameter of the operation with the same operationId (MCP changes
    // only the default page size of search_indicators, list_regions and get_active_signals).
    const doc = (await rest(payBase, "/openapi.json")).body;
    const ops = new Map<string, any>();
    for (const item of Object.values<any>(doc.paths)) for (const op of Object.values<any>(item)) ops.set(op.operationId, op);
    const mcpLimits: Record<string, number> = { search_indicators: 20, list_regions: 100, get_active_signals: 20 };
    for (const tool of tools) {
      const op = ops.get(tool.name);
      const expected: Record<string, unknown> = {};
      for (const p of op.parameters ?? []) {
        const { example: _e, ...schema } = p.schema;
        expected[p.name] = { ...schema, description: p.description, ...(p.name === "limit" && tool.name in mcpLimits ? { default: mcpLimits[tool.name] } : {}) };
      }
      // MCP's own argument, beside the REST parameters (src/mcp/chart.ts).
      if (CHART_TOOLS.has(tool.name)) expected[INCLUDE_CHART] = includeChartSchema;
      expect({ tool: tool.name, properties: tool.inputSchema.properties as Record<string, unknown> }).toEqual({ tool: tool.name, properties: expected });
      const required = (op.parameters ?? []).filter((p: any) => p.required).map((p: any) => p.name);
      expect({ tool: tool.name, required: tool.inputSchema.required }).toEqual({ tool: tool.name, required: required.length ? required : undefined });
      expect((tool.inputSchema as any).additionalProperties).toBe(false);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(tool.title).toBe(op.summary);
      // The output: every success body of the operation, then the error envelope, then (paid tools) the payment request.
      const out = tool.outputSchema as any;
      const refusals = op["x-price-usd"] ? ["#/$defs/Error", "#/$defs/McpPaymentRequest"] : ["#/$defs/Error"];
      const ok = op.responses["200"].content["application/json"].schema;
      const success = (ok.$ref ?? ok.anyOf[0].$ref).replace("#/components/schemas/", "#/$defs/");
      expect({ tool: tool.name, type: out.type, first: out.anyOf[0].$ref, refusals: out.anyOf.slice(-refusals.length).map((x: any) => x.$ref) }).toEqual({
        tool: tool.name,
        type: "object",
        first: success,
        refusals,
      });
      expect(JSON.stringify(out)).not.toContain("#/components/");
    }
    // get_indicator's code is a path parameter: required, and carried in the path.
    expect(tools.find((t) => t.name === "get_indicator")!.inputSchema.required).toEqual(["code"]);
  });

  test("input schemas: types, bounds, defaults and enums as the REST contract states them", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema as any]));
    const obs = byName.get_observations;
    expect(Object.keys(obs.properties)).toEqual([
      "indicator", "source", "region", "start_date", "end_date", "include_revisions", "limit", "offset", "order", "transform", "frequency", "resample_method", "include_chart",
    ]);
    expect(obs.required).toEqual(["indicator"]);
    expect(obs.properties.limit).toMatchObject({ type: "integer", minimum: 0, maximum: 1000, default: 100 });
    expect(obs.properties.include_revisions).toMatchObject({ type: "boolean", default: false });
    expect(obs.properties.start_date).toMatchObject({ type: "string", format: "date" });
    expect(obs.properties.frequency).toMatchObject({ type: "string", enum: ["monthly", "quarterly", "annual"] });
    expect(byName.search_indicators.properties.limit).toMatchObject({ type: "integer", minimum: 0, maximum: 100, default: 20 });
    expect(Object.keys(byName.list_regions.properties)).toEqual(["type", "parent", "search", "limit", "offset"]);
    expect(byName.list_regions.properties.type).toMatchObject({ type: "string", enum: ["country", "state", "county"] });
    expect(byName.list_regions.properties.limit).toMatchObject({ type: "integer", minimum: 0, maximum: 1000, default: 100 });
    expect(byName.get_active_signals.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 500, default: 20 });
    expect(byName.get_indicator.properties.code).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
    expect(Object.keys(byName.get_indicator.properties)).toEqual(["code", "source", "include_inactive"]);
    expect(Object.keys(byName.get_latest.properties)).toEqual(["indicator", "indicators", "source", "region"]);
    expect(byName.get_latest.required).toBeUndefined();
    expect(Object.keys(byName.list_sources.properties)).toEqual(["include_inactive"]);
  });

  test("output schemas: the REST success bodies with MCP's additions, their components in $defs", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.outputSchema as any]));
    expect(byName.get_latest.anyOf.map((s: any) => s.$ref)).toEqual(["#/$defs/LatestSingle", "#/$defs/LatestBatch", "#/$defs/Provisioning", "#/$defs/Error", "#/$defs/McpPaymentRequest"]);
    expect(byName.get_observations.anyOf.map((s: any) => s.$ref)).toEqual(["#/$defs/ObservationList", "#/$defs/Provisioning", "#/$defs/Error", "#/$defs/McpPaymentRequest"]);
    expect(byName.list_sources.anyOf.map((s: any) => s.$ref)).toEqual(["#/$defs/SourceList", "#/$defs/Error"]);
    const search = byName.search_indicators.$defs;
    expect(search.Indicator.properties.has_data).toMatchObject({ type: "boolean" });
    expect(search.Indicator.required).toContain("has_data");
    expect(search.IndicatorList.properties.meta.properties.truncated).toMatchObject({ type: "boolean" });
    expect(byName.list_regions.$defs.RegionList.properties.meta.required).toEqual(["total", "limit", "offset", "truncated"]);
    expect(byName.get_active_signals.$defs.SignalList.properties.meta.required).toContain("truncated");
    // Tools without paging get no truncated flag; the components are each tool's own copies.
    expect(byName.get_latest.$defs.LatestSingle.properties.meta.properties.truncated).toBeUndefined();
    expect(byName.get_indicator.$defs.Indicator).toBeUndefined();
  });

  test("descriptions: what each tool returns, when to prefer another, its price, how to authenticate or pay, its page size", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const d = Object.fromEntries(tools.map((t) => [t.name, t.description!]));
    for (const name of ["search_indicators", "get_indicator", "list_sources", "list_regions"]) expect(d[name]!.endsWith("Free: no credential needed.")).toBe(true);
    expect(d.search_indicators).toStartWith("List and search indicators.\n\nStart here to find indicator codes");
    expect(d.get_observations).toContain("For only the newest value use get_latest");
    expect(d.get_observations).toContain("**Price:** 0.01 USD per request (0.05 for derived series), or covered by an API key's plan.");
    expect(d.get_latest).toContain("**Price:** 0.01 USD per request (0.05 for derived series, 0.01 for latest batch), or covered by an API key's plan.");
    expect(d.get_latest).toContain("send an API key with the MCP HTTP request (`Authorization: Bearer <key>` or `X-API-Key: <key>`");
    expect(d.get_latest).toContain('pay it in the call with x402 (the x402 MCP transport: the signed payment in `_meta["x402/payment"]` of tools/call)');
    expect(d.list_regions).toContain("Over MCP `limit` defaults to 100 (REST: every row). `meta.truncated` is true when more rows match than this result holds: call again with a larger `offset`.");
    expect(d.search_indicators).toContain("Over MCP `limit` defaults to 20 (REST: 50).");
    expect(d.get_active_signals).toContain("call again with `cursor` set to `meta.next_cursor`");
  });

  test("a tool name without a GET operation of that operationId is refused when the tools are built", async () => {
    const doc = (await rest(payBase, "/openapi.json")).body;
    expect(toolsFromOpenApi(doc).map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    expect(() => toolsFromOpenApi(doc, ["get_weather"])).toThrow("MCP tool get_weather: no GET operation with operationId get_weather");
    expect(() => toolsFromOpenApi(doc, ["signup"])).toThrow("MCP tool signup: no GET operation with operationId signup");
  });
});

describe("catalog tools: free, anonymous, the REST body", () => {
  test("search_indicators: the REST body with has_data on each item and meta.truncated; MCP's page of 20 by default", async () => {
    const client = await connect(payBase);
    // BLS's unemployment series, second page: the monthly state rates (held for every state, after the annual averages,
    // which are current) and the government workers' rate (CPS, not held).
    const r = await call(client, "search_indicators", { search: "unemployment", source: "bls", limit: 2, offset: 2 });
    expect(r.isError).toBeUndefined();
    const twin = await rest(payBase, "/v1/indicators?source=bls&search=unemployment&limit=2&offset=2");
    const { data, meta } = structured(r);
    expect(data.map((i: any) => [i.code, i.has_data])).toEqual([["LASST03", true], ["LNU04028615", false]]);
    expect(data.map(({ has_data: _h, ...i }: any) => i)).toEqual(twin.body.data);
    expect(meta).toEqual({ ...twin.body.meta, truncated: true });
    expect(r._meta).toMatchObject({ http_status: 200, rest_url: `${payBase}/v1/indicators?source=bls&search=unemployment&limit=2&offset=2` });
    // The text: a summary saying how to get more, the columns every row shares written once, then a table.
    const lines = text(r).split("\n");
    expect(lines[0]).toBe("search_indicators: rows 3 to 4 of 46; more match: call again with offset=4.");
    expect(lines[1]).toBe("data: 2 rows");
    expect(lines[2]).toBe("(every row) source: bls; category: labor; access_tier: free; unit: percent; frequency: monthly; is_active: true");
    expect(lines[3]).toBe("| id | code | name | description | subcategory | coverage | has_data |");
    expect(lines.slice(-4)).toEqual(["meta.total: 46", "meta.limit: 2", "meta.offset: 2", "meta.truncated: true"]);

    // Left out, limit is 20 over MCP: the REST twin asked for is the one with limit=20.
    const page = await call(client, "search_indicators", {});
    expect([structured(page).data.length, structured(page).meta.limit, structured(page).meta.truncated]).toEqual([20, 20, true]);
    expect(page._meta!.rest_url).toBe(`${payBase}/v1/indicators?limit=20`);
    // has_data follows coverage, and has_data=true (a REST filter) keeps only held indicators.
    const held = await call(client, "search_indicators", { has_data: true, limit: 100 });
    expect(structured(held).data.every((i: any) => i.has_data === true && i.coverage.regions_held > 0)).toBe(true);
    expect(structured(held).meta.truncated).toBe(false);
  });

  test("get_indicator: IndicatorDetail with its coverage, the code in the path (svc: codes escaped)", async () => {
    const client = await connect(payBase);
    const r = await call(client, "get_indicator", { code: "UNRATE" });
    expect(structured(r)).toEqual((await rest(payBase, "/v1/indicators/UNRATE")).body);
    expect(structured(r).data).toMatchObject({ code: "UNRATE", available_regions: ["US"], date_range: { start: UNRATE_FIRST.date, end: UNRATE_LATEST.date }, coverage: { regions_held: 1 } });
    expect(text(r).split("\n").slice(0, 3)).toEqual(["get_indicator: one record.", "data.id: bd518a9e-6a5c-5131-b1be-464adfb9872a", "data.code: UNRATE"]);
    expect(text(r)).toContain("data.coverage.note: Held for US, 1948-01-01 to 2026-05-01.");
    const svc = await call(client, "get_indicator", { code: "svc:sahm_rule", include_inactive: false });
    expect(svc._meta!.rest_url).toBe(`${payBase}/v1/indicators/svc%3Asahm_rule?include_inactive=false`);
    expect(structured(svc).data.code).toBe("svc:sahm_rule");
    // Unknown: the REST 404; no code or an empty one: the argument named, nothing sent.
    const missing = await call(client, "get_indicator", { code: "NOPE_NOT_A_CODE" });
    expect(structured(missing)).toEqual((await rest(payBase, "/v1/indicators/NOPE_NOT_A_CODE")).body);
    expect(structured(missing).error.code).toBe("RESOURCE_NOT_FOUND");
    for (const [args, message] of [[{}, "Invalid parameter code: required"], [{ code: "" }, "Invalid parameter code: must not be empty"], [{ code: 7 }, "Invalid parameter code: must be a string"]] as const) {
      const e = await call(client, "get_indicator", args);
      expect([e.isError, structured(e)]).toEqual([true, { error: { code: "INVALID_PARAMETER", message, details: { parameter: "code", parameters: ["code"], in: "arguments" } } }]);
    }
    const long = await call(client, "get_indicator", { code: "x".repeat(201) });
    expect(structured(long).error).toMatchObject({ code: "INVALID_PARAMETER", details: { parameter: "code", in: "arguments" } });
  });

  test("list_sources", async () => {
    const r = await call(await connect(payBase), "list_sources");
    expect(structured(r).data.map((s: any) => s.slug)).toEqual(["bls", "cdc", "census", "eia", "fred", "gapminder", "scripps", "svc", "worldbank"]);
    expect(structured(r)).toEqual((await rest(payBase, "/v1/sources")).body);
    expect(text(r).split("\n").slice(0, 3)).toEqual(["list_sources: 9 rows.", "data: 9 rows", "| slug | name | provider | category | indicator_count | docs_url | attribution | license |"]);
  });

  test("list_regions: type and parent, search, pages of 100 by default with meta.truncated", async () => {
    const client = await connect(payBase);
    const r = await call(client, "list_regions", { parent: "CA", type: "county" });
    const data = structured(r).data;
    expect([data.length, data[0], data.at(-1).code, structured(r).meta]).toEqual([
      58,
      { code: "06001", type: "county", name: "Alameda County", slug: "alameda-county-ca", parent_code: "06", fips_state: "06", fips_county: "001" },
      "06115",
      { total: 58, limit: 100, offset: 0, truncated: false },
    ]);
    const twin = (await rest(payBase, "/v1/regions?type=county&parent=CA&limit=100")).body;
    expect(structured(r)).toEqual({ ...twin, meta: { ...twin.meta, truncated: false } });
    expect(text(r).split("\n").slice(0, 6)).toEqual([
      "list_regions: rows 1 to 58 of 58.",
      "data: 58 rows",
      "(every row) type: county; parent_code: 06; fips_state: 06",
      "| code | name | slug | fips_county |",
      "|---|---|---|---|",
      "| 06001 | Alameda County | alameda-county-ca | 001 |",
    ]);

    // Everything: 3,445 regions, 100 at a time; the last page is not truncated.
    const first = await call(client, "list_regions", {});
    expect([structured(first).data.length, structured(first).meta]).toEqual([100, { total: 3445, limit: 100, offset: 0, truncated: true }]);
    expect(text(first).split("\n")[0]).toBe("list_regions: rows 1 to 100 of 3445; more match: call again with offset=100.");
    const last = await call(client, "list_regions", { offset: 3400 });
    expect([structured(last).data.length, structured(last).meta.truncated, structured(last).data.at(-1).code]).toEqual([45, false, "ZW"]);
    const all = await call(client, "list_regions", { type: "county", limit: 1000, offset: 3000 });
    expect([structured(all).data.length, structured(all).meta]).toEqual([144, { total: 3144, limit: 1000, offset: 3000, truncated: false }]);

    const travis = await call(client, "list_regions", { search: "travis" });
    expect(structured(travis).data.map((x: any) => x.code)).toEqual(["48453"]);
    expect((await call(client, "list_regions", { limit: 1001 })).isError).toBe(true);
    expect(structured(await call(client, "list_regions", { search: "" })).error.details).toMatchObject({ parameter: "search", in: "arguments" });
  });

  test("a REST refusal of a catalog call is the REST envelope (unknown parent: 404)", async () => {
    const r = await call(await connect(payBase), "list_regions", { parent: "atlantis" });
    const twin = await rest(payBase, "/v1/regions?parent=atlantis&limit=100");
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

    // The five newest months (2026-01 .. 2026-05): 4.3 but for February's 4.4.
    const r = await call(client, "get_observations", { ...HELD, limit: 5 });
    expect(r.isError).toBeUndefined();
    expect(structured(r).data).toEqual(
      UNRATE.slice(-5).reverse().map(({ date, value }) => ({ date, value, indicator: "UNRATE", region: "US", unit: "percent", source: "fred", source_updated_at: JUNE_VINTAGE, is_preliminary: false, revision: 1 })),
    );
    expect(structured(r).meta).toMatchObject({ indicator: "UNRATE", region: "US", total: UNRATE_ROWS, limit: 5, offset: 0, truncated: true });
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(1);
    const url = `/v1/observations?indicator=UNRATE&region=US&limit=5`;
    expect(r._meta).toMatchObject({ http_status: 200, rest_url: `${payBase}${url}` });
    // The REST twin with the same key answers the same body (and MCP's truncated flag) and is metered the same way.
    const twin = (await rest(payBase, url, headers)).body;
    expect(structured(r)).toEqual({ ...twin, meta: { ...twin.meta, truncated: true } });
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(2);
    // The text: what the rows share once, then date and value.
    expect(text(r).split("\n").slice(0, 10)).toEqual([
      `get_observations: rows 1 to 5 of ${UNRATE_ROWS}; more match: call again with offset=5.`,
      "data: 5 rows",
      `(every row) indicator: UNRATE; region: US; unit: percent; source: fred; source_updated_at: ${JUNE_VINTAGE}; is_preliminary: false; revision: 1`,
      "| date | value |",
      "|---|---|",
      "| 2026-05-01 | 4.3 |",
      "| 2026-04-01 | 4.3 |",
      "| 2026-03-01 | 4.3 |",
      "| 2026-02-01 | 4.4 |",
      "| 2026-01-01 | 4.3 |",
    ]);
    // The last page is not truncated.
    const end = await call(client, "get_observations", { ...HELD, limit: 2, offset: UNRATE_ROWS - 1 });
    expect([structured(end).data.length, structured(end).meta.truncated]).toEqual([1, false]);
    // A missing value is written null: October 2025 (no release) beside September, both the January vintage's rows
    // (the June vintage has no October row and September's value unchanged).
    const gap = await call(client, "get_observations", { ...HELD, start_date: "2025-09-01", end_date: "2025-10-31" });
    expect(structured(gap).data.map((o: any) => [o.date, o.value, o.source_updated_at, o.revision])).toEqual([
      ["2025-10-01", null, "2026-01-02T00:00:00.000Z", 1],
      ["2025-09-01", 4.4, "2026-01-02T00:00:00.000Z", 1],
    ]);
    expect(text(gap).split("\n").slice(3, 7)).toEqual(["| date | value |", "|---|---|", "| 2025-10-01 | null |", "| 2025-09-01 | 4.4 |"]);
  });

  test("the key may come as X-API-Key; get_latest single and batch (207 with per-indicator errors is a result, not an error)", async () => {
    const { key, row } = await testKey(pay);
    const client = await connect(payBase, { "x-api-key": key });
    const single = await call(client, "get_latest", HELD);
    expect(structured(single)).toEqual({
      data: { indicator: "UNRATE", region: "US", period_start: UNRATE_LATEST.date, period_end: "2026-05-31", period_type: "monthly", value: UNRATE_LATEST.value, revision: 1, is_preliminary: false, source_updated_at: JUNE_VINTAGE, unit: "percent" },
      meta: {
        indicator: "UNRATE", region: "US", resolved_region: { code: "US", name: "United States", type: "country" }, unit: "percent", total: 1, limit: 1, offset: 0,
        // May 2026 as of the test clock (2026-11-22): 6 months behind, stale since September 2026.
        freshness: { newest_period: "2026-05-01", cadence: "monthly", periods_behind: 6, max_periods_behind: 3, stale: true, stale_from: "2026-09-01" },
      },
    });
    const batch = await call(client, "get_latest", { indicators: "UNRATE,svc:sahm_rule", region: "US" });
    expect(batch.isError).toBeUndefined();
    expect(batch._meta).toMatchObject({ http_status: 207 });
    expect(structured(batch).data.map((d: any) => [d.indicator, d.value])).toEqual([["UNRATE", UNRATE_LATEST.value]]);
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

  test("REGION_NOT_ALLOWED for a region-restricted key, on every data tool (signals without a region read every region)", async () => {
    const { key } = await testKey(pay, { plan: "professional", allowedRegions: ["06"] });
    const client = await connect(payBase, { authorization: `Bearer ${key}` });
    const calls: [string, Record<string, unknown>][] = [
      ["get_observations", HELD],
      ["get_latest", HELD],
      ["get_insights", HELD],
      ["get_active_signals", { region: "US" }],
      ["get_active_signals", {}],
      ["ask", { q: "What is the unemployment rate in Texas?" }],
    ];
    for (const [tool, args] of calls) {
      const r = await call(client, tool, args);
      expect([tool, r.isError, structured(r).error?.code]).toEqual([tool, true, "REGION_NOT_ALLOWED"]);
    }
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

  test("a bad key is each tool call's REST 401 (INVALID_API_KEY), never a payment request; the MCP session itself works", async () => {
    for (const headers of [{ authorization: "Bearer svc_live_notakey" }, { "x-api-key": "nonsense" }, { authorization: "Bearer" }] as Record<string, string>[]) {
      const client = await connect(payBase, headers);
      expect((await client.listTools()).tools.length).toBe(MCP_TOOL_NAMES.length);
      for (const [name, args] of [["list_sources", {}], ["get_latest", HELD]] as const) {
        const r = await call(client, name, args);
        expect({ name, isError: r.isError, code: structured(r).error.code, status: r._meta!.http_status }).toEqual({ name, isError: true, code: "INVALID_API_KEY", status: 401 });
      }
    }
    // A revoked key: the REST answer, word for word.
    const { key } = await testKey(pay);
    expect((await fetch(`${payBase}/v1/keys/revoke`, { method: "POST", headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const r = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_latest", HELD);
    expect(structured(r)).toEqual((await rest(payBase, "/v1/observations/latest?indicator=UNRATE&region=US", { authorization: `Bearer ${key}` })).body);
  });
});

describe("ask", () => {
  test("a keyed question: the REST answer with its citations; uncovered is free without a key, covered asks 0.25", async () => {
    const { key, row } = await testKey(pay);
    const keyed = await connect(payBase, { authorization: `Bearer ${key}` });
    const r = await call(keyed, "ask", { q: "What is the unemployment rate in Texas?" });
    expect(r.isError).toBeUndefined();
    const body = structured(r);
    expect(body).toEqual((await rest(payBase, `/v1/ask?q=${encodeURIComponent("What is the unemployment rate in Texas?")}`, { authorization: `Bearer ${key}` })).body);
    expect([body.status, body.grounded, body.citations.map((c: any) => c.tool)]).toEqual(["ok", true, ["get_latest", "get_insights"]]);
    // Texas's rate resolves to the monthly state LAUS series: its newest month in the shipped stateUnemployment.csv
    // (newest month first per state: June 2026, 4.4).
    const texas = snapshotText("bls-laus-state-monthly/stateUnemployment.csv.gz").split(/\r?\n/).find((l) => l.startsWith("48,"))!.split(",");
    expect(texas.slice(3)).toEqual(["2026", "June", "4.4"]);
    expect(body.answer).toStartWith(`The unemployment rate in Texas was ${texas[5]}% in ${texas[4]} ${texas[3]}.`);
    // One request of the plan for the tool call, one for the REST twin above.
    expect(await keyUsage(pay.deps, row.id, MONTH)).toBe(2);
    const anonymous = await connect(payBase);
    const free = await call(anonymous, "ask", { q: "what is the crime rate in Chicago?" });
    expect([free.isError, structured(free).status, structured(free).answer]).toEqual([undefined, "no_coverage", null]);
    const priced = await call(anonymous, "ask", { q: "unemployment rate in Texas", depth: "briefing" });
    expect([priced.isError, structured(priced).code, structured(priced).details.price_usd]).toEqual([true, "PAYMENT_REQUIRED", "1.50"]);
    const bad = await call(keyed, "ask", { q: "x".repeat(501) });
    expect([bad.isError, structured(bad).error.details.parameter, structured(bad).error.details.in]).toEqual([true, "q", "arguments"]);
  });
});

describe("data tools without a key", () => {
  test("a 402 on REST becomes a payment request: the price, the rails, the REST URL and the L402 challenge, which pays the REST URL", async () => {
    const r = await call(await connect(payBase), "get_observations", { ...HELD, limit: 2 });
    expect(r.isError).toBe(true);
    const e = structured(r);
    const url = `${payBase}/v1/observations?indicator=UNRATE&region=US&limit=2`;
    // This server's only per-request rail is L402: no x402 PaymentRequired, the request in the shape the contract names.
    expect(mcpPaymentRequestSchema.parse(e)).toEqual(e);
    expect(e.x402Version).toBeUndefined();
    expect(e.code).toBe("PAYMENT_REQUIRED");
    expect(e.error).toBe(
      "get_observations costs 0.01 USD for this call. Send an API key with the MCP request ('Authorization: Bearer <key>' or " +
        `'X-API-Key: <key>'; free keys: POST /v1/signup); or pay the equivalent REST request with L402: GET ${url}`,
    );
    expect(e.details).toMatchObject({ price_usd: "0.01", rest_url: url, method: "GET", rails: ["l402"], l402: { amount_sats: "10" } });
    // The text is the same without the invoice and macaroon (paid on the REST URL, which gives them too): short.
    const { l402, ...rest402 } = e.details;
    expect(textJson(r)).toEqual({ error: e.error, code: "PAYMENT_REQUIRED", details: { ...rest402, l402: { amount_sats: "10", valid_until: l402.valid_until } } });
    expect(text(r).length).toBeLessThan(600);

    // Paying the invoice and sending the macaroon to the REST URL buys exactly what a keyed tool call returns.
    const paid = pay.dev.pay(l402.invoice);
    if (!paid.ok) throw new Error(paid.message);
    const res = await fetch(url, { headers: { authorization: `L402 ${l402.macaroon}:${paid.preimage}` } });
    expect(res.status).toBe(200);
    const { key } = await testKey(pay);
    const keyed = await call(await connect(payBase, { authorization: `Bearer ${key}` }), "get_observations", { ...HELD, limit: 2 });
    const { truncated: _t, ...keyedMeta } = structured(keyed).meta;
    expect(await res.json()).toEqual({ ...structured(keyed), meta: keyedMeta });
  });

  test("the price follows the resolved series: svc: series cost 0.05", async () => {
    const r = await call(await connect(payBase), "get_latest", { indicator: "svc:sahm_rule" });
    expect(structured(r)).toMatchObject({
      code: "PAYMENT_REQUIRED",
      details: { price_usd: "0.05", rest_url: `${payBase}/v1/observations/latest?indicator=svc%3Asahm_rule`, l402: { amount_sats: "50" } },
    });
    const { l402 } = structured(r).details;
    expect(APERTURE_CHALLENGE.test(`L402 macaroon="${l402.macaroon}", invoice="${l402.invoice}"`)).toBe(true);
  });

  test("an x402 payment in the call when this server takes none: the same payment request, nothing charged", async () => {
    const client = await connect(payBase);
    const r = (await client.callTool({ name: "get_latest", arguments: HELD, _meta: { "x402/payment": { x402Version: 2, accepted: {}, payload: {} } } })) as CallToolResult;
    expect(structured(r)).toMatchObject({ code: "PAYMENT_REQUIRED", details: { rails: ["l402"] } });
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
    // The REST route's refusal, said to be in the tool's arguments (REST says query).
    expect([past.code, past.details.parameter, past.details.in]).toEqual(["INVALID_PARAMETER", "limit", "arguments"]);
    expect(past.message).toStartWith("Invalid parameter limit:");
    const restPast = (await rest(payBase, "/v1/observations?indicator=UNRATE&region=US&limit=1001")).body.error;
    expect(past).toEqual({ ...restPast, details: { ...restPast.details, in: "arguments" } });
    expect((await refused("get_observations", { ...HELD, limit: -1 })).details.parameter).toBe("limit");
    expect((await refused("get_observations", { ...HELD, limit: 2.5 })).details.parameter).toBe("limit");
    expect(structured(await call(client, "search_indicators", { limit: 100 })).meta.limit).toBe(100);
    expect((await refused("search_indicators", { limit: 101 })).details.parameter).toBe("limit");
    expect(structured(await call(client, "list_regions", { limit: 0 })).meta).toEqual({ total: 3445, limit: 0, offset: 0, truncated: true });
    expect((await refused("list_regions", { limit: -1 })).details).toMatchObject({ parameter: "limit", in: "arguments" });
    // 500 passes validation (this free key then lacks premium signals); 501 does not.
    expect((await refused("get_active_signals", { limit: 500 })).code).toBe("CATEGORY_NOT_ALLOWED");
    expect((await refused("get_active_signals", { limit: 501 })).details.parameter).toBe("limit");
  });

  // Issue 28: a 1 MB argument came back whole in the result's _meta.rest_url (1,000,922 bytes answered).
  test("a 1 MB argument is not echoed back: the refusal stays small, the REST URL it repeats is cut at 2,048 characters", async () => {
    const big = "A".repeat(1_000_000);
    for (const args of [{ indicator: big, region: "US" }, { ...HELD, transform: big }]) {
      const r = await call(client, "get_observations", args);
      expect(r.isError).toBe(true);
      expect(structured(r).error.code).toBe("INVALID_PARAMETER");
      expect(JSON.stringify(r).length).toBeLessThan(5000);
      const url = (r._meta as { rest_url: string }).rest_url;
      expect(url.length).toBe(MAX_ECHOED_URL);
      expect(url).toEndWith("…");
    }
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
    const err = await client.callTool({ name: "get_weather", arguments: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.message).toContain(`Unknown tool: get_weather. Tools: ${MCP_TOOL_NAMES.join(", ")}`);
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
  const tool = async (name: string) => toolsFromOpenApi((await rest(payBase, "/openapi.json")).body).find((t) => t.name === name)!;

  test("query in the operation's parameter order, encoded as a URL query; MCP's page size when limit is left out", async () => {
    expect(restRequestOf(await tool("get_observations"), { region: "US", indicator: "svc:sahm_rule", transform: "index:2024-01-01" })).toEqual({
      ok: true,
      pathAndQuery: "/v1/observations?indicator=svc%3Asahm_rule&region=US&transform=index%3A2024-01-01",
    });
    expect(restRequestOf(await tool("list_sources"), undefined)).toEqual({ ok: true, pathAndQuery: "/v1/sources" });
    expect(restRequestOf(await tool("list_regions"), { search: "san", offset: 100 })).toEqual({ ok: true, pathAndQuery: "/v1/regions?search=san&limit=100&offset=100" });
    expect(restRequestOf(await tool("list_regions"), { limit: 5, type: "state" })).toEqual({ ok: true, pathAndQuery: "/v1/regions?type=state&limit=5" });
  });

  test("path parameters: substituted and escaped; required and not empty", async () => {
    const detail = await tool("get_indicator");
    expect(detail.path).toBe("/v1/indicators/{code}");
    expect(restRequestOf(detail, { code: "SP.POP.TOTL", source: "worldbank" })).toEqual({ ok: true, pathAndQuery: "/v1/indicators/SP.POP.TOTL?source=worldbank" });
    expect(restRequestOf(detail, { code: "a/b?c" })).toEqual({ ok: true, pathAndQuery: "/v1/indicators/a%2Fb%3Fc" });
    const missing = restRequestOf(detail, { source: "fred" });
    expect(missing.ok ? null : missing.error.error.message).toBe("Invalid parameter code: required");
  });

  test("repeatable parameters (get_active_signals): an array of strings or one comma-separated string", async () => {
    const signals = await tool("get_active_signals");
    expect(signals.inputSchema.properties.type).toMatchObject({ type: "array", items: { type: "string", enum: ["acceleration", "extreme", "trend_break"] } });
    expect(restRequestOf(signals, { type: ["extreme", "trend_break"], region: "US", limit: 5 })).toEqual({ ok: true, pathAndQuery: "/v1/signals/active?region=US&type=extreme&type=trend_break&limit=5" });
    expect(restRequestOf(signals, { indicator: "PAYEMS,UNRATE" })).toEqual({ ok: true, pathAndQuery: "/v1/signals/active?indicator=PAYEMS%2CUNRATE&limit=20" });
    const bad = restRequestOf(signals, { type: [1] });
    expect(bad.ok ? null : bad.error.error.message).toBe("Invalid parameter type: must be a string or an array of strings");
  });
});

describe("toolResult", () => {
  test("any 2xx JSON answer of a paid tool is a result, not a payment request, even anonymous (a free no_coverage answer, as ask gives)", async () => {
    const latest = toolsFromOpenApi((await rest(payBase, "/openapi.json")).body).find((t) => t.name === "get_latest")!;
    const body = { answer: null, citations: [], status: "no_coverage", message: "Nothing covers this question." };
    const ctx = { restUrl: `${payBase}/v1/x`, anonymous: true, rechallenge: () => Promise.reject(new Error("not asked")) };
    const r = await toolResult(latest, Response.json(body, { status: 200 }), ctx);
    expect([r.isError, r.structuredContent, r._meta]).toEqual([undefined, body, { http_status: 200, rest_url: `${payBase}/v1/x` }]);
    expect((r.content[0] as any).text.split("\n")).toEqual(["get_latest: citations 0.", "answer: null", "citations: none", "status: no_coverage", "message: Nothing covers this question."]);
    // An answer without a JSON error body is still a tool error with the envelope, never a crash.
    const bare = await toolResult(latest, new Response("upstream said no", { status: 502 }), ctx);
    expect([bare.isError, (bare.structuredContent as any).error.code]).toEqual([true, "INTERNAL_SERVER_ERROR"]);
  });
});

describe("every result matches its tool's outputSchema, errors included", () => {
  test("successes, REST refusals, argument errors and payment requests of every tool, checked with the SDK's validator", async () => {
    const { key } = await testKey(pay, { scopes: ["svc-premium"] });
    const keyed = await connect(payBase, { authorization: `Bearer ${key}` });
    const anonymous = await connect(payBase);
    const { tools } = await keyed.listTools();
    const validator = new AjvJsonSchemaValidator();
    const check = Object.fromEntries(tools.map((t) => [t.name, validator.getValidator(t.outputSchema as any)]));
    const calls: [Client, string, Record<string, unknown>][] = [
      [keyed, "search_indicators", { search: "rate" }], [keyed, "search_indicators", { category: "nope" }],
      [keyed, "get_indicator", { code: "PAYEMS" }], [keyed, "get_indicator", { code: "NOPE" }],
      [keyed, "list_sources", {}], [keyed, "list_sources", { include_inactive: "maybe" }],
      [keyed, "list_regions", { type: "state" }], [keyed, "list_regions", { parent: "atlantis" }],
      [keyed, "get_observations", { ...HELD, transform: "yoy", limit: 3 }], [keyed, "get_observations", { ...HELD, frequency: "annual", limit: 2 }],
      [keyed, "get_observations", { indicator: "population", region: "06" }], [keyed, "get_observations", { ...HELD, start_date: "x" }],
      [keyed, "get_latest", HELD], [keyed, "get_latest", { indicators: "UNRATE,NOPE" }], [keyed, "get_latest", { indicator: "NOPE" }],
      [keyed, "get_insights", HELD], [keyed, "get_insights", { ...HELD, window: "bad" }],
      [keyed, "get_active_signals", {}], [keyed, "get_active_signals", { strength: "huge" }],
      [anonymous, "get_latest", HELD], [anonymous, "get_insights", HELD], [anonymous, "get_active_signals", {}], [anonymous, "get_observations", HELD],
      [keyed, "ask", { q: "unemployment rate in Texas" }], [anonymous, "ask", { q: "crime rate in Chicago" }], [anonymous, "ask", { q: "unemployment rate in Texas" }],
      [keyed, "ask", { q: "unemployment", depth: "deep" }],
    ];
    const seen: string[] = [];
    for (const [client, name, args] of calls) {
      // callTool throws when structuredContent does not match (the SDK validates every result once tools are listed).
      const r = await call(client, name, args);
      const v = check[name]!(r.structuredContent);
      expect({ name, args, valid: v.valid, error: v.errorMessage }).toEqual({ name, args, valid: true, error: undefined });
      if (r.isError) errorEnvelopeSchema.safeParse(r.structuredContent).success || mcpPaymentRequestSchema.parse(r.structuredContent);
      // No HTTP status: refused before any REST request (a JSON shape the URL cannot carry).
      seen.push(`${name}:${r._meta?.http_status ?? "arguments"}`);
    }
    expect(seen).toEqual([
      "search_indicators:200", "search_indicators:400", "get_indicator:200", "get_indicator:404", "list_sources:200", "list_sources:arguments",
      "list_regions:200", "list_regions:404", "get_observations:200", "get_observations:200", "get_observations:200", "get_observations:400",
      "get_latest:200", "get_latest:207", "get_latest:404", "get_insights:200", "get_insights:400", "get_active_signals:200", "get_active_signals:400",
      "get_latest:402", "get_insights:402", "get_active_signals:402", "get_observations:402",
      "ask:200", "ask:200", "ask:402", "ask:400",
    ]);
  });

  test("the SDK client rejects a result that breaks the schema: the check is real", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const check = new AjvJsonSchemaValidator().getValidator(tools.find((t) => t.name === "list_regions")!.outputSchema as any);
    const good = structured(await call(await connect(payBase), "list_regions", { type: "state", limit: 1 }));
    expect(check(good).valid).toBe(true);
    expect(check({ ...good, meta: { total: 51, limit: 1, offset: 0 } }).valid).toBe(false); // no truncated flag
    expect(check({ data: [{ code: "06" }], meta: good.meta }).valid).toBe(false);
    expect(check({ error: { code: "NOT_A_CODE", message: "x" } }).valid).toBe(false);
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
    expect([body.id, body.result.tools.length]).toEqual([7, MCP_TOOL_NAMES.length]);
    const note = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect([note.status, await note.text()]).toEqual([202, ""]);
  });

  test("initialize: the protocol version asked for when supported, the tools capability and the instructions", async () => {
    const init = (protocolVersion: string) =>
      post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } } }));
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const body = (await (await init(version)).json()) as any;
      expect([body.result.protocolVersion, body.result.capabilities, body.result.serverInfo.name]).toEqual([version, { tools: {} }, "Economic Time-Series API"]);
      expect(body.result.instructions).toContain('payable in the call with x402 (_meta["x402/payment"])');
      expect(body.result.instructions).toContain("Free tools: search_indicators, get_indicator, list_sources, list_regions. Paid tools (get_observations, get_latest, get_insights, get_active_signals");
    }
    // An unknown version: the server answers with the latest it supports (the client decides whether to go on).
    expect(((await (await init("1999-01-01")).json()) as any).result.protocolVersion).toBe("2025-11-25");
    const res = await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }), { "mcp-protocol-version": "1999-01-01" });
    expect([res.status, ((await res.json()) as any).error.message]).toEqual([400, expect.stringContaining("Unsupported protocol version: 1999-01-01")]);
  });

  test("batches: one answer per request, in an array; notifications are not answered; an empty batch is an Invalid Request", async () => {
    const res = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "list_sources", arguments: {} } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "get_weather" } },
        { jsonrpc: "2.0", id: "c", method: "ping" },
      ]),
    );
    expect(res.status).toBe(200);
    const answers = (await res.json()) as any[];
    const byId = Object.fromEntries(answers.map((a) => [a.id, a]));
    expect(answers.length).toBe(3);
    expect(byId.a.result.structuredContent.data.length).toBe(9);
    expect(byId.b.error.code).toBe(-32602);
    expect(byId.c.result).toEqual({});
    const notes = await post(JSON.stringify([{ jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }]));
    expect([notes.status, await notes.text()]).toEqual([202, ""]);
    const empty = await post("[]");
    expect([empty.status, await empty.json()]).toEqual([400, { jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: an empty batch." }, id: null }]);
  });
});
