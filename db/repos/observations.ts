// The only write path for observations, plus the small series lookups writers need.
//
// Revision model: every stored (series, date) has revisions 1..n; exactly one of them, the newest, has is_latest = true.
// A write compares each incoming row with the date's latest revision:
//   - no stored row                                      -> revision 1 (inserted)
//   - value differs (exactly; null vs number differs) or
//     is_preliminary differs                             -> revision latest+1, the old row loses is_latest (revised)
//   - otherwise                                          -> nothing is written (unchanged; source_updated_at alone is no change)
// Series statistics cover every latest row, including rows whose value is null (a stored missing observation):
// first_date/last_date bound those dates and observation_count counts them. `version` is bumped once per write that
// changed anything, and updated_at is set to `now` only then, so an identical re-write leaves the series row untouched.
//
// Concurrency: a write locks its series rows (SELECT ... FOR UPDATE, in id order) before reading the latest revisions,
// so two writers of one series serialise; the partial unique index on (series_id, date) WHERE is_latest is the backstop,
// and deadlocks or unique violations from racing creators are retried.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { announceSeriesWritten } from "../events";
import { series } from "../schema";
import {
  normalise,
  ObservationInputError,
  type Item,
  type ObservationInput,
  type Row,
  type SeriesWrite,
} from "./observation-input";

export {
  DuplicateObservationDateError,
  ObservationInputError,
  type ObservationInput,
  type SeriesWrite,
} from "./observation-input";

export type WriteResult = { seriesId: number; inserted: number; revised: number; unchanged: number };
/** Called as rows are processed (compared, then written), with the number just processed: drives progress bars. */
export type WriteProgress = (rowsProcessed: number) => void;

export type SeriesRow = typeof series.$inferSelect;

// Multi-row statements stay well under PostgreSQL's 65,535 bind parameters.
const INSERT_BATCH = 2000; // 6 parameters per row
const KEY_BATCH = 4000; // at most 7 parameters per row (series creation)
const MAX_ATTEMPTS = 5;

/** Writes one series. See the file comment for the revision rules. */
export async function writeSeriesObservations(
  db: Db,
  args: { indicatorId: string; regionCode: string; rows: ObservationInput[]; now: Date; onProgress?: WriteProgress },
): Promise<WriteResult> {
  const [result] = await writeManySeries(db, {
    items: [{ indicatorId: args.indicatorId, regionCode: args.regionCode, rows: args.rows }],
    now: args.now,
    onProgress: args.onProgress,
  });
  return result;
}

/**
 * Writes many series in one transaction with a fixed number of statements per batch (not per series): the
 * shape seeds want (thousands of one-row county series). Results are in input order.
 */
export async function writeManySeries(
  db: Db,
  args: { items: SeriesWrite[]; now: Date; onProgress?: WriteProgress },
): Promise<WriteResult[]> {
  const items = args.items.map((item, i) => normalise(item, i));
  const seen = new Map<string, number>();
  items.forEach((it, i) => {
    const k = seriesKey(it.indicatorId, it.regionCode);
    const first = seen.get(k);
    if (first !== undefined) {
      throw new ObservationInputError(
        `series ${it.indicatorId}/${it.regionCode} appears twice in one write (items ${first + 1} and ${i + 1})`,
        i,
        null,
      );
    }
    seen.set(k, i);
  });
  if (items.length === 0) return [];
  if (Number.isNaN(args.now.getTime())) throw new ObservationInputError("now is not a valid date", 0, null);
  const now = args.now.toISOString();

  for (let attempt = 1; ; attempt++) {
    let reported = 0;
    // Progress is reported again from zero on a retry; the caller only sees increments, so undo the first try's.
    const progress: WriteProgress = (n) => {
      reported += n;
      args.onProgress?.(n);
    };
    try {
      const results = await db.transaction((tx) => writeInTransaction(tx as unknown as Db, items, now, progress));
      announceSeriesWritten(
        db,
        items.filter((_, i) => results[i].inserted + results[i].revised > 0),
      );
      return results;
    } catch (e) {
      if (reported > 0) args.onProgress?.(-reported);
      if (attempt >= MAX_ATTEMPTS || !isRetryable(e)) throw e;
    }
  }
}

/** Which of these (indicator, region) pairs have a series row, as `${indicatorId}|${regionCode}` keys. */
export async function findManySeriesIds(
  db: Db,
  keys: readonly { indicatorId: string; regionCode: string }[],
): Promise<Set<string>> {
  const held = new Set<string>();
  const indicatorIds = [...new Set(keys.map((k) => k.indicatorId))];
  for (let i = 0; i < indicatorIds.length; i += KEY_BATCH) {
    const part = indicatorIds.slice(i, i + KEY_BATCH);
    const rows = await db
      .select({ indicatorId: series.indicatorId, regionCode: series.regionCode })
      .from(series)
      .where(
        sql`${series.indicatorId} in (${sql.join(
          part.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    for (const r of rows) held.add(`${r.indicatorId}|${r.regionCode}`);
  }
  return held;
}

/** The series row for (indicator, region), or null when nothing was ever written for it. */
export async function findSeries(db: Db, indicatorId: string, regionCode: string): Promise<SeriesRow | null> {
  const rows = await db
    .select()
    .from(series)
    .where(and(eq(series.indicatorId, indicatorId), eq(series.regionCode, regionCode)))
    .limit(1);
  return rows[0] ?? null;
}

// ---------------------------------------------------------------------------------------------------------------

type Latest = { revision: number; value: number | null; isPreliminary: boolean };

function seriesKey(indicatorId: string, regionCode: string): string {
  return `${indicatorId}\u0000${regionCode}`;
}

function chunks<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

// postgres.js returns an array of rows, PGlite a { rows } object; dates come back as text from both (drizzle's parsers).
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

function sqlCode(e: unknown): string | undefined {
  let cur: any = e;
  for (let depth = 0; cur && depth < 4; depth++, cur = cur.cause) {
    if (typeof cur.code === "string") return cur.code;
  }
  return undefined;
}

function isRetryable(e: unknown): boolean {
  // deadlock, serialization failure, unique violation (a racing writer created the same series or latest row)
  const code = sqlCode(e);
  return code === "40P01" || code === "40001" || code === "23505";
}

async function writeInTransaction(tx: Db, items: Item[], now: string, progress: WriteProgress): Promise<WriteResult[]> {
  const ids = await lockSeries(tx, items);
  const created = new Set<number>();
  const missing = items.filter((it) => !ids.has(seriesKey(it.indicatorId, it.regionCode)));
  if (missing.length > 0) {
    for (const id of await createSeries(tx, missing, ids, now)) created.add(id);
    // A concurrent writer created some of them first: lock those now (they are committed, so visible).
    const still = missing.filter((it) => !ids.has(seriesKey(it.indicatorId, it.regionCode)));
    if (still.length > 0) await lockSeries(tx, still, ids);
    const lost = still.find((it) => !ids.has(seriesKey(it.indicatorId, it.regionCode)));
    if (lost) throw new Error(`could not create series ${lost.indicatorId}/${lost.regionCode}`);
  }

  const seriesIds = items.map((it) => ids.get(seriesKey(it.indicatorId, it.regionCode))!);
  // Latest revisions of the incoming dates; a series this transaction created has none.
  const latest = await readLatest(
    tx,
    items.flatMap((it, i) =>
      created.has(seriesIds[i]) || it.rows.length === 0 ? [] : [{ seriesId: seriesIds[i], rows: it.rows }],
    ),
  );

  const inserts: { seriesId: number; revision: number; row: Row }[] = [];
  const superseded: { seriesId: number; date: string; revision: number }[] = [];
  const stats = new Map<number, { lo: string; hi: string; added: number }>();
  const results: WriteResult[] = items.map((it, i) => {
    const seriesId = seriesIds[i];
    const stored = latest.get(seriesId);
    const result: WriteResult = { seriesId, inserted: 0, revised: 0, unchanged: 0 };
    for (const row of it.rows) {
      const prev = stored?.get(row.date);
      if (prev && prev.value === row.value && prev.isPreliminary === row.isPreliminary) {
        result.unchanged++;
        continue;
      }
      if (prev) {
        result.revised++;
        superseded.push({ seriesId, date: row.date, revision: prev.revision });
      } else {
        result.inserted++;
      }
      inserts.push({ seriesId, revision: (prev?.revision ?? 0) + 1, row });
      const s = stats.get(seriesId);
      if (!s) stats.set(seriesId, { lo: row.date, hi: row.date, added: prev ? 0 : 1 });
      else {
        if (row.date < s.lo) s.lo = row.date;
        if (row.date > s.hi) s.hi = row.date;
        if (!prev) s.added++;
      }
    }
    return result;
  });
  const unchanged = results.reduce((n, r) => n + r.unchanged, 0);
  if (unchanged > 0) progress(unchanged);

  // Old latest rows step down before the new ones arrive: the partial unique index checks each row immediately.
  for (const batch of chunks(superseded, KEY_BATCH)) {
    const keys = sql.join(
      batch.map((k) => sql`(${k.seriesId}::int, ${k.date}::date, ${k.revision}::int)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE observations AS o SET is_latest = false
      FROM (VALUES ${keys}) AS k(series_id, date, revision)
      WHERE o.series_id = k.series_id AND o.date = k.date AND o.revision = k.revision AND o.is_latest`);
  }
  for (const batch of chunks(inserts, INSERT_BATCH)) {
    const values = sql.join(
      batch.map(
        (r) =>
          sql`(${r.seriesId}::int, ${r.row.date}::date, ${r.revision}::int, ${r.row.value}::float8, ${r.row.isPreliminary}::boolean, ${r.row.sourceUpdatedAt}::timestamptz)`,
      ),
      sql`, `,
    );
    await tx.execute(sql`
      INSERT INTO observations (series_id, date, revision, value, is_preliminary, source_updated_at, is_latest, recorded_at)
      SELECT v.series_id, v.date, v.revision, v.value, v.is_preliminary, v.source_updated_at, true, ${now}::timestamptz
      FROM (VALUES ${values}) AS v(series_id, date, revision, value, is_preliminary, source_updated_at)`);
    progress(batch.length);
  }
  // Revisions never remove a date, so the stats move incrementally: O(1) per series however long it is.
  // Series created above already carry theirs.
  for (const batch of chunks(
    [...stats].filter(([id]) => !created.has(id)),
    KEY_BATCH,
  )) {
    const values = sql.join(
      batch.map(([id, s]) => sql`(${id}::int, ${s.lo}::date, ${s.hi}::date, ${s.added}::int)`),
      sql`, `,
    );
    await tx.execute(sql`
      UPDATE series AS s SET
        first_date = LEAST(s.first_date, v.lo),
        last_date = GREATEST(s.last_date, v.hi),
        observation_count = s.observation_count + v.added,
        version = s.version + 1,
        updated_at = ${now}::timestamptz
      FROM (VALUES ${values}) AS v(id, lo, hi, added)
      WHERE s.id = v.id`);
  }
  return results;
}

/** Locks the existing series rows of `items` in id order (so concurrent multi-series writers cannot deadlock each other). */
async function lockSeries(tx: Db, items: Item[], into = new Map<string, number>()): Promise<Map<string, number>> {
  for (const batch of chunks(items, KEY_BATCH)) {
    let query: SQL;
    if (batch.length === 1) {
      query = sql`SELECT id, indicator_id, region_code FROM series
        WHERE indicator_id = ${batch[0].indicatorId}::uuid AND region_code = ${batch[0].regionCode} FOR UPDATE`;
    } else {
      const keys = sql.join(
        batch.map((it) => sql`(${it.indicatorId}::uuid, ${it.regionCode}::text)`),
        sql`, `,
      );
      query = sql`SELECT s.id, s.indicator_id, s.region_code FROM series AS s
        JOIN (VALUES ${keys}) AS k(indicator_id, region_code) ON s.indicator_id = k.indicator_id AND s.region_code = k.region_code
        ORDER BY s.id FOR UPDATE OF s`;
    }
    for (const r of rowsOf<{ id: number; indicator_id: string; region_code: string }>(await tx.execute(query))) {
      into.set(seriesKey(r.indicator_id, r.region_code), Number(r.id));
    }
  }
  return into;
}

/**
 * Creates the missing series, already carrying the stats of their rows (every row of a new series is inserted), so
 * they need no stats update. Returns the ids this transaction created (a racing creator's rows are not among them).
 */
async function createSeries(tx: Db, items: Item[], into: Map<string, number>, now: string): Promise<number[]> {
  const created: number[] = [];
  for (const batch of chunks(items, KEY_BATCH)) {
    const values = sql.join(
      batch.map((it) => {
        const dates = it.rows.map((r) => r.date).sort();
        const n = dates.length;
        return sql`(${it.indicatorId}::uuid, ${it.regionCode}::text, ${dates[0] ?? null}::date, ${dates[n - 1] ?? null}::date, ${n}::int, ${n > 0 ? 1 : 0}::int, ${now}::timestamptz)`;
      }),
      sql`, `,
    );
    const rows = rowsOf<{ id: number; indicator_id: string; region_code: string }>(
      await tx.execute(sql`
        INSERT INTO series (indicator_id, region_code, first_date, last_date, observation_count, version, updated_at) VALUES ${values}
        ON CONFLICT (indicator_id, region_code) DO NOTHING
        RETURNING id, indicator_id, region_code`),
    );
    for (const r of rows) {
      into.set(seriesKey(r.indicator_id, r.region_code), Number(r.id));
      created.push(Number(r.id));
    }
  }
  return created;
}

/**
 * The latest revision of each stored date in the span of the incoming dates, per series. One range scan of the
 * partial latest index per series: rows between the incoming dates are read too, which is what a refresh (a
 * contiguous recent window) or a whole-file import wants anyway.
 */
async function readLatest(
  tx: Db,
  wanted: { seriesId: number; rows: Row[] }[],
): Promise<Map<number, Map<string, Latest>>> {
  const out = new Map<number, Map<string, Latest>>();
  for (const batch of chunks(wanted, KEY_BATCH)) {
    const spans = batch.map((w) => {
      let lo = w.rows[0].date;
      let hi = lo;
      for (const r of w.rows) {
        if (r.date < lo) lo = r.date;
        if (r.date > hi) hi = r.date;
      }
      return { seriesId: w.seriesId, lo, hi };
    });
    const query =
      spans.length === 1
        ? sql`SELECT series_id, date::text AS date, revision, value, is_preliminary FROM observations
            WHERE series_id = ${spans[0].seriesId}::int AND is_latest AND date BETWEEN ${spans[0].lo}::date AND ${spans[0].hi}::date`
        : sql`SELECT o.series_id, o.date::text AS date, o.revision, o.value, o.is_preliminary FROM observations AS o
            JOIN (VALUES ${sql.join(
              spans.map((s) => sql`(${s.seriesId}::int, ${s.lo}::date, ${s.hi}::date)`),
              sql`, `,
            )}) AS k(series_id, lo, hi)
              ON o.series_id = k.series_id AND o.date BETWEEN k.lo AND k.hi
            WHERE o.is_latest`;
    const rows = rowsOf<{
      series_id: number;
      date: string;
      revision: number;
      value: number | null;
      is_preliminary: boolean;
    }>(await tx.execute(query));
    for (const r of rows) {
      const sid = Number(r.series_id);
      let m = out.get(sid);
      if (!m) out.set(sid, (m = new Map()));
      m.set(r.date, {
        revision: Number(r.revision),
        value: r.value === null ? null : Number(r.value),
        isPreliminary: r.is_preliminary,
      });
    }
  }
  return out;
}
