// The OpenAPI 3.1 contract, generated from the routes registered on the app (their zod schemas, via the
// OpenAPIHono registry), never from a hand-kept list. Post-processing adds what the registry cannot know:
// servers, security schemes and requirements, tags, per-operation prices from src/pricing.ts, the payment headers of
// paid operations (x402 and L402), which the payment rail sets outside any route's schema, and the 400 the request
// guard answers on every route.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { App } from "../http/app-env";
import { PRICES_MICRO_USD, formatUsd, publishedPriceList, quote, type PriceList, type Surface } from "../pricing";
import { x402PaymentRequiredSchema, x402SettleResponseSchema } from "../schemas/payments";
import { listOperations, type JsonObject } from "../contract/operations";
import { CONTRACT_VERSION, SERVICE_NAME } from "../version";
import { collectTags, declareSecurity } from "./openapi-access";
import {
  AUTH_PARAGRAPH,
  DATA_PARAGRAPH,
  ERROR_PARAGRAPH,
  SERVICE_SUMMARY,
  VALUES_PARAGRAPH,
  planTableMarkdown,
  priceTableMarkdown,
} from "./service-text";

export { DISCOVERY_TAG } from "./openapi-access";

export type OpenApiDocument = ReturnType<App["getOpenAPI31Document"]>;
/** Route authors mark a paid operation with `"x-price-surface": "<surface>"` (or a list) in createRoute. */
export const PRICE_SURFACE_EXTENSION = "x-price-surface";

export type SurfaceMap = Record<string, Surface | readonly Surface[]>;

function surfacesOf(value: unknown): Surface[] {
  const list = Array.isArray(value) ? value : [value];
  for (const s of list) {
    if (typeof s !== "string" || !(s in PRICES_MICRO_USD))
      throw new Error(`unknown price surface ${JSON.stringify(s)}`);
  }
  return list as Surface[];
}

/** The surfaces declared on operations with the x-price-surface extension, by operationId. */
export function declaredSurfaces(doc: OpenApiDocument | JsonObject): SurfaceMap {
  const out: SurfaceMap = {};
  for (const { operation } of listOperations(doc)) {
    const declared = operation[PRICE_SURFACE_EXTENSION];
    if (declared !== undefined && operation.operationId) out[operation.operationId] = surfacesOf(declared);
  }
  return out;
}

/** Prices of one operation: the first surface's price, and every variant when there is more than one. */
export function operationPrices(surfaces: readonly Surface[]): { usd: string; bySurface: Record<string, string> } {
  const bySurface: Record<string, string> = {};
  for (const s of surfaces) {
    bySurface[s] = formatUsd(PRICES_MICRO_USD[s]);
    // Per-series surfaces cost more for svc:* series; ask the price function rather than restating the rule.
    const derived = quote(s, { indicator: "svc:probe", region: null, resource: "", reads: [] });
    if (derived.microUsd !== PRICES_MICRO_USD[s]) bySurface.derived_series = derived.usd;
  }
  return { usd: bySurface[surfaces[0]], bySurface };
}

/**
 * Sets `x-price-usd` (and `x-price-usd-by-surface` when an operation has several prices) on every operation
 * named in `surfaces`, records the surfaces in `x-price-surface` when they were passed by operationId, and
 * appends the price to the description. Returns the annotated operationIds. An operationId that is not in the
 * document throws: a price for a route that does not exist is a wiring mistake.
 */
export function annotatePrices(doc: OpenApiDocument | JsonObject, surfaces: SurfaceMap): string[] {
  const byId = new Map(listOperations(doc).map((e) => [e.operation.operationId as string | undefined, e.operation]));
  const done: string[] = [];
  for (const [operationId, declared] of Object.entries(surfaces)) {
    const op = byId.get(operationId);
    if (!op) throw new Error(`price given for unknown operationId ${operationId}`);
    const list = surfacesOf(declared);
    const { usd, bySurface } = operationPrices(list);
    op["x-price-usd"] = usd;
    if (Object.keys(bySurface).length > 1) op["x-price-usd-by-surface"] = bySurface;
    op[PRICE_SURFACE_EXTENSION] ??= declared;
    const variants = Object.entries(bySurface)
      .filter(([s]) => s !== list[0])
      .map(([s, p]) => `${p} for ${s.replace(/_/g, " ")}`);
    const line = `**Price:** ${usd} USD per request${variants.length ? ` (${variants.join(", ")})` : ""}, or covered by an API key's plan.`;
    op.description = op.description ? `${op.description}\n\n${line}` : line;
    done.push(operationId);
  }
  return done;
}

/** The payment headers as named header components; their base64 JSON payloads are described by zod schemas. */
export const PAYMENT_HEADER_COMPONENTS = {
  PaymentRequired: {
    description:
      "x402 v2 challenge: standard base64 (padded) of the JSON `X402PaymentRequired`. Sent when the x402 rail is on (the default). " +
      "The 402 body carries the same fields beside the error envelope, for clients that read bodies, with the same `accepts` " +
      "and the `bazaar` extension in full (the header has its compact form). Pay by retrying with " +
      "`PAYMENT-SIGNATURE` (or `X-PAYMENT`) holding the signed payment payload.",
    schema: {
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "application/json",
      contentSchema: { $ref: "#/components/schemas/X402PaymentRequired" },
    },
  },
  L402Challenge: {
    description:
      'L402 challenge, in the form Aperture-compatible clients parse: `L402 macaroon="<standard base64>", invoice="<BOLT11>"`. ' +
      "Pay the invoice, then retry with `Authorization: L402 <macaroon>:<preimage hex>` (`LSAT` is accepted too). The token pays " +
      "for one request to this indicator (or resource) and expires 10 minutes after issuance. Sent when the L402 rail is on (the default).",
    schema: { type: "string", pattern: '^L402 macaroon="[A-Za-z0-9+/]+={0,2}", invoice="ln[0-9a-z]+"$' },
  },
  PaymentResponse: {
    description:
      "x402 settlement receipt: standard base64 of the JSON `X402SettleResponse`. Present when the request was paid with x402.",
    schema: {
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "application/json",
      contentSchema: { $ref: "#/components/schemas/X402SettleResponse" },
    },
  },
  XPaymentResponse: {
    description:
      "The same value as `PAYMENT-RESPONSE`, for x402 v1 clients (sent when the payment came as a v1 payload).",
    schema: {
      type: "string",
      contentEncoding: "base64",
      contentMediaType: "application/json",
      contentSchema: { $ref: "#/components/schemas/X402SettleResponse" },
    },
  },
} as const;

/** The x402 payload schemas as OpenAPI 3.1 components, generated from their zod schemas with each document. */
function paymentComponentSchemas(): JsonObject {
  const scratch = new OpenAPIHono();
  scratch.openAPIRegistry.register("X402PaymentRequired", x402PaymentRequiredSchema);
  scratch.openAPIRegistry.register("X402SettleResponse", x402SettleResponseSchema);
  return (scratch.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "payments", version: "0" } }) as JsonObject)
    .components.schemas as JsonObject;
}

const headerRef = (name: keyof typeof PAYMENT_HEADER_COMPONENTS) => ({ $ref: `#/components/headers/${name}` });

/**
 * Adds the payment headers to the named (paid) operations: on the 402, `PAYMENT-REQUIRED` and `WWW-Authenticate`;
 * on every success response, `PAYMENT-RESPONSE` and `X-PAYMENT-RESPONSE`. A paid operation that declared no 402
 * gets one, since the payment rail answers it whatever the route declared.
 */
export function describePaymentHeaders(doc: OpenApiDocument | JsonObject, operationIds: string[]): void {
  const d = doc as JsonObject;
  d.components ??= {};
  d.components.schemas = { ...(d.components.schemas ?? {}), ...paymentComponentSchemas() };
  d.components.headers = { ...(d.components.headers ?? {}), ...structuredClone(PAYMENT_HEADER_COMPONENTS) };
  const ids = new Set(operationIds);
  for (const { operation } of listOperations(d)) {
    if (!ids.has(operation.operationId)) continue;
    operation.responses ??= {};
    operation.responses["402"] ??= {
      description: "Payment required (x402 and L402 challenges)",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
    const challenge = operation.responses["402"];
    challenge.headers = {
      ...(challenge.headers ?? {}),
      "PAYMENT-REQUIRED": headerRef("PaymentRequired"),
      "WWW-Authenticate": headerRef("L402Challenge"),
    };
    for (const [status, response] of Object.entries<JsonObject>(operation.responses)) {
      if (!/^2/.test(status)) continue;
      response.headers = {
        ...(response.headers ?? {}),
        "PAYMENT-RESPONSE": headerRef("PaymentResponse"),
        "X-PAYMENT-RESPONSE": headerRef("XPaymentResponse"),
      };
    }
  }
}

/** The price list this document publishes: the surfaces of its priced operations (see publishedPriceList). */
export function publishedPrices(doc: OpenApiDocument | JsonObject): PriceList {
  return publishedPriceList(Object.values(declaredSurfaces(doc)).flat());
}

/**
 * Where the served description lists what each source holds (src/routes/discovery.ts puts the catalog's lines here
 * as it serves the document, so the dates are the data's, never written by hand).
 */
export const DATA_HOLDINGS_PLACE = "What each source holds is read from the catalog when this description is served.";

export function serviceDescription(baseUrl: string, prices: PriceList): string {
  return [
    SERVICE_SUMMARY,
    "## Data",
    DATA_PARAGRAPH,
    VALUES_PARAGRAPH,
    DATA_HOLDINGS_PLACE,
    "## Authentication",
    AUTH_PARAGRAPH,
    "Paid operations carry `x-price-usd` (and `x-price-usd-by-surface` when the price depends on the series or options).",
    "## Per-request prices",
    priceTableMarkdown(prices),
    "## Plans",
    planTableMarkdown(baseUrl),
    "## Errors",
    ERROR_PARAGRAPH,
    `Agent-oriented summaries: [llms.txt](${baseUrl}/llms.txt), [llms-full.txt](${baseUrl}/llms-full.txt). Changelog: [changelog.md](${baseUrl}/changelog.md).`,
  ].join("\n\n");
}

/**
 * zod-to-openapi types coerced query parameters (`z.coerce.number()`) as `["integer", "null"]`; a parameter
 * is text in a URL and can never be JSON null, so the contract drops that member.
 */
export function dropNullFromParameters(doc: OpenApiDocument | JsonObject): void {
  for (const { operation } of listOperations(doc)) {
    for (const p of (operation.parameters ?? []) as JsonObject[]) {
      const type = p.schema?.type;
      if (Array.isArray(type) && type.includes("null")) {
        const rest = type.filter((t: string) => t !== "null");
        p.schema.type = rest.length === 1 ? rest[0] : rest;
      }
    }
  }
}

/**
 * The request guard (src/http/request-guard.ts) answers 400 INVALID_PARAMETER on every route, whatever its schema
 * (a NUL character in the path or query; on /v1 an unlisted or repeated query parameter): an operation that
 * declared no 400 gets that one.
 */
export function describeRequestGuard(doc: OpenApiDocument | JsonObject): void {
  for (const { operation } of listOperations(doc)) {
    operation.responses ??= {};
    operation.responses["400"] ??= {
      description: "Invalid request (a NUL character in the path or query)",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
}

/**
 * The package is private and grants no licence (no SPDX licence applies, hence a LicenseRef). The data served keep
 * their sources' terms.
 */
export const API_LICENSE = { name: "Proprietary", identifier: "LicenseRef-Proprietary" } as const;

/** Generates the contract for one base URL from the app's route registry. */
export function buildOpenApiDocument(
  app: Pick<App, "getOpenAPI31Document">,
  baseUrl: string,
  extraSurfaces: SurfaceMap = {},
): OpenApiDocument {
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: SERVICE_NAME, version: CONTRACT_VERSION, license: API_LICENSE },
    servers: [{ url: baseUrl }],
  }) as JsonObject;
  dropNullFromParameters(doc);
  const paid = annotatePrices(doc, { ...declaredSurfaces(doc), ...extraSurfaces });
  if (paid.length) describePaymentHeaders(doc, paid);
  describeRequestGuard(doc);
  const operations = listOperations(doc).map((e) => e.operation);
  declareSecurity(doc, operations, paid);
  doc.tags = collectTags(operations);
  // After pricing: the description's price table lists the surfaces the priced operations use.
  doc.info.description = serviceDescription(baseUrl, publishedPrices(doc));
  return doc as OpenApiDocument;
}
