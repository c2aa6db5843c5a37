// Queries over the flows table: the one write path (an upsert that rewrites only rows whose values differ, so a
// repeated load writes nothing; an empty table is filled by COPY of the same columns, db/seed/flows.ts) and the reads
// of GET /v1/flows (what is held for some filters; one ranked slice).
import { inKeyOrder, targetKey } from "./write-order";
import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { csvField } from "../copy";
import { flows } from "../schema";
import {
  FLOW_DATASETS,
  type FlowDataset,
  type FlowMeasure,
  type FlowRecord,
  type FlowSlice,
} from "../../src/domain/flows";

// Eleven parameters per row stay far below PostgreSQL's 65,535 bind parameters.
const BATCH_SIZE = 2000;

/** Whether the flows table holds any row (a fresh database's flows go in by COPY: db/seed/flows.ts). */
export async function holdsFlows(db: Db): Promise<boolean> {
  return (await db.select({ one: sql<number>`1` }).from(flows).limit(1)).length > 0;
}

/** The COPY target and CSV line of a record, with the columns upsertFlows writes. */
export const FLOWS_COPY_TARGET =
  "flows (origin_code, destination_code, measure, period_start, period_end, dataset, source, value, moe, updated_at)";
export function flowCsvLine(r: FlowRecord, now: string): string {
  return `${[r.origin, r.destination, r.measure, r.periodStart, r.periodEnd, r.dataset, FLOW_DATASETS[r.dataset].source, r.value, r.moe, now].map(csvField).join(",")}\n`;
}

/** Writes records (their codes must be regions); returns how many rows were inserted or changed. */
export async function upsertFlows(
  db: Db,
  records: readonly FlowRecord[],
  now: Date,
  onBatch?: (records: number) => void,
): Promise<number> {
  let written = 0;
  const ordered = inKeyOrder(records, (r) => targetKey(r.origin, r.measure, r.dataset, r.periodStart, r.destination));
  for (let i = 0; i < ordered.length; i += BATCH_SIZE) {
    const rows = ordered.slice(i, i + BATCH_SIZE).map((r) => ({
      originCode: r.origin,
      destinationCode: r.destination,
      measure: r.measure,
      periodStart: r.periodStart,
      periodEnd: r.periodEnd,
      dataset: r.dataset,
      source: FLOW_DATASETS[r.dataset].source,
      value: r.value,
      moe: r.moe,
      updatedAt: now,
    }));
    const out = await db
      .insert(flows)
      .values(rows)
      .onConflictDoUpdate({
        target: [flows.originCode, flows.measure, flows.dataset, flows.periodStart, flows.destinationCode],
        set: {
          periodEnd: sql`excluded.period_end`,
          value: sql`excluded.value`,
          moe: sql`excluded.moe`,
          updatedAt: sql`excluded.updated_at`,
        },
        setWhere: sql`(${flows.periodEnd}, ${flows.value}, ${flows.moe}) is distinct from (excluded.period_end, excluded.value, excluded.moe)`,
      })
      .returning({ origin: flows.originCode });
    written += out.length;
    onBatch?.(rows.length);
  }
  return written;
}

export type FlowFilter = { origin?: string; destination?: string };

function where(f: FlowFilter, more: SQL[] = []): SQL | undefined {
  const parts: SQL[] = [...more];
  if (f.origin) parts.push(eq(flows.originCode, f.origin));
  if (f.destination) parts.push(eq(flows.destinationCode, f.destination));
  return and(...parts);
}

// postgres.js returns an array of rows, PGlite a { rows } object.
function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Every (measure, dataset, period) held for the filters. A loose index scan: the index leading with the filtered end
 * (origin: the primary key; destination only: flows_destination_idx) is probed once per distinct (measure, dataset,
 * period_start), so the cost grows with the slices held, not with the rows (a county holds thousands).
 */
export async function listFlowSlices(db: Db, f: FlowFilter): Promise<FlowSlice[]> {
  const filter = where(f)!;
  const result = await db.execute(sql`
    WITH RECURSIVE s(measure, dataset, period_start) AS (
      (SELECT measure, dataset, period_start FROM flows WHERE ${filter} ORDER BY measure, dataset, period_start LIMIT 1)
      UNION ALL
      SELECT n.measure, n.dataset, n.period_start FROM s CROSS JOIN LATERAL (
        SELECT measure, dataset, period_start FROM flows
        WHERE ${filter} AND (measure, dataset, period_start) > (s.measure, s.dataset, s.period_start)
        ORDER BY measure, dataset, period_start LIMIT 1
      ) n
    )
    SELECT s.measure, s.dataset, s.period_start::text AS period_start,
      (SELECT period_end::text FROM flows WHERE ${filter} AND measure = s.measure AND dataset = s.dataset AND period_start = s.period_start LIMIT 1) AS period_end
    FROM s`);
  return rowsOf<{ measure: string; dataset: string; period_start: string; period_end: string }>(result).map((r) => ({
    measure: r.measure as FlowMeasure,
    dataset: r.dataset as FlowDataset,
    periodStart: r.period_start,
    periodEnd: r.period_end,
  }));
}

export type FlowRow = {
  originCode: string;
  destinationCode: string;
  measure: FlowMeasure;
  periodStart: string;
  periodEnd: string;
  dataset: FlowDataset;
  source: string;
  value: number | null;
  moe: number | null;
};

export type FlowSliceQuery = FlowFilter & {
  measure: FlowMeasure;
  periodStart: string;
  datasets: FlowDataset[];
  limit: number;
};

/** One slice, largest value first (suppressed values last, ties by the ends' codes), and how many rows it has. */
export async function readFlows(db: Db, q: FlowSliceQuery): Promise<{ rows: FlowRow[]; total: number }> {
  const filter = where(q, [
    eq(flows.measure, q.measure),
    inArray(flows.dataset, q.datasets),
    eq(flows.periodStart, q.periodStart),
  ]);
  const rows = await db
    .select({
      originCode: flows.originCode,
      destinationCode: flows.destinationCode,
      measure: flows.measure,
      periodStart: flows.periodStart,
      periodEnd: flows.periodEnd,
      dataset: flows.dataset,
      source: flows.source,
      value: flows.value,
      moe: flows.moe,
    })
    .from(flows)
    .where(filter)
    .orderBy(
      sql`${flows.value} desc nulls last`,
      asc(sql`${flows.destinationCode} collate "C"`),
      asc(sql`${flows.originCode} collate "C"`),
      desc(flows.dataset),
    )
    .limit(q.limit);
  const [{ n }] = await db.select({ n: count() }).from(flows).where(filter);
  return { rows: rows as FlowRow[], total: Number(n) };
}
