// A tool's output: its schema, derived from the REST operation's responses in the OpenAPI document (the route's zod
// schemas), and the REST body as a tool returns it, with what MCP adds (src/contract/mcp.ts MCP_TOOLS):
//   - `meta.truncated` on paged results: true when more rows match than the result holds;
//   - `has_data` on search results: whether the service holds observations of the indicator (coverage.regions_held > 0).
// The schema is every structuredContent the tool can return: each success body (200, 202, 207), the error envelope,
// and for paid tools the payment request (McpPaymentRequest). Error results are in it because the official SDK
// client (1.32 and 2.x) validates structuredContent against outputSchema whenever it is present, isError or not.
import type { JsonObject } from "../contract/operations";

export type { ToolPolicy } from "../contract/mcp";
import type { ToolPolicy } from "../contract/mcp";

const COMPONENT_REF = /^#\/components\/schemas\//;

/** A component copied for `$defs`: refs pointed at `#/$defs/`, OpenAPI examples left out. */
function copySchema(node: unknown, seen: Set<string>): unknown {
  if (node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((n) => copySchema(n, seen));
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node as JsonObject)) {
    if (k === "example" || k === "examples") continue;
    if (k === "$ref" && typeof v === "string" && COMPONENT_REF.test(v)) {
      const name = v.replace(COMPONENT_REF, "");
      seen.add(name);
      out.$ref = `#/$defs/${name}`;
    } else out[k] = copySchema(v, seen);
  }
  return out;
}

/** The distinct JSON schemas of the operation's 2xx answers; an `anyOf` at the top counts as its members. */
function successSchemas(op: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const seen = new Set<string>();
  const add = (s: JsonObject) => {
    const key = JSON.stringify(s);
    if (!seen.has(key)) seen.add(key), out.push(s);
  };
  for (const [status, response] of Object.entries<JsonObject>(op.responses ?? {})) {
    const schema = /^2\d\d$/.test(status)
      ? (response.content?.["application/json"]?.schema as JsonObject | undefined)
      : undefined;
    if (!schema) continue;
    if (Array.isArray(schema.anyOf) && Object.keys(schema).length === 1) schema.anyOf.forEach(add);
    else add(schema);
  }
  return out;
}

/** The object schema a `$ref` (or an inline schema) names among `defs`. */
const target = (s: JsonObject, defs: JsonObject): JsonObject | undefined =>
  typeof s.$ref === "string" ? defs[s.$ref.replace(/^#\/\$defs\//, "")] : s;

const TRUNCATED = {
  type: "boolean",
  description: "Added over MCP: true when more rows match than this result holds (page on with offset or cursor).",
};
const HAS_DATA = {
  type: "boolean",
  description: "Added over MCP: the service holds observations of this indicator (coverage.regions_held > 0).",
};

function addProperty(schema: JsonObject | undefined, name: string, property: JsonObject): void {
  if (!schema || typeof schema.properties !== "object") return;
  schema.properties[name] = property;
  schema.required = [...new Set([...(schema.required ?? []), name])];
}

/** The components every tool's error results use, and a paid tool's payment request (src/schemas: Error, McpPaymentRequest). */
const ERROR_COMPONENT = "Error";
const PAYMENT_REQUEST_COMPONENT = "McpPaymentRequest";

/**
 * The tool's outputSchema: `anyOf` the operation's success body schemas (get_latest alone has three: a single value,
 * a batch and a provisioning body), the error envelope and, for a paid operation, the payment request; with the
 * components they use in `$defs`, and MCP's additions.
 */
export function outputSchemaOf(op: JsonObject, components: JsonObject, policy: ToolPolicy, paid: boolean): JsonObject {
  const used = new Set<string>();
  const successes = successSchemas(op).map((s) => copySchema(s, used) as JsonObject);
  const refusals = [ERROR_COMPONENT, ...(paid ? [PAYMENT_REQUEST_COMPONENT] : [])].map(
    (name) => (used.add(name), { $ref: `#/$defs/${name}` }),
  );
  const defs: JsonObject = {};
  // Components used by components: copy until nothing new is named.
  for (let pending = [...used]; pending.length; ) {
    const next = new Set<string>();
    for (const name of pending) {
      if (!components[name])
        throw new Error(`MCP output schema of ${op.operationId}: no component ${name} in the OpenAPI document`);
      defs[name] = copySchema(components[name], next);
    }
    pending = [...next].filter((n) => !(n in defs));
  }
  for (const root of successes) {
    const body = target(root, defs);
    if (policy.paging) addProperty(target(body?.properties?.meta ?? {}, defs), "truncated", TRUNCATED);
    if (policy.heldFlag) addProperty(target(body?.properties?.data?.items ?? {}, defs), "has_data", HAS_DATA);
  }
  return { type: "object", anyOf: [...successes, ...refusals], $defs: defs };
}

type Body = Record<string, any>;

/** The REST body as the tool returns it: MCP's additions, when the policy asks for them. */
export function toolBody(body: Body, policy: ToolPolicy): Body {
  let out = body;
  if (policy.heldFlag && Array.isArray(out.data)) {
    out = {
      ...out,
      data: out.data.map((item: Body) =>
        item?.coverage ? { ...item, has_data: item.coverage.regions_held > 0 } : item,
      ),
    };
  }
  const meta = out.meta;
  if (policy.paging && meta && typeof meta === "object" && Array.isArray(out.data)) {
    const truncated =
      policy.paging === "cursor"
        ? typeof meta.next_cursor === "string"
        : typeof meta.total === "number" && meta.total > (meta.offset ?? 0) + out.data.length;
    out = { ...out, meta: { ...meta, truncated } };
  }
  return out;
}
