// What key-only routes and client limits read from a request: the key the admission core authenticated
// (src/http/admission.ts admitKeyed sets it), the core's entitlement decision for it, and the client's address.
import type { Context } from "hono";
import type { Config } from "../config";
import { clientAddress, type EntitlementWant } from "../domain/access";
import { ApiError, fail } from "../errors";
import type { AuthenticatedKey } from "../services/keys";
import type { AppEnv } from "./app-env";

/** The key of a Key-only route (ping, rotate, revoke); 401 when the request carries none. */
export function requireKey(c: Context<AppEnv>): AuthenticatedKey {
  const key = c.get("apiKey");
  if (!key) fail("INVALID_API_KEY", "This endpoint needs an API key. Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>' (free keys: POST /v1/signup).");
  return key;
}

/**
 * The admission core's entitlement decision for `key` on a Key route (saving a briefing needs premium access): a
 * function that throws the core's refusal (403 CATEGORY_NOT_ALLOWED or REGION_NOT_ALLOWED), for the service to call
 * once it knows what is asked.
 */
export function entitlementOf(c: Context<AppEnv>, key: AuthenticatedKey): (want: EntitlementWant) => void {
  const admission = c.get("admission");
  return (want) => {
    const refused = admission.entitlement(key, want);
    if (refused) throw new ApiError(refused.code, refused.message, refused.details);
  };
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
