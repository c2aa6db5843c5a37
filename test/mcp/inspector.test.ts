// test-tier: once (runs the MCP Inspector CLI against a server on loopback)
// A second, independent MCP client against the real server on loopback: the MCP Inspector's CLI mode
// (@modelcontextprotocol/inspector 2.x, built on the SDK's v2 client packages, not on the @modelcontextprotocol/sdk 1.x
// this server and test/mcp/mcp.test.ts use), run as a separate process the way a developer or a CI job runs it. It lists
// the tools (and lints their schemas with --strict), calls a free tool, calls a data tool with an API key sent as a
// header, and gets the payment request without one. The Inspector validates every structuredContent against the
// tool's outputSchema and fails the call when it does not match, so each call also checks that.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DevLightning, L402Rail, Payments, fixedRate, memoryInvoiceStore } from "payments";
import { paymentProofStore } from "../../db/repos/payments";
import { MCP_TOOL_NAMES } from "../../src/contract/mcp";
import { keyUsage } from "../../src/services/keys";
import { makeTestApp, type TestApp } from "../support/app";
import { ManualClock, seededRandom } from "../support/clock";
import { makeTestDatabase } from "../support/db";
import { testKey } from "../support/keys";
import { TEST_BTC_USD, TEST_NODE_KEY, TEST_ROOT_SECRET } from "../support/payments";
import { fredRows } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

// The package's CLI entry (its launcher, `mcp-inspector --cli`, runs the same code in process).
const INSPECTOR_CLI = join(
  dirname(Bun.resolveSync("@modelcontextprotocol/inspector/package.json", import.meta.dir)),
  "clients/cli/build/index.js",
);
const EXIT_TOOL_ERROR = 5; // the Inspector's exit code for a tool result with isError: true

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let url: string;
// The Inspector keeps state under HOME (~/.mcp-inspector): a directory of this file's own.
const home = mkdtempSync(join(tmpdir(), "mcp-inspector-home-"));

beforeAll(async () => {
  const database = await makeTestDatabase();
  const clock = new ManualClock();
  const random = seededRandom(3);
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
  });
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch });
  url = `http://127.0.0.1:${server.port}/api/mcp`;
}, 120_000);

afterAll(async () => {
  server.stop(true);
  await t.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs the Inspector CLI against the server: its exit code, its stdout as JSON, its stderr. */
async function inspector(...args: string[]): Promise<{ exit: number; out: any; err: string }> {
  const proc = Bun.spawn([process.execPath, INSPECTOR_CLI, url, "--transport", "http", ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: home, NO_COLOR: "1" },
  });
  const [stdout, err, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  let out: any = null;
  try {
    out = JSON.parse(stdout);
  } catch {
    throw new Error(`the Inspector printed no JSON (exit ${exit}):\n${stdout}\n${err}`);
  }
  return { exit, out, err };
}

describe("the MCP Inspector CLI (2.x) as a second client", () => {
  test("tools/list: every tool with its input and output schema; --strict finds no schema portability error", async () => {
    const { exit, out, err } = await inspector("--method", "tools/list", "--strict");
    expect(exit).toBe(0);
    expect(out.tools.map((tool: any) => tool.name)).toEqual([...MCP_TOOL_NAMES]);
    for (const tool of out.tools)
      expect([tool.name, tool.inputSchema.type, tool.outputSchema.type]).toEqual([tool.name, "object", "object"]);
    expect(err).toContain("0 errors");
  });

  test("a free tool, with arguments typed by the Inspector from the input schema", async () => {
    const { exit, out } = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "list_regions",
      "--tool-arg",
      "search=travis",
      "limit=5",
    );
    expect(exit).toBe(0);
    expect(out.structuredContent).toEqual({
      data: [
        {
          code: "48453",
          type: "county",
          name: "Travis County",
          slug: "travis-county-tx",
          parent_code: "48",
          fips_state: "48",
          fips_county: "453",
        },
      ],
      meta: { total: 1, limit: 5, offset: 0, truncated: false },
    });
    expect(out.content[0].text.split("\n")[0]).toBe("list_regions: rows 1 to 1 of 1.");
  });

  test("a data tool with an API key sent as a header: served, rate limited and metered as REST", async () => {
    const { key, row } = await testKey(t);
    const { exit, out } = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "get_latest",
      "--tool-arg",
      "indicator=UNRATE",
      "region=US",
      "--header",
      `Authorization: Bearer ${key}`,
    );
    expect(exit).toBe(0);
    // UNRATE's newest month as shipped (the June-2026 FRED vintage: 2026-05, 4.3).
    const latest = fredRows("UNRATE").at(-1)!;
    expect(out.structuredContent.data).toMatchObject({
      indicator: "UNRATE",
      region: "US",
      period_start: latest.date,
      value: latest.value,
    });
    expect(out._meta).toMatchObject({ http_status: 200, rate_limit: { limit: 60, remaining: 59 } });
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(1);
    // The other header, X-API-Key, the same way.
    const again = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "get_observations",
      "--tool-arg",
      "indicator=UNRATE",
      "region=US",
      "limit=2",
      "--header",
      `X-API-Key: ${key}`,
    );
    expect([again.exit, again.out.structuredContent.data.length, again.out.structuredContent.meta.truncated]).toEqual([
      0,
      2,
      true,
    ]);
    expect(await keyUsage(t.deps, row.id, "2026-11")).toBe(2);
  });

  test("without a key: the payment request as a tool error; with a bad key: INVALID_API_KEY", async () => {
    const unpaid = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "get_latest",
      "--tool-arg",
      "indicator=UNRATE",
      "region=US",
    );
    expect(unpaid.exit).toBe(EXIT_TOOL_ERROR);
    expect(unpaid.out.isError).toBe(true);
    expect(unpaid.out.structuredContent).toMatchObject({
      code: "PAYMENT_REQUIRED",
      details: { price_usd: "0.01", rails: ["l402"], method: "GET" },
    });
    const badKey = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "get_latest",
      "--tool-arg",
      "indicator=UNRATE",
      "--header",
      "Authorization: Bearer svc_live_notakey",
    );
    expect([badKey.exit, badKey.out.structuredContent.error.code]).toEqual([EXIT_TOOL_ERROR, "INVALID_API_KEY"]);
  });
});
