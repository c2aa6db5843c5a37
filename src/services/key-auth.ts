// Authenticating a presented key: looked up by the hash of its secret (through the key cache), compared in constant
// time, and turned into the AuthenticatedKey a request carries, kept on the cached row until it could change.
import { findKeyBySecretHash, type KeyWithSubscription } from "../../db/repos/keys";
import type { Deps } from "../deps";
import { graceEndsAt, subscriptionState, type SubscriptionState } from "../domain/access";
import { sameDigest, sha256Hex, type KeyMode } from "../domain/keys";
import { PLANS, type PlanId } from "../plans";

/** The key a request authenticated with, as the admission core admits it. */
export type AuthenticatedKey = {
  id: string;
  hint: string;
  mode: KeyMode;
  plan: PlanId;
  scopes: string[];
  rateLimitPerMinute: number;
  allowedRegions: string[] | null;
  unrestricted: boolean;
  /** Hash of the secret this request presented: a rotation replaces exactly this secret. */
  secretHash: string;
  subscription: {
    id: string;
    plan: string;
    billingEmail: string;
    state: SubscriptionState;
    graceEndsAt: Date | null;
  } | null;
};

function toAuthenticated(found: KeyWithSubscription, secretHash: string, now: Date): AuthenticatedKey {
  const { key, subscription: sub } = found;
  return {
    id: key.id,
    hint: key.hint,
    mode: key.mode,
    plan: key.plan,
    scopes: key.scopes,
    rateLimitPerMinute: key.rateLimitPerMinute,
    allowedRegions: key.allowedRegions,
    unrestricted: PLANS[key.plan].unrestricted,
    secretHash,
    subscription: sub
      ? {
          id: sub.id,
          plan: sub.plan,
          billingEmail: sub.billingEmail,
          state: subscriptionState(sub, now),
          graceEndsAt: sub.paymentFailedAt ? graceEndsAt(sub.paymentFailedAt) : null,
        }
      : null,
  };
}

/** `revoked`: the secret is a key's, but that key was revoked (an unknown secret has none). */
export type Authentication =
  | { ok: true; key: AuthenticatedKey; expired: string | null }
  | { ok: false; revoked?: true };

/** Looks a presented key up by hash. `expired` explains why a found key may not read data any more. */
export async function authenticateKey(
  deps: Pick<Deps, "database" | "clock" | "keys">,
  rawKey: string,
): Promise<Authentication> {
  const hash = sha256Hex(rawKey);
  const found = await deps.keys.cache.lookup(hash, () => findKeyBySecretHash(deps.database.db, hash));
  return authenticationOf(found, hash, deps.clock.now());
}

/** authenticateKey answered from the key cache alone (no I/O); undefined when the key is not cached. */
export function authenticateCachedKey(
  deps: Pick<Deps, "clock" | "keys">,
  rawKey: string,
  now: Date = deps.clock.now(),
): Authentication | undefined {
  // The digest's bytes, written into one buffer: no hex string per request. The cache matches them in constant time
  // against the row's stored hash, so that hash is the one the row is checked against.
  Bun.SHA256.hash(rawKey, digestScratch);
  const found = deps.keys.cache.getDigest(digestScratch);
  return found === undefined ? undefined : authenticationOfMatched(found, now);
}

/** Overwritten by each authenticateCachedKey call, which reads it at once (synchronous: calls cannot interleave). */
const digestScratch = new Uint8Array(32);

/**
 * What a cached key row authenticates to, kept on the row itself (the key cache holds the row; a property, not a side
 * table, so a keyed request touches no more memory than it must) until the first instant it could change: the key's
 * expiry, the end of its subscription's grace period.
 */
const AUTHENTICATED = Symbol("authenticated");
type KeptAuthentication = { auth: Authentication; since: number; until: number };
const NOT_AUTHENTICATED: Authentication = Object.freeze({ ok: false });
const REVOKED: Authentication = Object.freeze({ ok: false, revoked: true });

function authenticationOf(found: KeyWithSubscription | null, hash: string, now: Date): Authentication {
  return found && sameDigest(found.key.secretHash, hash) ? authenticationOfMatched(found, now) : NOT_AUTHENTICATED;
}

/** authenticationOf a row whose stored hash is known to be the presented key's (compared by the caller). */
function authenticationOfMatched(found: KeyWithSubscription, now: Date): Authentication {
  if (found.key.status !== "active") return REVOKED;
  const t = now.getTime();
  const holder = found as KeyWithSubscription & { [AUTHENTICATED]?: KeptAuthentication };
  const kept = holder[AUTHENTICATED];
  if (kept && kept.since <= t && t < kept.until) return kept.auth;
  const key = Object.freeze(toAuthenticated(found, found.key.secretHash, now));
  let expired: string | null = null;
  if (found.key.expiresAt && t >= found.key.expiresAt.getTime())
    expired = `This key expired at ${found.key.expiresAt.toISOString()}: ask whoever issued it for a new one, or get a free key with POST /v1/signup (or at /keys in a browser).`;
  else if (key.subscription?.state === "past_due")
    expired = `The subscription paying for this key is past due since ${key.subscription.graceEndsAt!.toISOString()} (a payment failed and the 7-day grace period ended). It works again once a payment succeeds.`;
  const auth: Authentication = { ok: true, key, expired };
  const changes = [found.key.expiresAt?.getTime(), key.subscription?.graceEndsAt?.getTime()].filter(
    (x): x is number => x !== undefined,
  );
  holder[AUTHENTICATED] = {
    auth,
    since: Math.max(-Infinity, ...changes.filter((x) => x <= t)),
    until: Math.min(Infinity, ...changes.filter((x) => x > t)),
  };
  return auth;
}
