// Queries over the flows table: the one write path (an upsert that rewrites only rows whose values differ, so a
// repeated load writes nothing) and the reads of GET /v1/flows (what is held for some filters; one ranked slice).
import { aliasedTable, and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { flows, regions } from "../schema";
import { FLOW_DATASETS, type FlowDataset, type FlowMeasure, type FlowRecord, type FlowSlice } from "../../src/domain/flows";

// Eleven parameters per row stay far below PostgreSQL's 65,535 bind parameters.
const BATCH_SIZE = 2000;

/** Writes records (their codes must be regions); returns how many rows were inserted or changed. */
export async function upsertFlows(db: Db, records: readonly FlowRecord[], now: Date): Promise<number> {
  let written = 0;
  for (let i = 0; i < records.length; i += BATCH_SIZE) {
    const rows = records.slice(i, i + BATCH_SIZE).map((r) => ({
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
        target: [flows.originCode, flows.measure, flows.periodStart, flows.destinationCode, flows.dataset],
        set: { periodEnd: sql`excluded.period_end`, value: sql`excluded.value`, moe: sql`excluded.moe`, updatedAt: sql`excluded.updated_at` },
        setWhere: sql`(${flows.periodEnd}, ${flows.value}, ${flows.moe}) is distinct from (excluded.period_end, excluded.value, excluded.moe)`,
      })
      .returning({ origin: flows.originCode });
    written += out.length;
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

/** Every (measure, period, dataset) held for the filters. */
export async function listFlowSlices(db: Db, f: FlowFilter): Promise<FlowSlice[]> {
  const rows = await db
    .selectDistinct({ measure: flows.measure, periodStart: flows.periodStart, periodEnd: flows.periodEnd, dataset: flows.dataset })
    .from(flows)
    .where(where(f));
  return rows as FlowSlice[];
}

export type FlowRow = {
  originCode: string;
  originName: string;
  destinationCode: string;
  destinationName: string;
  measure: FlowMeasure;
  periodStart: string;
  periodEnd: string;
  dataset: FlowDataset;
  source: string;
  value: number | null;
  moe: number | null;
};

export type FlowSliceQuery = FlowFilter & { measure: FlowMeasure; periodStart: string; datasets: FlowDataset[]; limit: number };

/** One slice, largest value first (suppressed values last, ties by the other end's code), and how many rows it has. */
export async function readFlows(db: Db, q: FlowSliceQuery): Promise<{ rows: FlowRow[]; total: number }> {
  const o = aliasedTable(regions, "o");
  const d = aliasedTable(regions, "d");
  const filter = where(q, [eq(flows.measure, q.measure), eq(flows.periodStart, q.periodStart), inArray(flows.dataset, q.datasets)]);
  const rows = await db
    .select({
      originCode: flows.originCode,
      originName: o.name,
      destinationCode: flows.destinationCode,
      destinationName: d.name,
      measure: flows.measure,
      periodStart: flows.periodStart,
      periodEnd: flows.periodEnd,
      dataset: flows.dataset,
      source: flows.source,
      value: flows.value,
      moe: flows.moe,
    })
    .from(flows)
    .innerJoin(o, eq(o.code, flows.originCode))
    .innerJoin(d, eq(d.code, flows.destinationCode))
    .where(filter)
    .orderBy(sql`${flows.value} desc nulls last`, asc(sql`${flows.destinationCode} collate "C"`), asc(sql`${flows.originCode} collate "C"`), desc(flows.dataset))
    .limit(q.limit);
  const [{ n }] = await db.select({ n: count() }).from(flows).where(filter);
  return { rows: rows as FlowRow[], total: Number(n) };
}
