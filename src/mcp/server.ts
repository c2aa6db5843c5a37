// The MCP server: a fresh stateless server and Streamable HTTP transport per HTTP request (the SDK refuses to reuse
// a stateless transport), answering plain JSON rather than SSE since no tool streams. tools/list serves the tools of
// src/mcp/tools.ts; tools/call runs the equivalent REST request through `invoke` and returns its answer.
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
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorResult, restRequestOf, toolResult, type McpTool } from "./tools";

export type McpContext = {
  name: string;
  version: string;
  tools: McpTool[];
  /** Runs the REST request `pathAndQuery` (GET) with the MCP request's credentials. */
  invoke(pathAndQuery: string): Promise<Response>;
  /** The public absolute URL of a REST request, as shown to callers. */
  restUrl(pathAndQuery: string): string;
  /** The MCP request carried no API key. */
  anonymous: boolean;
};

const INSTRUCTIONS =
  "Economic time series by region. Start with search_indicators (free) to find indicator codes, list_regions and " +
  "list_sources (free) for regions and sources, then get_observations or get_latest for data. Data tools are priced " +
  "like the REST API: send an API key with the MCP HTTP request (Authorization: Bearer <key> or X-API-Key); without " +
  "one they answer with the price and the equivalent REST URL to pay per request (x402 or L402).";

export function createMcpServer(ctx: McpContext): Server {
  const server = new Server({ name: ctx.name, version: ctx.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(ctx.tools.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ctx.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      // Every tool reads: nothing changes on the server, and the same call gives the same answer until data changes.
      annotations: { title: t.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    })),
  }));

  const callTool = async (params: CallParams): Promise<CallToolResult> => {
    const tool = byName.get(params.name);
    // An unknown tool is a protocol error (MCP spec, tools: "Unknown tools" -> -32602), not a tool result.
    if (!tool) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}. Tools: ${ctx.tools.map((t) => t.name).join(", ")}`);
    const req = restRequestOf(tool, params.arguments);
    if (!req.ok) return errorResult(req.error);
    const res = await ctx.invoke(req.pathAndQuery);
    return toolResult(tool, res, { restUrl: ctx.restUrl(req.pathAndQuery), anonymous: ctx.anonymous });
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

/** A JSON-RPC error the SDK sends with this code and exactly this message (McpError would prefix "MCP error <code>: "). */
function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

type CallParams = { name: string; arguments?: Record<string, unknown> };

function kindOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * tools/call params checked as the MCP schema (CallToolRequestSchema) does, with one line naming what is wrong:
 * `name` a string, `arguments` absent or an object of named arguments, then anything else the schema requires.
 */
export function callParamsOf(params: unknown): { ok: true; params: CallParams } | { ok: false; message: string } {
  const bad = (message: string) => ({ ok: false as const, message: `Invalid params for tools/call: ${message}.` });
  if (!isPlainObject(params)) return bad(`params must be an object with the tool's name and its arguments, not ${kindOf(params)}`);
  if (typeof params.name !== "string") return bad(`params.name must be the tool's name (a string), not ${kindOf(params.name)}`);
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    return bad(`params.arguments must be an object of named arguments (e.g. {"indicator": "UNRATE"}) or left out, not ${kindOf(params.arguments)}`);
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
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; send JSON-RPC with POST." }, id: null }), {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "application/json" },
  });
}
