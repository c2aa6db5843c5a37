// Read queries over series and observations (the write path is db/repos/observations.ts).
// - Latest reads go through the partial unique index observations_latest_idx (series_id, date) WHERE is_latest:
//   one range scan per series whatever the number of revisions or other series.
// - Revision reads return every stored revision in a date range, ordered by date then revision, so a client can
//   rebuild any vintage (the value of a date as of time T is its highest revision recorded at or before T).
// - Batch latest is ONE statement: a LATERAL backward scan of the latest index per series, one row each.
import { and, asc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { observations, series } from "../schema";

export type StoredObservation = {
  date: string;
  value: number | null;
  revision: number;
  isPreliminary: boolean;
  sourceUpdatedAt: Date | null;
};

export type SeriesHead = {
  id: number;
  indicatorId: string;
  regionCode: string;
  version: number;
  firstDate: string | null;
  lastDate: string | null;
  observationCount: number;
};

/** A series is held when it has a row with at least one observation: the one place that rule is written. */
export function isHeldHead(head: SeriesHead | null | undefined): head is SeriesHead {
  return !!head && head.observationCount > 0;
}

const headColumns = {
  id: series.id,
  indicatorId: series.indicatorId,
  regionCode: series.regionCode,
  version: series.version,
  firstDate: series.firstDate,
  lastDate: series.lastDate,
  observationCount: series.observationCount,
};

/** The series row of (indicator, region), or null when nothing was ever stored for it. */
export async function findSeriesHead(db: Db, indicatorId: string, regionCode: string): Promise<SeriesHead | null> {
  const rows = await db
    .select(headColumns)
    .from(series)
    .where(and(eq(series.indicatorId, indicatorId), eq(series.regionCode, regionCode)))
    .limit(1);
  return rows[0] ?? null;
}

/** Series rows for many (indicator, region) pairs in one statement. */
export async function findSeriesHeads(
  db: Db,
  keys: { indicatorId: string; regionCode: string }[],
): Promise<SeriesHead[]> {
  if (keys.length === 0) return [];
  const pairs = sql.join(
    keys.map((k) => sql`(${k.indicatorId}::uuid, ${k.regionCode}::text)`),
    sql`, `,
  );
  return db.select(headColumns).from(series).where(sql`(${series.indicatorId}, ${series.regionCode}) IN (${pairs})`);
}

/** Every series of an indicator (one per region holding it). */
export async function findSeriesHeadsForIndicator(db: Db, indicatorId: string): Promise<SeriesHead[]> {
  return db
    .select(headColumns)
    .from(series)
    .where(eq(series.indicatorId, indicatorId))
    .orderBy(sql`${series.regionCode} collate "C"`);
}

/** Region codes that hold a series of the indicator (for "offered for these regions" messages). */
export async function regionCodesWithSeries(
  db: Db,
  indicatorId: string,
  limit = 50,
): Promise<{ codes: string[]; total: number }> {
  const codes = await db
    .select({ code: series.regionCode })
    .from(series)
    .where(eq(series.indicatorId, indicatorId))
    .orderBy(sql`${series.regionCode} collate "C"`)
    .limit(limit);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(series)
    .where(eq(series.indicatorId, indicatorId));
  return { codes: codes.map((c) => c.code), total: Number(n) };
}

const obsColumns = {
  date: observations.date,
  value: observations.value,
  revision: observations.revision,
  isPreliminary: observations.isPreliminary,
  sourceUpdatedAt: observations.sourceUpdatedAt,
};

/** Every date's latest revision, ascending: the whole series (transforms need it all). */
export async function readLatestObservations(db: Db, seriesId: number): Promise<StoredObservation[]> {
  const rows = await db
    .select(obsColumns)
    .from(observations)
    .where(and(eq(observations.seriesId, seriesId), sql`${observations.isLatest}`))
    .orderBy(asc(observations.date));
  return normalised(rows);
}

export type RevisionQuery = { start?: string; end?: string; order: "asc" | "desc"; limit: number; offset: number };

/** Every stored revision in the date range, paged; ordered by date (per `order`) then revision ascending. */
export async function readRevisions(
  db: Db,
  seriesId: number,
  q: RevisionQuery,
): Promise<{ rows: StoredObservation[]; total: number }> {
  const where: SQL[] = [eq(observations.seriesId, seriesId)];
  if (q.start) where.push(gte(observations.date, q.start));
  if (q.end) where.push(lte(observations.date, q.end));
  const cond = and(...where);
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(observations).where(cond);
  const total = Number(n);
  if (q.limit === 0 || q.offset >= total) return { rows: [], total };
  const rows = await db
    .select(obsColumns)
    .from(observations)
    .where(cond)
    .orderBy(
      q.order === "asc" ? sql`${observations.date} asc` : sql`${observations.date} desc`,
      asc(observations.revision),
    )
    .limit(q.limit)
    .offset(q.offset);
  return { rows: normalised(rows), total };
}

/** One stored revision with the day it became known: its source's publication date, else the day it was recorded (UTC). */
export type VintagedRevision = { date: string; value: number | null; vintage: string };

/** Every stored revision of a series, by date then revision, each with its vintage day (FRED real-time periods). */
export async function readRevisionHistory(db: Db, seriesId: number): Promise<VintagedRevision[]> {
  const rows = await db
    .select({
      date: observations.date,
      value: observations.value,
      vintage: sql<string>`to_char(coalesce(${observations.sourceUpdatedAt}, ${observations.recordedAt}) at time zone 'UTC', 'YYYY-MM-DD')`,
    })
    .from(observations)
    .where(eq(observations.seriesId, seriesId))
    .orderBy(asc(observations.date), asc(observations.revision));
  return rows.map((r) => ({ date: r.date, value: r.value === null ? null : Number(r.value), vintage: r.vintage }));
}

export type LatestRow = StoredObservation & { seriesId: number };

/**
 * The newest observation with a value of each series, in one statement (a LATERAL backward scan of the latest
 * index per series). Series with no valued observation are absent from the result.
 */
export async function readLatestPerSeries(db: Db, seriesIds: number[]): Promise<Map<number, LatestRow>> {
  const out = new Map<number, LatestRow>();
  if (seriesIds.length === 0) return out;
  const ids = sql.join(
    [...new Set(seriesIds)].map((id) => sql`(${id}::int)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    SELECT k.id AS series_id, o.date::text AS date, o.value, o.revision, o.is_preliminary, o.source_updated_at
    FROM (VALUES ${ids}) AS k(id)
    CROSS JOIN LATERAL (
      SELECT date, value, revision, is_preliminary, source_updated_at FROM observations
      WHERE series_id = k.id AND is_latest AND value IS NOT NULL
      ORDER BY date DESC LIMIT 1
    ) AS o`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    series_id: number;
    date: string;
    value: number | string;
    revision: number;
    is_preliminary: boolean;
    source_updated_at: Date | string | null;
  }[];
  for (const r of rows) {
    out.set(Number(r.series_id), {
      seriesId: Number(r.series_id),
      date: r.date,
      value: Number(r.value),
      revision: Number(r.revision),
      isPreliminary: r.is_preliminary,
      sourceUpdatedAt: r.source_updated_at === null ? null : new Date(r.source_updated_at),
    });
  }
  return out;
}

type RawObservation = {
  date: string;
  value: number | null;
  revision: number;
  isPreliminary: boolean;
  sourceUpdatedAt: Date | null;
};

/** Rows as stored (a numeric column may come back as a string) as StoredObservations: one loop, no call a row. */
function normalised(rows: readonly RawObservation[]): StoredObservation[] {
  const out = new Array<StoredObservation>(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    out[k] = {
      date: r.date,
      value: r.value === null ? null : Number(r.value),
      revision: Number(r.revision),
      isPreliminary: r.isPreliminary,
      sourceUpdatedAt: r.sourceUpdatedAt,
    };
  }
  return out;
}

/**
 * The latest revision of every date of many series, in one statement: series id -> rows ascending by date. Each
 * series comes back as one row of two arrays (dates, values), which both drivers parse far faster than a row per
 * observation (a million observations of 3,144 series: about three times faster on PGlite).
 */
export async function readLatestObservationsMany(
  db: Db,
  seriesIds: readonly number[],
): Promise<Map<number, { date: string; value: number | null }[]>> {
  const out = new Map<number, { date: string; value: number | null }[]>();
  if (seriesIds.length === 0) return out;
  const ids = sql.join(
    [...new Set(seriesIds)].map((id) => sql`${id}::int`),
    sql`, `,
  );
  const result = await db.execute(sql`
    SELECT series_id, array_agg(date::text ORDER BY date) AS dates, array_agg(value ORDER BY date) AS vals
    FROM observations WHERE series_id IN (${ids}) AND is_latest
    GROUP BY series_id`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    series_id: number;
    dates: string[];
    vals: (number | string | null)[];
  }[];
  for (const r of rows) {
    out.set(
      Number(r.series_id),
      r.dates.map((date, k) => ({ date, value: r.vals[k] === null ? null : Number(r.vals[k]) })),
    );
  }
  return out;
}

/**
 * The values on `date` of every series of the indicator whose region is of `regionType` (and, when given, has
 * `parentCode` as parent): the peers of a region, for ranking. One statement; regions without a value that day
 * are absent.
 */
export async function readPeerValues(
  db: Db,
  args: { indicatorId: string; date: string; regionType: string; parentCode: string | null },
): Promise<{ region: string; value: number }[]> {
  const parent = args.parentCode === null ? sql`` : sql` AND r.parent_code = ${args.parentCode}`;
  const result = await db.execute(sql`
    SELECT s.region_code AS region, o.value
    FROM series s
    JOIN regions r ON r.code = s.region_code
    JOIN observations o ON o.series_id = s.id AND o.is_latest AND o.date = ${args.date}::date
    WHERE s.indicator_id = ${args.indicatorId}::uuid AND r.type = ${args.regionType}${parent} AND o.value IS NOT NULL
    ORDER BY s.region_code`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    region: string;
    value: number | string;
  }[];
  return rows.map((r) => ({ region: r.region, value: Number(r.value) }));
}

/**
 * Across the regions of `regionType` (and of `parentCode`, when given) that hold the indicator: how many do, and the
 * newest date most of them hold (on a tie, the newest), so that a ranking reads one period for all of them (then
 * readPeerValues on that date). One statement over the series heads, no observation scan.
 */
export async function commonLatestDate(
  db: Db,
  args: { indicatorId: string; regionType: string; parentCode: string | null },
): Promise<{ date: string; held: number; atDate: number } | null> {
  const parent = args.parentCode === null ? sql`` : sql` AND r.parent_code = ${args.parentCode}`;
  const result = await db.execute(sql`
    SELECT s.last_date::text AS date, count(*) OVER () AS held, count(*) OVER (PARTITION BY s.last_date) AS at_date
    FROM series s
    JOIN regions r ON r.code = s.region_code
    WHERE s.indicator_id = ${args.indicatorId}::uuid AND r.type = ${args.regionType}${parent} AND s.observation_count > 0 AND s.last_date IS NOT NULL
    ORDER BY at_date DESC, s.last_date DESC
    LIMIT 1`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    date: string;
    held: number | string;
    at_date: number | string;
  }[];
  return rows[0] ? { date: rows[0].date, held: Number(rows[0].held), atDate: Number(rows[0].at_date) } : null;
}
