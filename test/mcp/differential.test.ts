// REST and MCP, side by side: the same paid calls through both give identical answers (MCP adds only
// `meta.truncated` to paged results), are metered alike (one request of the key's plan each, nothing for a refusal),
// and are refused alike: bad input (INVALID_PARAMETER; REST says the value was in the query, MCP in the arguments), a
// region-restricted key (REGION_NOT_ALLOWED), premium data without entitlement (CATEGORY_NOT_ALLOWED), and no
// credential (a 402 on REST, a payment request naming the same price over MCP). Each pair is made with a key of its own.
// And MCP calls the operation itself: a tool call, paid or free (the catalog), never passes through the app as a /v1
// request. The free catalog tools answer as their REST twins too: the same bodies and refusals, admitted alike (a bad
// key is refused, a key counted in its window), metered for neither.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DevLightning, L402Rail, Payments, fixedRate, memoryInvoiceStore } from "payments";
import { paymentProofStore } from "../../db/repos/payments";
import { keyUsage } from "../../src/services/keys";
import { makeTestApp, type TestApp } from "../support/app";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { testKey } from "../support/keys";
import { TEST_BTC_USD, TEST_NODE_KEY, TEST_ROOT_SECRET } from "../support/payments";

setDefaultTimeout(120_000);

const MONTH = "2026-11";
const BASE = "http://svc.test";
let t: TestApp;
/** /v1 requests that passed through the app's middleware (the MCP envelope is /api/mcp). */
let v1Requests = 0;
const clients: Client[] = [];

beforeAll(async () => {
  const database = await makeTestDatabase();
  const clock = new ManualClock();
  const random = seededRandom(7);
  const l402 = new L402Rail({
    secrets: [TEST_ROOT_SECRET],
    backend: new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random),
    rates: fixedRate(TEST_BTC_USD),
    clock,
    random,
  });
  t = await makeTestApp({
    database,
    clock,
    random,
    payments: new Payments({ x402: null, l402, store: paymentProofStore(database.db), clock }),
    middleware: [async (c, next) => ((v1Requests += new URL(c.req.url).pathname.startsWith("/v1/") ? 1 : 0), next())],
  });
}, 120_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await t.close();
});

/** An MCP client of the app itself (no socket: the transport's fetch is the app's), sending `headers` on every request. */
async function mcpClient(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "differential", version: "1.0.0" });
  const fetch = (url: string | URL, init?: RequestInit) => t.app.fetch(new Request(String(url), init));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${BASE}/api/mcp`), { requestInit: { headers }, fetch: fetch as never }),
  );
  clients.push(client);
  return client;
}

type Side = { status: number; body: any };

async function viaRest(path: string, headers: Record<string, string>): Promise<Side> {
  const res = await t.app.fetch(new Request(`${BASE}${path}`, { headers }));
  return { status: res.status, body: await res.json() };
}

async function viaMcp(tool: string, args: Record<string, unknown>, headers: Record<string, string>): Promise<Side> {
  const r = (await (await mcpClient(headers)).callTool({ name: tool, arguments: args })) as CallToolResult;
  return { status: r._meta!.http_status as number, body: r.structuredContent };
}

/** What MCP adds to a REST body (output.ts): `meta.truncated` on paged results, `has_data` on search results. */
function withoutMcpAdditions(body: any): any {
  const data = Array.isArray(body?.data)
    ? body.data.map((item: any) => {
        if (!item || typeof item !== "object" || !("has_data" in item)) return item;
        const { has_data: _h, ...rest } = item;
        return rest;
      })
    : body?.data;
  if (!body?.meta || !("truncated" in body.meta)) return body && "data" in body ? { ...body, data } : body;
  const { truncated: _t, ...meta } = body.meta;
  return { ...body, data, meta };
}

/** Where an argument error was: the query for REST, the arguments for MCP; otherwise the same envelope. */
function asRestRefusal(body: any): any {
  if (body?.error?.details?.in !== "arguments") return body;
  return { error: { ...body.error, details: { ...body.error.details, in: "query" } } };
}

// Each paid tool beside the REST request it stands for, written out here (not derived from the tool).
const CALLS: { tool: string; args: Record<string, unknown>; path: string }[] = [
  {
    tool: "get_observations",
    args: { indicator: "UNRATE", region: "US", limit: 7, transform: "yoy" },
    path: "/v1/observations?indicator=UNRATE&region=US&limit=7&transform=yoy",
  },
  {
    tool: "get_observations",
    args: { indicator: "unemployment_rate", region: "US", limit: 3, frequency: "annual" },
    path: "/v1/observations?indicator=unemployment_rate&region=US&limit=3&frequency=annual",
  },
  {
    tool: "get_latest",
    args: { indicator: "PAYEMS", region: "US" },
    path: "/v1/observations/latest?indicator=PAYEMS&region=US",
  },
  {
    tool: "get_latest",
    args: { indicators: "UNRATE,PAYEMS,NOPE", region: "US" },
    path: "/v1/observations/latest?indicators=UNRATE%2CPAYEMS%2CNOPE&region=US",
  },
  {
    tool: "get_insights",
    args: { indicator: "UNRATE", region: "US" },
    path: "/v1/insights?indicator=UNRATE&region=US",
  },
  { tool: "get_active_signals", args: { region: "US", limit: 5 }, path: "/v1/signals/active?region=US&limit=5" },
  {
    tool: "ask",
    args: { q: "What is the unemployment rate in Texas?" },
    path: "/v1/ask?q=What+is+the+unemployment+rate+in+Texas%3F",
  },
];

describe("the same calls through REST and MCP", () => {
  test("identical answers and statuses, each metered once", async () => {
    for (const c of CALLS) {
      const a = await testKey(t, { plan: "professional" });
      const b = await testKey(t, { plan: "professional" });
      const rest = await viaRest(c.path, a.headers);
      const before = v1Requests;
      const mcp = await viaMcp(c.tool, c.args, b.headers);
      expect([c.path, rest.status < 300, v1Requests - before]).toEqual([c.path, true, 0]);
      expect([c.path, mcp.status, withoutMcpAdditions(mcp.body)]).toEqual([c.path, rest.status, rest.body]);
      expect([c.path, await keyUsage(t.deps, a.row.id, MONTH), await keyUsage(t.deps, b.row.id, MONTH)]).toEqual([
        c.path,
        1,
        1,
      ]);
    }
  });

  test("refused alike and metered for neither: bad input, a region-restricted key, premium data without entitlement", async () => {
    const refusals: {
      key: Parameters<typeof testKey>[1];
      tool: string;
      args: Record<string, unknown>;
      path: string;
      code: string;
    }[] = [
      {
        key: {},
        tool: "get_observations",
        args: { indicator: "UNRATE", region: "US", limit: -1 },
        path: "/v1/observations?indicator=UNRATE&region=US&limit=-1",
        code: "INVALID_PARAMETER",
      },
      {
        key: {},
        tool: "get_observations",
        args: { indicator: "UNRATE", region: "US", transform: "pch" },
        path: "/v1/observations?indicator=UNRATE&region=US&transform=pch",
        code: "INVALID_PARAMETER",
      },
      {
        key: {},
        tool: "get_latest",
        args: { indicator: "UNRATE", indicators: "PAYEMS" },
        path: "/v1/observations/latest?indicator=UNRATE&indicators=PAYEMS",
        code: "INVALID_PARAMETER",
      },
      {
        key: {},
        tool: "get_observations",
        args: { indicator: "UNRATE", region: "U\u0000S" },
        path: "/v1/observations?indicator=UNRATE&region=U%00S",
        code: "INVALID_PARAMETER",
      },
      {
        key: { plan: "professional", allowedRegions: ["06"] },
        tool: "get_observations",
        args: { indicator: "UNRATE", region: "US" },
        path: "/v1/observations?indicator=UNRATE&region=US",
        code: "REGION_NOT_ALLOWED",
      },
      {
        key: { plan: "professional", allowedRegions: ["06"] },
        tool: "get_insights",
        args: { indicator: "UNRATE", region: "US" },
        path: "/v1/insights?indicator=UNRATE&region=US",
        code: "REGION_NOT_ALLOWED",
      },
      {
        key: {},
        tool: "get_latest",
        args: { indicator: "svc:sahm_rule" },
        path: "/v1/observations/latest?indicator=svc%3Asahm_rule",
        code: "CATEGORY_NOT_ALLOWED",
      },
      {
        key: {},
        tool: "get_observations",
        args: { indicator: "NOPE", region: "US" },
        path: "/v1/observations?indicator=NOPE&region=US",
        code: "RESOURCE_NOT_FOUND",
      },
    ];
    for (const r of refusals) {
      const a = await testKey(t, r.key);
      const b = await testKey(t, r.key);
      const rest = await viaRest(r.path, a.headers);
      const mcp = await viaMcp(r.tool, r.args, b.headers);
      expect([r.path, rest.body.error?.code]).toEqual([r.path, r.code]);
      // The key hint a refusal names is each key's own.
      const own = (body: any, hint: string) => JSON.parse(JSON.stringify(body).replaceAll(hint, "<key>"));
      expect([r.path, mcp.status, own(asRestRefusal(mcp.body), b.row.hint)]).toEqual([
        r.path,
        rest.status,
        own(rest.body, a.row.hint),
      ]);
      expect([r.path, await keyUsage(t.deps, a.row.id, MONTH), await keyUsage(t.deps, b.row.id, MONTH)]).toEqual([
        r.path,
        0,
        0,
      ]);
    }
  });

  test("no credential: REST answers 402 and MCP a payment request for the same price, the REST URL named", async () => {
    for (const c of CALLS) {
      const rest = await viaRest(c.path, {});
      const mcp = await viaMcp(c.tool, c.args, {});
      expect([c.path, rest.status, rest.body.error.code]).toEqual([c.path, 402, "PAYMENT_REQUIRED"]);
      // The payment request (src/mcp/payment.ts): the x402 shape, with the code and details beside the message.
      expect([c.path, mcp.status, mcp.body.code]).toEqual([c.path, 402, "PAYMENT_REQUIRED"]);
      expect([c.path, mcp.body.details.price_usd]).toEqual([c.path, String(rest.body.error.details.price_usd)]);
      const named = new URL(mcp.body.details.rest_url);
      expect([named.pathname, Object.fromEntries(named.searchParams)]).toEqual([
        c.path.split("?")[0],
        Object.fromEntries(new URL(`${BASE}${c.path}`).searchParams),
      ]);
    }
  });
});

// Each free catalog tool beside its REST request, written out here.
const FREE_CALLS: { tool: string; args: Record<string, unknown>; path: string }[] = [
  { tool: "list_sources", args: {}, path: "/v1/sources" },
  { tool: "list_sources", args: { include_inactive: true }, path: "/v1/sources?include_inactive=true" },
  {
    tool: "search_indicators",
    args: { search: "unemployment", limit: 5 },
    path: "/v1/indicators?search=unemployment&limit=5",
  },
  { tool: "search_indicators", args: { has_data: true }, path: "/v1/indicators?has_data=true&limit=20" },
  { tool: "get_indicator", args: { code: "UNRATE" }, path: "/v1/indicators/UNRATE" },
  { tool: "get_indicator", args: { code: "svc:sahm_rule" }, path: "/v1/indicators/svc%3Asahm_rule" },
  {
    tool: "list_regions",
    args: { parent: "CA", type: "county", limit: 3 },
    path: "/v1/regions?parent=CA&type=county&limit=3",
  },
  { tool: "list_regions", args: { search: "travis" }, path: "/v1/regions?search=travis&limit=100" },
];

describe("the free catalog tools through REST and MCP", () => {
  test("identical answers without a credential and with a key, never a /v1 request through the app, metered for neither", async () => {
    for (const c of FREE_CALLS) {
      const anonymous = await viaRest(c.path, {});
      const before = v1Requests;
      const mcp = await viaMcp(c.tool, c.args, {});
      expect([c.path, anonymous.status, v1Requests - before]).toEqual([c.path, 200, 0]);
      expect([c.path, mcp.status, withoutMcpAdditions(mcp.body)]).toEqual([c.path, 200, anonymous.body]);
      const a = await testKey(t, {});
      const b = await testKey(t, {});
      const rest = await viaRest(c.path, a.headers);
      const keyed = await viaMcp(c.tool, c.args, b.headers);
      expect([c.path, keyed.status, withoutMcpAdditions(keyed.body)]).toEqual([c.path, rest.status, rest.body]);
      expect([c.path, await keyUsage(t.deps, a.row.id, MONTH), await keyUsage(t.deps, b.row.id, MONTH)]).toEqual([
        c.path,
        0,
        0,
      ]);
    }
  });

  test("refused alike: a value out of bounds, an unknown indicator or region, a NUL character, an unknown key", async () => {
    const refusals: {
      tool: string;
      args: Record<string, unknown>;
      path: string;
      code: string;
      headers?: Record<string, string>;
    }[] = [
      { tool: "list_regions", args: { limit: -1 }, path: "/v1/regions?limit=-1", code: "INVALID_PARAMETER" },
      {
        tool: "search_indicators",
        args: { source: "nope" },
        path: "/v1/indicators?source=nope&limit=20",
        code: "INVALID_PARAMETER",
      },
      {
        tool: "get_indicator",
        args: { code: "NOPE_NOT_HELD" },
        path: "/v1/indicators/NOPE_NOT_HELD",
        code: "RESOURCE_NOT_FOUND",
      },
      {
        tool: "list_regions",
        args: { parent: "nowhere-at-all" },
        path: "/v1/regions?parent=nowhere-at-all&limit=100",
        code: "RESOURCE_NOT_FOUND",
      },
      {
        tool: "list_regions",
        args: { search: "a\u0000b" },
        path: "/v1/regions?search=a%00b&limit=100",
        code: "INVALID_PARAMETER",
      },
      {
        tool: "list_sources",
        args: {},
        path: "/v1/sources",
        code: "INVALID_API_KEY",
        headers: { authorization: "Bearer svc_test_0000000000000000000000000000000000000000" },
      },
    ];
    for (const r of refusals) {
      const rest = await viaRest(r.path, r.headers ?? {});
      const mcp = await viaMcp(r.tool, r.args, r.headers ?? {});
      expect([r.path, rest.body.error?.code]).toEqual([r.path, r.code]);
      expect([r.path, mcp.status, asRestRefusal(mcp.body)]).toEqual([r.path, rest.status, rest.body]);
    }
  });

  test("a key's window counts a free tool call as it counts the REST request", async () => {
    const k = await testKey(t, { rateLimitPerMinute: 2 });
    expect((await viaRest("/v1/sources", k.headers)).status).toBe(200);
    expect((await viaMcp("list_sources", {}, k.headers)).status).toBe(200);
    const rest = await viaRest("/v1/sources", k.headers);
    const mcp = await viaMcp("list_sources", {}, k.headers);
    expect([rest.status, rest.body.error.code]).toEqual([429, "RATE_LIMIT_EXCEEDED"]);
    expect([mcp.status, mcp.body.error.code]).toEqual([429, "RATE_LIMIT_EXCEEDED"]);
  });
});
