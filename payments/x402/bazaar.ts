// The x402 `bazaar` discovery extension ({ info, schema }) describing a paid route's input and output, in the
// shape @x402/extensions builds for query-parameter methods (shared/research/x402.md §1.5).
import type { Discovery } from "../types";

export function bazaarExtension(d: Discovery): { info: unknown; schema: unknown } {
  const input: Record<string, unknown> = { type: "http", method: d.method, queryParams: d.queryParams };
  if (d.pathParams && Object.keys(d.pathParams).length) input.pathParams = d.pathParams;
  const inputProps: Record<string, unknown> = {
    type: { type: "string", const: "http" },
    method: { type: "string", enum: [d.method] },
    queryParams: { type: "object", ...(d.queryParamsSchema ?? { properties: {} }) },
  };
  if (input.pathParams) inputProps.pathParams = { type: "object", properties: Object.fromEntries(Object.keys(d.pathParams!).map((k) => [k, { type: "string" }])) };
  const schema: Record<string, unknown> = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      input: { type: "object", properties: inputProps, required: ["type", "method"], additionalProperties: false },
      output: {
        type: "object",
        properties: { type: { type: "string" }, format: { type: "string" }, ...(d.outputSchema ? { example: d.outputSchema } : {}) },
        required: ["type"],
      },
    },
    required: ["input"],
  };
  return { info: { input, output: { type: "json", format: "application/json" } }, schema };
}
