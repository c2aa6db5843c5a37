// Queries over signal intervals (db/schema/signals.ts): reconciliation writes per detection run, and the listing
// behind GET /v1/signals and /v1/signals/active, paged by keyset on (valid_from, id) descending: a page after a
// cursor is "strictly older than the last row shown", so rows written meanwhile never shift a page (no duplicates,
// no gaps among the rows that existed when paging began).
import { inKeyOrder, targetKey } from "./write-order";
import { and, desc, eq, gte, inArray, isNull, isNotNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { indicators, signalIntervals } from "../schema";

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

const INSERT_BATCH = 5000;

/** Applies one run's changes in one transaction (a run over many series calls this once per batch of series). */
export async function applyIntervalChanges(db: Db, changes: IntervalChanges): Promise<void> {
  if (changes.inserts.length === 0 && changes.updates.length === 0 && changes.deletes.length === 0) return;
  await db.transaction(async (tx) => {
    const deletes = inKeyOrder(changes.deletes, (id) => id);
    for (let i = 0; i < deletes.length; i += INSERT_BATCH) {
      await tx.delete(signalIntervals).where(inArray(signalIntervals.id, deletes.slice(i, i + INSERT_BATCH)));
    }
    for (const u of inKeyOrder(changes.updates, (x) => x.id))
      await tx.update(signalIntervals).set(u.set).where(eq(signalIntervals.id, u.id));
    // Many rows per statement as one JSON parameter (jsonb_to_recordset): a detection run may store tens of thousands
    // of intervals, and one parameter parses far faster than ten per row. A concurrent run that stored the same
    // interval first wins (ON CONFLICT DO NOTHING); the next run reconciles whatever differs.
    const inserts = inKeyOrder(changes.inserts, (r) =>
      targetKey(r.indicatorId, r.regionCode, r.type, r.validFrom.toISOString()),
    );
    for (let i = 0; i < inserts.length; i += INSERT_BATCH) {
      const rows = inserts.slice(i, i + INSERT_BATCH).map((r) => ({
        indicator_id: r.indicatorId,
        region_code: r.regionCode,
        type: r.type,
        direction: r.direction ?? null,
        strength: r.strength,
        valid_from: r.validFrom.toISOString(),
        valid_to: r.validTo ? r.validTo.toISOString() : null,
        detected_at: r.detectedAt.toISOString(),
        last_seen_at: r.lastSeenAt.toISOString(),
        evidence: r.evidence,
      }));
      await tx.execute(sql`
        INSERT INTO signal_intervals (indicator_id, region_code, type, direction, strength, valid_from, valid_to, detected_at, last_seen_at, evidence)
        SELECT indicator_id, region_code, type, direction, strength, valid_from, valid_to, detected_at, last_seen_at, evidence
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(indicator_id uuid, region_code text, type text, direction text, strength text,
          valid_from timestamptz, valid_to timestamptz, detected_at timestamptz, last_seen_at timestamptz, evidence jsonb)
        ON CONFLICT DO NOTHING`);
    }
  });
}

export type SignalFilter = {
  indicatorIds?: readonly string[];
  regionCodes?: readonly string[];
  types?: readonly string[];
  strengths?: readonly string[];
  /**
   * true: active intervals only (open, and their series current: see currentSince); false: the others (closed, or open
   * on a series behind schedule); undefined: both.
   */
  active?: boolean;
  /**
   * With `active`: per frequency, the oldest last confirmed observation (evidence.last_date, YYYY-MM-DD) of an active
   * interval (src/domain/freshness.ts currentSince). Without it, `active` means open.
   */
  currentSince?: Record<string, string>;
  /** Intervals overlapping [from, to] (either bound optional). */
  from?: Date;
  to?: Date;
  /** Strictly after this position in (valid_from, id) descending order. */
  after?: { validFrom: Date; id: string };
};

/** The interval's series is current: its frequency's cutoff is at or before the interval's last confirmed observation. */
function currentCondition(since: Record<string, string>): SQL {
  const t = signalIntervals;
  const cases = sql.join(
    Object.entries(since).map(([f, d]) => sql`(i.frequency = ${f} and (${t.evidence} ->> 'last_date') >= ${d})`),
    sql` or `,
  );
  return sql`exists (select 1 from ${indicators} i where i.id = ${t.indicatorId} and (${cases}))`;
}

/** Up to `limit` intervals matching the filter, newest valid_from first (ties by id, descending). */
export async function listSignalIntervals(db: Db, filter: SignalFilter, limit: number): Promise<SignalRow[]> {
  const where: SQL[] = [];
  const t = signalIntervals;
  if (filter.indicatorIds) where.push(inArray(t.indicatorId, [...filter.indicatorIds]));
  if (filter.regionCodes) where.push(inArray(t.regionCode, [...filter.regionCodes]));
  if (filter.types) where.push(inArray(t.type, [...filter.types] as SignalRow["type"][]));
  if (filter.strengths) where.push(inArray(t.strength, [...filter.strengths] as SignalRow["strength"][]));
  const current = filter.currentSince ? currentCondition(filter.currentSince) : sql`true`;
  if (filter.active === true) where.push(and(isNull(t.validTo), current)!);
  if (filter.active === false) where.push(or(isNotNull(t.validTo), sql`not (${current})`)!);
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
    .where(
      and(
        eq(signalIntervals.indicatorId, key.indicatorId),
        eq(signalIntervals.regionCode, key.regionCode),
        isNull(signalIntervals.validTo),
      ),
    )
    .orderBy(desc(signalIntervals.validFrom), desc(signalIntervals.id));
}
