// writeManySeries and concurrent writers of the observation write path, on the backend of the run (PGlite, or
// PostgreSQL with TEST_DATABASE_URL); writeSeriesObservations is test/db/observations-write.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { findSeries, writeManySeries, writeSeriesObservations } from "../../db/repos/observations";
import { testBackend } from "../support/db";
import { REGION, REGIONS, T0, T1, T2, isoDay, observationsWriteDatabase } from "./observations-write-fixture";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = observationsWriteDatabase();
const { newIndicator, stored, latestCountPerDate } = fx;

describe(`writeManySeries (${testBackend})`, () => {
  test("many one-row series in one call; results in input order; a second call is all unchanged", async () => {
    const indicatorId = await newIndicator();
    // One series exists beforehand, with a different value.
    const pre = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGIONS[3],
      rows: [{ date: "2023-01-01", value: -1 }],
      now: T0,
    });
    const items = REGIONS.map((regionCode, i) => ({
      indicatorId,
      regionCode,
      rows: [{ date: "2023-01-01", value: i }],
    }));
    const res = await writeManySeries(fx.db, { items, now: T1 });
    expect(res.length).toBe(REGIONS.length);
    expect(res[3]).toEqual({ seriesId: pre.seriesId, inserted: 0, revised: 1, unchanged: 0 });
    expect(res.filter((r, i) => i !== 3).every((r) => r.inserted === 1 && r.revised === 0)).toBe(true);
    expect(new Set(res.map((r) => r.seriesId)).size).toBe(REGIONS.length);
    for (const [i, regionCode] of REGIONS.entries()) {
      const s = (await findSeries(fx.db, indicatorId, regionCode))!;
      expect([s.id, s.observationCount, s.version]).toEqual([res[i].seriesId, 1, i === 3 ? 2 : 1]);
    }
    const again = await writeManySeries(fx.db, { items, now: T2 });
    expect(again.every((r) => r.unchanged === 1 && r.inserted === 0 && r.revised === 0)).toBe(true);
  });

  test("the same series twice in one call is refused", async () => {
    const indicatorId = await newIndicator();
    const items = [REGIONS[0], REGIONS[1], REGIONS[0]].map((regionCode) => ({ indicatorId, regionCode, rows: [] }));
    await expect(writeManySeries(fx.db, { items, now: T0 })).rejects.toThrow(
      `series ${indicatorId}/${REGIONS[0]} appears twice in one write (items 1 and 3)`,
    );
  });

  test("an unknown region fails the whole call and writes nothing", async () => {
    const indicatorId = await newIndicator();
    const items = [
      { indicatorId, regionCode: REGIONS[0], rows: [{ date: "2020-01-01", value: 1 }] },
      { indicatorId, regionCode: "ZZ-NO-SUCH-REGION", rows: [{ date: "2020-01-01", value: 1 }] },
    ];
    await expect(writeManySeries(fx.db, { items, now: T0 })).rejects.toThrow();
    expect(await findSeries(fx.db, indicatorId, REGIONS[0])).toBeNull();
  });
});

describe(`concurrent writers (${testBackend})`, () => {
  test("writers racing on one new series leave one latest row per date and contiguous revisions", async () => {
    const indicatorId = await newIndicator();
    const dates = Array.from({ length: 50 }, (_, i) => isoDay(i * 31));
    const writers = 8;
    const results = await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        writeSeriesObservations(fx.db, {
          indicatorId,
          regionCode: REGION,
          now: T0,
          rows: dates.map((date) => ({ date, value: w })),
        }),
      ),
    );
    const seriesId = results[0].seriesId;
    expect(results.every((r) => r.seriesId === seriesId)).toBe(true);
    // Exactly one writer created each date; every other write of a date was a revision.
    expect(results.reduce((n, r) => n + r.inserted, 0)).toBe(dates.length);
    expect(results.reduce((n, r) => n + r.revised, 0)).toBe(dates.length * (writers - 1));
    const perDate = await latestCountPerDate(seriesId);
    expect(perDate.size).toBe(dates.length);
    expect([...perDate.values()].every((n) => n === 1)).toBe(true);
    const all = await stored(seriesId);
    for (const date of dates) {
      expect(all.filter((o) => o.date === date).map((o) => o.revision)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    }
    const s = (await findSeries(fx.db, indicatorId, REGION))!;
    expect([s.observationCount, s.version]).toEqual([dates.length, writers]);
  });

  test("multi-series writers taking the same series in opposite orders do not fail", async () => {
    const indicatorId = await newIndicator();
    const regionsA = REGIONS.slice(0, 20);
    const regionsB = [...regionsA].reverse();
    const mk = (codes: string[], v: number) =>
      codes.map((regionCode) => ({ indicatorId, regionCode, rows: [{ date: "2024-01-01", value: v }] }));
    await writeManySeries(fx.db, { items: mk(regionsA, 0), now: T0 });
    const res = await Promise.all([
      writeManySeries(fx.db, { items: mk(regionsA, 1), now: T1 }),
      writeManySeries(fx.db, { items: mk(regionsB, 2), now: T1 }),
      writeManySeries(fx.db, { items: mk(regionsA, 3), now: T1 }),
    ]);
    expect(res.flat().every((r) => r.revised === 1)).toBe(true);
    for (const regionCode of regionsA) {
      const s = (await findSeries(fx.db, indicatorId, regionCode))!;
      expect(s.version).toBe(4);
      expect([...(await latestCountPerDate(s.id)).values()]).toEqual([1]);
    }
  });
});
