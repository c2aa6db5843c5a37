// Discovery: `/` index (JSON, or the landing page for a browser), `/openapi.json`, `/llms.txt`, `/llms-full.txt`,
// `/changelog.md`, the `/docs` reference page with its self-hosted renderer bundle, and `/favicon.ico`.
import { createRoute, z } from "@hono/zod-openapi";
import { dataHoldingLines, renderDataSection } from "../docs/llms";
import { sourceFreshness } from "../services/catalog";
import type { RegisterRoutes } from "../http/app-env";
import { errorResponses } from "../schemas/errors";
import { serviceIndexSchema } from "../schemas/discovery";
import { createDiscovery, type DiscoveryDocuments } from "../docs/discovery";
import { publicBaseUrl } from "../contract/base-url";
import { DATA_HOLDINGS_PLACE, DISCOVERY_TAG } from "../docs/openapi";
import type { BoundedCache } from "../services/bounded-cache";
import { CHANGELOG_MARKDOWN } from "../docs/changelog";
import { SCALAR_BUNDLE_CACHE_CONTROL, SCALAR_BUNDLE_PATH, docsPage, scalarBundle } from "../docs/scalar";
import { landingPage } from "../docs/landing";
import { FAVICON_CACHE_CONTROL, FAVICON_CONTENT_TYPE, FAVICON_ICO } from "../docs/favicon";
import { readContext } from "../services/series-read";
import { checkoutAvailability } from "../services/billing-checkout";
import { prefersHtml } from "../http/content-coding";

/** Fixed per deploy; a short public cache keeps a new deploy visible within minutes. */
export const DISCOVERY_CACHE_CONTROL = "public, max-age=300";

const text = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

const indexRoute = createRoute({
  method: "get",
  path: "/",
  operationId: "get_index",
  tags: [DISCOVERY_TAG],
  summary: "Service index",
  description:
    "Links to the docs, the OpenAPI contract, the MCP endpoint and the llms files, the price list, the plans and checkout links. " +
    "Absolute URLs use `PUBLIC_BASE_URL` when configured. Negotiated on `Accept` (the response carries `Vary: Accept`): JSON " +
    "unless `text/html` is preferred over `application/json`, as a browser's `Accept` does; a browser gets the same index as an " +
    "HTML page with live example values. No `Accept`, `*/*` and `application/json` get JSON.",
  responses: {
    200: {
      description: "The index",
      content: {
        "application/json": { schema: serviceIndexSchema },
        "text/html": {
          schema: z.string().openapi({ description: "The index as a self-contained landing page (for browsers)" }),
        },
      },
    },
    ...errorResponses(500),
  },
});

const openapiRoute = createRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "get_openapi",
  tags: [DISCOVERY_TAG],
  summary: "OpenAPI 3.1 contract",
  description:
    "This document: every operation, with named component schemas and the error envelope on every error response.",
  responses: {
    200: {
      description: "OpenAPI 3.1 document",
      content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
    },
    ...errorResponses(500),
  },
});

const llmsRoute = createRoute({
  method: "get",
  path: "/llms.txt",
  operationId: "get_llms_txt",
  tags: [DISCOVERY_TAG],
  summary: "Compact agent discovery file",
  description:
    "What the service is, authentication, prices, plans and one line per endpoint (https://llmstxt.org). Generated from the OpenAPI contract.",
  responses: { 200: text("text/plain", "llms.txt"), ...errorResponses(500) },
});

const llmsFullRoute = createRoute({
  method: "get",
  path: "/llms-full.txt",
  operationId: "get_llms_full_txt",
  tags: [DISCOVERY_TAG],
  summary: "Full agent discovery file",
  description:
    "Every operation with its parameters, bounds, defaults, enums, response fields and error codes, plus region code conventions and catalog categories. Generated from the OpenAPI contract.",
  responses: { 200: text("text/plain", "llms-full.txt"), ...errorResponses(500) },
});

const changelogRoute = createRoute({
  method: "get",
  path: "/changelog.md",
  operationId: "get_changelog",
  tags: [DISCOVERY_TAG],
  summary: "Public changelog",
  description: "Changes to the public interface, newest first (Markdown).",
  responses: { 200: text("text/markdown", "CHANGELOG.md"), ...errorResponses(500) },
});

export const registerDiscoveryRoutes: RegisterRoutes = (app, deps) => {
  const discovery = createDiscovery(app, deps.caches.discovery.documents as BoundedCache<string, DiscoveryDocuments>);
  const ctx = readContext(deps);
  const base = (url: string) => publicBaseUrl(deps.config, url);
  const plain = (body: string, type: string) =>
    new Response(body, {
      status: 200,
      headers: { "Content-Type": `${type}; charset=utf-8`, "Cache-Control": DISCOVERY_CACHE_CONTROL },
    });

  app.openapi(indexRoute, async (c) => {
    c.header("Cache-Control", DISCOVERY_CACHE_CONTROL);
    // Both answers say so, or a shared cache could hand the page to an API client (or the JSON to a browser).
    c.header("Vary", "Accept", { append: true });
    const baseUrl = base(c.req.url);
    const index = discovery.index(baseUrl, deps.version);
    if (prefersHtml(c))
      return c.html(
        await landingPage(ctx, deps.logger, index, baseUrl, { free: true, ...checkoutAvailability(deps).plans }),
        200,
      );
    return c.json(index, 200);
  });
  // The contract part is generated once; the data section is read from the catalog (what is held, how fresh).
  const store = { db: deps.database.db, caches: deps.caches };
  // The served description's data lines, spliced into the kept JSON text, once per base URL and state of holdings.
  const served = deps.caches.discovery.served;
  app.openapi(openapiRoute, async (c) => {
    const baseUrl = base(c.req.url);
    const table = await deps.caches.catalog.coverageTable();
    const key = `${table.key}|${baseUrl}`;
    let json = served.get(key);
    if (json === undefined) {
      const lines = dataHoldingLines(await sourceFreshness(store)).join("\n");
      json = discovery.documents(baseUrl).openapiJson.replace(DATA_HOLDINGS_PLACE, JSON.stringify(lines).slice(1, -1));
      served.set(key, json);
    }
    return plain(json, "application/json") as any;
  });
  const withData = async (text: string) => `${text}\n${renderDataSection(await sourceFreshness(store))}`;
  app.openapi(
    llmsRoute,
    async (c) => plain(await withData(discovery.documents(base(c.req.url)).llms), "text/plain") as any,
  );
  app.openapi(
    llmsFullRoute,
    async (c) => plain(await withData(discovery.documents(base(c.req.url)).llmsFull), "text/plain") as any,
  );
  app.openapi(changelogRoute, () => plain(CHANGELOG_MARKDOWN, "text/markdown") as any);

  // The human reference page, its renderer and the icon browsers ask for: not API operations, so not in the contract.
  app.get("/docs", docsPage);
  app.get(
    SCALAR_BUNDLE_PATH,
    () =>
      new Response(scalarBundle(), {
        headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": SCALAR_BUNDLE_CACHE_CONTROL },
      }),
  );
  app.get(
    "/favicon.ico",
    () =>
      new Response(FAVICON_ICO, {
        headers: { "Content-Type": FAVICON_CONTENT_TYPE, "Cache-Control": FAVICON_CACHE_CONTROL },
      }),
  );
};
