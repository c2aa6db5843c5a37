// Import throughput: rows/s for loading a large CSV through the import service (parse, compare, write), then
// re-importing it unchanged and with 1% of values revised; plus the seed shape (3,200 one-row county series)
// through single calls and through writeManySeries.
//
//   bun bench/import.ts                      PGlite in memory and on disk
//   DATABASE_URL=postgres://... bun bench/import.ts   also PostgreSQL (a scratch database is created and dropped)
//
// Input: ../shared/data/fred-macro-us/DGS10.csv when present, else a generated 40-year business-day series.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openDatabase, type Database } from "../db/client";
import { writeManySeries, writeSeriesObservations } from "../db/repos/observations";
import { indicators, regions, sources } from "../db/schema";
import { parseObservationsCsv } from "../src/domain/csv-observations";
import { createCaches } from "../src/services/caches";
import { importObservationsCsv } from "../src/services/import";
import { sharedDataPath } from "../test/support/shared-data";
import { generatedDaily } from "./lib/series";

const NOW = new Date("2026-01-01T00:00:00Z");
const INDICATOR = "00000000-0000-4000-8000-0000000be4c1";
const COUNTIES = 3200;

function revise(text: string): string {
  // Every 100th data row gets a different value: 1% revisions.
  return text
    .split("\n")
    .map((line, i) =>
      i > 0 && i % 100 === 0 && line.includes(",") ? `${line.split(",")[0]},${(i / 7).toFixed(3)}` : line,
    )
    .join("\n");
}

async function setup(database: Database): Promise<void> {
  const db = database.db;
  await db.insert(sources).values({ slug: "bench", name: "Bench" });
  // Offered for countries and counties (the import checks that the series's region is one the indicator is offered for).
  await db.insert(indicators).values({
    id: INDICATOR,
    code: "BENCH",
    sourceSlug: "bench",
    name: "Bench series",
    regionKinds: ["country", "county"],
  });
  await db.insert(regions).values([
    { code: "US", type: "country", name: "United States", slug: "united-states" },
    ...Array.from({ length: COUNTIES }, (_, i) => ({
      code: `B${String(i).padStart(5, "0")}`,
      type: "county",
      name: `Bench ${i}`,
      slug: `bench-${i}`,
    })),
  ]);
}

async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, (performance.now() - t0) / 1000];
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

async function run(label: string, database: Database, text: string): Promise<void> {
  await setup(database);
  const rows = parseObservationsCsv(text).rows.length;
  const store = { db: database.db, caches: createCaches(database) };
  const importIt = (t: string) => importObservationsCsv(store, { text: t, indicator: "BENCH", region: "US", now: NOW });
  const [first, t1] = await time(() => importIt(text));
  const [same, t2] = await time(() => importIt(text));
  const [rev, t3] = await time(() => importIt(revise(text)));
  console.log(`${label}`);
  console.log(
    `  first import      ${fmt(rows / t1).padStart(9)} rows/s  (${rows} rows in ${t1.toFixed(2)} s; ${first.inserted} inserted)`,
  );
  console.log(
    `  re-import, same   ${fmt(rows / t2).padStart(9)} rows/s  (${t2.toFixed(2)} s; ${same.unchanged} unchanged)`,
  );
  console.log(`  re-import, 1% rev ${fmt(rows / t3).padStart(9)} rows/s  (${t3.toFixed(2)} s; ${rev.revised} revised)`);

  const codes = Array.from({ length: COUNTIES }, (_, i) => `B${String(i).padStart(5, "0")}`);
  const [, t4] = await time(async () => {
    for (const [i, regionCode] of codes.entries()) {
      await writeSeriesObservations(database.db, {
        indicatorId: INDICATOR,
        regionCode,
        rows: [{ date: "2023-01-01", value: i }],
        now: NOW,
      });
    }
  });
  const [, t5] = await time(() =>
    writeManySeries(database.db, {
      items: codes.map((regionCode, i) => ({
        indicatorId: INDICATOR,
        regionCode,
        rows: [{ date: "2024-01-01", value: i }],
      })),
      now: NOW,
    }),
  );
  console.log(
    `  ${COUNTIES} one-row series, one call each   ${t4.toFixed(2)} s  (${((t4 / COUNTIES) * 1000).toFixed(2)} ms per call)`,
  );
  console.log(`  ${COUNTIES} one-row series, writeManySeries ${t5.toFixed(2)} s`);
}

const dgs10 = sharedDataPath("fred-macro-us", "DGS10.csv");
const text = dgs10 ? readFileSync(dgs10, "utf8") : generatedDaily();
console.log(`input: ${dgs10 ? "shared FRED DGS10.csv" : "generated 40-year business-day series"}\n`);

{
  const database = await openDatabase({ dataDir: null });
  await run("PGlite (in memory)", database, text);
  await database.close();
}
{
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-import-"));
  const database = await openDatabase({ dataDir: dir });
  await run("PGlite (on disk)", database, text);
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
const url = process.env.DATABASE_URL;
if (url) {
  const name = `svc_bench_import_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  try {
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ url: u.toString() });
    await run("PostgreSQL", database, text);
    await database.close();
  } finally {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} else {
  console.log("\n(PostgreSQL skipped: set DATABASE_URL to include it)");
}
