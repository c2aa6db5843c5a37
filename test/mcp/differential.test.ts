// REST and MCP, side by side: the same paid calls through both give identical answers (MCP adds only
// `meta.truncated` to paged results), are metered alike (one request of the key's plan each, nothing for a refusal),
// and are refused alike: bad input (INVALID_PARAMETER; REST says the value was in the query, MCP in the arguments), a
// region-restricted key (REGION_NOT_ALLOWED), premium data without entitlement (CATEGORY_NOT_ALLOWED), and no
// credential (a 402 on REST, a payment request naming the same price over MCP). Each pair is made with a key of its own.
// And MCP calls the operation itself: a paid tool call never passes through the app as a /v1 request.
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
  const l402 = new L402Rail({ secrets: [TEST_ROOT_SECRET], backend: new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random), rates: fixedRate(TEST_BTC_USD), clock, random });
  t = await makeTestApp({
    database, clock, random, payments: new Payments({ x402: null, l402, store: paymentProofStore(database.db), clock }),
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
  await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE}/api/mcp`), { requestInit: { headers }, fetch: fetch as never }));
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

/** What MCP adds to a REST body (output.ts): `meta.truncated` on paged results. */
function withoutMcpAdditions(body: any): any {
  if (!body?.meta || !("truncated" in body.meta)) return body;
  const { truncated: _t, ...meta } = body.meta;
  return { ...body, meta };
}

/** Where an argument error was: the query for REST, the arguments for MCP; otherwise the same envelope. */
function asRestRefusal(body: any): any {
  if (body?.error?.details?.in !== "arguments") return body;
  return { error: { ...body.error, details: { ...body.error.details, in: "query" } } };
}

// Each paid tool beside the REST request it stands for, written out here (not derived from the tool).
const CALLS: { tool: string; args: Record<string, unknown>; path: string }[] = [
  { tool: "get_observations", args: { indicator: "UNRATE", region: "US", limit: 7, transform: "yoy" }, path: "/v1/observations?indicator=UNRATE&region=US&limit=7&transform=yoy" },
  { tool: "get_observations", args: { indicator: "unemployment_rate", region: "US", limit: 3, frequency: "annual" }, path: "/v1/observations?indicator=unemployment_rate&region=US&limit=3&frequency=annual" },
  { tool: "get_latest", args: { indicator: "PAYEMS", region: "US" }, path: "/v1/observations/latest?indicator=PAYEMS&region=US" },
  { tool: "get_latest", args: { indicators: "UNRATE,PAYEMS,NOPE", region: "US" }, path: "/v1/observations/latest?indicators=UNRATE%2CPAYEMS%2CNOPE&region=US" },
  { tool: "get_insights", args: { indicator: "UNRATE", region: "US" }, path: "/v1/insights?indicator=UNRATE&region=US" },
  { tool: "get_active_signals", args: { region: "US", limit: 5 }, path: "/v1/signals/active?region=US&limit=5" },
  { tool: "ask", args: { q: "What is the unemployment rate in Texas?" }, path: "/v1/ask?q=What+is+the+unemployment+rate+in+Texas%3F" },
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
      expect([c.path, await keyUsage(t.deps, a.row.id, MONTH), await keyUsage(t.deps, b.row.id, MONTH)]).toEqual([c.path, 1, 1]);
    }
  });

  test("refused alike and metered for neither: bad input, a region-restricted key, premium data without entitlement", async () => {
    const refusals: { key: Parameters<typeof testKey>[1]; tool: string; args: Record<string, unknown>; path: string; code: string }[] = [
      { key: {}, tool: "get_observations", args: { indicator: "UNRATE", region: "US", limit: -1 }, path: "/v1/observations?indicator=UNRATE&region=US&limit=-1", code: "INVALID_PARAMETER" },
      { key: {}, tool: "get_observations", args: { indicator: "UNRATE", region: "US", transform: "pch" }, path: "/v1/observations?indicator=UNRATE&region=US&transform=pch", code: "INVALID_PARAMETER" },
      { key: {}, tool: "get_latest", args: { indicator: "UNRATE", indicators: "PAYEMS" }, path: "/v1/observations/latest?indicator=UNRATE&indicators=PAYEMS", code: "INVALID_PARAMETER" },
      { key: {}, tool: "get_observations", args: { indicator: "UNRATE", region: "U\u0000S" }, path: "/v1/observations?indicator=UNRATE&region=U%00S", code: "INVALID_PARAMETER" },
      { key: { plan: "professional", allowedRegions: ["06"] }, tool: "get_observations", args: { indicator: "UNRATE", region: "US" }, path: "/v1/observations?indicator=UNRATE&region=US", code: "REGION_NOT_ALLOWED" },
      { key: { plan: "professional", allowedRegions: ["06"] }, tool: "get_insights", args: { indicator: "UNRATE", region: "US" }, path: "/v1/insights?indicator=UNRATE&region=US", code: "REGION_NOT_ALLOWED" },
      { key: {}, tool: "get_latest", args: { indicator: "svc:sahm_rule" }, path: "/v1/observations/latest?indicator=svc%3Asahm_rule", code: "CATEGORY_NOT_ALLOWED" },
      { key: {}, tool: "get_observations", args: { indicator: "NOPE", region: "US" }, path: "/v1/observations?indicator=NOPE&region=US", code: "RESOURCE_NOT_FOUND" },
    ];
    for (const r of refusals) {
      const a = await testKey(t, r.key);
      const b = await testKey(t, r.key);
      const rest = await viaRest(r.path, a.headers);
      const mcp = await viaMcp(r.tool, r.args, b.headers);
      expect([r.path, rest.body.error?.code]).toEqual([r.path, r.code]);
      // The key hint a refusal names is each key's own.
      const own = (body: any, hint: string) => JSON.parse(JSON.stringify(body).replaceAll(hint, "<key>"));
      expect([r.path, mcp.status, own(asRestRefusal(mcp.body), b.row.hint)]).toEqual([r.path, rest.status, own(rest.body, a.row.hint)]);
      expect([r.path, await keyUsage(t.deps, a.row.id, MONTH), await keyUsage(t.deps, b.row.id, MONTH)]).toEqual([r.path, 0, 0]);
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
      expect([named.pathname, Object.fromEntries(named.searchParams)]).toEqual([c.path.split("?")[0], Object.fromEntries(new URL(`${BASE}${c.path}`).searchParams)]);
    }
  });
});
