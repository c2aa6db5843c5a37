// Queries over the provisioning and source_refreshes tables (db/schema/jobs.ts). Every transition is one statement,
// so API nodes and workers that race on one series agree on a single row and a single request_ref.
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { provisioning, sourceRefreshes } from "../schema";

export type ProvisioningRow = typeof provisioning.$inferSelect;
export type SourceRefreshRow = typeof sourceRefreshes.$inferSelect;
export type SeriesKey = { indicatorId: string; regionCode: string };

const bySeries = (k: SeriesKey) =>
  and(eq(provisioning.indicatorId, k.indicatorId), eq(provisioning.regionCode, k.regionCode));

export async function findProvisioning(db: Db, k: SeriesKey): Promise<ProvisioningRow | null> {
  const rows = await db.select().from(provisioning).where(bySeries(k)).limit(1);
  return rows[0] ?? null;
}

/**
 * The series' provisioning as a request should see it after asking for the series at `now`: a new one (with
 * `requestRef`) when there was none or the last one failed and its retry_at has passed; otherwise the current row
 * unchanged (still provisioning, or failed and not yet retryable). Concurrent callers all get the same row.
 */
export async function beginProvisioning(
  db: Db,
  k: SeriesKey,
  args: { requestRef: string; provider: string | null; now: Date },
): Promise<{ row: ProvisioningRow; started: boolean }> {
  const fresh = {
    requestRef: args.requestRef,
    state: "provisioning" as const,
    provider: args.provider,
    lastError: null,
    failedAttempts: 0,
    retryAt: null,
    requestedAt: args.now,
    updatedAt: args.now,
  };
  const started = await db
    .insert(provisioning)
    .values({ ...k, ...fresh })
    .onConflictDoUpdate({
      target: [provisioning.indicatorId, provisioning.regionCode],
      set: fresh,
      setWhere: sql`${provisioning.state} = 'failed' and ${provisioning.retryAt} <= ${args.now.toISOString()}::timestamptz`,
    })
    .returning();
  if (started[0]) return { row: started[0], started: true };
  const current = await findProvisioning(db, k);
  // Deleted between the two statements (the series just became held): the caller reads the series again.
  if (!current) return beginProvisioning(db, k, args);
  return { row: current, started: false };
}

/** A failed attempt that will be retried: the error is kept for the operator, the state stays provisioning. */
export async function recordFailedAttempt(
  db: Db,
  k: SeriesKey,
  args: { provider: string | null; error: string; now: Date },
): Promise<void> {
  await db
    .update(provisioning)
    .set({
      provider: args.provider,
      lastError: args.error,
      failedAttempts: sql`${provisioning.failedAttempts} + 1`,
      updatedAt: args.now,
    })
    .where(and(bySeries(k), eq(provisioning.state, "provisioning")));
}

/**
 * The upstream gave up on the provisioning `requestRef`: requests until `retryAt` are told so instead of waiting.
 * Written even when the row is gone (a job queued without a request, or whose row was cleared meanwhile).
 */
export async function markProvisioningFailed(
  db: Db,
  k: SeriesKey,
  args: { requestRef: string; provider: string | null; error: string; retryAt: Date; now: Date },
): Promise<void> {
  const failed = {
    state: "failed" as const,
    provider: args.provider,
    lastError: args.error,
    retryAt: args.retryAt,
    updatedAt: args.now,
  };
  await db
    .insert(provisioning)
    .values({ ...k, ...failed, requestRef: args.requestRef, failedAttempts: 1, requestedAt: args.now })
    .onConflictDoUpdate({
      target: [provisioning.indicatorId, provisioning.regionCode],
      set: { ...failed, failedAttempts: sql`${provisioning.failedAttempts} + 1` },
      // A newer provisioning of the series (another ref) is not this failure's to end.
      setWhere: eq(provisioning.requestRef, args.requestRef),
    });
}

/** Removes the provisioning `requestRef` of the series (only that one: a newer provisioning is left alone). */
export async function dropProvisioning(db: Db, k: SeriesKey, requestRef: string): Promise<void> {
  await db.delete(provisioning).where(and(bySeries(k), eq(provisioning.requestRef, requestRef)));
}

/** The series is held: its provisioning is over. */
export async function clearProvisioning(db: Db, k: SeriesKey): Promise<void> {
  await db.delete(provisioning).where(bySeries(k));
}

// ---------------------------------------------------------------------------------------------------------------
// Source refreshes

export async function recordRefreshStarted(db: Db, source: string, now: Date): Promise<void> {
  await db
    .insert(sourceRefreshes)
    .values({ source, lastStartedAt: now, status: "running" })
    .onConflictDoUpdate({
      target: sourceRefreshes.source,
      set: { lastStartedAt: now, lastFinishedAt: null, status: "running", changedSeries: null, lastError: null },
    });
}

export async function recordRefreshFinished(
  db: Db,
  source: string,
  result: { ok: true; changedSeries: number } | { ok: false; error: string },
  now: Date,
): Promise<void> {
  await db
    .update(sourceRefreshes)
    .set(
      result.ok
        ? {
            lastFinishedAt: now,
            status: "ok",
            changedSeries: result.changedSeries,
            lastError: null,
            lastSuccessAt: now,
          }
        : { lastFinishedAt: now, status: "failed", lastError: result.error },
    )
    .where(eq(sourceRefreshes.source, source));
}

export async function listSourceRefreshes(db: Db): Promise<SourceRefreshRow[]> {
  return db.select().from(sourceRefreshes).orderBy(asc(sourceRefreshes.source));
}

/** Series being provisioned now (waiting or running), across every process: the provisioning queue's length. */
export async function countProvisioning(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(provisioning)
    .where(eq(provisioning.state, "provisioning"));
  return Number(row?.n ?? 0);
}
