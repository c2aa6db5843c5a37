// GET /v1/chart's server time: a 40-year monthly series (UNRATE, 1986-2025: 480 points, US recessions
// shaded from USREC) drawn as an SVG, beside the same data as JSON (GET /v1/observations, the same window), and two
// charts of several series (two units on two axes; ten states with their legend), measured in process (the bare
// app's own fetch, no HTTP, one request at a time): the first (cold) request, p50/p99 of warm ones (the SVG kept for
// the data version), and p50/p99 of renders that miss the cache (each a window starting a day earlier: layout,
// Vega-Lite compile, Vega parse, SVG render). Target: warm chart under 20 ms p50.
//   bun bench/chart.ts [--db pglite|postgres|URL]   (a URL of a database already seeded skips the seed)
import { parseArgs } from "node:util";
import { addDays } from "../src/domain/calendar";
import { benchDatabase, cli } from "./lib/serve-app";

const { values: args } = parseArgs({ options: { db: { type: "string", default: "pglite" } } });
const WINDOW = "indicator=UNRATE&region=US&start_date=1986-01-01&end_date=2025-12-31";
const CHARTS: [string, string][] = [
  ["chart SVG, 40 years monthly", `/v1/chart?${WINDOW}`],
  ["chart SVG, two units", "/v1/chart?indicator=UNRATE,PAYEMS&region=US&start_date=2015-01-01"],
  ["chart SVG, ten states", "/v1/chart?indicator=unemployment_rate&region=06,48,36,11,12,17,42,39,13,37&start_date=2020-01-01"],
];
const JSON_PAGE = `/v1/observations?${WINDOW}&limit=1000`;
const WARM = 300;
const MISSES = 40;

const seeded = /^postgres(ql)?:\/\//.test(args.db!);
const { env, label, cleanup } = await benchDatabase({ db: args.db! }, "chart");
try {
  if (!seeded) {
    console.error(`seeding ${label}`);
    await cli(["seed"], env);
  }
  const { loadConfig } = await import("../src/config");
  const { buildDeps } = await import("../src/bootstrap");
  const { createApp } = await import("../src/app");
  const { openAccess } = await import("../src/ports");
  const deps = await buildDeps(loadConfig({ ...env, PORT: "0" }));
  const app = createApp({ ...deps, access: openAccess });
  const once = async (path: string) => {
    const t0 = performance.now();
    const res = await app.request(path);
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return { ms: performance.now() - t0, bytes };
  };
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
  const measure = async (name: string, path: string) => {
    const cold = await once(path);
    const warm: number[] = [];
    for (let i = 0; i < WARM; i++) warm.push((await once(path)).ms);
    console.log(`${name.padEnd(34)} ${String(cold.bytes).padStart(7)} B  cold ${cold.ms.toFixed(1).padStart(6)} ms  warm p50 ${pct(warm, 0.5).toFixed(3)} ms  p99 ${pct(warm, 0.99).toFixed(3)} ms`);
  };
  // A miss: the window starting i days earlier (a request of its own, whatever sizes are drawn at).
  const misses = async (name: string, path: string) => {
    const ms: number[] = [];
    const url = new URL(path, "http://bench");
    const start = url.searchParams.get("start_date")!;
    for (let i = 1; i <= MISSES; i++) {
      url.searchParams.set("start_date", addDays(start, -i));
      ms.push((await once(`${url.pathname}${url.search}`)).ms);
    }
    console.log(`${"  render (cache miss)".padEnd(34)} ${" ".repeat(24)}p50 ${pct(ms, 0.5).toFixed(1)} ms  p99 ${pct(ms, 0.99).toFixed(1)} ms (${MISSES} renders)`);
  };
  try {
    console.log(`database: ${label}; load ${(await Bun.file("/proc/loadavg").text()).trim()}`);
    await measure("JSON, same window (observations)", JSON_PAGE);
    for (const [name, path] of CHARTS) {
      await measure(name, path);
      await misses(name, path);
    }
    console.log(`load after: ${(await Bun.file("/proc/loadavg").text()).trim()}`);
  } finally {
    await deps.database.close();
  }
} finally {
  if (!seeded) await cleanup();
}
// The app's timers and pools would keep the process alive once the figures are printed.
process.exit(0);
