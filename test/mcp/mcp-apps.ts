// The apps test/mcp/mcp*.test.ts call through the official SDK client: \`pay\` (keys and the L402 payment rail, on the
// development Lightning backend) and \`keysOnly\` (keys, no payment rail), served by Bun.serve on loopback over one test
// database, and the helpers the files share. Each file calls useMcpApps() once.
import { afterAll, beforeAll } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DevLightning, L402Rail, Payments, fixedRate, memoryInvoiceStore } from "payments";
import { paymentProofStore } from "../../db/repos/payments";
import { makeTestApp, type TestApp } from "../support/app";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { TEST_BTC_USD, TEST_NODE_KEY, TEST_ROOT_SECRET } from "../support/payments";
import { fredRows, sahmLatest } from "../support/snapshot";

export const MONTH = "2026-11";
// A held series: the shipped FRED UNRATE (January- and June-2026 vintages), monthly, 1948-01 .. 2026-05 (4.3), October
// 2025 empty.
export const HELD = { indicator: "UNRATE", region: "US" };
export const UNRATE = fredRows("UNRATE");
export const UNRATE_ROWS = UNRATE.length;
export const [UNRATE_FIRST, UNRATE_LATEST] = [UNRATE[0]!, UNRATE.at(-1)!];
// The 2026 months are the June-2026 vintage's (published 2026-06-05), first revisions (January's file ends 2025-11).
export const JUNE_VINTAGE = "2026-06-05T00:00:00.000Z";
export const SAHM = sahmLatest();

export let pay: TestApp & { dev: DevLightning };
export let keysOnly: TestApp;
export let payBase: string;
export let keysBase: string;
let servers: ReturnType<typeof Bun.serve>[] = [];
let clients: Client[] = [];
/**
 * A connected client that has listed the tools: from then on the SDK validates every structuredContent against the
 * tool's outputSchema and throws on a mismatch, so every call checks it.
 */
let anonymousClients = new Map<string, Promise<Client>>();

/** Starts the two apps before the calling file's tests and stops them after. */
export function useMcpApps(): void {
  beforeAll(async () => {
    clients = [];
    anonymousClients = new Map();
    const database = await makeTestDatabase();
    const clock = new ManualClock();
    const random = seededRandom(5);
    const dev = new DevLightning(memoryInvoiceStore(TEST_NODE_KEY), clock, random);
    const l402 = new L402Rail({
      secrets: [TEST_ROOT_SECRET],
      backend: dev,
      rates: fixedRate(TEST_BTC_USD),
      clock,
      random,
    });
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
}

export async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
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

export const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
export const text = (r: CallToolResult) => (r.content[0] as { type: "text"; text: string }).text;
export const structured = (r: CallToolResult) => r.structuredContent as any;
export const textJson = (r: CallToolResult) => JSON.parse(text(r));
export const rest = async (base: string, pathAndQuery: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${pathAndQuery}`, { headers });
  return { status: res.status, body: (await res.json()) as any };
};
