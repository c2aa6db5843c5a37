// Detection after every write, on a first start's data: the shipped snapshot seeded into a fresh embedded
// (or PostgreSQL) database, then the detect job's work (detectChangedSeries) over everything the seed wrote.
//   1. seed time with the series_changes triggers in place, and with them dropped (what the outbox costs a writer),
//      two seeds each way, alternated;
//   2. series recorded by the seed, and the drain: series, observations and intervals per second.
// The machine's load average is printed with the figures. Bounded: four seeds and one drain.
//   bun bench/detect-after-seed.ts [--db pglite|URL]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { openDatabase, type Database } from "../db/client";
import { countSeriesChanges } from "../db/repos/series-changes";
import { seedDatabase } from "../db/seed";
import { createCaches } from "../src/services/caches";
import { detectChangedSeries } from "../src/services/signal-detection";

const { values: args } = parseArgs({ args: process.argv.slice(2), options: { db: { type: "string", default: "pglite" } } });
const NOW = new Date("2026-11-22T12:00:00Z");

async function open(): Promise<Database> {
  if (args.db === "pglite") return openDatabase({ dataDir: null });
  const database = await openDatabase({ url: args.db! });
  await database.exec("drop schema public cascade; create schema public;");
  await database.close();
  return openDatabase({ url: args.db! });
}

async function seeded(withTriggers: boolean): Promise<{ database: Database; ms: number }> {
  const database = await open();
  if (!withTriggers) await database.exec(`drop trigger series_created on series; drop trigger series_version_moved on series;`);
  const t0 = performance.now();
  await seedDatabase(database, { now: NOW });
  return { database, ms: performance.now() - t0 };
}

console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")} (database: ${args.db})`);
// Alternated, so neither way gets the process's warm-up alone.
const times: Record<string, number[]> = { with: [], without: [] };
for (const withTriggers of [false, true, false]) {
  const run = await seeded(withTriggers);
  times[withTriggers ? "with" : "without"].push(run.ms / 1000);
  await run.database.close();
}
const { database, ms } = await seeded(true);
times.with.push(ms / 1000);
console.log(`seed: with the series_changes triggers ${times.with.map((x) => x.toFixed(1)).join(", ")} s; without ${times.without.map((x) => x.toFixed(1)).join(", ")} s`);
const queued = await countSeriesChanges(database.db);
const t0 = performance.now();
const s = await detectChangedSeries({ db: database.db, caches: createCaches(database, { revalidateMs: 0 }), now: () => NOW });
const secs = (performance.now() - t0) / 1000;
console.log(`series recorded by the seed: ${queued}; drained: ${s.series} series, ${s.observations} observations, ${s.inserted} intervals in ${secs.toFixed(1)} s`);
console.log(`  ${Math.round(s.series / secs)} series/s, ${Math.round(s.observations / secs)} observations/s; left: ${await countSeriesChanges(database.db)}`);
await database.close();
