// POST /api/mcp with the official SDK client (Client + StreamableHTTPClientTransport) against the real app served by
// Bun.serve (test/mcp/mcp-apps.ts): the tool list and its schemas (the REST operations' own parameters and success
// bodies), the text renderings, and the transport's own answers. The client checks every structuredContent against
// its tool's outputSchema once it has listed the tools. The tools against their REST twins are mcp-catalog.test.ts,
// mcp-data.test.ts and mcp-arguments.test.ts; x402 paid in the call is x402.test.ts; a second, independent client
// (the MCP Inspector CLI) is inspector.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { toolsFromOpenApi } from "../../src/mcp/tools";
import { MCP_TOOL_NAMES } from "../../src/contract/mcp";
import { CHART_TOOLS, INCLUDE_CHART, includeChartSchema } from "../../src/mcp/chart";
import { call, connect, pay, payBase, rest, text, useMcpApps } from "./mcp-apps";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);
useMcpApps();

describe("tools/list", () => {
  test("the tools, in the spec's order, each with the REST operation's own path and query parameters", async () => {
    const client = await connect(payBase);
    expect(client.getServerVersion()).toEqual({ name: "Economic Time-Series API", version: pay.deps.version });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    expect(tools.map((t) => t.name)).toEqual([
      "search_indicators",
      "get_indicator",
      "list_sources",
      "list_regions",
      "get_observations",
      "get_latest",
      "get_insights",
      "get_active_signals",
      "ask",
    ]);

    // One schema: every tool property is the OpenAPI parameter of the operation with the same operationId (MCP changes
    // only the default page size of search_indicators, list_regions and get_active_signals).
    const doc = (await rest(payBase, "/openapi.json")).body;
    const ops = new Map<string, any>();
    for (const item of Object.values<any>(doc.paths))
      for (const op of Object.values<any>(item)) ops.set(op.operationId, op);
    const mcpLimits: Record<string, number> = { search_indicators: 20, list_regions: 100, get_active_signals: 20 };
    for (const tool of tools) {
      const op = ops.get(tool.name);
      const expected: Record<string, unknown> = {};
      for (const p of op.parameters ?? []) {
        const { example: _e, ...schema } = p.schema;
        expected[p.name] = {
          ...schema,
          description: p.description,
          ...(p.name === "limit" && tool.name in mcpLimits ? { default: mcpLimits[tool.name] } : {}),
        };
      }
      // MCP's own argument, beside the REST parameters (src/mcp/chart.ts).
      if (CHART_TOOLS.has(tool.name)) expected[INCLUDE_CHART] = includeChartSchema;
      expect({ tool: tool.name, properties: tool.inputSchema.properties as Record<string, unknown> }).toEqual({
        tool: tool.name,
        properties: expected,
      });
      const required = (op.parameters ?? []).filter((p: any) => p.required).map((p: any) => p.name);
      expect({ tool: tool.name, required: tool.inputSchema.required }).toEqual({
        tool: tool.name,
        required: required.length ? required : undefined,
      });
      expect((tool.inputSchema as any).additionalProperties).toBe(false);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      expect(tool.title).toBe(op.summary);
      // The output: every success body of the operation, then the error envelope, then (paid tools) the payment request.
      const out = tool.outputSchema as any;
      const refusals = op["x-price-usd"] ? ["#/$defs/Error", "#/$defs/McpPaymentRequest"] : ["#/$defs/Error"];
      const ok = op.responses["200"].content["application/json"].schema;
      const success = (ok.$ref ?? ok.anyOf[0].$ref).replace("#/components/schemas/", "#/$defs/");
      expect({
        tool: tool.name,
        type: out.type,
        first: out.anyOf[0].$ref,
        refusals: out.anyOf.slice(-refusals.length).map((x: any) => x.$ref),
      }).toEqual({
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
      "indicator",
      "source",
      "region",
      "start_date",
      "end_date",
      "include_revisions",
      "limit",
      "offset",
      "order",
      "transform",
      "frequency",
      "resample_method",
      "include_chart",
    ]);
    expect(obs.required).toEqual(["indicator"]);
    expect(obs.properties.limit).toMatchObject({ type: "integer", minimum: 0, maximum: 1000, default: 100 });
    expect(obs.properties.include_revisions).toMatchObject({ type: "boolean", default: false });
    expect(obs.properties.start_date).toMatchObject({ type: "string", format: "date" });
    expect(obs.properties.frequency).toMatchObject({ type: "string", enum: ["monthly", "quarterly", "annual"] });
    expect(byName.search_indicators.properties.limit).toMatchObject({
      type: "integer",
      minimum: 0,
      maximum: 100,
      default: 20,
    });
    expect(Object.keys(byName.list_regions.properties)).toEqual(["type", "parent", "search", "limit", "offset"]);
    expect(byName.list_regions.properties.type).toMatchObject({ type: "string", enum: ["country", "state", "county"] });
    expect(byName.list_regions.properties.limit).toMatchObject({
      type: "integer",
      minimum: 0,
      maximum: 1000,
      default: 100,
    });
    expect(byName.get_active_signals.properties.limit).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 500,
      default: 20,
    });
    expect(byName.get_indicator.properties.code).toMatchObject({ type: "string", minLength: 1, maxLength: 200 });
    expect(Object.keys(byName.get_indicator.properties)).toEqual(["code", "source", "include_inactive"]);
    expect(Object.keys(byName.get_latest.properties)).toEqual(["indicator", "indicators", "source", "region"]);
    expect(byName.get_latest.required).toBeUndefined();
    expect(Object.keys(byName.list_sources.properties)).toEqual(["include_inactive"]);
  });

  test("output schemas: the REST success bodies with MCP's additions, their components in $defs", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.outputSchema as any]));
    expect(byName.get_latest.anyOf.map((s: any) => s.$ref)).toEqual([
      "#/$defs/LatestSingle",
      "#/$defs/LatestBatch",
      "#/$defs/Provisioning",
      "#/$defs/Error",
      "#/$defs/McpPaymentRequest",
    ]);
    expect(byName.get_observations.anyOf.map((s: any) => s.$ref)).toEqual([
      "#/$defs/ObservationList",
      "#/$defs/Provisioning",
      "#/$defs/Error",
      "#/$defs/McpPaymentRequest",
    ]);
    expect(byName.list_sources.anyOf.map((s: any) => s.$ref)).toEqual(["#/$defs/SourceList", "#/$defs/Error"]);
    const search = byName.search_indicators.$defs;
    expect(search.Indicator.properties.has_data).toMatchObject({ type: "boolean" });
    expect(search.Indicator.required).toContain("has_data");
    expect(search.IndicatorList.properties.meta.properties.truncated).toMatchObject({ type: "boolean" });
    expect(byName.list_regions.$defs.RegionList.properties.meta.required).toEqual([
      "total",
      "limit",
      "offset",
      "truncated",
    ]);
    expect(byName.get_active_signals.$defs.SignalList.properties.meta.required).toContain("truncated");
    // Tools without paging get no truncated flag; the components are each tool's own copies.
    expect(byName.get_latest.$defs.LatestSingle.properties.meta.properties.truncated).toBeUndefined();
    expect(byName.get_indicator.$defs.Indicator).toBeUndefined();
  });

  test("descriptions: what each tool returns, when to prefer another, its price, how to authenticate or pay, its page size", async () => {
    const { tools } = await (await connect(payBase)).listTools();
    const d = Object.fromEntries(tools.map((t) => [t.name, t.description!]));
    for (const name of ["search_indicators", "get_indicator", "list_sources", "list_regions"])
      expect(d[name]!.endsWith("Free: no credential needed.")).toBe(true);
    expect(d.search_indicators).toStartWith("List and search indicators.\n\nStart here to find indicator codes");
    expect(d.get_observations).toContain("For only the newest value use get_latest");
    expect(d.get_observations).toContain(
      "**Price:** 0.01 USD per request (0.05 for derived series), or covered by an API key's plan.",
    );
    expect(d.get_latest).toContain(
      "**Price:** 0.01 USD per request (0.05 for derived series, 0.01 for latest batch), or covered by an API key's plan.",
    );
    expect(d.get_latest).toContain(
      "send an API key with the MCP HTTP request (`Authorization: Bearer <key>` or `X-API-Key: <key>`",
    );
    expect(d.get_latest).toContain(
      'pay it in the call with x402 (the x402 MCP transport: the signed payment in `_meta["x402/payment"]` of tools/call)',
    );
    expect(d.list_regions).toContain(
      "Over MCP `limit` defaults to 100 (REST: every row). `meta.truncated` is true when more rows match than this result holds: call again with a larger `offset`.",
    );
    expect(d.search_indicators).toContain("Over MCP `limit` defaults to 20 (REST: 50).");
    expect(d.get_active_signals).toContain("call again with `cursor` set to `meta.next_cursor`");
  });

  test("a tool name without a GET operation of that operationId is refused when the tools are built", async () => {
    const doc = (await rest(payBase, "/openapi.json")).body;
    expect(toolsFromOpenApi(doc).map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    expect(() => toolsFromOpenApi(doc, ["get_weather"])).toThrow(
      "MCP tool get_weather: no GET operation with operationId get_weather",
    );
    expect(() => toolsFromOpenApi(doc, ["signup"])).toThrow(
      "MCP tool signup: no GET operation with operationId signup",
    );
  });
});

describe("transport", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${payBase}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    });

  test("GET and DELETE: 405 with a JSON-RPC error (stateless: no SSE stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${payBase}/api/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect([res.status, res.headers.get("allow")]).toEqual([405, "POST"]);
      expect(await res.json()).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message: "Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST.",
        },
        id: null,
      });
    }
  });

  test("bad JSON and non-JSON-RPC bodies: the SDK's -32700 errors, never a 500", async () => {
    const bad = await post("{not json");
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null },
    ]);
    const notRpc = await post(JSON.stringify({ hello: "world" }));
    expect([notRpc.status, await notRpc.json()]).toEqual([
      400,
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON-RPC message" }, id: null },
    ]);
  });

  test("wrong Content-Type 415, missing Accept 406", async () => {
    const ct = await post("{}", { "content-type": "text/plain" });
    expect([ct.status, ((await ct.json()) as any).error.code]).toEqual([415, -32000]);
    const acc = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      accept: "application/json",
    });
    expect([acc.status, ((await acc.json()) as any).error.message]).toEqual([
      406,
      "Not Acceptable: Client must accept both application/json and text/event-stream",
    ]);
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
      post(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      );
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const body = (await (await init(version)).json()) as any;
      expect([body.result.protocolVersion, body.result.capabilities, body.result.serverInfo.name]).toEqual([
        version,
        { tools: {} },
        "Economic Time-Series API",
      ]);
      expect(body.result.instructions).toContain('payable in the call with x402 (_meta["x402/payment"])');
      expect(body.result.instructions).toContain(
        "Free tools: search_indicators, get_indicator, list_sources, list_regions. Paid tools (get_observations, get_latest, get_insights, get_active_signals",
      );
    }
    // An unknown version: the server answers with the latest it supports (the client decides whether to go on).
    expect(((await (await init("1999-01-01")).json()) as any).result.protocolVersion).toBe("2025-11-25");
    const res = await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }), {
      "mcp-protocol-version": "1999-01-01",
    });
    expect([res.status, ((await res.json()) as any).error.message]).toEqual([
      400,
      expect.stringContaining("Unsupported protocol version: 1999-01-01"),
    ]);
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
    const notes = await post(
      JSON.stringify([
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      ]),
    );
    expect([notes.status, await notes.text()]).toEqual([202, ""]);
    const empty = await post("[]");
    expect([empty.status, await empty.json()]).toEqual([
      400,
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: an empty batch." }, id: null },
    ]);
  });
});
