// The contract generator over a small app whose routes are fixed here, so bounds, enums, defaults and prices can be
// asserted exactly (the real app's routes change as resources land). The llms renderers are openapi-llms.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { App } from "../../src/http/app-env";
import { priceList, publishedPriceList } from "../../src/pricing";
import {
  annotatePrices,
  buildOpenApiDocument,
  declaredSurfaces,
  describePaymentHeaders,
  operationPrices,
  publishedPrices,
} from "../../src/docs/openapi";
import { listOperations } from "../../src/contract/operations";
import { PAID_SECURITY, TAG_DESCRIPTIONS } from "../../src/docs/openapi-access";
import { constraints, typeLabel } from "../../src/docs/llms";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

import { BASE, tinyApp } from "./tiny-app";

describe("buildOpenApiDocument", () => {
  const doc = buildOpenApiDocument(tinyApp(), BASE, { get_panel: "panel" }) as any;

  test("is a valid OpenAPI 3.1 document with the contract version and servers", async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(doc));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe("3.1");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers).toEqual([{ url: BASE }]);
    expect(doc.info.license).toEqual({ name: "Proprietary", identifier: "LicenseRef-Proprietary" });
    // A tag the table describes gets its description; an unknown one is published bare (and fails the lint test).
    expect(doc.tags).toEqual([
      { name: "Things" },
      { name: "Ask" },
      { name: "Data", description: TAG_DESCRIPTIONS.Data },
    ]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual([
      "ApiKeyBearer",
      "ApiKeyHeader",
      "X402Payment",
      "L402",
    ]);
    expect(doc.components.securitySchemes.X402Payment).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-PAYMENT",
    });
    expect(doc.components.securitySchemes.L402).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
  });

  test("security: paid operations take a key or either payment rail (no anonymous alternative), others state []", () => {
    const ops = Object.fromEntries(listOperations(doc).map((e) => [e.operation.operationId, e.operation]));
    expect(PAID_SECURITY).toEqual([{ ApiKeyBearer: [] }, { ApiKeyHeader: [] }, { X402Payment: [] }, { L402: [] }]);
    for (const id of ["get_thing_observations", "ask", "get_panel"]) expect(ops[id].security).toEqual(PAID_SECURITY);
    expect(ops.list_things.security).toEqual([]);
  });

  test("every operation documents the request guard's 400; a declared 400 is kept", () => {
    const ops = Object.fromEntries(listOperations(doc).map((e) => [e.operation.operationId, e.operation]));
    expect(ops.list_things.responses["400"].description).toBe("Invalid parameter");
    expect(ops.get_thing_observations.responses["400"].description).toBe("Invalid parameter");
    expect(ops.ask.responses["400"].description).toBe("Invalid parameter");
    const bare = new OpenAPIHono() as unknown as App;
    bare.openapi(
      createRoute({ method: "get", path: "/ping", operationId: "ping", responses: { 200: { description: "ok" } } }),
      (c) => c.text("ok"),
    );
    const op = (buildOpenApiDocument(bare, BASE) as any).paths["/ping"].get;
    expect(op.responses["400"]).toEqual({
      description: "Invalid request (a NUL character in the path or query)",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
  });

  test("the published price list: only the surfaces of priced operations, with the svc: price and the free catalog", () => {
    expect(publishedPrices(doc)).toEqual({
      observations: "0.01",
      derived_series: "0.05",
      panel: "0.05",
      ask: "0.25",
      ask_briefing: "1.50",
      catalog: "0.00",
    });
    expect(doc.info.description).toContain("| Panel | `panel` | 0.05 |");
    expect(doc.info.description).not.toContain("`signals`");
    expect(publishedPriceList([])).toEqual({ catalog: "0.00" });
    expect(publishedPriceList(["latest_batch"])).toEqual({ latest_batch: "0.01", catalog: "0.00" });
    expect(publishedPriceList(["latest", "latest_batch"])).toEqual({
      latest: "0.01",
      derived_series: "0.05",
      latest_batch: "0.01",
      catalog: "0.00",
    });
  });

  test("prices declared with x-price-surface and passed by operationId, from the pricing table", () => {
    const ops = Object.fromEntries(listOperations(doc).map((e) => [e.operation.operationId, e.operation]));
    expect(ops.get_thing_observations["x-price-usd"]).toBe("0.01");
    expect(ops.get_thing_observations["x-price-usd-by-surface"]).toEqual({
      observations: "0.01",
      derived_series: "0.05",
    });
    expect(ops.ask["x-price-usd"]).toBe("0.25");
    expect(ops.ask["x-price-usd-by-surface"]).toEqual({ ask: "0.25", ask_briefing: "1.50" });
    expect(ops.get_panel["x-price-usd"]).toBe("0.05");
    expect(ops.get_panel["x-price-usd-by-surface"]).toBeUndefined();
    expect(ops.list_things["x-price-usd"]).toBeUndefined();
    // z.coerce.number() comes out of the generator as ["integer", "null"]; a query parameter is never null.
    expect(ops.list_things.parameters[0].schema).toEqual({
      type: "integer",
      minimum: 0,
      maximum: 100,
      default: 50,
      description: "Page size",
    });
    expect(ops.get_thing_observations.description).toBe(
      "**Price:** 0.01 USD per request (0.05 for derived series), or covered by an API key's plan.",
    );
  });

  test("paid operations document the payment headers: PAYMENT-REQUIRED and WWW-Authenticate on the 402, PAYMENT-RESPONSE on success", () => {
    const ops = Object.fromEntries(listOperations(doc).map((e) => [e.operation.operationId, e.operation]));
    for (const id of ["get_thing_observations", "ask", "get_panel"]) {
      expect(ops[id].responses["402"].headers).toEqual({
        "PAYMENT-REQUIRED": { $ref: "#/components/headers/PaymentRequired" },
        "WWW-Authenticate": { $ref: "#/components/headers/L402Challenge" },
      });
      expect(ops[id].responses["200"].headers).toEqual({
        "PAYMENT-RESPONSE": { $ref: "#/components/headers/PaymentResponse" },
        "X-PAYMENT-RESPONSE": { $ref: "#/components/headers/XPaymentResponse" },
      });
      expect(ops[id].responses["400"].headers).toBeUndefined();
    }
    expect(ops.list_things.responses["200"].headers).toBeUndefined();
    const { headers, schemas } = doc.components;
    expect(Object.keys(headers)).toEqual(["PaymentRequired", "L402Challenge", "PaymentResponse", "XPaymentResponse"]);
    expect(headers.PaymentRequired.schema).toEqual({
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "application/json",
      contentSchema: { $ref: "#/components/schemas/X402PaymentRequired" },
    });
    expect(headers.PaymentResponse.schema.contentSchema).toEqual({ $ref: "#/components/schemas/X402SettleResponse" });
    const l402 = new RegExp(headers.L402Challenge.schema.pattern);
    expect(l402.test('L402 macaroon="AgEDc3Zj+/A=", invoice="lnbcrt100n1abc"')).toBe(true);
    expect(l402.test('L402 version="0", token="AgEDc3Zj", invoice="lnbcrt100n1abc"')).toBe(false);
    expect(schemas.X402PaymentRequired.required).toEqual(["x402Version", "resource", "accepts"]);
    expect(schemas.X402PaymentRequired.properties.accepts.items).toEqual({
      $ref: "#/components/schemas/X402PaymentRequirements",
    });
    expect(schemas.X402PaymentRequirements.required).toEqual([
      "scheme",
      "network",
      "amount",
      "asset",
      "payTo",
      "maxTimeoutSeconds",
      "extra",
    ]);
    expect(schemas.X402SettleResponse.required).toEqual(["success", "transaction", "network"]);
  });

  test("a paid operation that declared no 402 gets one with the payment headers", () => {
    const fresh = buildOpenApiDocument(tinyApp(), BASE) as any;
    describePaymentHeaders(fresh, ["list_things"]);
    const op = listOperations(fresh).find((e) => e.operation.operationId === "list_things")!.operation;
    expect(op.responses["402"]).toEqual({
      description: "Payment required (x402 and L402 challenges)",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      headers: {
        "PAYMENT-REQUIRED": { $ref: "#/components/headers/PaymentRequired" },
        "WWW-Authenticate": { $ref: "#/components/headers/L402Challenge" },
      },
    });
  });

  test("every price in the table can annotate an operation", () => {
    for (const [surface, usd] of Object.entries(priceList())) {
      if (surface === "catalog" || surface === "derived_series") continue;
      expect(operationPrices([surface as any]).usd).toBe(usd);
    }
  });

  test("a price for an unknown operation or an unknown surface is a wiring error", () => {
    const fresh = buildOpenApiDocument(tinyApp(), BASE);
    expect(() => annotatePrices(fresh, { no_such_op: "panel" })).toThrow(
      "price given for unknown operationId no_such_op",
    );
    expect(() => annotatePrices(fresh, { get_panel: "nonsense" as any })).toThrow('unknown price surface "nonsense"');
    expect(declaredSurfaces(fresh)).toEqual({ get_thing_observations: ["observations"], ask: ["ask", "ask_briefing"] });
    // A surface passed by operationId is recorded on the operation, so the document says what it publishes.
    annotatePrices(fresh, { get_panel: "panel" });
    expect(declaredSurfaces(fresh).get_panel).toEqual(["panel"]);
  });
});

describe("schema words", () => {
  test("types, bounds, enums and defaults", () => {
    expect(typeLabel({ type: "string", format: "uuid" })).toBe("string (uuid)");
    expect(typeLabel({ type: ["integer", "null"] })).toBe("integer or null");
    expect(typeLabel({ anyOf: [{ $ref: "#/components/schemas/Region" }, { type: "null" }] })).toBe("Region or null");
    expect(typeLabel({ type: "array", items: { $ref: "#/components/schemas/Thing" } })).toBe("array of Thing");
    expect(typeLabel({ type: "string", enum: ["asc", "desc"] })).toBe("one of `asc`, `desc`");
    expect(constraints({ type: "integer", minimum: 0, maximum: 100, default: 50 })).toEqual([
      "0 to 100",
      "default `50`",
    ]);
    expect(constraints({ type: "integer", minimum: 0 })).toEqual(["at least 0"]);
    expect(constraints({ type: "string", minLength: 1, maxLength: 500 })).toEqual(["1 to 500 characters"]);
    expect(constraints({ type: "array", maxItems: 20 })).toEqual(["at most 20 items"]);
    expect(constraints({ type: "string", pattern: "^all$" })).toEqual(["pattern `^all$`"]);
  });
});
