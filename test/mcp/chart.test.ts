// get_observations with include_chart over the official MCP SDK client, against the real app served by Bun.serve:
// a keyed call gets the rows and the chart (an SVG image content item, the bytes GET /v1/chart answers, metered as its
// own request); an anonymous call gets the payment request and the chart's URL; a bad include_chart is refused.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { XMLValidator } from "fast-xml-parser";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let base: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  t.clock.set("2026-11-22T12:00:00Z");
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch });
  base = `http://127.0.0.1:${server.port}`;
}, 120_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  server?.stop(true);
  await t?.close();
});

async function client(headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: "mcp-chart-test", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers } }));
  await c.listTools();
  clients.push(c);
  return c;
}
const call = async (c: Client, args: Record<string, unknown>) =>
  (await c.callTool({ name: "get_observations", arguments: args })) as CallToolResult;
const ARGS = { indicator: "UNRATE", region: "US", start_date: "2015-01-01", limit: 3 };

describe("get_observations include_chart", () => {
  test("the tool lists it", async () => {
    const tools = (await (await client()).listTools()).tools;
    expect(tools.find((x) => x.name === "get_observations")!.inputSchema.properties!.include_chart).toMatchObject({
      type: "boolean",
      default: false,
    });
    expect(tools.find((x) => x.name === "get_latest")!.inputSchema.properties!.include_chart).toBeUndefined();
  });

  test("keyed: the rows, then the chart as an SVG image, the same bytes as GET /v1/chart", async () => {
    const { headers } = await testKey(t, { plan: "professional" });
    const r = await call(await client(headers), { ...ARGS, include_chart: true });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as any).data).toHaveLength(3);
    const image = r.content.at(-1) as { type: string; data: string; mimeType: string };
    expect([image.type, image.mimeType]).toEqual(["image", "image/svg+xml"]);
    const svg = Buffer.from(image.data, "base64").toString();
    expect(XMLValidator.validate(svg)).toBe(true);
    const rest = await fetch(`${base}/v1/chart?indicator=UNRATE&region=US&start_date=2015-01-01`, { headers });
    expect(await rest.text()).toBe(svg);
    // Without the argument: no image.
    expect((await call(await client(headers), ARGS)).content.map((c) => c.type)).toEqual(["text"]);
  });

  test("anonymous: what the rows cost, and the chart's URL to request and pay itself", async () => {
    const r = await call(await client(), { ...ARGS, include_chart: true });
    expect((r.structuredContent as any).error.code).toBe("INVALID_API_KEY");
    const last = r.content.at(-1) as { type: string; text: string };
    expect(last).toEqual({
      type: "text",
      text: `Chart of this series (SVG, paid like the data): GET ${base}/v1/chart?indicator=UNRATE&region=US&start_date=2015-01-01`,
    });
  });

  test("include_chart must be a boolean", async () => {
    const r = await call(await client(), { ...ARGS, include_chart: "yes" });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as any).error).toMatchObject({
      code: "INVALID_PARAMETER",
      details: { parameter: "include_chart" },
    });
  });
});
