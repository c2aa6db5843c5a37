// The outbox of series writes (db/schema/series-changes.ts, filled by triggers on `series`): what the detection job
// reads and clears.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../client";
import { seriesChanges } from "../schema";

export type SeriesChange = { indicatorId: string; regionCode: string; seq: number };

/** Up to `limit` changed series, oldest change first. */
export async function pendingSeriesChanges(db: Db, limit: number): Promise<SeriesChange[]> {
  return db.select().from(seriesChanges).orderBy(seriesChanges.seq).limit(limit);
}

/** The series of one indicator waiting for detection. */
export async function pendingSeriesChangesOf(db: Db, indicatorId: string): Promise<SeriesChange[]> {
  return db.select().from(seriesChanges).where(eq(seriesChanges.indicatorId, indicatorId));
}

/** Clears the rows read, unless the series was written again since (its seq moved): that change waits for its pass. */
export async function clearSeriesChanges(db: Db, done: readonly SeriesChange[]): Promise<void> {
  if (done.length === 0) return;
  const rows = JSON.stringify(done.map((d) => ({ i: d.indicatorId, r: d.regionCode, s: d.seq })));
  await db.execute(sql`
    DELETE FROM ${seriesChanges} c USING jsonb_to_recordset(${rows}::jsonb) AS x(i uuid, r text, s bigint)
    WHERE c.indicator_id = x.i AND c.region_code = x.r AND c.seq = x.s`);
}

/** How many series wait for detection. */
export async function countSeriesChanges(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(seriesChanges);
  return row?.n ?? 0;
}
