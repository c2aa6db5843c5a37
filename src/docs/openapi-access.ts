// Who may call each operation, as the contract states it: the security schemes (the two ways to send an API key and
// the two payment rails), the requirement of every operation, and the tags readers browse by. Renderers (the /docs
// page, client generators, linters) read access from `security` alone, so every operation states one: a paid
// operation takes a key or either payment, a key operation a key, a public one nothing (`security: []`).

type JsonObject = Record<string, any>;

export const SECURITY_SCHEMES = {
  ApiKeyBearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "svc_live_... or svc_test_...",
    description: "API key as a bearer token: `Authorization: Bearer <key>`. A free key comes from `POST /v1/signup`.",
  },
  ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "API key in the `X-API-Key` header." },
  // The spec names X-PAYMENT; x402 v2 clients send PAYMENT-SIGNATURE, which the rail reads first.
  X402Payment: {
    type: "apiKey",
    in: "header",
    name: "X-PAYMENT",
    description:
      "x402 per-request payment, no account: call without a credential, pick one `accepts` entry of the 402 " +
      "(`PAYMENT-REQUIRED` header, or the body), sign it and retry with the payment payload in `X-PAYMENT` " +
      "(`PAYMENT-SIGNATURE`, the x402 v2 name, is accepted too). One payment buys one answer; `PAYMENT-RESPONSE` is the receipt.",
  },
  // Not `type: http, scheme: L402`: renderers know only the basic and bearer HTTP schemes, and Scalar turns any other
  // into basic (its "Test Request" would send `Authorization: Basic ...`). The header value is sent as written.
  L402: {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description:
      'Lightning per-request payment, no account: pay the invoice of the 402\'s `WWW-Authenticate: L402 macaroon="…", ' +
      'invoice="…"` and retry the identical request with `Authorization: L402 <macaroon>:<preimage hex>` (`LSAT` is ' +
      "accepted too); the header value is the whole `L402 <macaroon>:<preimage>`. The macaroon is bound to the requested " +
      "indicator and expires 10 minutes after issuance.",
  },
} as const;

type SchemeName = keyof typeof SECURITY_SCHEMES;
const anyOf = (...names: SchemeName[]) => names.map((n) => ({ [n]: [] as string[] }));

/** Operations that take an API key only (key management, ping). */
export const KEY_SECURITY = anyOf("ApiKeyBearer", "ApiKeyHeader");
/** Paid operations: an API key, or one per-request payment on either rail. No anonymous alternative: that is a 402. */
export const PAID_SECURITY = anyOf("ApiKeyBearer", "ApiKeyHeader", "X402Payment", "L402");
/** The payment rails' scheme names, for readers that tell a paid requirement from a key-only one. */
export const PAYMENT_SCHEMES: readonly SchemeName[] = ["X402Payment", "L402"];

/**
 * States the requirement of every operation: the paid ones (by operationId) take PAID_SECURITY unless the route
 * declared its own; any other operation that declared none is public, which `security: []` says explicitly (with no
 * top-level requirement an absent one means the same, but readers should not have to infer it).
 */
export function declareSecurity(doc: JsonObject, operations: Iterable<JsonObject>, paidIds: Iterable<string>): void {
  doc.components ??= {};
  doc.components.securitySchemes = { ...(doc.components.securitySchemes ?? {}), ...structuredClone(SECURITY_SCHEMES) };
  const paid = new Set(paidIds);
  for (const op of operations) op.security ??= paid.has(op.operationId) ? structuredClone(PAID_SECURITY) : [];
}

/** The tag of the discovery and health operations. */
export const DISCOVERY_TAG = "Discovery";

/** What each group of operations is; a tag missing here is published without a description (and fails the lint test). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Catalog:
    "Free and anonymous: the sources, regions and indicators on offer. Answers carry a public CDN cache policy and an ETag.",
  Data: "Paid reads of the series: an API key within its plan, or one per-request payment (x402 or L402). A 404, a 202 (series being provisioned) or any other error costs nothing.",
  "FRED compatible":
    "FRED's API under /fred/: its parameters, JSON and XML documents and error shape, so FRED client code works by changing its base URL. Observations are priced and admitted as /v1/observations (a key in `api_key`, or x402 or L402); series, search and vintage dates are free.",
  Briefings:
    "Questions asked again every week at the briefing depth, each run stored: curated public briefings (free list, paid read), and briefings a premium key saves for itself (key-only, not metered).",
  Keys: "Self-serve API keys: free signup, rotation, revocation and recovery. Never metered, and working when a key is out of quota.",
  Billing: "Paid plans: their checkout links, and the payment provider's webhook.",
  MCP: "The Model Context Protocol endpoint for agents: the catalog and data operations as tools, priced and entitled exactly like REST.",
  [DISCOVERY_TAG]: "The service index, this contract, the agent discovery files (llms.txt), the changelog and health.",
};

/**
 * Top-level tags in order of first use, so renderers group operations as the routes are registered; the
 * discovery group (registered first) goes last, since readers come to the reference for the data endpoints.
 */
export function collectTags(operations: Iterable<JsonObject>): { name: string; description?: string }[] {
  const names: string[] = [];
  for (const op of operations) {
    for (const t of op.tags ?? []) if (!names.includes(t)) names.push(t);
  }
  const ordered = [...names.filter((n) => n !== DISCOVERY_TAG), ...names.filter((n) => n === DISCOVERY_TAG)];
  return ordered.map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}
