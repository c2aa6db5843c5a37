// The x402 `bazaar` discovery extension ({ info, schema }) describing a paid route's input and output, in the
// shape @x402/extensions builds for query-parameter methods (shared/research/x402.md §1.5; spec
// specs/extensions/bazaar.md). Two forms with the same `info`:
//   - "full" (the 402 body): every query parameter's JSON Schema with its description and bounds, and the JSON
//     Schema of a successful response under `output.example`;
//   - "compact" (the PAYMENT-REQUIRED header): the spec's required minimum, i.e. an input schema with each query
//     parameter's name, type, format and enum and the required list; no descriptions, bounds or output schema, and
//     no example query in `info` (the optional `queryParams`: `resource.url` already holds the request's query, so
//     the header grows with the query once, not twice). The header must stay small: proxies answer 502 when
//     response headers outgrow their buffers (nginx: 4-8 KB).
// The full form's `info.input.queryParams` is the request's own query, each value typed as its parameter's schema
// says (a query string is text; `limit=5` is the integer 5), so that `info` validates against `schema` as
// facilitators require (they check `info` against `schema` before cataloguing).
import type { Discovery } from "../types";

export type BazaarForm = "full" | "compact";
type Json = Record<string, unknown>;

/** The JSON Schema keywords the compact form keeps of each query parameter. */
const COMPACT_KEYWORDS = ["type", "format", "enum"] as const;

function compactParam(schema: unknown): Json {
  const s = (schema ?? {}) as Json;
  const out: Json = {};
  for (const k of COMPACT_KEYWORDS) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

function typesOf(schema: unknown): string[] {
  const t = ((schema ?? {}) as Json).type;
  return Array.isArray(t) ? t.map(String) : typeof t === "string" ? [t] : [];
}

/** A query value as the JSON value its parameter's schema types it; text when the schema says text or cannot take it. */
export function typedQueryValue(value: string, schema: unknown): unknown {
  const types = typesOf(schema);
  if (types.includes("string") || types.length === 0) return value;
  // A repeatable parameter: the request's values, comma-separated (how the gate hands a repeated key over).
  if (types.includes("array")) return value.split(",");
  if ((types.includes("integer") || types.includes("number")) && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(value)) {
    const n = Number(value);
    if (Number.isFinite(n) && (types.includes("number") || Number.isSafeInteger(n))) return n;
  }
  if (types.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  return value;
}

export function bazaarExtension(d: Discovery, form: BazaarForm = "full"): { info: unknown; schema: unknown } {
  const props = d.queryParamsSchema?.properties ?? {};
  const queryParams = Object.fromEntries(
    Object.entries(d.queryParams).map(([k, v]) => [k, typedQueryValue(v, props[k])]),
  );
  const input: Json = { type: "http", method: d.method, ...(form === "full" ? { queryParams } : {}) };
  if (d.pathParams && Object.keys(d.pathParams).length) input.pathParams = d.pathParams;

  const required = d.queryParamsSchema?.required;
  const queryParamsSchema: Json =
    form === "full"
      ? { type: "object", ...(d.queryParamsSchema ?? { properties: {} }) }
      : {
          type: "object",
          properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, compactParam(v)])),
          ...(required?.length ? { required } : {}),
        };
  const inputProps: Json = {
    type: { type: "string", const: "http" },
    method: { type: "string", enum: [d.method] },
    queryParams: queryParamsSchema,
  };
  if (input.pathParams)
    inputProps.pathParams = {
      type: "object",
      properties: Object.fromEntries(Object.keys(d.pathParams!).map((k) => [k, { type: "string" }])),
    };
  const outputProps: Json = { type: { type: "string" }, format: { type: "string" } };
  if (form === "full" && d.outputSchema) outputProps.example = d.outputSchema;
  const schema: Json = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      input: { type: "object", properties: inputProps, required: ["type", "method"], additionalProperties: false },
      output: { type: "object", properties: outputProps, required: ["type"] },
    },
    required: ["input"],
  };
  return { info: { input, output: { type: "json", format: "application/json" } }, schema };
}
