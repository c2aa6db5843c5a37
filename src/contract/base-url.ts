// The absolute base URL used in links we publish (mails, `/`, llms.txt, OpenAPI `servers`, payment resources):
// PUBLIC_BASE_URL. Links never come from the request's Host header (else a recovery mail could link to
// `Host: evil.example.com`): without PUBLIC_BASE_URL the server only listens on loopback (svc serve refuses to start
// otherwise), and a link is the request's origin only when that origin is itself a loopback address (development on
// this machine, with its port); any other Host gets http://localhost.
import type { Config } from "../config";

const LOOPBACK_NAME = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** Whether `host` (a HOST setting or a URL's hostname) names this machine only. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAME.test(host);
}

export function publicBaseUrl(config: Pick<Config, "publicBaseUrl">, requestUrl: string): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, "");
  const url = new URL(requestUrl);
  return isLoopbackHost(url.hostname) ? url.origin : "http://localhost";
}

/** The base URL of links made outside any request (billing mails, CLI output): PUBLIC_BASE_URL, else this machine. */
export function baseUrlOf(config: Pick<Config, "publicBaseUrl" | "port">): string {
  return config.publicBaseUrl ?? `http://localhost:${config.port}`;
}

/** Why `svc serve` must not start with this HOST and PUBLIC_BASE_URL, or null. One line, saying what to set. */
export function baseUrlRefusal(config: Pick<Config, "publicBaseUrl" | "host">): string | null {
  if (config.publicBaseUrl || isLoopbackHost(config.host)) return null;
  return `HOST=${config.host} answers beyond this machine, so links in mails, / and /openapi.json need PUBLIC_BASE_URL: set PUBLIC_BASE_URL to the address clients use (e.g. https://api.example.com), or HOST=127.0.0.1 to serve this machine only.`;
}
