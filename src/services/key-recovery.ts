// Recovering a paid key by its subscription's billing address: a single-use token mailed to that address (bounded per
// client and per key), then confirmed for a new secret, which is mailed too (the previous one stops working).
import {
  consumeOutstandingTokens,
  consumeRecoveryToken,
  findKeyById,
  insertRecoveryToken,
  insertRotation,
  keysByBillingEmail,
  lockKey,
  lockRecoveryToken,
  recoveryTokenTimesSince,
  replaceSecret,
} from "../../db/repos/keys";
import {
  HOUR_MS,
  RECOVERIES_PER_CLIENT_PER_DAY,
  RECOVERY_TOKENS_PER_KEY_PER_HOUR,
  RECOVERY_TOKEN_TTL_MS,
  recoveryTokenState,
  slidingLimit,
  subscriptionState,
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
  sha256Hex,
} from "../domain/keys";
import { fail } from "../errors";
import { keyRecoveredMail, recoveryTokenMail } from "../mail/messages";
import type { RecoverConfirmResponse, RecoverResponse } from "../schemas/keys";
import { inTx, newId, takeClientAllowance, type KeyDeps } from "./keys";

export async function requestRecovery(
  deps: KeyDeps,
  input: { email: string; clientIp: string | null; baseUrl: string },
): Promise<RecoverResponse> {
  await inTx(deps, (tx) =>
    takeClientAllowance(deps, tx, "recover", input.clientIp, RECOVERIES_PER_CLIENT_PER_DAY, "recovery requests"),
  );
  const now = deps.clock.now();
  const email = normalizeEmail(input.email);
  for (const { key, subscription } of await keysByBillingEmail(deps.database.db, email)) {
    if (!subscription || subscriptionState(subscription, now) === "ended") continue;
    const token = mintRecoveryToken(deps.random.bytes(TOKEN_RANDOM_BYTES));
    const issued = await inTx(deps, async (tx) => {
      await lockKey(tx, key.id);
      const recent = await recoveryTokenTimesSince(tx, key.id, new Date(now.getTime() - HOUR_MS));
      if (!slidingLimit(recent, now, HOUR_MS, RECOVERY_TOKENS_PER_KEY_PER_HOUR).allowed) return false;
      await insertRecoveryToken(tx, {
        id: newId(deps),
        keyId: key.id,
        tokenHash: sha256Hex(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + RECOVERY_TOKEN_TTL_MS),
      });
      return true;
    });
    if (!issued) {
      deps.logger.info("recovery token not issued: hourly limit", { key_id: key.id, key_hint: key.hint });
      continue;
    }
    deps.logger.info("recovery token issued", { key_id: key.id, key_hint: key.hint });
    // Delivered after the answer, so a matching address does not answer measurably later.
    deps.mail.sendLater(
      recoveryTokenMail({
        to: subscription.billingEmail,
        baseUrl: input.baseUrl,
        token,
        hint: key.hint,
        validMinutes: RECOVERY_TOKEN_TTL_MS / 60_000,
      }),
    );
  }
  return {
    data: { status: "accepted" },
    meta: {
      notice:
        "If this address is the billing email of a subscription, a single-use recovery token valid for 30 minutes was sent to it. Free keys cannot be recovered: sign up again.",
    },
  };
}

export async function confirmRecovery(
  deps: KeyDeps,
  input: { token: string; baseUrl: string },
): Promise<RecoverConfirmResponse> {
  const invalid = (why: string): never =>
    fail("INVALID_PARAMETER", `Invalid recovery token: ${why}. Request a new one with POST /v1/keys/recover.`, {
      parameter: "token",
    });
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
    if (
      !row ||
      row.status !== "active" ||
      !found?.subscription ||
      subscriptionState(found.subscription, now) === "ended"
    )
      return invalid("the key it recovers was revoked");
    const key = mintKey(row.mode, deps.random.bytes(KEY_RANDOM_BYTES));
    const next = { secretHash: sha256Hex(key), hint: keyHint(key) };
    await consumeRecoveryToken(tx, token.id, now);
    await consumeOutstandingTokens(tx, row.id, now);
    await replaceSecret(tx, row.id, row.secretHash, next);
    await insertRotation(tx, { id: newId(deps), keyId: row.id, reason: "recover", previousHint: row.hint, at: now });
    return {
      key,
      keyId: row.id,
      hint: next.hint,
      previousHint: row.hint,
      billingEmail: found.subscription.billingEmail,
    };
  });
  await deps.keys.cache.invalidate(done.keyId);
  deps.logger.info("key recovered", { key_id: done.keyId, key_hint: done.hint, previous_key_hint: done.previousHint });
  const sent = await deps.mail.send(
    keyRecoveredMail({
      to: done.billingEmail,
      baseUrl: input.baseUrl,
      key: done.key,
      hint: done.hint,
      previousHint: done.previousHint,
    }),
  );
  if (!sent.delivered) {
    fail(
      "EMAIL_NOT_SENT",
      "The key was replaced, but the email carrying it could not be sent. The previous key no longer works: request a new recovery token.",
      {
        key_hint: done.hint,
        previous_key_hint: done.previousHint,
      },
    );
  }
  return {
    data: {
      key_hint: done.hint,
      previous_key_hint: done.previousHint,
      delivery: "email",
      delivered_to: maskEmail(done.billingEmail),
    },
    meta: { notice: "The previous key stopped working. The new key was emailed to the billing address." },
  };
}
