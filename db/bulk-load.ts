// Bulk load of whole series: the seed snapshot, `svc ingest --all-regions`, bench/bulk-load.ts. Series the store does
// not hold yet are created with one multi-row insert per batch and their observations streamed in with COPY
// (PostgreSQL: COPY FROM STDIN through postgres.js; PGlite: COPY FROM '/dev/blob'), one transaction per batch. Series
// it already holds go through the one revision-aware write path (db/repos/observations.ts writeManySeries), so a
// changed value still becomes a revision and an unchanged one changes nothing.
//
// Rows of a series come sorted by date; a date that appears more than once carries successive vintages of that date
// (the PEP 2020 estimate of vintage 2020, then of vintage 2024): they are stored as revisions 1..n, the last one
// current, exactly as writing each vintage in turn would store them.
//
// Every row is validated before a byte is sent (db/copy.ts says why).
import type { Database } from "./client";
import { copyCheckedCsvPglite, copyCsvPostgres } from "./copy";
import { findManySeriesIds, writeManySeries, type ObservationInput } from "./repos/observations";

/** `sourceUpdatedAt` may be a timestamp string (the snapshot's rows are passed as parsed, without a copy per row). */
export type BulkRow = {
  date: string;
  value: number | null;
  isPreliminary?: boolean;
  sourceUpdatedAt?: Date | string | null;
};
/** `sourceUpdatedAt`: of the rows that carry none. */
export type BulkSeries = {
  indicatorId: string;
  regionCode: string;
  rows: BulkRow[];
  sourceUpdatedAt?: Date | string | null;
};
export type BulkLoadResult = {
  created: number;
  updated: number;
  rows: number;
  inserted: number;
  revised: number;
  unchanged: number;
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * Observation rows per transaction, by default: large enough that statements are few, small enough to keep memory
 * flat. A load beside readers of the same embedded database (a first start serving what it stored) asks for smaller
 * ones: every statement of theirs waits for the transaction under way.
 */
const ROWS_PER_BATCH = 50_000;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A calendar date as YYYY-MM-DD (checked by arithmetic: a million rows of the seed pass through here). */
function validDate(d: string): boolean {
  const m = DATE.exec(d);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

/** Throws on the first row COPY would reject (or that would store a wrong value), naming it. */
export function validateBulkSeries(items: readonly BulkSeries[], isoTime: IsoTime = isoTimeOfLoad()): void {
  const seen = new Set<string>();
  items.forEach((s, i) => {
    const key = `${s.indicatorId}|${s.regionCode}`;
    if (seen.has(key))
      throw new Error(`bulk load: series ${s.indicatorId}/${s.regionCode} appears twice (item ${i + 1})`);
    seen.add(key);
    if (s.sourceUpdatedAt && isoTime(s.sourceUpdatedAt) === null)
      throw new Error(`bulk load: series ${s.indicatorId}/${s.regionCode}: invalid source_updated_at`);
    let prev = "";
    s.rows.forEach((r, j) => {
      const at = `bulk load: ${s.indicatorId}/${s.regionCode} row ${j + 1}`;
      if (!validDate(r.date)) throw new Error(`${at}: invalid date ${JSON.stringify(r.date)}`);
      if (r.date < prev) throw new Error(`${at}: dates out of order (${r.date} after ${prev})`);
      if (r.value !== null && !Number.isFinite(r.value)) throw new Error(`${at}: value ${r.value} is not finite`);
      if (r.sourceUpdatedAt && isoTime(r.sourceUpdatedAt) === null) throw new Error(`${at}: invalid source_updated_at`);
      prev = r.date;
    });
  });
}

function observationInput(
  r: BulkRow,
  seriesUpdatedAt: BulkSeries["sourceUpdatedAt"],
  isoTime: IsoTime,
): ObservationInput {
  const t = r.sourceUpdatedAt || seriesUpdatedAt;
  return {
    date: r.date,
    value: r.value,
    isPreliminary: r.isPreliminary ?? false,
    sourceUpdatedAt: t ? new Date(isoTime(t)!) : null,
  };
}

/** The last (current) vintage of every date. */
export function currentRows(rows: readonly BulkRow[]): BulkRow[] {
  return rows.filter((r, i) => i === rows.length - 1 || rows[i + 1].date !== r.date);
}

/** The ISO form of a timestamp, null when it is not one. */
type IsoTime = (t: Date | string) => string | null;

/**
 * An IsoTime for one load: its rows share a few timestamps, so each string is parsed once. Bounded by the load (at
 * most one entry per row it holds anyway) and gone with it.
 */
function isoTimeOfLoad(): IsoTime {
  const seen = new Map<string, string | null>();
  return (t) => {
    if (t instanceof Date) return Number.isNaN(t.getTime()) ? null : t.toISOString();
    let iso = seen.get(t);
    if (iso === undefined) {
      const d = new Date(t);
      iso = Number.isNaN(d.getTime()) ? null : d.toISOString();
      seen.set(t, iso);
    }
    return iso;
  };
}

/** COPY rows (CSV) of one new series, and its statistics. */
function observationCsv(
  seriesId: number,
  rows: readonly BulkRow[],
  seriesUpdatedAt: BulkSeries["sourceUpdatedAt"],
  recordedAt: string,
  out: string[],
  isoTime: IsoTime,
): void {
  let revision = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    revision = i > 0 && rows[i - 1].date === r.date ? revision + 1 : 1;
    const latest = i === rows.length - 1 || rows[i + 1].date !== r.date;
    out.push(
      `${seriesId},${r.date},${revision},${r.value === null ? "" : r.value},${r.isPreliminary ? "t" : "f"},${latest ? "t" : "f"},${csvTime(r.sourceUpdatedAt || seriesUpdatedAt, isoTime)},${recordedAt}\n`,
    );
  }
}

const csvTime = (t: Date | string | null | undefined, isoTime: IsoTime) => (t ? isoTime(t)! : "");

function stats(rows: readonly BulkRow[]): { first: string | null; last: string | null; count: number } {
  let count = 0;
  for (let i = 0; i < rows.length; i++) if (i === rows.length - 1 || rows[i + 1].date !== rows[i].date) count++;
  return { first: rows[0]?.date ?? null, last: rows[rows.length - 1]?.date ?? null, count };
}

const COPY_TARGET =
  "observations (series_id, date, revision, value, is_preliminary, is_latest, source_updated_at, recorded_at)";
const INSERT_SERIES = `insert into series (indicator_id, region_code, first_date, last_date, observation_count, version, updated_at)
  select * from unnest($1::uuid[], $2::text[], $3::date[], $4::date[], $5::int[], $6::int[], $7::timestamptz[])
  returning id, indicator_id, region_code`;

/** Creates the series of one batch and copies their observations, in one transaction. */
async function loadNewBatch(
  database: Database,
  batch: readonly BulkSeries[],
  now: Date,
  isoTime: IsoTime,
): Promise<void> {
  const at = now.toISOString();
  const st = batch.map((s) => stats(s.rows));
  const params = [
    batch.map((s) => s.indicatorId),
    batch.map((s) => s.regionCode),
    st.map((x) => x.first),
    st.map((x) => x.last),
    st.map((x) => x.count),
    batch.map(() => 1),
    batch.map(() => at),
  ];
  const csvFor = (created: { id: number; indicator_id: string; region_code: string }[]) => {
    const ids = new Map(created.map((r) => [`${r.indicator_id}|${r.region_code}`, Number(r.id)]));
    const lines: string[] = [];
    for (const s of batch)
      observationCsv(ids.get(`${s.indicatorId}|${s.regionCode}`)!, s.rows, s.sourceUpdatedAt, at, lines, isoTime);
    return lines.join("");
  };
  const raw = database.raw;
  if (raw.kind === "postgres") {
    await raw.sql.begin(async (tx) => {
      // A bulk load is maintenance: the service's statement timeout does not apply (the COPY has its own, below).
      await tx`set local statement_timeout = 0`;
      // postgres.js sends a JS array as a parameter only through sql.array (unsafe() takes text otherwise).
      const created = (await tx.unsafe(
        INSERT_SERIES,
        params.map((p) => tx.array(p as never[])) as never,
      )) as unknown as { id: number; indicator_id: string; region_code: string }[];
      await copyCsvPostgres(tx, COPY_TARGET, csvFor(created));
    });
  } else {
    await raw.client.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number; indicator_id: string; region_code: string }>(INSERT_SERIES, params);
      const csv = csvFor(rows);
      // Every row's series is one this transaction just created (its id from the RETURNING above).
      await copyCheckedCsvPglite(tx, COPY_TARGET, csv);
    });
  }
}

/**
 * Loads whole series: new ones by COPY in batches, held ones through the revision-aware write path. Returns counts;
 * `onProgress` hears of rows as they are stored.
 */
export async function bulkLoadSeries(
  database: Database,
  items: readonly BulkSeries[],
  opts: { now: Date; onProgress?: (rows: number) => void; rowsPerTransaction?: number },
): Promise<BulkLoadResult> {
  const rowsPerBatch = opts.rowsPerTransaction ?? ROWS_PER_BATCH;
  const isoTime = isoTimeOfLoad();
  validateBulkSeries(items, isoTime);
  const result: BulkLoadResult = { created: 0, updated: 0, rows: 0, inserted: 0, revised: 0, unchanged: 0 };
  const held = await findManySeriesIds(
    database.db,
    items.map((s) => ({ indicatorId: s.indicatorId, regionCode: s.regionCode })),
  );
  const fresh = items.filter((s) => s.rows.length > 0 && !held.has(`${s.indicatorId}|${s.regionCode}`));
  const existing = items.filter((s) => s.rows.length > 0 && held.has(`${s.indicatorId}|${s.regionCode}`));

  let batch: BulkSeries[] = [];
  let batchRows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await loadNewBatch(database, batch, opts.now, isoTime);
    database.events.seriesWritten(batch);
    result.created += batch.length;
    result.inserted += batchRows;
    result.rows += batchRows;
    opts.onProgress?.(batchRows);
    batch = [];
    batchRows = 0;
  };
  for (const s of fresh) {
    batch.push(s);
    batchRows += s.rows.length;
    if (batchRows >= rowsPerBatch) await flush();
  }
  await flush();

  // Held series: the current value of each date through the one write path (their earlier vintages are history the
  // store either holds already or never saw; replaying them would revise the current value back and forth).
  const writes = existing.map((s) => ({
    indicatorId: s.indicatorId,
    regionCode: s.regionCode,
    rows: currentRows(s.rows).map((r) => observationInput(r, s.sourceUpdatedAt, isoTime)),
  }));
  for (let i = 0; i < writes.length; i += 500) {
    const part = writes.slice(i, i + 500);
    for (const r of await writeManySeries(database.db, { items: part, now: opts.now })) {
      result.inserted += r.inserted;
      result.revised += r.revised;
      result.unchanged += r.unchanged;
    }
    const n = part.reduce((sum, w) => sum + w.rows.length, 0);
    result.rows += n;
    opts.onProgress?.(n);
  }
  result.updated = existing.length;
  return result;
}
