// The MCP server: a fresh stateless server and Streamable HTTP transport per HTTP request (the SDK refuses to reuse
// a stateless transport), answering plain JSON rather than SSE since no tool streams. tools/list serves the tools of
// src/mcp/tools.ts with their input and output schemas; tools/call runs the equivalent REST request through `invoke`
// (with the call's x402 payment, payment.ts) and returns its answer as the tool result (results.ts).
//
// The low-level SDK Server is used (not McpServer) because a tool's input schema is the JSON Schema the OpenAPI
// generator derives from the route's zod schema: McpServer wants zod shapes of the arguments, which would be a second
// definition of every parameter (REST query schemas parse text; MCP arguments are JSON numbers and booleans).
//
// tools/call is answered by the server's fallback request handler, not setRequestHandler: for a registered method
// the SDK (1.32) parses the params before the handler runs and answers a mismatch (`arguments` a string or null)
// with -32603 Internal error and zod's raw multi-line report. Bad params are the caller's mistake: here they are
// -32602 Invalid params with one line naming the problem (callParamsOf).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { chartRequestOf, withChart } from "./chart";
import { paymentHeadersOf } from "./payment";
import { errorResult, toolResult } from "./results";
import { restRequestOf, type McpTool } from "./tools";

export type McpContext = {
  name: string;
  version: string;
  tools: McpTool[];
  /** Runs the REST request `pathAndQuery` (GET) with the MCP request's credentials, and `headers` (a payment). */
  invoke(pathAndQuery: string, headers?: Record<string, string>): Promise<Response>;
  /** The public absolute URL of a REST request, as shown to callers. */
  restUrl(pathAndQuery: string): string;
  /** The MCP request carried no credential: paid tools answer a payment request, and take an x402 payment in the call. */
  anonymous: boolean;
};

/** What the server tells a model on initialize: where to start, what is free, what is paid and how to pay. */
function instructionsFor(tools: McpTool[]): string {
  const named = (paid: boolean) =>
    tools
      .filter((t) => (t.priceUsd !== null) === paid)
      .map((t) => t.name)
      .join(", ");
  return (
    "Economic time series by region (countries, US states and counties). Start with search_indicators to find indicator " +
    "codes (it says which hold data), get_indicator to see one indicator's regions and dates, list_regions for region codes. " +
    `Free tools: ${named(false)}. Paid tools (${named(true)}) are priced like the REST API: send an API key with the MCP ` +
    "HTTP request (Authorization: Bearer <key> or X-API-Key); without one a paid tool answers a payment request with the " +
    'price, payable in the call with x402 (_meta["x402/payment"]) or on the equivalent REST URL with x402 or L402. Long ' +
    "lists come a page at a time: meta.truncated says more rows match."
  );
}

export function createMcpServer(ctx: McpContext): Server {
  const server = new Server(
    { name: ctx.name, version: ctx.version },
    { capabilities: { tools: {} }, instructions: instructionsFor(ctx.tools) },
  );
  const byName = new Map(ctx.tools.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ctx.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      // Every tool reads: nothing changes on the server, and the same call gives the same answer until data changes.
      annotations: {
        title: t.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    })),
  }));

  const callTool = async (params: CallParams): Promise<CallToolResult> => {
    const tool = byName.get(params.name);
    // An unknown tool is a protocol error (MCP spec, tools: "Unknown tools" -> -32602), not a tool result.
    if (!tool)
      throw rpcError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${params.name}. Tools: ${ctx.tools.map((t) => t.name).join(", ")}`,
      );
    const req = restRequestOf(tool, params.arguments);
    if (!req.ok) return errorResult(req.error);
    // A key pays for the call when there is one, and a free tool needs no payment: an x402 payment is then left unused.
    const payment = ctx.anonymous && tool.priceUsd !== null ? paymentHeadersOf(params._meta) : null;
    if (payment && !payment.ok) return errorResult(payment.error);
    const res = await ctx.invoke(req.pathAndQuery, payment?.headers);
    const result = await toolResult(tool, res, {
      restUrl: echoable(ctx.restUrl(req.pathAndQuery)),
      anonymous: ctx.anonymous,
      rechallenge: () => ctx.invoke(req.pathAndQuery),
    });
    return req.chart
      ? withChart(result, chartRequestOf(req.pathAndQuery), {
          anonymous: ctx.anonymous,
          restUrl: (p) => echoable(ctx.restUrl(p)),
          invoke: (p) => ctx.invoke(p),
        })
      : result;
  };

  // Called for every request method without a registered handler: tools/call, and what this server does not serve
  // (answered as the SDK answers an unknown method).
  server.fallbackRequestHandler = async (request) => {
    if (request.method !== "tools/call") throw rpcError(ErrorCode.MethodNotFound, "Method not found");
    const params = callParamsOf(request.params);
    if (!params.ok) throw rpcError(ErrorCode.InvalidParams, params.message);
    return callTool(params.params);
  };

  return server;
}

/**
 * The longest REST URL a tool result repeats (uncut, a 1 MB argument came back whole in `_meta.rest_url`): a URL
 * this long is past what servers and proxies accept anyway, so it is cut, and the cut is marked.
 */
export const MAX_ECHOED_URL = 2048;

function echoable(url: string): string {
  return url.length <= MAX_ECHOED_URL ? url : `${url.slice(0, MAX_ECHOED_URL - 1)}…`;
}

/** A JSON-RPC error the SDK sends with this code and exactly this message (McpError would prefix "MCP error <code>: "). */
function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

type CallParams = { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };

function kindOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * tools/call params checked as the MCP schema (CallToolRequestSchema) does, with one line naming what is wrong:
 * `name` a string, `arguments` absent or an object of named arguments, then anything else the schema requires.
 */
export function callParamsOf(params: unknown): { ok: true; params: CallParams } | { ok: false; message: string } {
  const bad = (message: string) => ({ ok: false as const, message: `Invalid params for tools/call: ${message}.` });
  if (!isPlainObject(params))
    return bad(`params must be an object with the tool's name and its arguments, not ${kindOf(params)}`);
  if (typeof params.name !== "string")
    return bad(`params.name must be the tool's name (a string), not ${kindOf(params.name)}`);
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    return bad(
      `params.arguments must be an object of named arguments (e.g. {"indicator": "UNRATE"}) or left out, not ${kindOf(params.arguments)}`,
    );
  }
  const parsed = CallToolRequestSchema.safeParse({ method: "tools/call", params });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return bad(`${issue.path.map(String).join(".") || "params"}: ${issue.message.replace(/\s+/g, " ")}`);
  }
  return { ok: true, params: parsed.data.params as CallParams };
}

/** Answers one MCP HTTP POST: JSON-RPC in, JSON-RPC out (or the SDK's JSON-RPC error for a bad body or headers). */
export async function handleMcpPost(request: Request, ctx: McpContext): Promise<Response> {
  // A batch must hold at least one message (JSON-RPC 2.0: an empty array is an Invalid Request); the SDK would take it
  // for a batch of notifications and answer 202.
  if ((await request.clone().text()).trim() === "[]")
    return jsonRpcError(400, -32600, "Invalid Request: an empty batch.");
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = createMcpServer(ctx);
  await server.connect(transport);
  try {
    // In JSON mode this resolves once every response is ready, so closing afterwards cuts nothing short.
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

/**
 * GET (a standalone SSE stream) and DELETE (ending a session) mean nothing without sessions: answered like the SDK's
 * stateless examples, 405 with a JSON-RPC error, so clients fall back to POST only.
 */
export function methodNotAllowed(): Response {
  return jsonRpcError(405, -32000, "Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST.", {
    Allow: "POST",
  });
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { ...headers, "Content-Type": "application/json" },
  });
}
