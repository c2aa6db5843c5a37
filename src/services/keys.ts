// Key use cases: issue (signup, operator), authenticate, rotate, revoke (keys paying no subscription; the customer's
// revoke, which may end a subscription, is billing.ts revokeKey), recover, status and metering.
// Secrets exist in memory only long enough to hash them and hand them to the caller or the mailer;
// logs carry hints and ids, never a key or a token.
import type { Db } from "../../db/client";
import {
  clientEventTimesSince,
  consumeOutstandingTokens,
  consumeRecoveryToken,
  findKeyById,
  findKeyBySecretHash,
  insertClientEvent,
  insertKey,
  insertRecoveryToken,
  insertRotation,
  keysByBillingEmail,
  lockKey,
  lockRecoveryToken,
  lockSubject,
  recoveryTokenTimesSince,
  replaceSecret,
  revokeKey as revokeKeyRow,
  rotationTimesSince,
  usageFor,
  type ApiKeyRow,
  type KeyWithSubscription,
} from "../../db/repos/keys";
import type { Deps } from "../deps";
import {
  addressGroup,
  DAY_MS,
  HOUR_MS,
  RECOVERIES_PER_CLIENT_PER_DAY,
  RECOVERY_TOKENS_PER_KEY_PER_HOUR,
  RECOVERY_TOKEN_TTL_MS,
  ROTATIONS_PER_DAY,
  SIGNUPS_PER_CLIENT_PER_DAY,
  canReadPremium,
  graceEndsAt,
  overage,
  recoveryTokenState,
  slidingLimit,
  subscriptionState,
  usageMonth,
  type SubscriptionState,
} from "../domain/access";
import {
  KEY_RANDOM_BYTES,
  TOKEN_RANDOM_BYTES,
  isRecoveryToken,
  keyHint,
  maskEmail,
  mintKey,
  mintRecoveryToken,
  normalizeEmail,
  sameDigest,
  sha256Hex,
  uuidFromBytes,
  type KeyMode,
} from "../domain/keys";
import { fail } from "../errors";
import { keyRecoveredMail, keyRotatedMail, recoveryTokenMail } from "../mail/messages";
import { PLANS, type PlanId } from "../plans";
import type { PingResponse, RecoverConfirmResponse, RecoverResponse, RevokeResponse, RotateResponse, SignupResponse } from "../schemas/keys";
import { waitText } from "../domain/wait";

export type KeyDeps = Pick<Deps, "database" | "clock" | "random" | "logger" | "mail" | "billing" | "config" | "keys">;

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
  subscription: { id: string; plan: string; billingEmail: string; state: SubscriptionState; graceEndsAt: Date | null } | null;
};

export const newId = (deps: Pick<Deps, "random">) => uuidFromBytes(deps.random.bytes(16));
// IPv6 clients are counted by their /64 (addressGroup), IPv4 clients by their address.
const clientHash = (ip: string | null) => sha256Hex(`client:${ip === null ? "unknown" : addressGroup(ip)}`);
const inTx = <T>(deps: Pick<KeyDeps, "database">, fn: (tx: Db) => Promise<T>): Promise<T> => deps.database.db.transaction((tx) => fn(tx as unknown as Db));

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

export type IssueKeyInput = {
  plan: PlanId;
  mode?: KeyMode;
  scopes?: string[];
  rateLimitPerMinute?: number;
  allowedRegions?: string[] | null;
  email?: string | null;
  expiresAt?: Date | null;
};

/** Mints and stores a key; the raw key is returned to the caller and stored nowhere. */
export async function issueKey(deps: KeyDeps, input: IssueKeyInput, db: Db = deps.database.db): Promise<{ key: string; row: ApiKeyRow }> {
  const mode = input.mode ?? "live";
  const key = mintKey(mode, deps.random.bytes(KEY_RANDOM_BYTES));
  const row = await insertKey(db, {
    id: newId(deps),
    secretHash: sha256Hex(key),
    hint: keyHint(key),
    mode,
    plan: input.plan,
    scopes: [...new Set(input.scopes ?? [])],
    rateLimitPerMinute: input.rateLimitPerMinute ?? PLANS[input.plan].rateLimitPerMinute,
    allowedRegions: input.allowedRegions ?? null,
    email: input.email ? normalizeEmail(input.email) : null,
    status: "active",
    expiresAt: input.expiresAt ?? null,
    createdAt: deps.clock.now(),
  });
  return { key, row };
}

function tooMany(message: string, limit: number, retryAfterSeconds: number, now: Date): never {
  const resetUnix = Math.floor(now.getTime() / 1000) + retryAfterSeconds;
  fail("RATE_LIMIT_EXCEEDED", message, { limit, retry_after_seconds: retryAfterSeconds }, { rate: { allowed: false, limit, remaining: 0, resetUnix, retryAfterSeconds } });
}

/** Counts one anonymous event for a client against its daily limit, atomically (advisory lock per client). */
async function takeClientAllowance(deps: KeyDeps, tx: Db, kind: "signup" | "recover", ip: string | null, max: number, what: string): Promise<void> {
  const now = deps.clock.now();
  const client = clientHash(ip);
  await lockSubject(tx, `${kind}:${client}`);
  const times = await clientEventTimesSince(tx, kind, client, new Date(now.getTime() - DAY_MS));
  const verdict = slidingLimit(times, now, DAY_MS, max);
  if (!verdict.allowed) tooMany(`At most ${max} ${what} per client address per 24 hours; retry in ${waitText(verdict.retryAfterSeconds)}.`, max, verdict.retryAfterSeconds, now);
  await insertClientEvent(tx, { id: newId(deps), kind, clientHash: client, at: now });
}

export async function signup(deps: KeyDeps, input: { email: string; clientIp: string | null; docsUrl: string }): Promise<SignupResponse> {
  const { key, row } = await inTx(deps, async (tx) => {
    await takeClientAllowance(deps, tx, "signup", input.clientIp, SIGNUPS_PER_CLIENT_PER_DAY, "signups");
    return issueKey(deps, { plan: "free", email: input.email }, tx);
  });
  deps.logger.info("key issued", { key_id: row.id, key_hint: row.hint, plan: row.plan });
  return {
    data: { key, key_hint: row.hint, plan: "free", rate_limit_per_minute: row.rateLimitPerMinute, docs_url: input.docsUrl },
    meta: { notice: "Store this key now: it is shown only once. Send it as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'." },
  };
}

/** `revoked`: the secret is a key's, but that key was revoked (an unknown secret has none). */
export type Authentication = { ok: true; key: AuthenticatedKey; expired: string | null } | { ok: false; revoked?: true };

/** Looks a presented key up by hash. `expired` explains why a found key may not read data any more. */
export async function authenticateKey(deps: Pick<Deps, "database" | "clock" | "keys">, rawKey: string): Promise<Authentication> {
  const hash = sha256Hex(rawKey);
  const found = await deps.keys.cache.lookup(hash, () => findKeyBySecretHash(deps.database.db, hash));
  return authenticationOf(found, hash, deps.clock.now());
}

/** authenticateKey answered from the key cache alone (no I/O); undefined when the key is not cached. */
export function authenticateCachedKey(deps: Pick<Deps, "clock" | "keys">, rawKey: string, now: Date = deps.clock.now()): Authentication | undefined {
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
  const changes = [found.key.expiresAt?.getTime(), key.subscription?.graceEndsAt?.getTime()].filter((x): x is number => x !== undefined);
  holder[AUTHENTICATED] = { auth, since: Math.max(-Infinity, ...changes.filter((x) => x <= t)), until: Math.min(Infinity, ...changes.filter((x) => x > t)) };
  return auth;
}

export async function rotateKey(deps: KeyDeps, auth: AuthenticatedKey, baseUrl: string): Promise<RotateResponse> {
  const now = deps.clock.now();
  const newKey = mintKey(auth.mode, deps.random.bytes(KEY_RANDOM_BYTES));
  const next = { secretHash: sha256Hex(newKey), hint: keyHint(newKey) };
  const previousHint = await inTx(deps, async (tx) => {
    // The row lock serialises rotations of one key; the secret check makes the loser of a race a 401.
    const row = await lockKey(tx, auth.id);
    if (!row || row.status !== "active" || !sameDigest(row.secretHash, auth.secretHash)) {
      fail("INVALID_API_KEY", "This key no longer works: it was rotated, recovered or revoked meanwhile.");
    }
    const times = await rotationTimesSince(tx, auth.id, "rotate", new Date(now.getTime() - DAY_MS));
    const verdict = slidingLimit(times, now, DAY_MS, ROTATIONS_PER_DAY);
    if (!verdict.allowed) {
      tooMany(`At most ${ROTATIONS_PER_DAY} rotations per key per 24 hours; the current key keeps working. Retry in ${waitText(verdict.retryAfterSeconds)}.`, ROTATIONS_PER_DAY, verdict.retryAfterSeconds, now);
    }
    if (!(await replaceSecret(tx, auth.id, auth.secretHash, next))) fail("INVALID_API_KEY", "This key no longer works: it was rotated meanwhile.");
    await insertRotation(tx, { id: newId(deps), keyId: auth.id, reason: "rotate", previousHint: row.hint, at: now });
    return row.hint;
  });
  await deps.keys.cache.invalidate(auth.id);
  deps.logger.info("key rotated", { key_id: auth.id, key_hint: next.hint, previous_key_hint: previousHint });

  const paidBy = auth.subscription;
  if (!paidBy) {
    return {
      data: { key: newKey, key_hint: next.hint, previous_key_hint: previousHint, delivery: "response" },
      meta: { notice: "The previous key stopped working. Store this key now: it is shown only once." },
    };
  }
  const sent = await deps.mail.send(keyRotatedMail({ to: paidBy.billingEmail, baseUrl, key: newKey, hint: next.hint, previousHint }));
  if (!sent.delivered) {
    fail(
      "EMAIL_NOT_SENT",
      "The key was rotated, but the email carrying the new key could not be sent. The previous key no longer works: recover the key with POST /v1/keys/recover and the billing address.",
      { key_hint: next.hint, previous_key_hint: previousHint },
    );
  }
  return {
    data: { key_hint: next.hint, previous_key_hint: previousHint, delivery: "email", delivered_to: maskEmail(paidBy.billingEmail) },
    meta: { notice: "The previous key stopped working. The new key was emailed to the subscription's billing address." },
  };
}

/**
 * Revokes a key that pays no subscription. A key paying one is revoked by ending its subscription: billing.ts
 * revokeKey, the entry point for customers, which decides between the two.
 */
export async function revokeKeyWithoutSubscription(deps: KeyDeps, auth: AuthenticatedKey): Promise<RevokeResponse> {
  await inTx(deps, async (tx) => {
    const row = await lockKey(tx, auth.id);
    if (!row || row.status !== "active" || !sameDigest(row.secretHash, auth.secretHash)) fail("INVALID_API_KEY", "This key no longer works: it was rotated or revoked meanwhile.");
    await revokeKeyRow(tx, auth.id, deps.clock.now());
  });
  await deps.keys.cache.invalidate(auth.id);
  deps.logger.info("key revoked", { key_id: auth.id, key_hint: auth.hint });
  return { data: { revoked: true, key_hint: auth.hint, subscription_cancelled: false } };
}

/**
 * The operator's revoke (`svc keys revoke`), by key id: like a customer's, every process stops accepting the key before
 * this returns. A key paying a subscription is not revoked here (its subscription is ended instead).
 */
export async function revokeKeyById(
  deps: Pick<KeyDeps, "database" | "clock" | "logger" | "keys">,
  keyId: string,
): Promise<{ revoked: true; hint: string } | { revoked: false; reason: "not_found" } | { revoked: false; reason: "subscription"; hint: string; subscriptionId: string }> {
  const found = await findKeyById(deps.database.db, keyId);
  if (!found) return { revoked: false, reason: "not_found" };
  if (found.subscription) return { revoked: false, reason: "subscription", hint: found.key.hint, subscriptionId: found.subscription.id };
  await inTx(deps, (tx) => revokeKeyRow(tx, keyId, deps.clock.now()));
  await deps.keys.cache.invalidate(keyId);
  deps.logger.info("key revoked by operator", { key_id: keyId, key_hint: found.key.hint });
  return { revoked: true, hint: found.key.hint };
}

export async function requestRecovery(deps: KeyDeps, input: { email: string; clientIp: string | null; baseUrl: string }): Promise<RecoverResponse> {
  await inTx(deps, (tx) => takeClientAllowance(deps, tx, "recover", input.clientIp, RECOVERIES_PER_CLIENT_PER_DAY, "recovery requests"));
  const now = deps.clock.now();
  const email = normalizeEmail(input.email);
  for (const { key, subscription } of await keysByBillingEmail(deps.database.db, email)) {
    if (!subscription || subscriptionState(subscription, now) === "ended") continue;
    const token = mintRecoveryToken(deps.random.bytes(TOKEN_RANDOM_BYTES));
    const issued = await inTx(deps, async (tx) => {
      await lockKey(tx, key.id);
      const recent = await recoveryTokenTimesSince(tx, key.id, new Date(now.getTime() - HOUR_MS));
      if (!slidingLimit(recent, now, HOUR_MS, RECOVERY_TOKENS_PER_KEY_PER_HOUR).allowed) return false;
      await insertRecoveryToken(tx, { id: newId(deps), keyId: key.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + RECOVERY_TOKEN_TTL_MS) });
      return true;
    });
    if (!issued) {
      deps.logger.info("recovery token not issued: hourly limit", { key_id: key.id, key_hint: key.hint });
      continue;
    }
    deps.logger.info("recovery token issued", { key_id: key.id, key_hint: key.hint });
    // Delivered after the answer, so a matching address does not answer measurably later.
    deps.mail.sendLater(recoveryTokenMail({ to: subscription.billingEmail, baseUrl: input.baseUrl, token, hint: key.hint, validMinutes: RECOVERY_TOKEN_TTL_MS / 60_000 }));
  }
  return {
    data: { status: "accepted" },
    meta: { notice: "If this address is the billing email of a subscription, a single-use recovery token valid for 30 minutes was sent to it. Free keys cannot be recovered: sign up again." },
  };
}

export async function confirmRecovery(deps: KeyDeps, input: { token: string; baseUrl: string }): Promise<RecoverConfirmResponse> {
  const invalid = (why: string): never => fail("INVALID_PARAMETER", `Invalid recovery token: ${why}. Request a new one with POST /v1/keys/recover.`, { parameter: "token" });
  if (!isRecoveryToken(input.token)) invalid("not a svcr_ token");
  const now = deps.clock.now();
  const done = await inTx(deps, async (tx) => {
    const token = await lockRecoveryToken(tx, sha256Hex(input.token));
    if (!token) return invalid("unknown token");
    const state = recoveryTokenState(token, now);
    if (state === "consumed") return invalid("it was already used");
    if (state === "expired") return invalid("it expired (tokens are valid for 30 minutes)");
    const row = await lockKey(tx, token.keyId);
    const found = await findKeyById(tx, token.keyId);
    if (!row || row.status !== "active" || !found?.subscription || subscriptionState(found.subscription, now) === "ended") return invalid("the key it recovers was revoked");
    const key = mintKey(row.mode, deps.random.bytes(KEY_RANDOM_BYTES));
    const next = { secretHash: sha256Hex(key), hint: keyHint(key) };
    await consumeRecoveryToken(tx, token.id, now);
    await consumeOutstandingTokens(tx, row.id, now);
    await replaceSecret(tx, row.id, row.secretHash, next);
    await insertRotation(tx, { id: newId(deps), keyId: row.id, reason: "recover", previousHint: row.hint, at: now });
    return { key, keyId: row.id, hint: next.hint, previousHint: row.hint, billingEmail: found.subscription.billingEmail };
  });
  await deps.keys.cache.invalidate(done.keyId);
  deps.logger.info("key recovered", { key_id: done.keyId, key_hint: done.hint, previous_key_hint: done.previousHint });
  const sent = await deps.mail.send(keyRecoveredMail({ to: done.billingEmail, baseUrl: input.baseUrl, key: done.key, hint: done.hint, previousHint: done.previousHint }));
  if (!sent.delivered) {
    fail("EMAIL_NOT_SENT", "The key was replaced, but the email carrying it could not be sent. The previous key no longer works: request a new recovery token.", {
      key_hint: done.hint,
      previous_key_hint: done.previousHint,
    });
  }
  return {
    data: { key_hint: done.hint, previous_key_hint: done.previousHint, delivery: "email", delivered_to: maskEmail(done.billingEmail) },
    meta: { notice: "The previous key stopped working. The new key was emailed to the billing address." },
  };
}

/** Counts one metered data request for the key in the current month, in the usage journal (throws if it cannot). */
export function meterRequest(deps: Pick<Deps, "clock" | "keys">, keyId: string, now: Date = deps.clock.now()): void {
  deps.keys.meter.count(keyId, usageMonth(now));
}

/** Metered requests of a key in a month: what the main database holds plus what the usage journal still holds. */
export async function keyUsage(deps: Pick<Deps, "database" | "keys">, keyId: string, month: string): Promise<number> {
  return deps.keys.meter.usage(keyId, month, () => usageFor(deps.database.db, keyId, month));
}

export async function keyStatus(deps: Pick<Deps, "database" | "clock" | "keys">, auth: AuthenticatedKey): Promise<PingResponse> {
  const month = usageMonth(deps.clock.now());
  const requests = await keyUsage(deps, auth.id, month);
  const plan = PLANS[auth.plan];
  return {
    data: {
      status: "ok",
      key_hint: auth.hint,
      mode: auth.mode,
      plan: auth.plan,
      scopes: auth.scopes,
      premium_access: canReadPremium(auth),
      allowed_regions: auth.allowedRegions,
      rate_limit_per_minute: auth.rateLimitPerMinute,
      subscription: auth.subscription
        ? { state: auth.subscription.state, plan: auth.subscription.plan, grace_ends_at: auth.subscription.graceEndsAt?.toISOString() ?? null }
        : null,
      usage: { month, requests, included_requests: plan.includedRequestsPerMonth, overage_requests: overage(plan, requests).overageRequests },
    },
    meta: {},
  };
}
