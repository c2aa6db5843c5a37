// The MCP tools. Each tool IS a REST operation: it is found in the app's own OpenAPI document by operationId
// (DESIGN.md: "operationId equals the MCP tool name"), its input schema is that operation's path and query
// parameters and its output schema the operation's success responses (both generated from the route's zod schemas),
// a call becomes the equivalent REST request, run as the operation its route declared, without passing through the
// app (src/http/operation-call.ts), and the REST answer becomes the tool result (results.ts). So a tool validates, prices,
// entitles and computes exactly as its REST twin.
//
// What MCP adds is in src/contract/mcp.ts MCP_TOOLS (output.ts applies it to results): a smaller default page where a REST page is
// a lot for a model to read (same bounds), `meta.truncated` on paged results, `has_data` on search results, and a
// word on when to prefer another tool.
//
// Adding a tool once its route exists: one entry in MCP_TOOLS (src/contract/mcp.ts): its operationId and its word.
import { MCP_TOOL_NAMES, MCP_TOOLS, type ToolPolicy } from "../contract/mcp";
import { listOperations, type JsonObject } from "../contract/operations";
import { CHART_TOOLS, INCLUDE_CHART, includeChartSchema } from "./chart";
import { inlineRefs } from "../http/operations";
import { envelope, type ErrorEnvelope } from "../errors";
import { outputSchemaOf } from "./output";

/** What MCP adds to each tool's operation, by tool name (src/contract/mcp.ts MCP_TOOLS). */
export const TOOL_POLICIES: Readonly<Record<string, ToolPolicy>> = Object.fromEntries(
  MCP_TOOLS.map(({ name, ...policy }) => [name, policy]),
);

/** "array": a repeatable text parameter (an array of strings, or one string of comma-separated values). */
type ParamType = "string" | "integer" | "number" | "boolean" | "array";

export type ToolParam = { name: string; type: ParamType; in: "query" | "path" };

export type McpTool = {
  name: string;
  title: string;
  description: string;
  inputSchema: {
    type: "object";
    properties: Record<string, JsonObject>;
    required?: string[];
    additionalProperties: false;
  };
  /** Every structuredContent the tool returns: the REST operation's success bodies (with MCP's additions), its errors, a payment request. */
  outputSchema: JsonObject;
  /** REST path of the operation (GET), with `{name}` for its path parameters. */
  path: string;
  /** The operation's parameters, in its order (the order of the REST query string). */
  params: ToolParam[];
  /** Arguments filled in when left out (the MCP page sizes of TOOL_POLICIES). */
  defaults: Record<string, number>;
  policy: ToolPolicy;
  /** `x-price-usd` of the operation; null for free catalog operations. */
  priceUsd: string | null;
};

const FREE_LINE = "Free: no credential needed.";
const PAID_LINE =
  "Over MCP: send an API key with the MCP HTTP request (`Authorization: Bearer <key>` or `X-API-Key: <key>`; free keys: " +
  "POST /v1/signup); each call counts as one request of the key's plan, with the same entitlements and rate limit as " +
  "REST. Without a key the call answers a payment request naming the price: pay it in the call with x402 (the x402 MCP " +
  'transport: the signed payment in `_meta["x402/payment"]` of tools/call), or pay the equivalent REST URL with x402 or L402.';

function paramType(schema: JsonObject, where: string): ParamType {
  const t = Array.isArray(schema.type) ? schema.type.filter((x: string) => x !== "null") : [schema.type];
  if (t.length === 1 && t[0] === "array" && (schema.items as JsonObject | undefined)?.type === "string") return "array";
  if (t.length === 1 && ["string", "integer", "number", "boolean"].includes(t[0])) return t[0];
  throw new Error(`${where}: parameter type ${JSON.stringify(schema.type)} cannot be an MCP argument`);
}

/** What the MCP page size and the truncated flag mean for this tool, in one paragraph (null when neither applies). */
function pagingNote(policy: ToolPolicy, restDefault: unknown): string | null {
  if (!policy.paging) return null;
  const more =
    policy.paging === "cursor"
      ? "call again with `cursor` set to `meta.next_cursor`"
      : "call again with a larger `offset`";
  const cap =
    policy.defaultLimit === undefined
      ? ""
      : `Over MCP \`limit\` defaults to ${policy.defaultLimit} (REST: ${restDefault === undefined ? "every row" : restDefault}). `;
  return `${cap}\`meta.truncated\` is true when more rows match than this result holds: ${more}.`;
}

/** The tools, read from the annotated OpenAPI document (buildOpenApiDocument: prices are in the descriptions). */
export function toolsFromOpenApi(doc: JsonObject, names: readonly string[] = MCP_TOOL_NAMES): McpTool[] {
  const components = doc.components?.schemas ?? {};
  const byId = new Map(listOperations(doc).map((e) => [e.operation.operationId as string | undefined, e]));
  return names.map((name) => {
    const entry = byId.get(name);
    if (!entry || entry.method !== "get")
      throw new Error(`MCP tool ${name}: no GET operation with operationId ${name}`);
    const op = entry.operation;
    const policy = TOOL_POLICIES[name] ?? {};
    const properties: Record<string, JsonObject> = {};
    const required: string[] = [];
    const params: ToolParam[] = [];
    const defaults: Record<string, number> = {};
    let restLimitDefault: unknown;
    for (const p of (op.parameters ?? []) as JsonObject[]) {
      if (p.in !== "query" && p.in !== "path")
        throw new Error(
          `MCP tool ${name}: ${p.in} parameter ${p.name} is not supported (path and query parameters only)`,
        );
      const schema = inlineRefs(
        { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) },
        components,
      ) as JsonObject;
      if (p.name === "limit" && policy.defaultLimit !== undefined) {
        restLimitDefault = schema.default;
        schema.default = defaults.limit = policy.defaultLimit;
      }
      properties[p.name] = schema;
      params.push({ name: p.name, type: paramType(schema, `MCP tool ${name}`), in: p.in });
      if (p.required || p.in === "path") required.push(p.name);
    }
    if (CHART_TOOLS.has(name)) properties[INCLUDE_CHART] = includeChartSchema;
    if (policy.defaultLimit !== undefined && !("limit" in defaults))
      throw new Error(`MCP tool ${name}: a default limit for an operation without a limit parameter`);
    const priceUsd = typeof op["x-price-usd"] === "string" ? (op["x-price-usd"] as string) : null;
    return {
      name,
      title: op.summary ?? name,
      description: [
        op.summary ? `${op.summary}.` : "",
        policy.guidance ?? "",
        op.description ?? "",
        pagingNote(policy, restLimitDefault) ?? "",
        priceUsd ? PAID_LINE : FREE_LINE,
      ]
        .filter(Boolean)
        .join("\n\n"),
      inputSchema: {
        type: "object",
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      },
      outputSchema: outputSchemaOf(op, components, policy, priceUsd !== null),
      path: entry.path,
      params,
      defaults,
      policy,
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

type Texts = { ok: true; values: string[] } | { ok: false; error: ErrorEnvelope };

/** An argument as the text(s) a URL carries, or the error naming what JSON shape it should have had. */
function textsOf(p: ToolParam, v: unknown): Texts {
  const ok = (...values: string[]): Texts => ({ ok: true, values });
  const bad = (message: string): Texts => ({ ok: false, error: argError(p.name, message) });
  switch (p.type) {
    case "string":
      return typeof v === "string" ? ok(v) : bad("must be a string");
    case "array": {
      if (typeof v === "string") return ok(v);
      return Array.isArray(v) && v.every((x) => typeof x === "string")
        ? ok(...(v as string[]))
        : bad("must be a string or an array of strings");
    }
    case "boolean":
      return typeof v === "boolean" || v === "true" || v === "false" ? ok(String(v)) : bad("must be true or false");
    default:
      return typeof v === "number" || typeof v === "string"
        ? ok(String(v))
        : bad(`must be ${p.type === "integer" ? "an integer" : "a number"}`);
  }
}

/**
 * The REST request (path and query) equivalent to a tool call, or the INVALID_PARAMETER envelope for arguments a
 * URL cannot carry. Only the JSON shape is checked here (a string where text goes, a number or its digits where a
 * number goes, a path argument present and not empty); every rule on the values (bounds, enums, formats,
 * combinations) is the route's zod schema's, applied when the request runs. JSON null counts as an absent argument,
 * since a URL cannot say null; an absent argument with an MCP default (a page size) gets it.
 */
export function restRequestOf(
  tool: McpTool,
  args: Record<string, unknown> | undefined,
): { ok: true; pathAndQuery: string; chart?: true } | { ok: false; error: ErrorEnvelope } {
  const { [INCLUDE_CHART]: includeChart, ...given } = args ?? {};
  const names = tool.params.map((p) => p.name);
  if (includeChart !== undefined && includeChart !== null) {
    if (!CHART_TOOLS.has(tool.name))
      return {
        ok: false,
        error: argError(
          INCLUDE_CHART,
          `unknown argument; ${tool.name} takes ${names.join(", ") || "no arguments"}`,
          names,
        ),
      };
    if (typeof includeChart !== "boolean")
      return { ok: false, error: argError(INCLUDE_CHART, "must be true or false") };
  }
  for (const name of Object.keys(given)) {
    if (!names.includes(name))
      return {
        ok: false,
        error: argError(name, `unknown argument; ${tool.name} takes ${names.join(", ") || "no arguments"}`, names),
      };
  }
  let path = tool.path;
  const query = new URLSearchParams();
  for (const p of tool.params) {
    const v = given[p.name] ?? tool.defaults[p.name];
    if (v === undefined || v === null) {
      if (p.in === "path") return { ok: false, error: argError(p.name, "required") };
      continue;
    }
    const texts = textsOf(p, v);
    if (!texts.ok) return texts;
    if (p.in === "query") {
      for (const x of texts.values) query.append(p.name, x);
    } else {
      if (texts.values[0] === "") return { ok: false, error: argError(p.name, "must not be empty") };
      path = path.replace(`{${p.name}}`, encodeURIComponent(texts.values[0]!));
    }
  }
  const qs = query.toString();
  return {
    ok: true,
    pathAndQuery: qs ? `${path}?${qs}` : path,
    ...(includeChart === true ? { chart: true as const } : {}),
  };
}
