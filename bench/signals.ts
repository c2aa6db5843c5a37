// Signal detection and insights speed:
//   1. detection over every county series of one monthly indicator, 3,144 series x 30 years (1.13 million
//      observations), through detectSignalsFor's path (one query for a batch's observations, one for its intervals,
//      one write transaction): first run (stores the intervals) and second run (unchanged data: writes nothing).
//      Bar: under 10 s on this machine. Points/s reported.
//   2. linearity: the detectors alone (no database) over 1/4, 1/2 and all of those series, and over 10, 20 and 30
//      years of each: points/s should stay flat.
//   3. insights server time for one series of 50 years of monthly data (and a county series with its peers), in
//      process (app.request, no HTTP, one request at a time): cold, then p50/p99 of 300 warm requests. Bar: p50 under
//      5 ms.
// The series are a deterministic random walk shaped like county unemployment rates (not seasonally adjusted: a
// seasonal swing, a recession bump every 10 years). The machine's load average is printed with the figures.
//   bun bench/signals.ts [--db pglite|postgres|URL]
import { loadavg, availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { openDatabase, type Database } from "../db/client";
import { writeManySeries } from "../db/repos/observations";
import { indicators, regions, sources } from "../db/schema";
import { detectEpisodes, type SeriesProfile } from "../src/domain/signals";
import { seriesProfile, detectSignalsForIndicators } from "../src/services/signal-detection";
import { createCaches } from "../src/services/caches";

const COUNTIES = 3144;
const STATES = 51;
const YEARS = 30;
const COUNTY_ID = "00000000-0000-4000-8000-0000000516a1";
const NATIONAL_ID = "00000000-0000-4000-8000-0000000516a2";
const NOW = new Date("2026-01-01T00:00:00Z");

const { values: args } = parseArgs({ args: process.argv.slice(2), options: { db: { type: "string", default: "pglite" } } });

function months(n: number, startYear: number): string[] {
  return Array.from({ length: n }, (_, k) => `${startYear + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`);
}

/** A county unemployment rate: level 3-9%, seasonal swing, noise, a recession bump every 10 years. */
function countySeries(seed: number, n: number): { date: string; value: number }[] {
  let s = seed * 2654435761 + 1;
  const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
  const dates = months(n, 2025 - Math.ceil(n / 12));
  let level = 3 + ((seed * 7) % 60) / 10;
  return dates.map((date, k) => {
    level = Math.max(1, level + rnd() * 0.2);
    const bump = k % 120 > 100 ? (k % 120) - 100 : 0;
    return { date, value: Math.round((level + 0.6 * Math.sin((2 * Math.PI * k) / 12) + 0.08 * bump + rnd() * 0.3) * 10) / 10 };
  });
}

async function setup(database: Database): Promise<void> {
  const db = database.db;
  await db.insert(sources).values({ slug: "bench", name: "Bench" });
  await db.insert(indicators).values([
    { id: COUNTY_ID, code: "BENCHCN", sourceSlug: "bench", name: "Unemployment Rate by County", unit: "percent", frequency: "monthly", regionKinds: ["county"], defaultRegionCode: "S00001", upIsGood: false, meta: { per_region: true, upstream: { seasonal_adjustment: "NSA" } } },
    { id: NATIONAL_ID, code: "BENCHUS", sourceSlug: "bench", name: "Bench National Rate", unit: "percent", frequency: "monthly", regionKinds: ["country"], defaultRegionCode: "US", upIsGood: false, meta: { upstream: { seasonal_adjustment: "SA" } } },
  ]);
  await db.insert(regions).values([
    { code: "US", type: "country", name: "United States", slug: "united-states" },
    ...Array.from({ length: STATES }, (_, i) => ({ code: `S${String(i).padStart(2, "0")}`, type: "state", name: `State ${i}`, slug: `state-${i}`, parentCode: "US" })),
  ]);
  for (let i = 0; i < COUNTIES; i += 1000) {
    await db.insert(regions).values(
      Array.from({ length: Math.min(1000, COUNTIES - i) }, (_, k) => {
        const c = i + k;
        return { code: `S${String(c % STATES).padStart(2, "0")}${String(c).padStart(4, "0")}`, type: "county", name: `County ${c}`, slug: `county-${c}`, parentCode: `S${String(c % STATES).padStart(2, "0")}` };
      }),
    );
  }
}

const countyCode = (c: number) => `S${String(c % STATES).padStart(2, "0")}${String(c).padStart(4, "0")}`;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");

async function openBenchDatabase(): Promise<{ database: Database; label: string; cleanup(): Promise<void> }> {
  if (args.db === "pglite") return { database: await openDatabase({ dataDir: null }), label: "PGlite in memory", cleanup: async () => {} };
  const admin = args.db === "postgres" ? (process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres") : args.db!;
  const name = `svc_bench_signals_${process.pid}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe(`CREATE DATABASE ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    database: await openDatabase({ url: u.toString(), poolSize: 4 }),
    label: `PostgreSQL (${u.host})`,
    cleanup: async () => {
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await sql.end();
    },
  };
}

async function main() {
  console.log(`${availableParallelism()} CPUs; load average at start ${load()}`);
  const all = Array.from({ length: COUNTIES }, (_, c) => countySeries(c + 1, YEARS * 12));
  const points = all.reduce((a, s) => a + s.length, 0);

  // 2. The detectors alone: points/s by number of series and by length.
  const profile: SeriesProfile = seriesProfile({ code: "BENCHCN", sourceSlug: "bench", unit: "percent", frequency: "monthly", meta: { upstream: { seasonal_adjustment: "NSA" } } })!;
  detectEpisodes(all[0], profile); // warm the JIT
  console.log("\ndetectors alone (no database):");
  for (const share of [4, 2, 1]) {
    const part = all.slice(0, COUNTIES / share);
    const n = part.reduce((a, s) => a + s.length, 0);
    const t0 = performance.now();
    let episodes = 0;
    for (const s of part) episodes += detectEpisodes(s, profile).length;
    const sec = (performance.now() - t0) / 1000;
    console.log(`  ${String(part.length).padStart(4)} series x ${YEARS} years: ${sec.toFixed(2)} s, ${fmt(n / sec)} points/s (${episodes} intervals)`);
  }
  for (const years of [10, 20, 30]) {
    const part = all.map((s) => s.slice(s.length - years * 12));
    const n = part.reduce((a, s) => a + s.length, 0);
    const t0 = performance.now();
    for (const s of part) detectEpisodes(s, profile);
    const sec = (performance.now() - t0) / 1000;
    console.log(`  ${COUNTIES} series x ${years} years: ${sec.toFixed(2)} s, ${fmt(n / sec)} points/s`);
  }

  // 1. Through the database.
  const { database, label, cleanup } = await openBenchDatabase();
  try {
    await setup(database);
    let t0 = performance.now();
    for (let i = 0; i < COUNTIES; i += 200) {
      await writeManySeries(database.db, { items: all.slice(i, i + 200).map((rows, k) => ({ indicatorId: COUNTY_ID, regionCode: countyCode(i + k), rows })), now: NOW });
    }
    const national = countySeries(99_999, 600);
    await writeManySeries(database.db, { items: [{ indicatorId: NATIONAL_ID, regionCode: "US", rows: national }], now: NOW });
    if (database.kind === "pglite") await database.exec("VACUUM ANALYZE");
    console.log(`\n${label}: wrote ${fmt(points)} observations of ${COUNTIES} series in ${((performance.now() - t0) / 1000).toFixed(1)} s (setup, not measured)`);
    const ctx = { db: database.db, caches: createCaches(database), now: () => NOW };
    console.log(`detection through the database (load average before: ${load()}):`);
    for (const run of ["first run (stores intervals)", "second run (unchanged: no writes)"]) {
      t0 = performance.now();
      const s = await detectSignalsForIndicators(ctx, [COUNTY_ID]);
      const sec = (performance.now() - t0) / 1000;
      console.log(`  ${run}: ${sec.toFixed(2)} s, ${fmt(s.observations / sec)} points/s; ${s.series} series, ${s.inserted} new, ${s.unchanged} unchanged -> ${sec < 10 ? "PASS" : "FAIL"} (bar: 10 s)`);
    }

    // 3. Insights server time, in process.
    const { createApp } = await import("../src/app");
    const { loadConfig } = await import("../src/config");
    const { buildRuntimeDeps } = await import("../src/runtime-setup");
    const { createLogger } = await import("../src/logger");
    const { openAccess, systemClock, cryptoRandom, noFetcher, noJobs } = await import("../src/ports");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-signals-"));
    const config = loadConfig({ NODE_ENV: "production", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const base = { database, clock: systemClock, random: cryptoRandom, logger: createLogger("silent") };
    const deps = { config, ...base, version: "bench", access: openAccess, ...buildRuntimeDeps(config, base), fetcher: noFetcher, jobs: noJobs };
    const app = createApp(deps);
    console.log(`\ninsights server time (in process, no HTTP, one request at a time; load average ${load()}):`);
    for (const path of ["/v1/insights?indicator=BENCHUS", "/v1/insights?indicator=BENCHUS&window=10y", `/v1/insights?indicator=BENCHCN&region=${countyCode(7)}`]) {
      const once = async () => {
        const t = performance.now();
        const res = await app.request(path);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        return performance.now() - t;
      };
      const cold = await once();
      const warm: number[] = [];
      for (let i = 0; i < 300; i++) warm.push(await once());
      warm.sort((a, b) => a - b);
      console.log(`  ${path}\n    cold ${cold.toFixed(2)} ms; warm p50 ${warm[150].toFixed(3)} ms, p99 ${warm[296].toFixed(3)} ms -> ${warm[150] < 5 ? "PASS" : "FAIL"} (bar: p50 under 5 ms)`);
    }
    await deps.keys.close();
    rmSync(dataDir, { recursive: true, force: true });
  } finally {
    await database.close();
    await cleanup();
  }
  console.log(`\nload average at end ${load()}`);
}

await main();
