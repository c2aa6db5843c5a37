// Composes the two access rails behind the single AccessGate that paid(...) calls:
// - a request that carries an API key is decided by the key rail (entitlement, allowance; never charged per request,
//   even when it also carries a payment: spec "Keys beside payments");
// - any other request is decided by the payment rail (x402 / L402: verify a proof, or answer 402 with both challenges);
// - with no payment rail configured, an anonymous request to a paid route is a 401 asking for a key.
import type { Context } from "hono";
import type { Quote, Resolved } from "../pricing";
import type { AppEnv } from "./app-env";
import { fail } from "../errors";
import type { AccessGate, Grant } from "./paid";

export type AccessRails = {
  /** True when identify() attached an API key to this request. */
  hasKey(c: Context<AppEnv>): boolean;
  keys: AccessGate;
  payments: AccessGate | null;
};

export function composeAccess(rails: AccessRails): AccessGate {
  return {
    authorize(c: Context<AppEnv>, quote: Quote, resolved: Resolved): Promise<Grant> {
      if (rails.hasKey(c)) return rails.keys.authorize(c, quote, resolved);
      if (rails.payments) return rails.payments.authorize(c, quote, resolved);
      // The price rides along (as in a 402), so a caller (and the MCP tools) can tell what the request would cost.
      fail("INVALID_API_KEY", "This endpoint needs an API key: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>' (free keys: POST /v1/signup).", {
        price_usd: quote.usd,
      });
    },
    // Only keyed requests are decided in the hot-read lane: a payment is verified, a challenge or a 401 built, by
    // the full pipeline.
    authorizeHot: (key, quote, resolved) => (key ? (rails.keys.authorizeHot?.(key, quote, resolved) ?? null) : null),
  };
}
