// The observation write path on the backend of the run (PGlite, or PostgreSQL with TEST_DATABASE_URL):
// writeSeriesObservations (writeManySeries and concurrent writers are observations-write-many.test.ts).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import {
  DuplicateObservationDateError,
  ObservationInputError,
  findSeries,
  writeSeriesObservations,
  type ObservationInput,
} from "../../db/repos/observations";
import { observations } from "../../db/schema";
import { testBackend } from "../support/db";
import { REGION, T0, T1, T2, isoDay, observationsWriteDatabase } from "./observations-write-fixture";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = observationsWriteDatabase();
const { newIndicator, stored, latestCountPerDate } = fx;

const rows3: ObservationInput[] = [
  { date: "2020-01-01", value: 1.5 },
  { date: "2020-02-01", value: null },
  { date: "2020-03-01", value: 3.25, isPreliminary: true, sourceUpdatedAt: new Date("2020-04-02T12:00:00Z") },
];

describe(`writeSeriesObservations (${testBackend})`, () => {
  test("first write: revision 1, latest, stats over every date including the missing value", async () => {
    const indicatorId = await newIndicator();
    const r = await writeSeriesObservations(fx.db, { indicatorId, regionCode: REGION, rows: rows3, now: T0 });
    expect(r).toEqual({ seriesId: r.seriesId, inserted: 3, revised: 0, unchanged: 0 });
    expect(await stored(r.seriesId)).toEqual([
      {
        date: "2020-01-01",
        revision: 1,
        value: 1.5,
        isPreliminary: false,
        isLatest: true,
        sourceUpdatedAt: null,
        recordedAt: T0,
      },
      {
        date: "2020-02-01",
        revision: 1,
        value: null,
        isPreliminary: false,
        isLatest: true,
        sourceUpdatedAt: null,
        recordedAt: T0,
      },
      {
        date: "2020-03-01",
        revision: 1,
        value: 3.25,
        isPreliminary: true,
        isLatest: true,
        sourceUpdatedAt: new Date("2020-04-02T12:00:00Z"),
        recordedAt: T0,
      },
    ]);
    expect(await findSeries(fx.db, indicatorId, REGION)).toEqual({
      id: r.seriesId,
      indicatorId,
      regionCode: REGION,
      firstDate: "2020-01-01",
      lastDate: "2020-03-01",
      observationCount: 3,
      version: 1,
      updatedAt: T0,
    });
  });

  test("an identical rewrite writes nothing: no rows, same version, same updated_at", async () => {
    const indicatorId = await newIndicator();
    const first = await writeSeriesObservations(fx.db, { indicatorId, regionCode: REGION, rows: rows3, now: T0 });
    const before = await stored(first.seriesId);
    // source_updated_at alone is not a change.
    const again = rows3.map((r) => ({ ...r, sourceUpdatedAt: new Date("2021-01-01T00:00:00Z") }));
    const r = await writeSeriesObservations(fx.db, { indicatorId, regionCode: REGION, rows: again, now: T1 });
    expect(r).toEqual({ seriesId: first.seriesId, inserted: 0, revised: 0, unchanged: 3 });
    expect(await stored(first.seriesId)).toEqual(before);
    const s = (await findSeries(fx.db, indicatorId, REGION))!;
    expect([s.version, s.updatedAt, s.observationCount]).toEqual([1, T0, 3]);
  });

  test("a changed value becomes revision 2; the old row stays, no longer latest; one latest row per date", async () => {
    const indicatorId = await newIndicator();
    const { seriesId } = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      rows: rows3,
      now: T0,
    });
    const r = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T1,
      rows: [
        { date: "2020-01-01", value: 1.6 },
        { date: "2020-02-01", value: null },
      ],
    });
    expect(r).toEqual({ seriesId, inserted: 0, revised: 1, unchanged: 1 });
    const jan = (await stored(seriesId)).filter((o) => o.date === "2020-01-01");
    expect(jan.map((o) => [o.revision, o.value, o.isLatest, o.recordedAt])).toEqual([
      [1, 1.5, false, T0],
      [2, 1.6, true, T1],
    ]);
    expect([...(await latestCountPerDate(seriesId)).values()]).toEqual([1, 1, 1]);
    const s = (await findSeries(fx.db, indicatorId, REGION))!;
    // A revision adds no date.
    expect([s.version, s.updatedAt, s.observationCount, s.firstDate, s.lastDate]).toEqual([
      2,
      T1,
      3,
      "2020-01-01",
      "2020-03-01",
    ]);

    // A third value: revision 3 supersedes revision 2 only.
    await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T2,
      rows: [{ date: "2020-01-01", value: 1.7 }],
    });
    const jan3 = (await stored(seriesId)).filter((o) => o.date === "2020-01-01");
    expect(jan3.map((o) => [o.revision, o.value, o.isLatest])).toEqual([
      [1, 1.5, false],
      [2, 1.6, false],
      [3, 1.7, true],
    ]);
  });

  test("null <-> number transitions are revisions; null -> null is not", async () => {
    const indicatorId = await newIndicator();
    const { seriesId } = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T0,
      rows: [
        { date: "2021-01-01", value: null },
        { date: "2021-02-01", value: 0 },
        { date: "2021-03-01", value: null },
      ],
    });
    const r = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T1,
      rows: [
        { date: "2021-01-01", value: 0 },
        { date: "2021-02-01", value: null },
        { date: "2021-03-01", value: null },
      ],
    });
    expect(r).toEqual({ seriesId, inserted: 0, revised: 2, unchanged: 1 });
    const latest = (await stored(seriesId)).filter((o) => o.isLatest).map((o) => [o.date, o.revision, o.value]);
    expect(latest).toEqual([
      ["2021-01-01", 2, 0],
      ["2021-02-01", 2, null],
      ["2021-03-01", 1, null],
    ]);
  });

  test("numbers compare exactly: 0.1 + 0.2 is a revision of 0.3; -0 equals 0", async () => {
    const indicatorId = await newIndicator();
    const { seriesId } = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T0,
      rows: [
        { date: "2022-01-01", value: 0.3 },
        { date: "2022-02-01", value: 0 },
        { date: "2022-03-01", value: 1e-300 },
      ],
    });
    const r = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T1,
      rows: [
        { date: "2022-01-01", value: 0.1 + 0.2 },
        { date: "2022-02-01", value: -0 },
        { date: "2022-03-01", value: 1e-300 },
      ],
    });
    expect(r).toEqual({ seriesId, inserted: 0, revised: 1, unchanged: 2 });
    const jan = (await stored(seriesId)).filter((o) => o.date === "2022-01-01" && o.isLatest)[0];
    expect(jan.value).toBe(0.30000000000000004);
  });

  test("a preliminary flag change alone is a revision", async () => {
    const indicatorId = await newIndicator();
    const { seriesId } = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T0,
      rows: [{ date: "2023-05-01", value: 10, isPreliminary: true }],
    });
    const r = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T1,
      rows: [{ date: "2023-05-01", value: 10, isPreliminary: false }],
    });
    expect(r).toEqual({ seriesId, inserted: 0, revised: 1, unchanged: 0 });
    expect((await stored(seriesId)).map((o) => [o.revision, o.isPreliminary, o.isLatest])).toEqual([
      [1, true, false],
      [2, false, true],
    ]);
  });

  test("stats: earlier and later dates widen the range and count; a mixed write counts only new dates", async () => {
    const indicatorId = await newIndicator();
    const { seriesId } = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      rows: rows3,
      now: T0,
    });
    const r = await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      now: T1,
      rows: [
        { date: "2019-12-01", value: 1 }, // new, earlier
        { date: "2020-02-01", value: 2 }, // revision of a null
        { date: "2020-03-01", value: 3.25, isPreliminary: true }, // unchanged
        { date: "2020-06-01", value: null }, // new, later, missing
      ],
    });
    expect(r).toEqual({ seriesId, inserted: 2, revised: 1, unchanged: 1 });
    const s = (await findSeries(fx.db, indicatorId, REGION))!;
    expect([s.firstDate, s.lastDate, s.observationCount, s.version]).toEqual(["2019-12-01", "2020-06-01", 5, 2]);
    const [recount] = await fx.db
      .select({ n: sql<number>`count(*)::int`, lo: sql<string>`min(date)::text`, hi: sql<string>`max(date)::text` })
      .from(observations)
      .where(and(eq(observations.seriesId, seriesId), eq(observations.isLatest, true)));
    expect([recount.lo, recount.hi, Number(recount.n)] as unknown[]).toEqual([
      s.firstDate,
      s.lastDate,
      s.observationCount,
    ]);
  });

  test("duplicate dates in one call are refused before anything is written", async () => {
    const indicatorId = await newIndicator();
    let err: unknown;
    try {
      await writeSeriesObservations(fx.db, {
        indicatorId,
        regionCode: REGION,
        now: T0,
        rows: [
          { date: "2020-01-01", value: 1 },
          { date: "2020-02-01", value: 2 },
          { date: "2020-01-01", value: 3 },
        ],
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DuplicateObservationDateError);
    const dup = err as DuplicateObservationDateError;
    expect([dup.date, dup.firstIndex, dup.index, dup.message]).toEqual([
      "2020-01-01",
      0,
      2,
      "duplicate date 2020-01-01 in one write (rows 1 and 3)",
    ]);
    expect(await findSeries(fx.db, indicatorId, REGION)).toBeNull();
  });

  test("malformed rows are refused: bad dates, non-finite values", async () => {
    const indicatorId = await newIndicator();
    const bad: [ObservationInput, string][] = [
      [{ date: "2020-02-30", value: 1 }, 'row 1: date "2020-02-30" is not a YYYY-MM-DD calendar date'],
      [{ date: "2020-01", value: 1 }, 'row 1: date "2020-01" is not a YYYY-MM-DD calendar date'],
      [{ date: "2020-01-01", value: Number.NaN }, "row 1 (2020-01-01): value NaN is not a finite number or null"],
      [
        { date: "2020-01-01", value: Number.POSITIVE_INFINITY },
        "row 1 (2020-01-01): value Infinity is not a finite number or null",
      ],
    ];
    for (const [row, message] of bad) {
      const p = writeSeriesObservations(fx.db, { indicatorId, regionCode: REGION, now: T0, rows: [row] });
      await expect(p).rejects.toThrow(ObservationInputError);
      await expect(p).rejects.toThrow(message);
    }
    expect(await findSeries(fx.db, indicatorId, REGION)).toBeNull();
  });

  test("an empty write creates the series with no dates and version 0", async () => {
    const indicatorId = await newIndicator();
    const r = await writeSeriesObservations(fx.db, { indicatorId, regionCode: REGION, rows: [], now: T0 });
    expect([r.inserted, r.revised, r.unchanged]).toEqual([0, 0, 0]);
    const s = (await findSeries(fx.db, indicatorId, REGION))!;
    expect([s.id, s.firstDate, s.lastDate, s.observationCount, s.version]).toEqual([r.seriesId, null, null, 0, 0]);
  });

  test("progress reports every row once", async () => {
    const indicatorId = await newIndicator();
    const rows = Array.from({ length: 4500 }, (_, i) => ({ date: isoDay(i), value: i }));
    let seen = 0;
    await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      rows,
      now: T0,
      onProgress: (n) => (seen += n),
    });
    expect(seen).toBe(4500);
    seen = 0;
    rows[10] = { ...rows[10], value: -1 };
    await writeSeriesObservations(fx.db, {
      indicatorId,
      regionCode: REGION,
      rows,
      now: T1,
      onProgress: (n) => (seen += n),
    });
    expect(seen).toBe(4500);
  });

  test("a large write crosses the insert batches intact", async () => {
    const indicatorId = await newIndicator();
    const rows = Array.from({ length: 15000 }, (_, i) => ({ date: isoDay(i), value: i % 97 === 0 ? null : i / 8 }));
    const r = await writeSeriesObservations(fx.db, { indicatorId, regionCode: REGION, rows, now: T0 });
    expect([r.inserted, r.revised, r.unchanged]).toEqual([15000, 0, 0]);
    const s = (await findSeries(fx.db, indicatorId, REGION))!;
    expect([s.firstDate, s.lastDate, s.observationCount]).toEqual([isoDay(0), isoDay(14999), 15000]);
    // Change every 1000th value: exactly those are revised.
    const changed = rows.map((row, i) => (i % 1000 === 0 ? { ...row, value: -i } : row));
    const r2 = await writeSeriesObservations(fx.db, { indicatorId, regionCode: REGION, rows: changed, now: T1 });
    expect([r2.inserted, r2.revised, r2.unchanged]).toEqual([0, 15, 14985]);
    const [n] = await fx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(observations)
      .where(eq(observations.seriesId, r.seriesId));
    expect(Number(n.n)).toBe(15015);
  });
});
