// POST /api/mcp: the Streamable HTTP MCP endpoint (stateless, JSON responses). A tool call names the equivalent REST
// request; with the caller's credential headers (and the call's x402 payment, src/mcp/payment.ts):
// - a paid tool (and a chart it draws) calls that route's paid operation directly (callPaidOperation, below): the same
//   validation, gate (resolve, quote, the admission core: key entitlement, rate limit, metering, payment verification
//   and settlement) and answer as the REST route, without a second pass through the app;
// - a free catalog tool runs the REST request through this same app (app.fetch, in process), admitted as REST is.
// Nothing about pricing, entitlement or metering is restated for MCP.
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ZodType } from "zod";
import type { Deps } from "../deps";
import { ApiError, envelope } from "../errors";
import { clientIp } from "../http/auth";
import type { Admitted } from "../services/admission";
import { runPaid, type Answer, type Asked, type Gated, type Outcome, type PaidCall } from "../services/paid-call";
import { adviceHeaders, rateLimitHeaders } from "../http/advice-headers";
import { provisioningCaller } from "../http/admission";
import type { AppEnv } from "../http/app-env";
import { failureResponse } from "../http/respond";
import { invalidParameters } from "../http/validation";
import { credentialOf, refusalParts } from "../http/verdicts";
import type { RegisterRoutes } from "../http/app-env";
import { errorResponses } from "../schemas/errors";
import { publicBaseUrl } from "../contract/base-url";
import { buildOpenApiDocument } from "../docs/openapi";
import { KEY_SECURITY } from "../docs/openapi-access";
import { answerFromMemo, paidOperations, rememberPage, type PaidOperation } from "../http/paid";
import { pageMemoKeyFor } from "../http/page-memo";
import { refuseNulInQuery } from "../http/request-guard";
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
    `(${Object.entries(TOOL_POLICIES).flatMap(([name, p]) => (p.defaultLimit ? [`${name} ${p.defaultLimit}`] : [])).join(", ")}) and paged results carry \`meta.truncated\`; ` +
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
    200: { description: "JSON-RPC response (or an array of them for a batch)", content: { "application/json": { schema: jsonRpcResponseSchema } } },
    202: { description: "Notifications only: accepted, no body" },
    ...errorResponses(401, 500),
  },
});

export const registerMcpRoutes: RegisterRoutes = (app, deps) => {
  app.openAPIRegistry.registerPath(mcpRoute);

  // Read from the finished OpenAPI document on first use, after every route is registered; tools do not depend on the base URL.
  let tools: McpTool[] | null = null;
  // The paid operations a tool call runs directly, found on first use too.
  let paidOperationAt: ReturnType<typeof paidOperations> | null = null;

  // The envelope is not admitted itself: each tool call runs its REST twin through the app and is admitted there.
  app.registry.declare("POST", MCP_PATH, "envelope");
  app.post(
    MCP_PATH,
    async (c) => {
      const base = publicBaseUrl(deps.config, c.req.url);
      tools ??= toolsFromOpenApi(buildOpenApiDocument(app, base));
      paidOperationAt ??= paidOperations(app);
      const operationAt = paidOperationAt;
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
          const op = operationAt("GET", pathAndQuery.split("?")[0]!);
          if (op) return callPaidOperation(op, url, { ...forwarded, ...headers }, c, deps);
          return app.fetch(new Request(url, { headers: { ...forwarded, ...headers } }), c.env);
        },
      });
    },
  );

  app.registry.declare("ALL", MCP_PATH, "envelope");
  app.all(MCP_PATH, async () => (await mcpServer()).methodNotAllowed());
};

// ---------------------------------------------------------------------------------------------------------------
// A paid operation called directly: the REST request a tool call stands for (path and query on the public base URL,
// the caller's credential, a payment from the call), validated by the route's own query schema, run as one call of
// the operation and answered as the Response the REST route gives: the same status, body and the headers a tool
// result reads (rate window, payment challenge and receipt, request id).

/**
 * Runs `op` for the REST request `url` (absolute, GET) with `headers` (credential, payment; Accept is JSON), inside
 * the request `c` that carried the call (its admission core, client address and request id).
 */
async function callPaidOperation(op: PaidOperation, url: string, headers: Record<string, string>, c: Context<AppEnv>, deps: Pick<Deps, "clock" | "config" | "logger">): Promise<Response> {
  const requestId = c.get("requestId");
  const own = { "x-request-id": requestId };
  const lowered = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const pathParams = pathParamsOf(op.route.path, new URL(url).pathname);
  const asked: Asked = { header: (name) => lowered[name.toLowerCase()], param: (name) => pathParams[name], client: clientIp(c, deps.config) };
  let admitted: Admitted | null = null;
  const credential = credentialOf(new Headers(lowered));
  const admission = c.get("admission");
  const now = () => deps.clock.now();
  const rate = (): Record<string, string> => (admitted?.rate ? rateLimitHeaders(admitted.rate) : {});
  try {
    // A URL the page memo holds is answered as REST answers it: the same gate, the recorded resolution, the page.
    const memoKey = pageMemoKeyFor("json", url);
    const fromMemo = answerFromMemo(c.get("pages"), memoKey, () => ({ admission, credential, asked, url, admitted: (v: Admitted) => void (admitted = v) }), now);
    if (fromMemo) return responseOf(await fromMemo, { ...own, ...rate() });
    const params = new URL(url).searchParams;
    refuseNulInQuery(params);
    const query = queriesOf(params);
    const schema = op.route.request?.query as ZodType | undefined;
    const parsed = schema ? await schema.safeParseAsync(zodInput(query)) : { success: true as const, data: {} };
    if (!parsed.success) return Response.json(invalidParameters(parsed.error.issues, "query", query), { status: 400, headers: own });
    const call: PaidCall<unknown> = {
      query: Object.freeze(parsed.data),
      asked,
      credential,
      url,
      admission,
      describe: () => ({
        method: "GET",
        query: Object.fromEntries(Object.keys(query).sort().map((k) => [k, query[k]!.join(",")])),
        pathParams,
        shape: c.get("operations")?.describe("GET", op.route.path.replace(/\{([^}]+)\}/g, ":$1")) ?? null,
      }),
      caller: () => provisioningCaller(c, deps),
      admitted: (v) => void (admitted = v),
    };
    const outcome = await runPaid(op.options, now, call);
    const res = responseOf(outcome, { ...own, ...rate() });
    if (res.status === 200) rememberPage(c.get("pages"), memoKey, op.options, outcome, call.describe);
    return res;
  } catch (err) {
    // As app.onError renders it for REST: the envelope and its advice, with the rate window the call was admitted in.
    if (err instanceof ApiError) return Response.json(envelope(err.code, err.message, err.details), { status: err.status, headers: { ...own, ...rate(), ...adviceHeaders(err.advice) } });
    return failureResponse(deps.logger, err, { requestId, method: "GET", url });
  }
}

/** The outcome as the REST route answers it (paid.ts renderOutcome), as a plain Response. */
function responseOf(outcome: Outcome<unknown> | Gated, headers: Record<string, string>): Response {
  if (outcome.kind === "provisioning") return Response.json(outcome.body, { status: 202, headers: { ...headers, "Retry-After": String(outcome.body.retry_after_seconds), "Cache-Control": "no-store" } });
  if (outcome.kind === "free") return Response.json(outcome.body, { status: 200, headers });
  if (outcome.kind === "declined") return Response.json(envelope("INVALID_PARAMETER", outcome.declined.message), { status: outcome.declined.status, headers });
  if (outcome.kind === "refused") {
    const r = refusalParts(outcome.refusal);
    return Response.json(r.body, { status: r.status, headers: { ...headers, ...r.headers } });
  }
  return answerResponse(outcome.answer, { ...headers, ...outcome.receipt });
}

function answerResponse(answer: Answer, headers: Record<string, string>): Response {
  if (answer.kind === "page") return new Response(answer.page.body, { status: 200, headers: { ...headers, "Content-Type": answer.page.contentType } });
  return Response.json(answer.body, { status: answer.status, headers: { ...headers, ...answer.headers } });
}

/** The path parameters of `pathname` under the route path `template` (`/v1/briefings/public/{slug}`), decoded. */
function pathParamsOf(template: string, pathname: string): Record<string, string> {
  const names = template.split("/");
  const values = pathname.split("/");
  const out: Record<string, string> = {};
  names.forEach((n, k) => {
    const m = /^\{(.+)\}$/.exec(n);
    if (m && values[k] !== undefined) out[m[1]!] = decodeURIComponent(values[k]!);
  });
  return out;
}

function queriesOf(params: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of params) (out[k] ??= []).push(v);
  return out;
}

/** The query as a validator hands it to a schema: one string per name, an array when repeated. */
function zodInput(queries: Record<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(queries)) out[k] = v.length === 1 ? v[0]! : v;
  return out;
}
