// identify(): the app middleware that reads an API key (`Authorization: Bearer` or `X-API-Key`), looks it up
// by hash and attaches it to the context. A malformed, unknown or revoked key is 401 INVALID_API_KEY; an
// expired key (expiry passed, or its subscription past due) is 401 EXPIRED_API_KEY, except on
// POST /v1/keys/revoke, so a lapsed customer can still walk away cleanly. Requests without a key pass through.
import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "../config";
import type { Deps } from "../deps";
import { canReadPremium, clientAddress, entitlementVerdict } from "../domain/access";
import { readCredential } from "../domain/keys";
import { authenticateKey, type AuthenticatedKey } from "../services/keys";
import type { AppEnv } from "./app-env";
import { fail } from "../errors";

export type { AuthenticatedKey };

const howToAuthenticate = "Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>' (free keys: POST /v1/signup).";

export function identify(deps: Pick<Deps, "database" | "clock" | "keys">): MiddlewareHandler<AppEnv> {
  return async function identifyMiddleware(c, next) {
    const cred = readCredential(c.req.header("authorization"), c.req.header("x-api-key"));
    if (cred.kind === "none") return next();
    if (cred.kind === "malformed") fail("INVALID_API_KEY", `Malformed API key: ${cred.reason}. ${howToAuthenticate}`);
    const auth = await authenticateKey(deps, cred.key);
    if (!auth.ok) fail("INVALID_API_KEY", "Unknown or revoked API key.");
    if (auth.expired && !(c.req.method === "POST" && c.req.path === "/v1/keys/revoke")) fail("EXPIRED_API_KEY", auth.expired);
    c.set("apiKey", auth.key);
    return next();
  };
}

/** The key of a Key-only route (ping, rotate, revoke); 401 when the request carries none. */
export function requireKey(c: Context<AppEnv>): AuthenticatedKey {
  const key = c.get("apiKey");
  if (!key) fail("INVALID_API_KEY", `This endpoint needs an API key. ${howToAuthenticate}`);
  return key;
}

/**
 * Whether this request may read premium data: an anonymous request pays per request (the payment rail prices
 * it), a keyed one needs an unrestricted plan or the `svc-premium` scope. Batch latest uses this per indicator.
 */
export function mayReadPremium(c: Context<AppEnv>): boolean {
  const key = c.get("apiKey");
  return !key || canReadPremium(key);
}

/** Whether this request may read a region (keys can be restricted to region codes). */
export function mayReadRegion(c: Context<AppEnv>, region: string): boolean {
  const key = c.get("apiKey");
  return !key || entitlementVerdict(key, { premium: false, region, what: "" }).ok;
}

/** The client's address: the socket peer, or the trusted proxy's forwarding header (TRUSTED_PROXIES). */
export function clientIp(c: Context, config: Pick<Config, "trustedProxies" | "trustProxyHeader">): string | null {
  const env = c.env as { requestIP?: unknown; server?: { requestIP?: unknown } } | undefined;
  const server = (typeof env?.requestIP === "function" ? env : env?.server) as { requestIP?(r: Request): { address: string } | null } | undefined;
  let socket: string | null = null;
  try {
    socket = server?.requestIP?.(c.req.raw)?.address ?? null;
  } catch {
    socket = null;
  }
  return clientAddress(socket, c.req.header(config.trustProxyHeader), config.trustedProxies);
}
