// The absolute base URL used in links we publish (`/`, llms.txt, OpenAPI `servers`): PUBLIC_BASE_URL
// when configured (behind a proxy the request URL is the internal one), else the request's own origin.
import type { Config } from "../config";

export function publicBaseUrl(config: Pick<Config, "publicBaseUrl">, requestUrl: string): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, "");
  return new URL(requestUrl).origin;
}
