// The contract generator and the llms renderers over a small app whose routes are fixed here, so bounds,
// enums, defaults and prices can be asserted exactly (the real app's routes change as resources land).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { OpenAPIHono, createRoute, z } from "@hono/zod-openapi";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { App } from "../../src/http/app-env";
import { errorResponses } from "../../src/schemas/errors";
import { priceList, publishedPriceList } from "../../src/pricing";
import { PLANS, checkoutPlanUrls, checkoutUrl, publicPlans } from "../../src/plans";
import { annotatePrices, buildOpenApiDocument, declaredSurfaces, describePaymentHeaders, operationPrices, publishedPrices } from "../../src/docs/openapi";
import { listOperations } from "../../src/contract/operations";
import { PAID_SECURITY, TAG_DESCRIPTIONS } from "../../src/docs/openapi-access";
import { constraints, renderLlmsFullTxt, renderLlmsTxt, typeLabel } from "../../src/docs/llms";
import { publicBaseUrl } from "../../src/contract/base-url";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const BASE = "https://api.example.com";

function tinyApp(): App {
  const app = new OpenAPIHono() as unknown as App;
  const thing = z.object({ id: z.string().uuid(), size: z.number().int().min(0).nullable() }).openapi("Thing");
  const ok = (schema: z.ZodTypeAny) => ({ 200: { description: "ok", content: { "application/json": { schema } } } });
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/things",
      operationId: "list_things",
      tags: ["Things"],
      summary: "List things",
      request: {
        query: z.object({
          limit: z.coerce.number().int().min(0).max(100).default(50).openapi({ param: { name: "limit", in: "query" }, description: "Page size" }),
          order: z.enum(["asc", "desc"]).default("desc").openapi({ param: { name: "order", in: "query" } }),
          q: z.string().min(1).max(500).openapi({ param: { name: "q", in: "query" } }),
        }),
      },
      responses: { ...ok(z.object({ data: z.array(thing), meta: z.object({ total: z.number().int() }) }).openapi("ThingList")), ...errorResponses(400, 500) },
    }),
    (c) => c.json({ data: [], meta: { total: 0 } }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/things/{id}/observations",
      operationId: "get_thing_observations",
      tags: ["Things"],
      summary: "Thing observations",
      "x-price-surface": "observations",
      request: { params: z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) }) },
      responses: { ...ok(z.object({ data: thing })), ...errorResponses(400, 401, 402, 403, 404, 429, 500) },
    }),
    (c) => c.json({ data: { id: "x", size: null } }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/ask",
      operationId: "ask",
      tags: ["Ask"],
      summary: "Ask a question",
      "x-price-surface": ["ask", "ask_briefing"],
      responses: { ...ok(z.object({ answer: z.string().nullable() })), ...errorResponses(400, 402, 500) },
    }),
    (c) => c.json({ answer: null }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/panel",
      operationId: "get_panel",
      tags: ["Data"],
      summary: "Panel",
      responses: { ...ok(z.object({ dates: z.array(z.string()) })), ...errorResponses(400, 402, 500) },
    }),
    (c) => c.json({ dates: [] }, 200),
  );
  return app;
}

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
    expect(doc.tags).toEqual([{ name: "Things" }, { name: "Ask" }, { name: "Data", description: TAG_DESCRIPTIONS.Data }]);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(["ApiKeyBearer", "ApiKeyHeader", "X402Payment", "L402"]);
    expect(doc.components.securitySchemes.X402Payment).toMatchObject({ type: "apiKey", in: "header", name: "X-PAYMENT" });
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
    bare.openapi(createRoute({ method: "get", path: "/ping", operationId: "ping", responses: { 200: { description: "ok" } } }), (c) => c.text("ok"));
    const op = (buildOpenApiDocument(bare, BASE) as any).paths["/ping"].get;
    expect(op.responses["400"]).toEqual({
      description: "Invalid request (a NUL character in the path or query)",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
  });

  test("the published price list: only the surfaces of priced operations, with the svc: price and the free catalog", () => {
    expect(publishedPrices(doc)).toEqual({ observations: "0.01", derived_series: "0.05", panel: "0.05", ask: "0.25", ask_briefing: "1.50", catalog: "0.00" });
    expect(doc.info.description).toContain("| Panel | `panel` | 0.05 |");
    expect(doc.info.description).not.toContain("`signals`");
    expect(publishedPriceList([])).toEqual({ catalog: "0.00" });
    expect(publishedPriceList(["latest_batch"])).toEqual({ latest_batch: "0.01", catalog: "0.00" });
    expect(publishedPriceList(["latest", "latest_batch"])).toEqual({ latest: "0.01", derived_series: "0.05", latest_batch: "0.01", catalog: "0.00" });
  });

  test("prices declared with x-price-surface and passed by operationId, from the pricing table", () => {
    const ops = Object.fromEntries(listOperations(doc).map((e) => [e.operation.operationId, e.operation]));
    expect(ops.get_thing_observations["x-price-usd"]).toBe("0.01");
    expect(ops.get_thing_observations["x-price-usd-by-surface"]).toEqual({ observations: "0.01", derived_series: "0.05" });
    expect(ops.ask["x-price-usd"]).toBe("0.25");
    expect(ops.ask["x-price-usd-by-surface"]).toEqual({ ask: "0.25", ask_briefing: "1.50" });
    expect(ops.get_panel["x-price-usd"]).toBe("0.05");
    expect(ops.get_panel["x-price-usd-by-surface"]).toBeUndefined();
    expect(ops.list_things["x-price-usd"]).toBeUndefined();
    // z.coerce.number() comes out of the generator as ["integer", "null"]; a query parameter is never null.
    expect(ops.list_things.parameters[0].schema).toEqual({ type: "integer", minimum: 0, maximum: 100, default: 50, description: "Page size" });
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
    expect(schemas.X402PaymentRequired.properties.accepts.items).toEqual({ $ref: "#/components/schemas/X402PaymentRequirements" });
    expect(schemas.X402PaymentRequirements.required).toEqual(["scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds", "extra"]);
    expect(schemas.X402SettleResponse.required).toEqual(["success", "transaction", "network"]);
  });

  test("a paid operation that declared no 402 gets one with the payment headers", () => {
    const fresh = buildOpenApiDocument(tinyApp(), BASE) as any;
    describePaymentHeaders(fresh, ["list_things"]);
    const op = listOperations(fresh).find((e) => e.operation.operationId === "list_things")!.operation;
    expect(op.responses["402"]).toEqual({
      description: "Payment required (x402 and L402 challenges)",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      headers: { "PAYMENT-REQUIRED": { $ref: "#/components/headers/PaymentRequired" }, "WWW-Authenticate": { $ref: "#/components/headers/L402Challenge" } },
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
    expect(() => annotatePrices(fresh, { no_such_op: "panel" })).toThrow("price given for unknown operationId no_such_op");
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
    expect(constraints({ type: "integer", minimum: 0, maximum: 100, default: 50 })).toEqual(["0 to 100", "default `50`"]);
    expect(constraints({ type: "integer", minimum: 0 })).toEqual(["at least 0"]);
    expect(constraints({ type: "string", minLength: 1, maxLength: 500 })).toEqual(["1 to 500 characters"]);
    expect(constraints({ type: "array", maxItems: 20 })).toEqual(["at most 20 items"]);
    expect(constraints({ type: "string", pattern: "^all$" })).toEqual(["pattern `^all$`"]);
  });
});

describe("llms files", () => {
  const doc = buildOpenApiDocument(tinyApp(), BASE, { get_panel: "panel" });
  const compact = renderLlmsTxt(doc, { baseUrl: BASE });
  const full = renderLlmsFullTxt(doc, { baseUrl: BASE });

  test("llms.txt: one line per operation with its summary, absolute URL and price", () => {
    expect(compact.startsWith("# Economic Time-Series API\n\n> ")).toBe(true);
    expect(compact).toContain("- [GET /v1/things](https://api.example.com/v1/things): List things. Free, no credential.");
    expect(compact).toContain(
      "- [GET /v1/things/{id}/observations](https://api.example.com/v1/things/{id}/observations): Thing observations. Paid: 0.01 USD per request (0.05 for derived series), or an API key.",
    );
    expect(compact).toContain("- [GET /v1/ask](https://api.example.com/v1/ask): Ask a question. Paid: 0.25 USD per request (1.50 for ask briefing), or an API key.");
    expect(compact).toContain("- [GET /v1/panel](https://api.example.com/v1/panel): Panel. Paid: 0.05 USD per request, or an API key.");
    expect(compact).toContain("- Ask with `depth=briefing`: 1.50 USD");
    expect(compact).toContain(
      "- Developer: 19.00 USD per month, 100,000 requests/month included, 300 requests/min, overage 0.50 USD per 1,000 (subscribe: https://api.example.com/checkout/developer)",
    );
    expect(compact).toContain("Authorization: L402 <macaroon>:<preimage>");
  });

  test("llms-full.txt: parameters with bounds, defaults and enums; fields; error codes", () => {
    expect(full).toContain("- `limit` (query; integer; optional; 0 to 100; default `50`): Page size");
    expect(full).toContain("- `order` (query; one of `asc`, `desc`; optional; default `desc`)");
    expect(full).toContain("- `q` (query; string; required; 1 to 500 characters)");
    expect(full).toContain("- `id` (path; string; required)");
    expect(full).toContain("- 200 application/json: ok; body ThingList\n  - `data` (array of Thing; required)\n  - `meta` (object; required)\n    - `total` (integer; required)");
    expect(full).toContain(
      "- Errors (body `Error`): 400 INVALID_PARAMETER (Invalid parameter); 401 INVALID_API_KEY or EXPIRED_API_KEY (Missing, malformed, expired or unknown API key); " +
        "402 PAYMENT_REQUIRED (Payment required (x402 and L402 challenges)); 403 CATEGORY_NOT_ALLOWED or REGION_NOT_ALLOWED (The key lacks access to this indicator or region); " +
        "404 RESOURCE_NOT_FOUND (Not found); 429 RATE_LIMIT_EXCEEDED (Rate limit exceeded); 500 INTERNAL_SERVER_ERROR (Server error)",
    );
    expect(full).toContain("### Thing\n\nobject\n- `id` (string (uuid); required)\n- `size` (integer or null; required; at least 0)");
    expect(full).toContain("## Region codes");
    expect(full).toContain("## Catalog categories");
    expect(full).toContain("| `SERVICE_UNAVAILABLE` | 503 |");
    expect(full).toContain("| Professional | 99.00 per month | 1,000,000 requests/month | 1,000 requests/min | 0.25 per 1,000 |");
  });

  test("every operation appears in both files", () => {
    for (const e of listOperations(doc)) {
      expect(compact).toContain(`[${e.method.toUpperCase()} ${e.path}](${BASE}${e.path})`);
      expect(full).toContain(`### ${e.method.toUpperCase()} ${e.path}\n`);
    }
  });
});

describe("plans and base URL", () => {
  test("the spec's plan table", () => {
    expect(publicPlans(BASE)).toEqual([
      { id: "free", name: "Free", price_usd_per_month: "0.00", included_requests_per_month: null, rate_limit_per_minute: 60, overage_usd_per_1000_requests: null, checkout: null },
      {
        id: "developer", name: "Developer", price_usd_per_month: "19.00", included_requests_per_month: 100_000, rate_limit_per_minute: 300,
        overage_usd_per_1000_requests: "0.50", checkout: "https://api.example.com/checkout/developer",
      },
      {
        id: "professional", name: "Professional", price_usd_per_month: "99.00", included_requests_per_month: 1_000_000, rate_limit_per_minute: 1_000,
        overage_usd_per_1000_requests: "0.25", checkout: "https://api.example.com/checkout/professional",
      },
    ]);
    expect(PLANS.free.rateLimitPerMinute).toBe(60);
    expect(checkoutUrl(BASE)).toBe("https://api.example.com/checkout");
    expect(checkoutPlanUrls(BASE)).toEqual({ developer: "https://api.example.com/checkout/developer", professional: "https://api.example.com/checkout/professional" });
  });

  test("PUBLIC_BASE_URL wins over the request; without it only a loopback origin is used, any other Host (a 10 KB one too) gives http://localhost", () => {
    expect(publicBaseUrl({ publicBaseUrl: "https://api.example.com" }, "http://10.0.0.5:3000/x?y=1")).toBe("https://api.example.com");
    expect(publicBaseUrl({ publicBaseUrl: "https://example.com/api/" }, "http://10.0.0.5:3000/")).toBe("https://example.com/api");
    expect(publicBaseUrl({ publicBaseUrl: null }, "http://10.0.0.5:3000/x?y=1")).toBe("http://localhost");
    expect(publicBaseUrl({ publicBaseUrl: null }, "http://127.0.0.1:3000/x?y=1")).toBe("http://127.0.0.1:3000");
    expect(publicBaseUrl({ publicBaseUrl: null }, `http://${"a".repeat(10_000)}.example/`)).toBe("http://localhost");
  });
});
