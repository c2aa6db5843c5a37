// Discovery documents: the `/` index, and the OpenAPI contract with the llms files rendered from it.
// The contract depends only on the registered routes and the base URL, so it is generated once per base
// URL per process (lazily, after every route is registered) and kept.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { PriceList } from "../pricing";
import { checkoutPlanUrls, checkoutUrl, publicPlans } from "../plans";
import type { ServiceIndex } from "../schemas/discovery";
import { CONTRACT_VERSION, SERVICE_NAME } from "../version";
import { buildOpenApiDocument, publishedPrices, type OpenApiDocument } from "./openapi";
import { renderLlmsFullTxt, renderLlmsTxt } from "./llms";
import { MCP_PATH } from "../contract/mcp";
import type { BoundedCache } from "../services/bounded-cache";

export type DiscoveryDocuments = { openapi: OpenApiDocument; openapiJson: string; llms: string; llmsFull: string };

/**
 * The discovery documents of `app`, kept in `cache` per base URL (made with the app's caches: without PUBLIC_BASE_URL
 * the base comes from the request's Host, which clients choose, so it is bounded).
 */
export function createDiscovery(app: OpenAPIHono<any>, cache: BoundedCache<string, DiscoveryDocuments>) {
  // Which routes are priced does not depend on the base URL: read once, from the first document built.
  let prices: PriceList | null = null;
  return {
    /** The `/` index, whose price list is the one the contract publishes (only surfaces of registered paid routes). */
    index(baseUrl: string, version: string): ServiceIndex {
      prices ??= publishedPrices(this.documents(baseUrl).openapi);
      return serviceIndex(baseUrl, version, prices);
    },
    documents(baseUrl: string): DiscoveryDocuments {
      const hit = cache.get(baseUrl);
      if (hit) return hit;
      const openapi = buildOpenApiDocument(app, baseUrl);
      const docs: DiscoveryDocuments = {
        openapi,
        openapiJson: JSON.stringify(openapi),
        llms: renderLlmsTxt(openapi, { baseUrl }),
        llmsFull: renderLlmsFullTxt(openapi, { baseUrl }),
      };
      cache.set(baseUrl, docs);
      return docs;
    },
  };
}

export function serviceIndex(baseUrl: string, version: string, prices: PriceList): ServiceIndex {
  return {
    name: SERVICE_NAME,
    version,
    contract_version: CONTRACT_VERSION,
    docs: `${baseUrl}/docs`,
    openapi: `${baseUrl}/openapi.json`,
    mcp: `${baseUrl}${MCP_PATH}`,
    llms: `${baseUrl}/llms.txt`,
    llms_full: `${baseUrl}/llms-full.txt`,
    changelog: `${baseUrl}/changelog.md`,
    health: `${baseUrl}/api/health`,
    pricing: { currency: "USD", per_request: prices, plans: publicPlans(baseUrl) },
    checkout: checkoutUrl(baseUrl),
    checkout_plans: checkoutPlanUrls(baseUrl),
  };
}
