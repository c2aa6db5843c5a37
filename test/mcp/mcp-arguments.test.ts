// MCP arguments through the official SDK client (test/mcp/mcp-apps.ts): bad arguments answer INVALID_PARAMETER
// naming the parameter (free); restRequestOf (a call as its REST request) and toolResult (a REST answer as a result).
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { keyUsage } from "../../src/services/keys";
import { restRequestOf, toolsFromOpenApi } from "../../src/mcp/tools";
import { MCP_TOOL_NAMES } from "../../src/contract/mcp";
import { toolResult } from "../../src/mcp/results";
import { MAX_ECHOED_URL } from "../../src/mcp/server";
import { testKey } from "../support/keys";
import {
  call,
  connect,
  HELD,
  MONTH,
  pay,
  payBase,
  rest,
  structured,
  text,
  UNRATE,
  UNRATE_ROWS,
  useMcpApps,
} from "./mcp-apps";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);
useMcpApps();

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
    expect(structured(await call(client, "list_regions", { limit: 0 })).meta).toEqual({
      total: 3445,
      limit: 0,
      offset: 0,
      truncated: true,
    });
    expect((await refused("list_regions", { limit: -1 })).details).toMatchObject({
      parameter: "limit",
      in: "arguments",
    });
    // 500 passes validation (this free key then lacks premium signals); 501 does not.
    expect((await refused("get_active_signals", { limit: 500 })).code).toBe("CATEGORY_NOT_ALLOWED");
    expect((await refused("get_active_signals", { limit: 501 })).details.parameter).toBe("limit");
  });

  // Before: a 1 MB argument came back whole in the result's _meta.rest_url (1,000,922 bytes answered).
  test("a 1 MB argument is not echoed back: the refusal stays small, the REST URL it repeats is cut at 2,048 characters", async () => {
    const big = "A".repeat(1_000_000);
    for (const args of [
      { indicator: big, region: "US" },
      { ...HELD, transform: big },
    ]) {
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
        accepted: [
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
        ],
      },
    });
    expect(await refused("get_observations", { indicator: 5 })).toEqual({
      code: "INVALID_PARAMETER",
      message: "Invalid parameter indicator: must be a string",
      details: { parameter: "indicator", parameters: ["indicator"], in: "arguments" },
    });
    expect((await refused("get_observations", { ...HELD, include_revisions: "yes" })).details.parameter).toBe(
      "include_revisions",
    );
    expect((await refused("get_observations", { ...HELD, start_date: "2020-02-30" })).details.parameter).toBe(
      "start_date",
    );
    expect(
      (await refused("get_observations", { ...HELD, include_revisions: true, transform: "yoy" })).details.parameter,
    ).toBe("transform");
    expect((await refused("get_latest", { indicator: "UNRATE", indicators: "UNRATE" })).details.parameter).toBe(
      "indicators",
    );
    expect((await refused("list_regions", { type: "planet" })).details.parameter).toBe("type");
    expect(await keyUsage(pay.deps, keyId, MONTH)).toBe(1);
  });

  test("JSON null is an absent argument; booleans and integers may come as JSON or as their text", async () => {
    const a = await call(client, "get_observations", { ...HELD, limit: "3", include_revisions: false, source: null });
    const b = await call(client, "get_observations", { ...HELD, limit: 3, include_revisions: "false" });
    expect(structured(a)).toEqual(structured(b));
    expect(a._meta!.rest_url).toBe(
      `${payBase}/v1/observations?indicator=UNRATE&region=US&include_revisions=false&limit=3`,
    );
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
    for (const [args, kind] of [
      ["indicator=UNRATE", "a string"],
      [null, "null"],
      [[HELD], "an array"],
      [5, "a number"],
    ] as const) {
      const err = await client.callTool({ name: "get_observations", arguments: args as any }).catch((e) => e);
      expect(err).toBeInstanceOf(McpError);
      expect({ kind, code: err.code, message: err.message }).toEqual({
        kind,
        code: ErrorCode.InvalidParams,
        message: `MCP error -32602: ${ARGUMENTS_LINE(kind)}`,
      });
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
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          ...(params === undefined ? {} : { params }),
        }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as any;
    };
    const invalid = (message: string) => ({ jsonrpc: "2.0", id: 9, error: { code: -32602, message } });
    expect(await rpc({ name: "list_sources", arguments: "x" })).toEqual(invalid(ARGUMENTS_LINE("a string")));
    expect(await rpc({ name: "list_sources", arguments: null })).toEqual(invalid(ARGUMENTS_LINE("null")));
    expect(await rpc({ name: "list_sources", arguments: [] })).toEqual(invalid(ARGUMENTS_LINE("an array")));
    expect(await rpc({ name: "list_sources", arguments: true })).toEqual(invalid(ARGUMENTS_LINE("a boolean")));
    expect(await rpc({ arguments: {} })).toEqual(
      invalid("Invalid params for tools/call: params.name must be the tool's name (a string), not missing."),
    );
    expect(await rpc({ name: 7 })).toEqual(
      invalid("Invalid params for tools/call: params.name must be the tool's name (a string), not a number."),
    );
    expect(await rpc(undefined)).toEqual(
      invalid(
        "Invalid params for tools/call: params must be an object with the tool's name and its arguments, not missing.",
      ),
    );
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
  const tool = async (name: string) =>
    toolsFromOpenApi((await rest(payBase, "/openapi.json")).body).find((t) => t.name === name)!;

  test("query in the operation's parameter order, encoded as a URL query; MCP's page size when limit is left out", async () => {
    expect(
      restRequestOf(await tool("get_observations"), {
        region: "US",
        indicator: "svc:sahm_rule",
        transform: "index:2024-01-01",
      }),
    ).toEqual({
      ok: true,
      pathAndQuery: "/v1/observations?indicator=svc%3Asahm_rule&region=US&transform=index%3A2024-01-01",
    });
    expect(restRequestOf(await tool("list_sources"), undefined)).toEqual({ ok: true, pathAndQuery: "/v1/sources" });
    expect(restRequestOf(await tool("list_regions"), { search: "san", offset: 100 })).toEqual({
      ok: true,
      pathAndQuery: "/v1/regions?search=san&limit=100&offset=100",
    });
    expect(restRequestOf(await tool("list_regions"), { limit: 5, type: "state" })).toEqual({
      ok: true,
      pathAndQuery: "/v1/regions?type=state&limit=5",
    });
  });

  test("path parameters: substituted and escaped; required and not empty", async () => {
    const detail = await tool("get_indicator");
    expect(detail.path).toBe("/v1/indicators/{code}");
    expect(restRequestOf(detail, { code: "SP.POP.TOTL", source: "worldbank" })).toEqual({
      ok: true,
      pathAndQuery: "/v1/indicators/SP.POP.TOTL?source=worldbank",
    });
    expect(restRequestOf(detail, { code: "a/b?c" })).toEqual({ ok: true, pathAndQuery: "/v1/indicators/a%2Fb%3Fc" });
    const missing = restRequestOf(detail, { source: "fred" });
    expect(missing.ok ? null : missing.error.error.message).toBe("Invalid parameter code: required");
  });

  test("repeatable parameters (get_active_signals): an array of strings or one comma-separated string", async () => {
    const signals = await tool("get_active_signals");
    expect(signals.inputSchema.properties.type).toMatchObject({
      type: "array",
      items: { type: "string", enum: ["acceleration", "extreme", "trend_break"] },
    });
    expect(restRequestOf(signals, { type: ["extreme", "trend_break"], region: "US", limit: 5 })).toEqual({
      ok: true,
      pathAndQuery: "/v1/signals/active?region=US&type=extreme&type=trend_break&limit=5",
    });
    expect(restRequestOf(signals, { indicator: "PAYEMS,UNRATE" })).toEqual({
      ok: true,
      pathAndQuery: "/v1/signals/active?indicator=PAYEMS%2CUNRATE&limit=20",
    });
    const bad = restRequestOf(signals, { type: [1] });
    expect(bad.ok ? null : bad.error.error.message).toBe(
      "Invalid parameter type: must be a string or an array of strings",
    );
  });
});

describe("toolResult", () => {
  test("any 2xx JSON answer of a paid tool is a result, not a payment request, even anonymous (a free no_coverage answer, as ask gives)", async () => {
    const latest = toolsFromOpenApi((await rest(payBase, "/openapi.json")).body).find((t) => t.name === "get_latest")!;
    const body = { answer: null, citations: [], status: "no_coverage", message: "Nothing covers this question." };
    const ctx = {
      restUrl: `${payBase}/v1/x`,
      anonymous: true,
      rechallenge: () => Promise.reject(new Error("not asked")),
    };
    const r = await toolResult(latest, Response.json(body, { status: 200 }), ctx);
    expect([r.isError, r.structuredContent, r._meta]).toEqual([
      undefined,
      body,
      { http_status: 200, rest_url: `${payBase}/v1/x` },
    ]);
    expect((r.content[0] as any).text.split("\n")).toEqual([
      "get_latest: citations 0.",
      "answer: null",
      "citations: none",
      "status: no_coverage",
      "message: Nothing covers this question.",
    ]);
    // An answer without a JSON error body is still a tool error with the envelope, never a crash.
    const bare = await toolResult(latest, new Response("upstream said no", { status: 502 }), ctx);
    expect([bare.isError, (bare.structuredContent as any).error.code]).toEqual([true, "INTERNAL_SERVER_ERROR"]);
  });
});
