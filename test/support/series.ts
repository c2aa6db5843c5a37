// Writes test series through the one write path (db/repos/observations.ts), addressed by catalog source and code.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { series } from "../../db/schema";
import { writeSeriesObservations, type ObservationInput } from "../../db/repos/observations";
import { indicatorId } from "../../db/seed/catalog";
import { DERIVED_SERIES } from "../../src/domain/derived";

export type Row = [date: string, value: number | null, opts?: { preliminary?: boolean; sourceUpdatedAt?: string }];

export async function writeSeries(
  db: Db,
  source: string,
  code: string,
  region: string,
  rows: Row[],
  now = new Date("2026-01-15T00:00:00Z"),
) {
  const input: ObservationInput[] = rows.map(([date, value, o]) => ({
    date,
    value,
    isPreliminary: o?.preliminary ?? false,
    sourceUpdatedAt: o?.sourceUpdatedAt ? new Date(o.sourceUpdatedAt) : null,
  }));
  return writeSeriesObservations(db, { indicatorId: indicatorId(source, code), regionCode: region, rows: input, now });
}

/**
 * Removes a seeded series (its observations and its row), so a test can write a series of values it chose: the seed
 * holds the real snapshot, and writing over it would add revisions instead. The svc: series derived from it go too
 * (they were computed from the removed values): a test that writes the input again derives them again
 * (test/support/derive.ts deriveWritten), as the service's write paths do.
 */
export async function clearSeries(db: Db, source: string, code: string, region: string): Promise<void> {
  await clearWhere(
    db,
    source,
    code,
    and(eq(series.indicatorId, indicatorId(source, code)), eq(series.regionCode, region))!,
  );
}

/** Removes a seeded indicator for every region that holds it (the snapshot holds state LAUS for all 51), as clearSeries. */
export async function clearIndicator(db: Db, source: string, code: string): Promise<void> {
  await clearWhere(db, source, code, eq(series.indicatorId, indicatorId(source, code)));
}

async function clearWhere(db: Db, source: string, code: string, where: SQL): Promise<void> {
  const regions = (await db.select({ code: series.regionCode }).from(series).where(where)).map((r) => r.code);
  await deleteSeries(db, where);
  // The svc: series fed by it: at the same places for a same-place input, everywhere for a fixed-region one.
  for (const spec of Object.values(DERIVED_SERIES)) {
    const inputs = ["country", "state", "county"]
      .flatMap((kind) => spec.inputsFor(kind) ?? [])
      .filter((i) => i.source === source && i.code === code);
    const svc = eq(series.indicatorId, indicatorId("svc", spec.code));
    if (inputs.some((i) => i.region !== "same" && regions.includes(i.region))) await deleteSeries(db, svc);
    else if (inputs.some((i) => i.region === "same") && regions.length > 0)
      await deleteSeries(db, and(svc, inArray(series.regionCode, regions))!);
  }
}

async function deleteSeries(db: Db, where: SQL): Promise<void> {
  await db.execute(sql`delete from observations where series_id in (select id from ${series} where ${where})`);
  await db.delete(series).where(where);
}

/** First-of-month dates from `start` (YYYY-MM) for n months. */
export function monthStarts(start: string, n: number): string[] {
  const [y, m] = start.split("-").map(Number);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const idx = y * 12 + (m - 1) + k;
    out.push(`${Math.floor(idx / 12)}-${String((idx % 12) + 1).padStart(2, "0")}-01`);
  }
  return out;
}

/** Weekdays (Mon-Fri) from `from` to `to` inclusive. */
export function weekdays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}
