// Key use cases: issue (signup, operator), rotate, revoke (keys paying no subscription; the customer's revoke, which
// may end a subscription, is billing-end.ts revokeKey), status and metering. Authentication: key-auth.ts; recovery by
// the billing address: key-recovery.ts.
// Secrets exist in memory only long enough to hash them and hand them to the caller or the mailer;
// logs carry hints and ids, never a key or a token.
import type { Db } from "../../db/client";
import {
  clientEventTimesSince,
  findKeyById,
  insertClientEvent,
  insertKey,
  insertRotation,
  lockKey,
  lockSubject,
  replaceSecret,
  revokeKey as revokeKeyRow,
  rotationTimesSince,
  usageFor,
  type ApiKeyRow,
} from "../../db/repos/keys";
import type { Deps } from "../deps";
import {
  addressGroup,
  DAY_MS,
  ROTATIONS_PER_DAY,
  SIGNUPS_PER_CLIENT_PER_DAY,
  canReadPremium,
  overage,
  slidingLimit,
  usageMonth,
} from "../domain/access";
import {
  KEY_RANDOM_BYTES,
  keyHint,
  maskEmail,
  mintKey,
  normalizeEmail,
  sameDigest,
  sha256Hex,
  uuidFromBytes,
  type KeyMode,
} from "../domain/keys";
import { fail } from "../errors";
import { keyRotatedMail } from "../mail/messages";
import { PLANS, type PlanId } from "../plans";
import type { PingResponse, RevokeResponse, RotateResponse, SignupResponse } from "../schemas/keys";
import { waitText } from "../domain/wait";
import type { AuthenticatedKey } from "./key-auth";

export type KeyDeps = Pick<Deps, "database" | "clock" | "random" | "logger" | "mail" | "billing" | "config" | "keys">;

export const newId = (deps: Pick<Deps, "random">) => uuidFromBytes(deps.random.bytes(16));
// IPv6 clients are counted by their /64 (addressGroup), IPv4 clients by their address.
const clientHash = (ip: string | null) => sha256Hex(`client:${ip === null ? "unknown" : addressGroup(ip)}`);
export const inTx = <T>(deps: Pick<KeyDeps, "database">, fn: (tx: Db) => Promise<T>): Promise<T> =>
  deps.database.db.transaction((tx) => fn(tx as unknown as Db));

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
export async function issueKey(
  deps: KeyDeps,
  input: IssueKeyInput,
  db: Db = deps.database.db,
): Promise<{ key: string; row: ApiKeyRow }> {
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
  fail(
    "RATE_LIMIT_EXCEEDED",
    message,
    { limit, retry_after_seconds: retryAfterSeconds },
    { rate: { allowed: false, limit, remaining: 0, resetUnix, retryAfterSeconds } },
  );
}

/** Counts one anonymous event for a client against its daily limit, atomically (advisory lock per client). */
export async function takeClientAllowance(
  deps: KeyDeps,
  tx: Db,
  kind: "signup" | "recover",
  ip: string | null,
  max: number,
  what: string,
): Promise<void> {
  const now = deps.clock.now();
  const client = clientHash(ip);
  await lockSubject(tx, `${kind}:${client}`);
  const times = await clientEventTimesSince(tx, kind, client, new Date(now.getTime() - DAY_MS));
  const verdict = slidingLimit(times, now, DAY_MS, max);
  if (!verdict.allowed)
    tooMany(
      `At most ${max} ${what} per client address per 24 hours; retry in ${waitText(verdict.retryAfterSeconds)}.`,
      max,
      verdict.retryAfterSeconds,
      now,
    );
  await insertClientEvent(tx, { id: newId(deps), kind, clientHash: client, at: now });
}

export async function signup(
  deps: KeyDeps,
  input: { email: string; clientIp: string | null; docsUrl: string },
): Promise<SignupResponse> {
  const { key, row } = await inTx(deps, async (tx) => {
    await takeClientAllowance(deps, tx, "signup", input.clientIp, SIGNUPS_PER_CLIENT_PER_DAY, "signups");
    return issueKey(deps, { plan: "free", email: input.email }, tx);
  });
  deps.logger.info("key issued", { key_id: row.id, key_hint: row.hint, plan: row.plan });
  return {
    data: {
      key,
      key_hint: row.hint,
      plan: "free",
      rate_limit_per_minute: row.rateLimitPerMinute,
      docs_url: input.docsUrl,
    },
    meta: {
      notice:
        "Store this key now: it is shown only once. Send it as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'.",
    },
  };
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
      tooMany(
        `At most ${ROTATIONS_PER_DAY} rotations per key per 24 hours; the current key keeps working. Retry in ${waitText(verdict.retryAfterSeconds)}.`,
        ROTATIONS_PER_DAY,
        verdict.retryAfterSeconds,
        now,
      );
    }
    if (!(await replaceSecret(tx, auth.id, auth.secretHash, next)))
      fail("INVALID_API_KEY", "This key no longer works: it was rotated meanwhile.");
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
  const sent = await deps.mail.send(
    keyRotatedMail({ to: paidBy.billingEmail, baseUrl, key: newKey, hint: next.hint, previousHint }),
  );
  if (!sent.delivered) {
    fail(
      "EMAIL_NOT_SENT",
      "The key was rotated, but the email carrying the new key could not be sent. The previous key no longer works: recover the key with POST /v1/keys/recover and the billing address.",
      { key_hint: next.hint, previous_key_hint: previousHint },
    );
  }
  return {
    data: {
      key_hint: next.hint,
      previous_key_hint: previousHint,
      delivery: "email",
      delivered_to: maskEmail(paidBy.billingEmail),
    },
    meta: {
      notice: "The previous key stopped working. The new key was emailed to the subscription's billing address.",
    },
  };
}

/**
 * Revokes a key that pays no subscription. A key paying one is revoked by ending its subscription: billing-end.ts
 * revokeKey, the entry point for customers, which decides between the two.
 */
export async function revokeKeyWithoutSubscription(deps: KeyDeps, auth: AuthenticatedKey): Promise<RevokeResponse> {
  await inTx(deps, async (tx) => {
    const row = await lockKey(tx, auth.id);
    if (!row || row.status !== "active" || !sameDigest(row.secretHash, auth.secretHash))
      fail("INVALID_API_KEY", "This key no longer works: it was rotated or revoked meanwhile.");
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
): Promise<
  | { revoked: true; hint: string }
  | { revoked: false; reason: "not_found" }
  | { revoked: false; reason: "subscription"; hint: string; subscriptionId: string }
> {
  const found = await findKeyById(deps.database.db, keyId);
  if (!found) return { revoked: false, reason: "not_found" };
  if (found.subscription)
    return { revoked: false, reason: "subscription", hint: found.key.hint, subscriptionId: found.subscription.id };
  await inTx(deps, (tx) => revokeKeyRow(tx, keyId, deps.clock.now()));
  await deps.keys.cache.invalidate(keyId);
  deps.logger.info("key revoked by operator", { key_id: keyId, key_hint: found.key.hint });
  return { revoked: true, hint: found.key.hint };
}

/** Counts one metered data request for the key in the current month, in the usage journal (throws if it cannot). */
export function meterRequest(deps: Pick<Deps, "clock" | "keys">, keyId: string, now: Date = deps.clock.now()): void {
  deps.keys.meter.count(keyId, usageMonth(now));
}

/** Metered requests of a key in a month: what the main database holds plus what the usage journal still holds. */
export async function keyUsage(deps: Pick<Deps, "database" | "keys">, keyId: string, month: string): Promise<number> {
  return deps.keys.meter.usage(keyId, month, () => usageFor(deps.database.db, keyId, month));
}

export async function keyStatus(
  deps: Pick<Deps, "database" | "clock" | "keys">,
  auth: AuthenticatedKey,
): Promise<PingResponse> {
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
        ? {
            state: auth.subscription.state,
            plan: auth.subscription.plan,
            grace_ends_at: auth.subscription.graceEndsAt?.toISOString() ?? null,
          }
        : null,
      usage: {
        month,
        requests,
        included_requests: plan.includedRequestsPerMonth,
        overage_requests: overage(plan, requests).overageRequests,
      },
    },
    meta: {},
  };
}
