// What key-only routes and client limits read from a request: the key the admission core authenticated
// (src/http/admission.ts admitKeyed sets it), the core's entitlement decision for it, and the client's address.
import type { Context } from "hono";
import { getConnInfo } from "hono/bun";
import type { Config } from "../config";
import { clientAddress, type EntitlementWant } from "../domain/access";
import { ApiError, fail } from "../errors";
import type { AuthenticatedKey } from "../services/key-auth";
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

/** The client's address: the socket peer (Hono's connection info), or the trusted proxy's forwarding header (TRUSTED_PROXIES). */
export function clientIp(c: Context, config: Pick<Config, "trustedProxies" | "trustProxyHeader">): string | null {
  let socket: string | null = null;
  try {
    socket = getConnInfo(c).remote.address ?? null;
  } catch {
    // No server behind the request (app.request in tests and tools): no socket peer.
    socket = null;
  }
  return clientAddress(socket, c.req.header(config.trustProxyHeader), config.trustedProxies);
}
