// The operator's key changes by key id (`svc keys set-plan|rotate`, run directly or by the running server through the
// administrative interface): like the customer's own, every process stops using the key's previous state before they
// return (the key cache is invalidated). A key paying a subscription follows its subscription's plan, so its plan is
// not changed here.
import { findKeyById, insertRotation, lockKey, replaceSecret, setKeyPlan } from "../../db/repos/keys";
import type { Db } from "../../db/client";
import { KEY_RANDOM_BYTES, keyHint, mintKey, sha256Hex } from "../domain/keys";
import { PLANS, type PlanId } from "../plans";
import { newId, type KeyDeps } from "./keys";

type AdminDeps = Pick<KeyDeps, "database" | "clock" | "random" | "logger" | "keys">;

export type KeyChangeRefusal =
  | { changed: false; reason: "not_found" }
  | { changed: false; reason: "revoked"; hint: string }
  | { changed: false; reason: "subscription"; hint: string; subscriptionId: string };

const inTx = <T>(deps: Pick<AdminDeps, "database">, fn: (tx: Db) => Promise<T>): Promise<T> =>
  deps.database.db.transaction((tx) => fn(tx as unknown as Db));

async function changeableKey(deps: AdminDeps, keyId: string, opts: { subscriptionAllowed: boolean }) {
  const found = await findKeyById(deps.database.db, keyId);
  if (!found) return { refusal: { changed: false, reason: "not_found" } as KeyChangeRefusal };
  if (found.key.status !== "active")
    return { refusal: { changed: false, reason: "revoked", hint: found.key.hint } as KeyChangeRefusal };
  if (found.subscription && !opts.subscriptionAllowed) {
    return {
      refusal: {
        changed: false,
        reason: "subscription",
        hint: found.key.hint,
        subscriptionId: found.subscription.id,
      } as KeyChangeRefusal,
    };
  }
  return { found };
}

/**
 * Moves a key to another plan: the same secret, usage and history; the plan's per-minute limit unless `rateLimitPerMinute`
 * is given. The next request with the key sees the new plan.
 */
export async function setKeyPlanById(
  deps: AdminDeps,
  keyId: string,
  plan: PlanId,
  rateLimitPerMinute?: number,
): Promise<{ changed: true; hint: string; from: PlanId; to: PlanId; rateLimitPerMinute: number } | KeyChangeRefusal> {
  const { found, refusal } = await changeableKey(deps, keyId, { subscriptionAllowed: false });
  if (refusal) return refusal;
  const limit = rateLimitPerMinute ?? PLANS[plan].rateLimitPerMinute;
  await inTx(deps, (tx) => setKeyPlan(tx, keyId, plan, limit));
  await deps.keys.cache.invalidate(keyId);
  deps.logger.info("key plan changed by operator", {
    key_id: keyId,
    key_hint: found!.key.hint,
    from: found!.key.plan,
    to: plan,
    rate_limit_per_minute: limit,
  });
  return { changed: true, hint: found!.key.hint, from: found!.key.plan, to: plan, rateLimitPerMinute: limit };
}

/**
 * Replaces a key's secret (plan, usage and history stay): the previous secret stops working before this returns. The new
 * key is returned to the operator once; a subscription's key is rotated too (the operator hands the key over).
 */
export async function rotateKeyById(
  deps: AdminDeps,
  keyId: string,
): Promise<{ changed: true; key: string; hint: string; previousHint: string } | KeyChangeRefusal> {
  const { found, refusal } = await changeableKey(deps, keyId, { subscriptionAllowed: true });
  if (refusal) return refusal;
  const key = mintKey(found!.key.mode, deps.random.bytes(KEY_RANDOM_BYTES));
  const next = { secretHash: sha256Hex(key), hint: keyHint(key) };
  const previousHint = await inTx(deps, async (tx) => {
    const row = await lockKey(tx, keyId);
    if (!row || row.status !== "active" || !(await replaceSecret(tx, keyId, row.secretHash, next))) return null;
    await insertRotation(tx, {
      id: newId(deps),
      keyId,
      reason: "operator",
      previousHint: row.hint,
      at: deps.clock.now(),
    });
    return row.hint;
  });
  if (previousHint === null) return { changed: false, reason: "revoked", hint: found!.key.hint };
  await deps.keys.cache.invalidate(keyId);
  deps.logger.info("key rotated by operator", { key_id: keyId, key_hint: next.hint, previous_key_hint: previousHint });
  return { changed: true, key, hint: next.hint, previousHint };
}
