// The x402 bazaar extension in its two forms (payments/x402/bazaar.ts): the full one for the 402 body, the compact
// one for PAYMENT-REQUIRED. Both must pass the check a facilitator runs before cataloguing (@x402/extensions
// validateDiscoveryExtension: Ajv 2020, `info` against `schema`).
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import type { Discovery } from "payments";
import { bazaarExtension, typedQueryValue } from "../../payments/x402/bazaar";

function errors(ext: { info: unknown; schema: unknown }): string[] {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(ext.schema as object);
  return validate(ext.info) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"}: ${e.message}`);
}

const LONG = "A parameter description long enough to matter in a header. ".repeat(20);
const discovery: Discovery = {
  method: "GET",
  queryParams: { indicator: "PAYEMS", limit: "5", include_revisions: "true", order: "asc", start_date: "2020-01-01" },
  queryParamsSchema: {
    properties: {
      indicator: { type: "string", minLength: 1, maxLength: 200, description: LONG },
      limit: { type: "integer", minimum: 0, maximum: 1000, default: 100, description: LONG },
      include_revisions: { type: "boolean", default: false, description: LONG },
      order: { type: "string", enum: ["asc", "desc"], default: "desc", description: LONG },
      start_date: { type: "string", format: "date", description: LONG },
    },
    required: ["indicator"],
  },
  outputSchema: {
    type: "object",
    properties: { data: { type: "array", items: { type: "object", properties: { value: { type: "number" } } } } },
  },
};

describe("bazaar extension", () => {
  test("full: the request's query typed as its parameters are, every parameter's schema, and the response's schema", () => {
    const ext = bazaarExtension(discovery, "full") as any;
    expect(ext.info).toEqual({
      input: {
        type: "http",
        method: "GET",
        queryParams: { indicator: "PAYEMS", limit: 5, include_revisions: true, order: "asc", start_date: "2020-01-01" },
      },
      output: { type: "json", format: "application/json" },
    });
    expect(ext.schema.properties.input.properties.queryParams).toEqual({
      type: "object",
      ...discovery.queryParamsSchema,
    });
    expect(ext.schema.properties.output.properties.example).toEqual(discovery.outputSchema);
    expect(errors(ext)).toEqual([]);
  });

  test("compact: names, types, formats, enums and the required list; no example, descriptions, bounds or output schema", () => {
    const ext = bazaarExtension(discovery, "compact") as any;
    expect(ext.info).toEqual({
      input: { type: "http", method: "GET" },
      output: { type: "json", format: "application/json" },
    });
    expect(ext.schema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        input: {
          type: "object",
          properties: {
            type: { type: "string", const: "http" },
            method: { type: "string", enum: ["GET"] },
            queryParams: {
              type: "object",
              properties: {
                indicator: { type: "string" },
                limit: { type: "integer" },
                include_revisions: { type: "boolean" },
                order: { type: "string", enum: ["asc", "desc"] },
                start_date: { type: "string", format: "date" },
              },
              required: ["indicator"],
            },
          },
          required: ["type", "method"],
          additionalProperties: false,
        },
        output: {
          type: "object",
          properties: { type: { type: "string" }, format: { type: "string" } },
          required: ["type"],
        },
      },
      required: ["input"],
    });
    expect(errors(ext)).toEqual([]);
    // Its size does not follow the descriptions or the request's query.
    const plain = bazaarExtension(
      {
        ...discovery,
        queryParams: {},
        queryParamsSchema: {
          ...discovery.queryParamsSchema!,
          properties: Object.fromEntries(
            Object.entries(discovery.queryParamsSchema!.properties).map(([k, v]) => [
              k,
              { ...(v as object), description: "x" },
            ]),
          ),
        },
      },
      "compact",
    );
    expect(JSON.stringify(ext)).toBe(JSON.stringify(plain));
  });

  test("path parameters are described in both forms; a route without a parameter schema still validates", () => {
    const d: Discovery = { method: "GET", queryParams: {}, pathParams: { code: "US" } };
    for (const form of ["full", "compact"] as const) {
      const ext = bazaarExtension(d, form) as any;
      expect(ext.info.input.pathParams).toEqual({ code: "US" });
      expect(ext.schema.properties.input.properties.pathParams).toEqual({
        type: "object",
        properties: { code: { type: "string" } },
      });
      expect(errors(ext)).toEqual([]);
    }
  });

  test("typedQueryValue: numbers and booleans become JSON values only when the schema types them and the text is one", () => {
    expect(typedQueryValue("5", { type: "integer" })).toBe(5);
    expect(typedQueryValue("-12", { type: "integer" })).toBe(-12);
    expect(typedQueryValue("2.5", { type: "number" })).toBe(2.5);
    expect(typedQueryValue("2.5", { type: "integer" })).toBe("2.5");
    expect(typedQueryValue("9007199254740993", { type: "integer" })).toBe("9007199254740993");
    expect(typedQueryValue("abc", { type: "integer" })).toBe("abc");
    expect(typedQueryValue("true", { type: "boolean" })).toBe(true);
    expect(typedQueryValue("false", { type: "boolean" })).toBe(false);
    expect(typedQueryValue("1", { type: "boolean" })).toBe("1");
    expect(typedQueryValue("5", { type: "string" })).toBe("5");
    expect(typedQueryValue("5", { type: ["string", "null"] })).toBe("5");
    expect(typedQueryValue("5", undefined)).toBe("5");
    // A repeatable parameter: its comma-separated values.
    expect(typedQueryValue("extreme,acceleration", { type: "array", items: { type: "string" } })).toEqual([
      "extreme",
      "acceleration",
    ]);
    expect(typedQueryValue("US", { type: "array", items: { type: "string" } })).toEqual(["US"]);
  });
});
