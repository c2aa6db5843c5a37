// The /docs page: Scalar's API reference rendering /openapi.json. The renderer's standalone bundle is
// served by us (embedded in the compiled binary), never fetched from a CDN, so /docs works offline.
import { Scalar } from "@scalar/hono-api-reference";
// The package's exports map hides dist/, hence the path through node_modules (resolved at build time).
import scalarBundlePath from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with {
  type: "file",
};
import scalarPackage from "../../node_modules/@scalar/api-reference/package.json" with { type: "json" };
import { SERVICE_NAME } from "../version";

export const SCALAR_VERSION: string = scalarPackage.version;
/** Versioned, so the bundle can be cached forever and a Scalar upgrade changes the URL. */
export const SCALAR_BUNDLE_PATH = `/docs/assets/scalar-api-reference-${SCALAR_VERSION}.js`;
export const SCALAR_BUNDLE_CACHE_CONTROL = "public, max-age=31536000, immutable";

export function scalarBundle(): Blob {
  return Bun.file(scalarBundlePath);
}

/** The /docs handler. Paths are relative to /docs so the page also works under a path prefix. */
export const docsPage = Scalar({
  url: "openapi.json",
  cdn: SCALAR_BUNDLE_PATH.slice(1),
  pageTitle: `${SERVICE_NAME} reference`,
  // Everything below would reach the internet: web fonts, telemetry, Scalar's hosted AI agent and MCP generator.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  documentDownloadType: "json",
  operationTitleSource: "summary",
});
