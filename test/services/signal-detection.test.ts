// detectSignalsFor on the real database: intervals stored, idempotent on unchanged data, extended by new data,
// closed and reopened at a direction flip, removed (closed) or withdrawn (open) when revised data no longer show them.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { seriesChanges, signalIntervals } from "../../db/schema";
import { indicatorId } from "../../db/seed/catalog";
import { detectSignalsFor, detectSignalsForIndicators } from "../../src/services/signal-detection";
import { makeTestApp, type TestApp } from "../support/app";
import { clearIndicator, clearSeries, monthStarts, writeSeries, type Row } from "../support/series";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  // The series below is written with values chosen here, in place of the seeded FRED history.
  await clearSeries(t.database.db, "fred", "U6RATE", "US");
}, 120_000);
afterAll(() => t?.close());

const U6 = { indicatorId: indicatorId("fred", "U6RATE"), regionCode: "US" };
const ctx = () => ({ ...t.store, now: () => t.clock.now() });
const extremes = () =>
  t.database.db
    .select()
    .from(signalIntervals)
    .where(and(eq(signalIntervals.indicatorId, U6.indicatorId), eq(signalIntervals.type, "extreme")))
    .orderBy(signalIntervals.validFrom);

// U6RATE (percent, monthly): 25 months moving +0.5 / -0.5 (a robust scale of 0.74 points), then a jump.
const DATES = monthStarts("2020-01", 29);
const BASE: Row[] = DATES.slice(0, 25).map((d, k) => [d, k % 2 === 0 ? 8 : 8.5]);

describe("detectSignalsFor", () => {
  test("a jump opens an extreme interval, stamped with the run's time", async () => {
    t.clock.set("2026-01-10T00:00:00Z");
    await writeSeries(t.database.db, "fred", "U6RATE", "US", [...BASE, [DATES[25], 18]]);
    const s = await detectSignalsFor(ctx(), [U6]);
    expect(s).toMatchObject({ series: 1, observations: 26, removed: 0, updated: 0 });
    const [row] = await extremes();
    expect(row).toMatchObject({
      direction: "up",
      strength: "strong",
      validTo: null,
      validFrom: new Date("2022-02-01T00:00:00Z"),
      detectedAt: new Date("2026-01-10T00:00:00Z"),
      lastSeenAt: new Date("2026-01-10T00:00:00Z"),
    });
    expect(row.evidence).toMatchObject({
      date: "2022-02-01",
      move: 10,
      z: Number((10 / 0.7413).toPrecision(12)),
      baseline_scale: 0.7413,
      last_date: "2022-02-01",
      baseline_moves: 24,
    });
  });

  test("re-running on unchanged data changes nothing, not even last_seen_at", async () => {
    const before = await t.database.db
      .select()
      .from(signalIntervals)
      .where(eq(signalIntervals.indicatorId, U6.indicatorId));
    t.clock.set("2026-01-11T00:00:00Z");
    const s = await detectSignalsFor(ctx(), [U6, U6]);
    expect(s).toMatchObject({ series: 1, inserted: 0, updated: 0, removed: 0, unchanged: before.length });
    const after = await t.database.db
      .select()
      .from(signalIntervals)
      .where(eq(signalIntervals.indicatorId, U6.indicatorId));
    expect(after.sort((a, b) => a.id.localeCompare(b.id))).toEqual(before.sort((a, b) => a.id.localeCompare(b.id)));
  });

  test("a direction flip closes the open interval at the flip and opens the next one there", async () => {
    t.clock.set("2026-02-10T00:00:00Z");
    await writeSeries(t.database.db, "fred", "U6RATE", "US", [...BASE, [DATES[25], 18], [DATES[26], 8]]);
    await detectSignalsFor(ctx(), [U6]);
    const rows = await extremes();
    expect(
      rows.map((r) => [
        r.direction,
        r.validFrom.toISOString().slice(0, 10),
        r.validTo?.toISOString().slice(0, 10) ?? null,
      ]),
    ).toEqual([
      ["up", "2022-02-01", "2022-03-01"],
      ["down", "2022-03-01", null],
    ]);
    // The closed one kept its detection time; the run that closed it confirmed it; the new one is stamped now.
    expect([rows[0].detectedAt, rows[0].lastSeenAt]).toEqual([
      new Date("2026-01-10T00:00:00Z"),
      new Date("2026-02-10T00:00:00Z"),
    ]);
    expect([rows[1].detectedAt, rows[1].lastSeenAt]).toEqual([
      new Date("2026-02-10T00:00:00Z"),
      new Date("2026-02-10T00:00:00Z"),
    ]);
  });

  test("an ordinary month ends the run: the interval closes there", async () => {
    t.clock.set("2026-03-10T00:00:00Z");
    await writeSeries(t.database.db, "fred", "U6RATE", "US", [
      ...BASE,
      [DATES[25], 18],
      [DATES[26], 8],
      [DATES[27], 8.5],
    ]);
    await detectSignalsFor(ctx(), [U6]);
    expect((await extremes()).map((r) => r.validTo?.toISOString().slice(0, 10) ?? null)).toEqual([
      "2022-03-01",
      "2022-04-01",
    ]);
  });

  test("a revision that removes the jump removes the intervals it made", async () => {
    await writeSeries(t.database.db, "fred", "U6RATE", "US", [
      ...BASE,
      [DATES[25], 8],
      [DATES[26], 8.5],
      [DATES[27], 8],
    ]);
    const s = await detectSignalsFor(ctx(), [U6]);
    expect(s.removed).toBeGreaterThanOrEqual(2);
    expect(await extremes()).toEqual([]);
  });

  test("a newer vintage that revises away an open interval closes it at its last month and marks it withdrawn", async () => {
    // CIVPART (percent): the same base, then a jump in the newest month: an open extreme.
    const civ = { indicatorId: indicatorId("fred", "CIVPART"), regionCode: "US" };
    await clearSeries(t.database.db, "fred", "CIVPART", "US");
    const rows = (): Promise<(typeof signalIntervals.$inferSelect)[]> =>
      t.database.db
        .select()
        .from(signalIntervals)
        .where(and(eq(signalIntervals.indicatorId, civ.indicatorId), eq(signalIntervals.type, "extreme")));
    await writeSeries(t.database.db, "fred", "CIVPART", "US", [...BASE, [DATES[25], 18]]);
    await detectSignalsFor(ctx(), [civ]);
    expect((await rows()).map((r) => [r.validFrom.toISOString().slice(0, 10), r.validTo])).toEqual([
      ["2022-02-01", null],
    ]);
    // The newer vintage: February 2022 revised to an ordinary month.
    await writeSeries(t.database.db, "fred", "CIVPART", "US", [...BASE, [DATES[25], 8]]);
    await detectSignalsFor(ctx(), [civ]);
    const [withdrawn] = await rows();
    expect([withdrawn.validTo?.toISOString().slice(0, 10), withdrawn.evidence.withdrawn]).toEqual([
      "2022-02-01",
      "revised data no longer support it",
    ]);
    // A further run changes nothing.
    expect(await detectSignalsFor(ctx(), [civ])).toMatchObject({ inserted: 0, updated: 0, removed: 0 });
  });

  test("series that are not held are skipped", async () => {
    expect(
      await detectSignalsFor(ctx(), [
        { indicatorId: indicatorId("fred", "U6RATE"), regionCode: "06" },
        { indicatorId: "00000000-0000-4000-8000-000000000000", regionCode: "US" },
      ]),
    ).toEqual({
      series: 0,
      observations: 0,
      inserted: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
    });
  });
});

describe("real data: every state of a monthly indicator, idempotent", () => {
  const file = sharedDataPath("bls-state-unemployment-monthly", "State_level_unemployment.csv");
  test.skipIf(!file)(
    file
      ? "50 states of LAUS unemployed persons (1976-2020): April 2020 everywhere; a second run writes nothing"
      : sharedDataMissingMessage("bls-state-unemployment-monthly"),
    async () => {
      const rows = readFileSync(file!, "utf8")
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\n")
        .map((l) => l.split(","));
      const head = rows[0];
      // The snapshot holds LASST04 for every state to 2025: this test is about the 2020 file alone.
      await clearIndicator(t.database.db, "bls", "LASST04");
      for (let c = 1; c < head.length; c++) {
        const fips = head[c].slice(5, 7);
        await writeSeries(
          t.database.db,
          "bls",
          "LASST04",
          fips,
          rows.slice(1).map((r): Row => [r[0], Number(r[c])]),
        );
      }
      const id = indicatorId("bls", "LASST04");
      const first = await detectSignalsForIndicators(ctx(), [id]);
      expect(first).toMatchObject({ series: 50, observations: 50 * 533, updated: 0, removed: 0 });
      const april = await t.database.db
        .select()
        .from(signalIntervals)
        .where(
          and(
            eq(signalIntervals.indicatorId, id),
            eq(signalIntervals.type, "extreme"),
            eq(signalIntervals.direction, "up"),
            eq(signalIntervals.strength, "strong"),
          ),
        );
      const covering = april.filter(
        (r) =>
          r.validFrom <= new Date("2020-04-01T00:00:00Z") &&
          (!r.validTo || r.validTo > new Date("2020-04-01T00:00:00Z")),
      );
      expect(covering.length).toBe(50);
      const again = await detectSignalsForIndicators(ctx(), [id]);
      expect(again).toMatchObject({ series: 50, inserted: 0, updated: 0, removed: 0, unchanged: first.inserted });
    },
  );
});

describe("a pass over an indicator clears what it covered from the outbox", () => {
  test("the indicator's waiting series are cleared; another indicator's stay for the detect job", async () => {
    const other = { indicatorId: indicatorId("fred", "UNRATE"), regionCode: "US" };
    // Written afresh (a write that changes nothing queues nothing).
    await clearSeries(t.database.db, "fred", "U6RATE", "US");
    await clearSeries(t.database.db, "fred", "UNRATE", "US");
    await t.database.db.delete(seriesChanges);
    await writeSeries(t.database.db, "fred", "U6RATE", "US", BASE);
    await writeSeries(t.database.db, "fred", "UNRATE", "US", BASE);
    const waiting = async () =>
      (await t.database.db.select().from(seriesChanges)).map((c) => ({
        indicatorId: c.indicatorId,
        regionCode: c.regionCode,
      }));
    expect(new Set(await waiting())).toEqual(new Set([U6, other]));
    await detectSignalsForIndicators(ctx(), [U6.indicatorId]);
    expect(await waiting()).toEqual([other]);
  });
});
