// The key rail of the access gate: a request that identify() attached a key to is entitled (premium data needs
// an unrestricted plan or `svc-premium`; region-restricted keys read only their regions) and metered to its key
// and month once the handler succeeded (crash-safe: the count is journaled before the response leaves).
// buildAccess() composes it with the payment rail for paid(...).
import type { Deps } from "../deps";
import { entitlementVerdict } from "../domain/access";
import { isDerivedSeries, type Quote, type Resolved } from "../pricing";
import type { AuthenticatedKey } from "./auth";
import { meterRequest } from "../services/keys";
import { composeAccess } from "./access";
import { fail } from "../errors";
import type { AccessGate, HotGrant } from "./paid";

/** `explain`: false where only the verdict is used (the hot-read lane leaves refusals to the full pipeline). */
function verdictFor(key: AuthenticatedKey, quote: Quote, resolved: Resolved, explain = true) {
  // Signals are premium by surface; every `svc:` series is premium whatever the route resolved.
  const premium = resolved.premium || quote.surface === "signals" || isDerivedSeries(resolved.indicator);
  const what = !explain ? "" : resolved.indicator ? `'${resolved.indicator}'` : quote.surface === "signals" ? "Signals data" : "This data";
  return entitlementVerdict(key, { premium, region: resolved.region, what });
}

export function keyRail(deps: Pick<Deps, "clock" | "keys">): AccessGate {
  const hotGrant: HotGrant = { settle: (key, now) => meterRequest(deps, key!.id, now) };
  return {
    async authorize(c, quote, resolved) {
      const key = c.get("apiKey");
      if (!key) fail("INVALID_API_KEY", "This endpoint needs an API key.");
      const verdict = verdictFor(key, quote, resolved);
      if (!verdict.ok) fail(verdict.code, verdict.message, { key_hint: key.hint, ...(resolved.indicator ? { indicator: resolved.indicator } : {}) });
      return {
        async settle(res) {
          // In the node-local usage journal before the answer leaves (src/services/key-runtime.ts); if the journal
          // cannot be written this throws and the request is answered 500: nothing is served unmetered.
          meterRequest(deps, key.id);
          return res;
        },
      };
    },
    authorizeHot(key, quote, resolved) {
      return key && verdictFor(key, quote, resolved, false).ok ? hotGrant : null;
    },
  };
}

/** The access gate of the real service: keys first, then the payment rail when one is configured. */
export function buildAccess(deps: Pick<Deps, "clock" | "keys">, payments: AccessGate | null): AccessGate {
  return composeAccess({ hasKey: (c) => c.get("apiKey") !== undefined, keys: keyRail(deps), payments });
}
