// Queries over briefings and their runs (db/schema/briefings.ts). A saved briefing is only ever read or deleted with
// its owner's key id in the WHERE clause, so one key's query can never reach another key's briefing. "Latest" is by
// `seq` (insertion order), and the latest good run is the latest whose status is not 'failed'.
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../client";
import { apiKeys, briefingRuns, briefings } from "../schema";

export type BriefingRow = typeof briefings.$inferSelect;
export type NewBriefingRow = typeof briefings.$inferInsert;
export type BriefingRunRow = typeof briefingRuns.$inferSelect;
export type NewBriefingRunRow = Omit<typeof briefingRuns.$inferInsert, "seq" | "id">;
/** A briefing with when its latest good run finished (null: none yet). */
export type BriefingWithLastRun = BriefingRow & { lastRunAt: Date | null };

// The outer table is named in full: drizzle renders a column of the only table selected from without its table name,
// which inside this subquery would mean the run's own id.
const lastGoodRunAt = sql<Date | null>`(
  select r.finished_at from ${briefingRuns} r
  where r.briefing_id = "briefings"."id" and r.status <> 'failed'
  order by r.seq desc limit 1
)`.mapWith((v: string | Date | null) => (v === null ? null : new Date(v)));

/**
 * Inserts a saved briefing unless its key already keeps `max` of them: the key's row is locked first, so concurrent
 * creations by one key are counted one after the other. False when the key is at its limit.
 */
export async function insertOwnedBriefing(
  db: Db,
  row: NewBriefingRow & { ownerKeyId: string },
  max: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, row.ownerKeyId)).for("update");
    const [held] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(briefings)
      .where(eq(briefings.ownerKeyId, row.ownerKeyId));
    if (held!.n >= max) return false;
    await tx.insert(briefings).values(row);
    return true;
  });
}

export async function deleteBriefingById(db: Db, id: string): Promise<void> {
  await db.delete(briefings).where(eq(briefings.id, id));
}

/** The key's saved briefings, oldest first. */
export async function listOwnedBriefings(db: Db, ownerKeyId: string): Promise<BriefingWithLastRun[]> {
  return db
    .select({ ...briefingColumns, lastRunAt: lastGoodRunAt })
    .from(briefings)
    .where(eq(briefings.ownerKeyId, ownerKeyId))
    .orderBy(briefings.createdAt, briefings.id);
}

export async function findOwnedBriefing(db: Db, id: string, ownerKeyId: string): Promise<BriefingWithLastRun | null> {
  const rows = await db
    .select({ ...briefingColumns, lastRunAt: lastGoodRunAt })
    .from(briefings)
    .where(and(eq(briefings.id, id), eq(briefings.ownerKeyId, ownerKeyId)));
  return rows[0] ?? null;
}

/** Deletes the key's briefing (its runs go with it); false when the key has no briefing of that id. */
export async function deleteOwnedBriefing(db: Db, id: string, ownerKeyId: string): Promise<boolean> {
  const rows = await db
    .delete(briefings)
    .where(and(eq(briefings.id, id), eq(briefings.ownerKeyId, ownerKeyId)))
    .returning({ id: briefings.id });
  return rows.length === 1;
}

/** The public briefings, in the order they were curated. */
export async function listPublicBriefings(db: Db): Promise<BriefingWithLastRun[]> {
  return db
    .select({ ...briefingColumns, lastRunAt: lastGoodRunAt })
    .from(briefings)
    .where(isNull(briefings.ownerKeyId))
    .orderBy(briefings.createdAt, briefings.slug);
}

export async function findPublicBriefing(db: Db, slug: string): Promise<BriefingRow | null> {
  const rows = await db
    .select()
    .from(briefings)
    .where(and(eq(briefings.slug, slug), isNull(briefings.ownerKeyId)));
  return rows[0] ?? null;
}

/**
 * The briefing a run is for, when it should run: public, or saved by a key that is not revoked. Null for a deleted
 * briefing, or one whose key was revoked (its schedule stays harmless until the next reconciliation drops it).
 */
export async function findRunnableBriefing(db: Db, id: string): Promise<BriefingRow | null> {
  const rows = await db
    .select(briefingColumns)
    .from(briefings)
    .leftJoin(apiKeys, eq(apiKeys.id, briefings.ownerKeyId))
    .where(and(eq(briefings.id, id), sql`(${briefings.ownerKeyId} is null or ${apiKeys.status} = 'active')`));
  return rows[0] ?? null;
}

/** Ids of every briefing that should have a schedule: public ones, and those of keys not revoked. */
export async function runnableBriefingIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: briefings.id })
    .from(briefings)
    .leftJoin(apiKeys, eq(apiKeys.id, briefings.ownerKeyId))
    .where(sql`(${briefings.ownerKeyId} is null or ${apiKeys.status} = 'active')`)
    .orderBy(briefings.id);
  return rows.map((r) => r.id);
}

/** Ids of the runnable briefings with no good run yet (new, or every run so far failed). */
export async function runnableBriefingIdsWithoutGoodRun(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: briefings.id })
    .from(briefings)
    .leftJoin(apiKeys, eq(apiKeys.id, briefings.ownerKeyId))
    .where(
      sql`(${briefings.ownerKeyId} is null or ${apiKeys.status} = 'active')
        and not exists (select 1 from ${briefingRuns} r where r.briefing_id = "briefings"."id" and r.status <> 'failed')`,
    )
    .orderBy(briefings.createdAt, briefings.id);
  return rows.map((r) => r.id);
}

/**
 * Stores a run. A good run for an occurrence another process already stored a good run for is not stored (false):
 * one good run per briefing and occurrence, whoever ran it. Failed runs are always stored.
 */
export async function insertRun(db: Db, run: NewBriefingRunRow): Promise<BriefingRunRow | null> {
  const rows = await db
    .insert(briefingRuns)
    .values(run)
    .onConflictDoNothing({
      target: [briefingRuns.briefingId, briefingRuns.scheduledFor],
      where: ne(briefingRuns.status, "failed"),
    })
    .returning();
  return rows[0] ?? null;
}

/** The briefing's latest runs, newest first. */
export async function listRunsOfBriefing(db: Db, briefingId: string, limit: number): Promise<BriefingRunRow[]> {
  return db
    .select()
    .from(briefingRuns)
    .where(eq(briefingRuns.briefingId, briefingId))
    .orderBy(desc(briefingRuns.seq))
    .limit(limit);
}

export async function latestGoodRunOf(db: Db, briefingId: string): Promise<BriefingRunRow | null> {
  const rows = await db
    .select()
    .from(briefingRuns)
    .where(and(eq(briefingRuns.briefingId, briefingId), ne(briefingRuns.status, "failed")))
    .orderBy(desc(briefingRuns.seq))
    .limit(1);
  return rows[0] ?? null;
}

export async function findRun(db: Db, id: string): Promise<BriefingRunRow | null> {
  const rows = await db.select().from(briefingRuns).where(eq(briefingRuns.id, id));
  return rows[0] ?? null;
}

export type PublicBriefingSeed = {
  slug: string;
  name: string;
  question: string;
  regionCode: string | null;
  window: string | null;
};

/**
 * Upserts public briefings by slug: a new one is inserted, a changed one updated in place (id, creation time and
 * runs kept), an unchanged one not written at all. Returns how many rows were written.
 */
export async function upsertPublicBriefings(
  db: Db,
  rows: readonly (PublicBriefingSeed & { id: string; createdAt: Date })[],
): Promise<number> {
  let written = 0;
  for (const r of rows) {
    const out = await db
      .insert(briefings)
      .values({
        id: r.id,
        ownerKeyId: null,
        slug: r.slug,
        name: r.name,
        question: r.question,
        cadence: "weekly",
        regionCode: r.regionCode,
        window: r.window,
        createdAt: r.createdAt,
      })
      .onConflictDoUpdate({
        target: briefings.slug,
        set: { name: r.name, question: r.question, regionCode: r.regionCode, window: r.window },
        setWhere: sql`(${briefings.name}, ${briefings.question}, ${briefings.regionCode}, ${briefings.window}) is distinct from (excluded.name, excluded.question, excluded.region_code, excluded."window")`,
      })
      .returning({ id: briefings.id });
    written += out.length;
  }
  return written;
}

const briefingColumns = {
  id: briefings.id,
  ownerKeyId: briefings.ownerKeyId,
  slug: briefings.slug,
  name: briefings.name,
  question: briefings.question,
  cadence: briefings.cadence,
  regionCode: briefings.regionCode,
  window: briefings.window,
  createdAt: briefings.createdAt,
};
