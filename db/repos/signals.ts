// Queries over signal intervals (db/schema/signals.ts): reconciliation writes per detection run, and the listing
// behind GET /v1/signals and /v1/signals/active, paged by keyset on (valid_from, id) descending: a page after a
// cursor is "strictly older than the last row shown", so rows written meanwhile never shift a page (no duplicates,
// no gaps among the rows that existed when paging began).
import { and, desc, eq, gte, inArray, isNull, isNotNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { signalIntervals } from "../schema";

export type SignalRow = typeof signalIntervals.$inferSelect;
export type NewSignalRow = typeof signalIntervals.$inferInsert;
export type SeriesKey = { indicatorId: string; regionCode: string };

/** Every stored interval of the given series, in one statement. */
export async function intervalsOfSeries(db: Db, keys: readonly SeriesKey[]): Promise<SignalRow[]> {
  if (keys.length === 0) return [];
  const pairs = sql.join(
    keys.map((k) => sql`(${k.indicatorId}::uuid, ${k.regionCode}::text)`),
    sql`, `,
  );
  return db
    .select()
    .from(signalIntervals)
    .where(sql`(${signalIntervals.indicatorId}, ${signalIntervals.regionCode}) IN (${pairs})`);
}

export type IntervalChanges = {
  inserts: NewSignalRow[];
  updates: { id: string; set: Pick<SignalRow, "direction" | "strength" | "validTo" | "evidence" | "lastSeenAt"> }[];
  deletes: string[];
};

const INSERT_BATCH = 1000; // 10 parameters per row

/** Applies one run's changes in one transaction (a run over many series calls this once per batch of series). */
export async function applyIntervalChanges(db: Db, changes: IntervalChanges): Promise<void> {
  if (changes.inserts.length === 0 && changes.updates.length === 0 && changes.deletes.length === 0) return;
  await db.transaction(async (tx) => {
    for (let i = 0; i < changes.deletes.length; i += INSERT_BATCH) {
      await tx.delete(signalIntervals).where(inArray(signalIntervals.id, changes.deletes.slice(i, i + INSERT_BATCH)));
    }
    for (const u of changes.updates) await tx.update(signalIntervals).set(u.set).where(eq(signalIntervals.id, u.id));
    for (let i = 0; i < changes.inserts.length; i += INSERT_BATCH) {
      // A concurrent run that stored the same interval first wins; the next run reconciles whatever differs.
      await tx.insert(signalIntervals).values(changes.inserts.slice(i, i + INSERT_BATCH)).onConflictDoNothing();
    }
  });
}

export type SignalFilter = {
  indicatorIds?: readonly string[];
  regionCodes?: readonly string[];
  types?: readonly string[];
  strengths?: readonly string[];
  /** true: open intervals only; false: closed only; undefined: both. */
  active?: boolean;
  /** Intervals overlapping [from, to] (either bound optional). */
  from?: Date;
  to?: Date;
  /** Strictly after this position in (valid_from, id) descending order. */
  after?: { validFrom: Date; id: string };
};

/** Up to `limit` intervals matching the filter, newest valid_from first (ties by id, descending). */
export async function listSignalIntervals(db: Db, filter: SignalFilter, limit: number): Promise<SignalRow[]> {
  const where: SQL[] = [];
  const t = signalIntervals;
  if (filter.indicatorIds) where.push(inArray(t.indicatorId, [...filter.indicatorIds]));
  if (filter.regionCodes) where.push(inArray(t.regionCode, [...filter.regionCodes]));
  if (filter.types) where.push(inArray(t.type, [...filter.types] as SignalRow["type"][]));
  if (filter.strengths) where.push(inArray(t.strength, [...filter.strengths] as SignalRow["strength"][]));
  if (filter.active === true) where.push(isNull(t.validTo));
  if (filter.active === false) where.push(isNotNull(t.validTo));
  if (filter.to) where.push(lte(t.validFrom, filter.to));
  if (filter.from) where.push(or(isNull(t.validTo), gte(t.validTo, filter.from))!);
  if (filter.after) {
    const a = filter.after;
    where.push(or(lt(t.validFrom, a.validFrom), and(eq(t.validFrom, a.validFrom), lt(t.id, a.id)))!);
  }
  return db
    .select()
    .from(t)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(t.validFrom), desc(t.id))
    .limit(limit);
}

/** The open intervals of one series (an insights response lists them). */
export async function openIntervalsOfSeries(db: Db, key: SeriesKey): Promise<SignalRow[]> {
  return db
    .select()
    .from(signalIntervals)
    .where(and(eq(signalIntervals.indicatorId, key.indicatorId), eq(signalIntervals.regionCode, key.regionCode), isNull(signalIntervals.validTo)))
    .orderBy(desc(signalIntervals.validFrom), desc(signalIntervals.id));
}
