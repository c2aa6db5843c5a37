// The MCP tools. Each tool IS a REST operation: it is found in the app's own OpenAPI document by operationId
// (DESIGN.md: "operationId equals the MCP tool name"), its input schema is that operation's query parameters
// (generated from the route's zod schema), a call becomes the equivalent REST request, and the REST answer becomes
// the tool result. So a tool validates, prices, entitles and computes exactly as its REST twin.
//
// Adding a tool once its route exists (ask): add its operationId to MCP_TOOL_NAMES.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { listOperations, type JsonObject } from "../docs/openapi";
import { envelope, type ErrorEnvelope } from "../errors";

/** The tools served, in the spec's order. A name with no GET operation of that operationId fails at startup. */
export const MCP_TOOL_NAMES = ["search_indicators", "list_sources", "list_regions", "get_observations", "get_latest", "get_insights", "get_active_signals"] as const;

/** "array": a repeatable text parameter (an array of strings, or one string of comma-separated values). */
type ParamType = "string" | "integer" | "number" | "boolean" | "array";

export type McpTool = {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, JsonObject>; required?: string[]; additionalProperties: false };
  /** REST path of the operation (GET, query parameters only). */
  path: string;
  /** Parameter name -> JSON type, in the operation's order (the order of the REST query string). */
  params: [string, ParamType][];
  /** `x-price-usd` of the operation; null for free catalog operations. */
  priceUsd: string | null;
};

const FREE_LINE = "Free: no credential needed.";
const PAID_LINE =
  "Over MCP: send an API key with the MCP HTTP request (`Authorization: Bearer <key>` or `X-API-Key: <key>`; free keys: " +
  "POST /v1/signup); each call counts as one request of the key's plan, with the same entitlements and rate limit as " +
  "REST. Without a key the call is refused with the price and the equivalent REST URL, which can be paid per request " +
  "with x402 or L402.";

function resolveRefs(node: unknown, components: JsonObject, depth = 0): unknown {
  if (depth > 16 || node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, components, depth + 1));
  const obj = node as JsonObject;
  if (typeof obj.$ref === "string") return resolveRefs(components[obj.$ref.replace(/^#\/components\/schemas\//, "")] ?? {}, components, depth + 1);
  const out: JsonObject = {};
  // Examples are OpenAPI documentation (and typed as text for query integers); a tool schema states types only.
  for (const [k, v] of Object.entries(obj)) if (k !== "example" && k !== "examples") out[k] = resolveRefs(v, components, depth + 1);
  return out;
}

function paramType(schema: JsonObject, where: string): ParamType {
  const t = Array.isArray(schema.type) ? schema.type.filter((x: string) => x !== "null") : [schema.type];
  if (t.length === 1 && t[0] === "array" && (schema.items as JsonObject | undefined)?.type === "string") return "array";
  if (t.length === 1 && ["string", "integer", "number", "boolean"].includes(t[0])) return t[0];
  throw new Error(`${where}: query parameter type ${JSON.stringify(schema.type)} cannot be an MCP argument`);
}

/** The tools, read from the annotated OpenAPI document (buildOpenApiDocument: prices are in the descriptions). */
export function toolsFromOpenApi(doc: JsonObject, names: readonly string[] = MCP_TOOL_NAMES): McpTool[] {
  const components = doc.components?.schemas ?? {};
  const byId = new Map(listOperations(doc).map((e) => [e.operation.operationId as string | undefined, e]));
  return names.map((name) => {
    const entry = byId.get(name);
    if (!entry || entry.method !== "get") throw new Error(`MCP tool ${name}: no GET operation with operationId ${name}`);
    const op = entry.operation;
    const properties: Record<string, JsonObject> = {};
    const required: string[] = [];
    const params: [string, ParamType][] = [];
    for (const p of (op.parameters ?? []) as JsonObject[]) {
      if (p.in !== "query") throw new Error(`MCP tool ${name}: ${p.in} parameter ${p.name} is not supported (query parameters only)`);
      const schema = resolveRefs({ ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) }, components) as JsonObject;
      properties[p.name] = schema;
      params.push([p.name, paramType(schema, `MCP tool ${name}`)]);
      if (p.required) required.push(p.name);
    }
    const priceUsd = typeof op["x-price-usd"] === "string" ? (op["x-price-usd"] as string) : null;
    return {
      name,
      title: op.summary ?? name,
      description: [op.summary ? `${op.summary}.` : "", op.description ?? "", priceUsd ? PAID_LINE : FREE_LINE].filter(Boolean).join("\n\n"),
      inputSchema: { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false },
      path: entry.path,
      params,
      priceUsd,
    };
  });
}

const argError = (parameter: string, message: string, accepted?: string[]) =>
  envelope("INVALID_PARAMETER", `Invalid parameter ${parameter}: ${message}`, {
    parameter,
    parameters: [parameter],
    in: "arguments",
    ...(accepted ? { accepted } : {}),
  });

/**
 * The REST request (path and query) equivalent to a tool call, or the INVALID_PARAMETER envelope for arguments a
 * query string cannot carry. Only the JSON shape is checked here (a string where text goes, a number or its digits
 * where a number goes); every rule on the values (bounds, enums, formats, combinations) is the route's zod schema's,
 * applied when the request runs. JSON null counts as an absent argument, since a query string cannot say null.
 */
export function restRequestOf(tool: McpTool, args: Record<string, unknown> | undefined): { ok: true; pathAndQuery: string } | { ok: false; error: ErrorEnvelope } {
  const given = args ?? {};
  const known = new Map(tool.params);
  for (const name of Object.keys(given)) {
    if (!known.has(name)) return { ok: false, error: argError(name, `unknown argument; ${tool.name} takes ${tool.params.map(([n]) => n).join(", ") || "no arguments"}`, tool.params.map(([n]) => n)) };
  }
  const query = new URLSearchParams();
  for (const [name, type] of tool.params) {
    const v = given[name];
    if (v === undefined || v === null) continue;
    if (type === "string") {
      if (typeof v !== "string") return { ok: false, error: argError(name, "must be a string") };
      query.append(name, v);
    } else if (type === "array") {
      const values = typeof v === "string" ? [v] : Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : null;
      if (!values) return { ok: false, error: argError(name, "must be a string or an array of strings") };
      for (const x of values) query.append(name, x);
    } else if (type === "boolean") {
      if (typeof v !== "boolean" && v !== "true" && v !== "false") return { ok: false, error: argError(name, "must be true or false") };
      query.append(name, String(v));
    } else {
      if (typeof v !== "number" && typeof v !== "string") return { ok: false, error: argError(name, `must be ${type === "integer" ? "an integer" : "a number"}`) };
      query.append(name, String(v));
    }
  }
  const qs = query.toString();
  return { ok: true, pathAndQuery: qs ? `${tool.path}?${qs}` : tool.path };
}

export type CallContext = {
  /** Absolute URL of the equivalent REST request (on the public base URL). */
  restUrl: string;
  /** The MCP request carried no API key (so the REST request went out without one). */
  anonymous: boolean;
};

function resultOf(body: Record<string, unknown>, text: string, isError: boolean, meta: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: body, ...(isError ? { isError: true } : {}), _meta: meta };
}

export function errorResult(error: ErrorEnvelope, meta: Record<string, unknown> = {}): CallToolResult {
  return resultOf(error, JSON.stringify(error), true, meta);
}

/**
 * An anonymous call to a paid tool that the REST rails refused for want of payment (402 with x402 and/or L402
 * challenges, or 401 when this server takes no per-request payment): the price, and how to pay.
 */
function paymentEnvelope(tool: McpTool, status: number, body: JsonObject, ctx: CallContext): ErrorEnvelope {
  const rest = body.error as { code: string; message: string; details?: JsonObject };
  const details = rest.details ?? {};
  const price = String(details.price_usd);
  const { error: _error, ...x402 } = body;
  const rails: string[] = Array.isArray(details.rails) ? details.rails : [];
  const perRequest = status === 402 && rails.length > 0;
  const message =
    `${tool.name} costs ${price} USD for this call. Send an API key with the MCP request ('Authorization: Bearer <key>' or ` +
    `'X-API-Key: <key>'; free keys: POST /v1/signup)` +
    (perRequest
      ? `, or pay per request with ${rails.map((r) => (r === "l402" ? "L402" : r)).join(" or ")} on the equivalent REST request: GET ${ctx.restUrl}`
      : `; this server takes no per-request payment (the equivalent REST request is GET ${ctx.restUrl}).`);
  return envelope(status === 402 ? "PAYMENT_REQUIRED" : "INVALID_API_KEY", message, {
    ...details,
    price_usd: price,
    rest_url: ctx.restUrl,
    method: "GET",
    ...(perRequest && Object.keys(x402).length ? { x402 } : {}),
  });
}

/** The REST answer as a tool result: 2xx (200, 202, 207) is the body as structured content and text; otherwise the error envelope. */
export async function toolResult(tool: McpTool, res: Response, ctx: CallContext): Promise<CallToolResult> {
  const text = await res.text();
  const meta: Record<string, unknown> = { http_status: res.status, rest_url: ctx.restUrl };
  const requestId = res.headers.get("x-request-id");
  if (requestId) meta.request_id = requestId;
  const limit = res.headers.get("x-ratelimit-limit");
  if (limit !== null) {
    meta.rate_limit = { limit: Number(limit), remaining: Number(res.headers.get("x-ratelimit-remaining")), reset: Number(res.headers.get("x-ratelimit-reset")) };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const isObject = body !== null && typeof body === "object" && !Array.isArray(body);
  if (res.status < 300 && isObject) return resultOf(body as JsonObject, text, false, meta);
  const err = isObject ? ((body as JsonObject).error as JsonObject | undefined) : undefined;
  if (!err || typeof err.code !== "string" || typeof err.message !== "string") {
    return errorResult(envelope("INTERNAL_SERVER_ERROR", `The equivalent REST request answered ${res.status} without an error body (request ${requestId ?? "unknown"}).`), meta);
  }
  const priced = err.details && typeof (err.details as JsonObject).price_usd === "string";
  if (ctx.anonymous && tool.priceUsd !== null && priced && (res.status === 402 || err.code === "INVALID_API_KEY")) {
    return errorResult(paymentEnvelope(tool, res.status, body as JsonObject, ctx), meta);
  }
  // Any other refusal is the REST envelope unchanged: { code, message, details }.
  return resultOf({ error: err } as JsonObject, JSON.stringify({ error: err }), true, meta);
}
