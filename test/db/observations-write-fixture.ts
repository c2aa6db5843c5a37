// The database both observation write-path test files use (observations-write and -write-many): a test database with
// a source and regions of its own, and a fresh indicator per test. A function, so each file gets its own (test files
// may share one module registry).
import { afterAll, beforeAll } from "bun:test";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database, Db } from "../../db/client";
import { indicators, observations, regions, sources } from "../../db/schema";
import { makeTestDatabase } from "../support/db";

export const T0 = new Date("2026-03-01T10:00:00.000Z");
export const T1 = new Date("2026-03-02T10:00:00.000Z");
export const T2 = new Date("2026-03-03T10:00:00.000Z");
export const REGION = "ZZ-OBS";
export const REGIONS = Array.from({ length: 40 }, (_, i) => `ZZ-OBS-${i}`);

export function isoDay(i: number): string {
  return new Date(Date.UTC(1980, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
}

export function observationsWriteDatabase() {
  let database: Database;
  let counter = 0;
  const fx = {
    db: undefined as unknown as Db,
    /** A fresh indicator per test, so every test starts from no series. */
    async newIndicator(): Promise<string> {
      const n = ++counter;
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
      await fx.db
        .insert(indicators)
        .values({ id, code: `OBS_WRITE_${n}`, sourceSlug: "obs-write-test", name: `write test ${n}` });
      return id;
    },
    async stored(seriesId: number) {
      return fx.db
        .select({
          date: observations.date,
          revision: observations.revision,
          value: observations.value,
          isPreliminary: observations.isPreliminary,
          isLatest: observations.isLatest,
          sourceUpdatedAt: observations.sourceUpdatedAt,
          recordedAt: observations.recordedAt,
        })
        .from(observations)
        .where(eq(observations.seriesId, seriesId))
        .orderBy(asc(observations.date), asc(observations.revision));
    },
    async latestCountPerDate(seriesId: number): Promise<Map<string, number>> {
      const rows = await fx.db
        .select({ date: observations.date, n: sql<number>`count(*)::int` })
        .from(observations)
        .where(and(eq(observations.seriesId, seriesId), eq(observations.isLatest, true)))
        .groupBy(observations.date);
      return new Map(rows.map((r) => [r.date, Number(r.n)]));
    },
  };
  beforeAll(async () => {
    database = await makeTestDatabase();
    fx.db = database.db;
    await fx.db.insert(sources).values({ slug: "obs-write-test", name: "Write path test source" });
    await fx.db
      .insert(regions)
      .values([REGION, ...REGIONS].map((code) => ({ code, type: "test", name: code, slug: code.toLowerCase() })));
    // The first seeded database of a process is built here (initdb and the full seed): slow on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });
  return fx;
}
