// Queries for the keys aggregate: keys by secret hash, secret replacement, rotations, usage metering,
// recovery tokens and per-client daily events. Callers pass a transaction (cast to Db) where several
// statements must see one state.
import { inKeyOrder, targetKey } from "./write-order";
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { apiKeys, clientEvents, keyRotations, keyUsage, recoveryTokens, subscriptions, usageBatches } from "../schema";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type KeyWithSubscription = { key: ApiKeyRow; subscription: SubscriptionRow | null };

export async function insertKey(db: Db, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [out] = await db.insert(apiKeys).values(row).returning();
  return out!;
}

/** The key holding this secret hash, with its subscription when one is not ended. */
export async function findKeyBySecretHash(db: Db, secretHash: string): Promise<KeyWithSubscription | null> {
  const rows = await db
    .select({ key: apiKeys, subscription: subscriptions })
    .from(apiKeys)
    .leftJoin(subscriptions, and(eq(subscriptions.keyId, apiKeys.id), eq(subscriptions.status, "active")))
    .where(eq(apiKeys.secretHash, secretHash))
    .limit(1);
  return rows[0] ?? null;
}

export async function findKeyById(db: Db, id: string): Promise<KeyWithSubscription | null> {
  const rows = await db
    .select({ key: apiKeys, subscription: subscriptions })
    .from(apiKeys)
    .leftJoin(subscriptions, and(eq(subscriptions.keyId, apiKeys.id), eq(subscriptions.status, "active")))
    .where(eq(apiKeys.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** Locks the key row for the rest of the transaction: rotations, recoveries and revocations of one key serialise. */
export async function lockKey(tx: Db, id: string): Promise<ApiKeyRow | null> {
  const rows = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).for("update");
  return rows[0] ?? null;
}

/** Replaces the secret only if it is still `expectedHash`: of two racing replacements exactly one wins. */
export async function replaceSecret(
  tx: Db,
  id: string,
  expectedHash: string,
  next: { secretHash: string; hint: string },
): Promise<boolean> {
  const rows = await tx
    .update(apiKeys)
    .set(next)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.secretHash, expectedHash), eq(apiKeys.status, "active")))
    .returning({ id: apiKeys.id });
  return rows.length === 1;
}

export async function insertRotation(tx: Db, row: typeof keyRotations.$inferInsert): Promise<void> {
  await tx.insert(keyRotations).values(row);
}

export async function rotationTimesSince(
  db: Db,
  keyId: string,
  reason: "rotate" | "recover",
  since: Date,
): Promise<Date[]> {
  const rows = await db
    .select({ at: keyRotations.at })
    .from(keyRotations)
    .where(and(eq(keyRotations.keyId, keyId), eq(keyRotations.reason, reason), gt(keyRotations.at, since)))
    .orderBy(asc(keyRotations.at));
  return rows.map((r) => r.at);
}

export async function revokeKey(tx: Db, id: string, at: Date): Promise<void> {
  await tx.update(apiKeys).set({ status: "revoked", revokedAt: at }).where(eq(apiKeys.id, id));
}

export async function setKeyPlan(
  tx: Db,
  id: string,
  plan: ApiKeyRow["plan"],
  rateLimitPerMinute: number,
): Promise<void> {
  await tx.update(apiKeys).set({ plan, rateLimitPerMinute }).where(eq(apiKeys.id, id));
}

/** Adds counted requests per key and month in one statement (each row adds to what is stored). */
export async function addUsage(db: Db, rows: { keyId: string; month: string; requests: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(keyUsage)
    .values(inKeyOrder(rows, (r) => targetKey(r.keyId, r.month)))
    .onConflictDoUpdate({
      target: [keyUsage.keyId, keyUsage.month],
      set: { requests: sql`${keyUsage.requests} + excluded.requests` },
    });
}

/**
 * Applies one usage batch exactly once: its id and its counts commit together, and a batch whose id is already
 * stored changes nothing (concurrent appliers of one batch serialise on the id's unique index). Counts for keys
 * this database does not hold are dropped and reported (a journal replayed against another database).
 */
export async function applyUsageBatch(
  db: Db,
  batch: { id: string; rows: { keyId: string; month: string; requests: number }[]; at: Date },
): Promise<{ applied: boolean; unknownKeys: string[] }> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const total = batch.rows.reduce((a, r) => a + r.requests, 0);
    const inserted = await tx
      .insert(usageBatches)
      .values({ id: batch.id, requests: total, appliedAt: batch.at })
      .onConflictDoNothing()
      .returning({ id: usageBatches.id });
    if (inserted.length === 0) return { applied: false, unknownKeys: [] };
    const ids = [...new Set(batch.rows.map((r) => r.keyId))];
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const candidates = ids.filter((id) => uuid.test(id));
    const known = new Set(
      candidates.length
        ? (await tx.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.id, candidates))).map((r) => r.id)
        : [],
    );
    await addUsage(
      tx,
      batch.rows.filter((r) => known.has(r.keyId)),
    );
    return { applied: true, unknownKeys: ids.filter((id) => !known.has(id)) };
  });
}

export async function usageBatchApplied(db: Db, id: string): Promise<boolean> {
  const rows = await db.select({ id: usageBatches.id }).from(usageBatches).where(eq(usageBatches.id, id)).limit(1);
  return rows.length === 1;
}

/** Forgets applied batch ids older than `before`; returns how many. */
export async function pruneUsageBatches(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(usageBatches)
    .where(lt(usageBatches.appliedAt, before))
    .returning({ id: usageBatches.id });
  return rows.length;
}

export async function usageFor(db: Db, keyId: string, month: string): Promise<number> {
  const rows = await db
    .select({ requests: keyUsage.requests })
    .from(keyUsage)
    .where(and(eq(keyUsage.keyId, keyId), eq(keyUsage.month, month)));
  return rows[0]?.requests ?? 0;
}

export async function listKeys(db: Db, opts: { limit: number }): Promise<KeyWithSubscription[]> {
  return db
    .select({ key: apiKeys, subscription: subscriptions })
    .from(apiKeys)
    .leftJoin(subscriptions, and(eq(subscriptions.keyId, apiKeys.id), eq(subscriptions.status, "active")))
    .orderBy(desc(apiKeys.createdAt))
    .limit(opts.limit);
}

/** Serialises limit checks on one (kind, subject) across connections until the transaction ends. */
export async function lockSubject(tx: Db, subject: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${subject}, 0))`);
}

export async function clientEventTimesSince(
  db: Db,
  kind: "signup" | "recover",
  clientHash: string,
  since: Date,
): Promise<Date[]> {
  const rows = await db
    .select({ at: clientEvents.at })
    .from(clientEvents)
    .where(and(eq(clientEvents.kind, kind), eq(clientEvents.clientHash, clientHash), gt(clientEvents.at, since)));
  return rows.map((r) => r.at);
}

export async function insertClientEvent(db: Db, row: typeof clientEvents.$inferInsert): Promise<void> {
  await db.insert(clientEvents).values(row);
}

export async function insertRecoveryToken(tx: Db, row: typeof recoveryTokens.$inferInsert): Promise<void> {
  await tx.insert(recoveryTokens).values(row);
}

export async function recoveryTokenTimesSince(db: Db, keyId: string, since: Date): Promise<Date[]> {
  const rows = await db
    .select({ at: recoveryTokens.createdAt })
    .from(recoveryTokens)
    .where(and(eq(recoveryTokens.keyId, keyId), gt(recoveryTokens.createdAt, since)));
  return rows.map((r) => r.at);
}

export async function lockRecoveryToken(tx: Db, tokenHash: string) {
  const rows = await tx.select().from(recoveryTokens).where(eq(recoveryTokens.tokenHash, tokenHash)).for("update");
  return rows[0] ?? null;
}

export async function consumeRecoveryToken(tx: Db, id: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(recoveryTokens)
    .set({ consumedAt: at })
    .where(and(eq(recoveryTokens.id, id), isNull(recoveryTokens.consumedAt)))
    .returning({ id: recoveryTokens.id });
  return rows.length === 1;
}

/** Active keys paid for by a subscription (active or past due) billed to this address. */
export async function keysByBillingEmail(db: Db, email: string): Promise<KeyWithSubscription[]> {
  const rows = await db
    .select({ key: apiKeys, subscription: subscriptions })
    .from(subscriptions)
    .innerJoin(apiKeys, eq(apiKeys.id, subscriptions.keyId))
    .where(and(eq(subscriptions.billingEmail, email), eq(subscriptions.status, "active"), eq(apiKeys.status, "active")))
    .orderBy(asc(apiKeys.createdAt));
  return rows;
}

/** After a successful recovery every other outstanding token of the key is spent too. */
export async function consumeOutstandingTokens(tx: Db, keyId: string, at: Date): Promise<void> {
  await tx
    .update(recoveryTokens)
    .set({ consumedAt: at })
    .where(and(eq(recoveryTokens.keyId, keyId), isNull(recoveryTokens.consumedAt)));
}
