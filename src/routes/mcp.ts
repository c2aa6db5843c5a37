// POST /api/mcp: the Streamable HTTP MCP endpoint (stateless, JSON responses). A tool call names the equivalent REST
// request; with the caller's credential headers (and the call's x402 payment, src/mcp/payment.ts):
// - a paid tool (and a chart it draws) calls that route's paid operation directly (src/http/operation-call.ts): the
//   same validation, gate (resolve, quote, the admission core: key entitlement, rate limit, metering, payment
//   verification and settlement) and answer as the REST route, without a second pass through the app;
// - a free catalog tool calls that route's free operation directly too: admitted by the same core as the keyed REST
//   route, validated by its schemas, answered by the same service function.
// Both are found in the app's route registry. Nothing about pricing, entitlement or metering is restated for MCP.
import { createRoute } from "@hono/zod-openapi";
import { envelope } from "../errors";
import { credentialOf } from "../http/verdicts";
import type { RegisterRoutes } from "../http/app-env";
import { errorResponses } from "../schemas/errors";
import { publicBaseUrl } from "../contract/base-url";
import { buildOpenApiDocument } from "../docs/openapi";
import { KEY_SECURITY } from "../docs/openapi-access";
import { callOperation } from "../http/operation-call";
import { TOOL_POLICIES, toolsFromOpenApi, type McpTool } from "../mcp/tools";
import { MCP_PATH, MCP_TOOL_NAMES } from "../contract/mcp";
import { jsonRpcRequestSchema, jsonRpcResponseSchema } from "../schemas/mcp";
import { SERVICE_NAME } from "../version";

// Loaded by the first MCP request, not at start: the SDK is about 25 MB of a node's idle memory.
const mcpServer = () => import("../mcp/server");

/** The credential headers a tool call forwards to its REST request, when the MCP request carries a key (or a malformed one). */
const KEY_HEADERS = ["authorization", "x-api-key"] as const;

// Documented, not validated: the SDK transport parses the body and answers bad JSON or JSON-RPC with its own errors.
const mcpRoute = createRoute({
  method: "post",
  path: MCP_PATH,
  operationId: "mcp",
  tags: ["MCP"],
  summary: "MCP endpoint (Streamable HTTP, JSON-RPC 2.0)",
  description:
    `Model Context Protocol over Streamable HTTP, stateless: POST one JSON-RPC message (or a batch) with ` +
    "`Content-Type: application/json` and `Accept: application/json, text/event-stream`; the answer is JSON. No session is " +
    "kept, so GET and DELETE answer 405. Tools: " +
    `${MCP_TOOL_NAMES.join(", ")}. Each tool is the REST operation with the same operationId: its arguments are that ` +
    "operation's path and query parameters, its `outputSchema` the operation's success bodies, and its result the REST " +
    "response body as `structuredContent` with a text rendering. Over MCP, long lists default to a smaller page " +
    `(${Object.entries(TOOL_POLICIES)
      .flatMap(([name, p]) => (p.defaultLimit ? [`${name} ${p.defaultLimit}`] : []))
      .join(", ")}) and paged results carry \`meta.truncated\`; ` +
    "search_indicators items carry `has_data`. Catalog tools are free; data tools take the API key sent with this " +
    "request (`Authorization: Bearer` or `X-API-Key`) and are entitled, rate limited and metered exactly like the REST " +
    "request (one request per tool call; the MCP messages themselves are not counted); a bad key is each tool call's " +
    "INVALID_API_KEY. Without a key a data tool answers a payment request (`isError: true`): the x402 PaymentRequired " +
    "(`x402Version`, `accepts`, `resource`) with `code` PAYMENT_REQUIRED and `details` (price, rails, the equivalent REST " +
    'URL, the L402 challenge). Pay it in the call as the x402 MCP transport says: the signed payment in `_meta["x402/payment"]` ' +
    'of tools/call; the settlement receipt comes back in the result\'s `_meta["x402/payment-response"]`. Other refusals are ' +
    "tool results with `isError: true` and the REST error envelope. A tools/call naming no known tool, or whose " +
    "`arguments` is not an object, is JSON-RPC -32602 (Invalid params). Transport errors are JSON-RPC errors: 400 " +
    "(-32700, unparseable JSON or not JSON-RPC), 406 (Accept), 415 (Content-Type).",
  // A key is optional: catalog tools need none, data tools use the key sent with this request or a payment in the call.
  security: [...KEY_SECURITY, {}],
  request: { body: { required: true, content: { "application/json": { schema: jsonRpcRequestSchema } } } },
  responses: {
    200: {
      description: "JSON-RPC response (or an array of them for a batch)",
      content: { "application/json": { schema: jsonRpcResponseSchema } },
    },
    202: { description: "Notifications only: accepted, no body" },
    ...errorResponses(401, 500),
  },
});

export const registerMcpRoutes: RegisterRoutes = (app, deps) => {
  app.openAPIRegistry.registerPath(mcpRoute);

  // Read from the finished OpenAPI document on first use, after every route is registered; tools do not depend on the base URL.
  let tools: McpTool[] | null = null;
  // The envelope is not admitted itself: each tool call runs its REST twin's operation, admitted as that route is.
  app.registry.declare("POST", MCP_PATH, "envelope");
  app.post(MCP_PATH, async (c) => {
    const base = publicBaseUrl(deps.config, c.req.url);
    tools ??= toolsFromOpenApi(buildOpenApiDocument(app, base));
    const keyed = credentialOf(c.req.raw.headers).kind !== "none";
    const forwarded: Record<string, string> = { accept: "application/json", "x-request-id": c.get("requestId") };
    if (keyed) {
      for (const h of KEY_HEADERS) {
        const v = c.req.header(h);
        if (v !== undefined) forwarded[h] = v;
      }
    }
    const { handleMcpPost } = await mcpServer();
    return handleMcpPost(c.req.raw, {
      name: SERVICE_NAME,
      version: deps.version,
      tools,
      anonymous: !keyed,
      restUrl: (pathAndQuery) => `${base}${pathAndQuery}`,
      // At the public base URL (never the request's Host), so a payment challenge names the URL the caller would
      // use; same Bun server env (client address), same request id for the logs.
      invoke: async (pathAndQuery, headers = {}) => {
        const url = `${base}${pathAndQuery}`;
        const op = app.registry.operationAt("GET", pathAndQuery.split("?")[0]!);
        if (op) return callOperation(op, url, { ...forwarded, ...headers }, c, deps);
        // Every tool is a declared operation (toolsFromOpenApi found its GET route): this is a defect, not the caller's.
        return Response.json(
          envelope(
            "INTERNAL_SERVER_ERROR",
            `No operation is declared for GET ${pathAndQuery.split("?")[0]} (request ${c.get("requestId")}).`,
          ),
          { status: 500 },
        );
      },
    });
  });

  app.registry.declare("ALL", MCP_PATH, "envelope");
  app.all(MCP_PATH, async () => (await mcpServer()).methodNotAllowed());
};
