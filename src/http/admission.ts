// The HTTP side of the admission core (src/services/admission.ts): how a request is handed to it and how its
// verdict is rendered. Nothing here decides access.
// - admitKeyed(): the check the app middleware (request-guard.ts guardRequest) makes of requests that carry a
//   credential to a route paid() does not price (catalog, ping, key management): a bad key is a 401 on every route,
//   and a data route counts the request against the key's window. Paid routes are admitted by paid() itself, once it
//   knows what is asked and its price. The MCP envelope is not admitted at all: each tool call is admitted as its
//   REST twin (a paid tool by the operation's gate, a free one as its keyed route: operation-call.ts) with the request's credential, so a
//   tool call costs exactly what its REST
//   twin costs and a bad key is that call's 401. How a route is admitted is declared where it is registered
//   (route-purpose.ts registerWithPurpose, recorded in route-registry.ts): key management, ping, the MCP envelope;
//   paid routes (paid.ts registerPaid); any other route is keyed.
import type { Context } from "hono";
import type { Clock } from "../ports";
import type { Verdict } from "../services/admission";
import { keyedCaller, OPEN_CALLER, type ProvisioningCaller } from "../services/provisioning-budget";
import type { Config } from "../config";
import type { AppEnv } from "./app-env";
import type { RouteRegistry } from "./route-registry";
import { carriesCredential, clientIp, credentialOf, refuse, setRateHeaders } from "./verdicts";

/**
 * The key verdict on a request to a route paid() does not price: its refusal, or null to go on (no credential, a paid
 * route or the MCP envelope, or an admitted key, set on the context with its rate headers). Synchronous unless the key
 * must be looked up.
 */
export function admitKeyed(
  deps: { clock: Clock },
  registry: RouteRegistry,
): (c: Context<AppEnv>) => Response | null | Promise<Response | null> {
  const admitted = (c: Context<AppEnv>, verdict: Verdict): Response | null => {
    if (!verdict.ok) return refuse(c, verdict);
    if (verdict.key) c.set("apiKey", verdict.key);
    if (verdict.rate) setRateHeaders(c, verdict.rate);
    return null;
  };
  return (c) => {
    const headers = c.req.raw.headers;
    if (!carriesCredential(headers)) return null;
    // What the matched route declared where it was registered (the app's route registry). Asked before the
    // credential is read: a paid route reads it once, in paid(), not twice on every keyed page.
    const { purpose, allowExpired } = registry.admission(c);
    if (purpose === "paid" || purpose === "envelope") return null;
    const credential = credentialOf(headers);
    if (credential.kind === "none") return null;
    const verdict = c.get("admission").admit({ purpose, credential, now: deps.clock.now(), allowExpired });
    return verdict instanceof Promise ? verdict.then((v) => admitted(c, v)) : admitted(c, verdict);
  };
}

/** Who asks, as far as a read that would start an upstream fetch needs to know (src/services/provisioning-budget.ts). */
export async function provisioningCaller(
  c: Context<AppEnv>,
  deps: { clock: Clock; config: Pick<Config, "trustedProxies" | "trustProxyHeader"> },
): Promise<ProvisioningCaller> {
  const known = await c.get("admission").knownKey(credentialOf(c.req.raw.headers), deps.clock.now());
  if (known === "open") return OPEN_CALLER;
  const client = clientIp(c, deps.config);
  return known ? keyedCaller(known, client) : { class: "stranger", client, key: null };
}
