// The bulk loader on the run's backend: COPY for new series (revisions for repeated dates), the revision-aware write
// path for held ones, and validation before any byte is sent.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { bulkLoadSeries, validateBulkSeries } from "../../db/bulk-load";
import { indicators, observations, series } from "../../db/schema";
import { makeTestDatabase, testBackend } from "../support/db";

setDefaultTimeout(60_000);

let database: Database;
let manemp: string;
beforeAll(async () => {
  database = await makeTestDatabase();
  manemp = (await database.db.select().from(indicators).where(eq(indicators.code, "MANEMP")))[0].id;
});
afterAll(async () => {
  await database.close();
});

async function stored(regionCode: string) {
  const [s] = await database.db
    .select()
    .from(series)
    .where(and(eq(series.indicatorId, manemp), eq(series.regionCode, regionCode)));
  const rows = await database.db
    .select({
      date: observations.date,
      revision: observations.revision,
      value: observations.value,
      isLatest: observations.isLatest,
    })
    .from(observations)
    .where(eq(observations.seriesId, s.id))
    .orderBy(asc(observations.date), asc(observations.revision));
  return { series: s, rows };
}

describe(`bulkLoadSeries (${testBackend})`, () => {
  test("a new series: one COPY; a repeated date is revisions 1 and 2, the last current; statistics count dates", async () => {
    const now = new Date("2026-11-24T00:00:00Z");
    const r = await bulkLoadSeries(
      database,
      [
        {
          indicatorId: manemp,
          regionCode: "US",
          rows: [
            { date: "2025-09-01", value: 12700 },
            { date: "2025-10-01", value: 12690 },
            { date: "2025-10-01", value: 12695 },
            { date: "2025-11-01", value: null },
          ],
        },
      ],
      { now },
    );
    expect(r).toEqual({ created: 1, updated: 0, rows: 4, inserted: 4, revised: 0, unchanged: 0 });
    const { series: s, rows } = await stored("US");
    expect(rows).toEqual([
      { date: "2025-09-01", revision: 1, value: 12700, isLatest: true },
      { date: "2025-10-01", revision: 1, value: 12690, isLatest: false },
      { date: "2025-10-01", revision: 2, value: 12695, isLatest: true },
      { date: "2025-11-01", revision: 1, value: null, isLatest: true },
    ]);
    expect(s).toMatchObject({ firstDate: "2025-09-01", lastDate: "2025-11-01", observationCount: 3, version: 1 });
  });

  test("the foreign key from observations to series holds after a load (only the load's own COPY skips its check)", async () => {
    await bulkLoadSeries(
      database,
      [{ indicatorId: manemp, regionCode: "48", rows: [{ date: "2025-09-01", value: 1 }] }],
      { now: new Date() },
    );
    const orphan = await database.db
      .insert(observations)
      .values({
        seriesId: 2_000_000_000,
        date: "2025-09-01",
        revision: 1,
        value: 1,
        isPreliminary: false,
        isLatest: true,
        recordedAt: new Date(),
      })
      .catch((e: { cause?: { code?: string }; code?: string }) => e.cause?.code ?? e.code);
    expect(orphan).toBe("23503");
  });

  test("a held series goes through the write path: the same values change nothing, a new value is a revision", async () => {
    const rows = [
      { date: "2025-09-01", value: 12700 },
      { date: "2025-10-01", value: 12695 },
      { date: "2025-11-01", value: null },
    ];
    const same = await bulkLoadSeries(database, [{ indicatorId: manemp, regionCode: "US", rows }], { now: new Date() });
    expect(same).toMatchObject({ created: 0, updated: 1, inserted: 0, revised: 0, unchanged: 3 });
    const changed = await bulkLoadSeries(
      database,
      [{ indicatorId: manemp, regionCode: "US", rows: [{ date: "2025-11-01", value: 12680 }] }],
      { now: new Date() },
    );
    expect(changed).toMatchObject({ revised: 1 });
    const { rows: after } = await stored("US");
    expect(after.filter((r) => r.date === "2025-11-01")).toEqual([
      { date: "2025-11-01", revision: 1, value: null, isLatest: false },
      { date: "2025-11-01", revision: 2, value: 12680, isLatest: true },
    ]);
  });

  test("invalid rows are refused before anything is written", async () => {
    const bad = (rows: { date: string; value: number | null }[]) => [{ indicatorId: manemp, regionCode: "06", rows }];
    expect(() => validateBulkSeries(bad([{ date: "2025-02-30", value: 1 }]))).toThrow("invalid date");
    // Leap days: every fourth year, not every hundredth, every four hundredth.
    for (const d of ["2024-02-29", "2000-02-29", "2025-12-31", "0001-01-01"])
      expect(() => validateBulkSeries(bad([{ date: d, value: 1 }]))).not.toThrow();
    for (const d of ["2023-02-29", "1900-02-29", "2025-04-31", "2025-00-10", "2025-01-00", "0000-01-01", "2025-1-01"])
      expect(() => validateBulkSeries(bad([{ date: d, value: 1 }]))).toThrow("invalid date");
    expect(() => validateBulkSeries(bad([{ date: "2025-02-01", value: Number.NaN }]))).toThrow("not finite");
    expect(() =>
      validateBulkSeries(
        bad([
          { date: "2025-02-01", value: 1 },
          { date: "2025-01-01", value: 1 },
        ]),
      ),
    ).toThrow("out of order");
    await expect(
      bulkLoadSeries(
        database,
        bad([
          { date: "2025-01-01", value: 1 },
          { date: "2025-13-01", value: 2 },
        ]),
        { now: new Date() },
      ),
    ).rejects.toThrow("invalid date");
    const [s] = await database.db
      .select()
      .from(series)
      .where(and(eq(series.indicatorId, manemp), eq(series.regionCode, "06")));
    expect(s).toBeUndefined();
  });
});
