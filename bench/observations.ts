// Observation reads under load, next to the bare Bun.serve baseline measured in the same run (bench/lib/load.ts):
//   1. a 100-row page of a monthly series (PAYEMS, seeded);
//   2. frequency=monthly&transform=yoy over a 40-year daily series (DGS10: ../shared/data/fred-macro-us/DGS10.csv when
//      present, else a generated 40-year business-day series), imported with `svc import`;
//   3. batch latest with 20 codes;
//   4. a panel of 10 monthly series over 40 years, and 5. the top 100 flow destinations of a county.
// Each runs against the app without the access layer ("bare app": what this code costs) and with it
// ("keyed": the full stack with an API key; the access layer has its own bar in bench/keys.ts).
// Targets: (1) bare app at >= 40% of the baseline's req/s; (2) under 5 ms server time at p50. Server time
// is measured in process (app.request on the same database, no HTTP, one request at a time) before the load runs:
// the first (cold: load, resample, transform) request and the p50/p99 of 300 warm ones.
//   bun run bench/observations.ts [--connections 64] [--duration 10] [--rounds 1] [--db pglite|postgres|URL]
// Internal: `bun bench/observations.ts --serve bare|keyed` is the server process this script starts.
import { rmSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { CPUS, REPO_ROOT, loadTool, medianResult, parseBenchArgs, printTable, runLoad, startBaseline, type Row } from "./lib/load";
import { sharedDataPath } from "../test/support/shared-data";
import { benchDatabase, cli, serveAppForBench, startAppServer } from "./lib/serve-app";
import { generatedDaily } from "./lib/series";

// 20 of the seeded national FRED series.
const HELD = ["UNRATE", "PAYEMS", "CPIAUCSL", "CPILFESL", "FEDFUNDS", "DGS10", "DGS2", "T10Y2Y", "GDP", "GDPC1",
  "INDPRO", "HOUST", "ICSA", "JTSJOL", "M2SL", "USREC", "CIVPART", "U6RATE", "RSXFS", "PCEPILFE"];
// Ten monthly series over 40 years, and the top 100 destinations of San Francisco County.
const PANEL = "/v1/panel?indicators=PAYEMS,UNRATE,CPIAUCSL,CPILFESL,FEDFUNDS,INDPRO,HOUST,M2SL,CIVPART,AHETPI&region=US&start_date=1985-01-01&end_date=2024-12-01";
const FLOWS = "/v1/flows?origin=06075&limit=100";
const PAGE = "/v1/observations?indicator=PAYEMS&region=US&limit=100";
const YOY = "/v1/observations?indicator=DGS10&region=US&frequency=monthly&transform=yoy&limit=100";
const BATCH = `/v1/observations/latest?indicators=${HELD.join(",")}`;
const CASES = [
  { name: "monthly page, 100 rows", path: PAGE },
  { name: "daily -> monthly yoy, 40 years", path: YOY },
  { name: "batch latest, 20 codes", path: BATCH },
  { name: "panel, 10 monthly series x 40 years", path: PANEL },
  { name: "flows, top 100 destinations of a county", path: FLOWS },
];

if (process.argv[2] === "--serve") {
  await serveAppForBench(process.argv[3]);
} else {
  await main();
}

/** Server time without HTTP: the bare app's own fetch on the prepared database, one request at a time. */
async function serverTime(env: Record<string, string>, paths: string[]) {
  const { loadConfig } = await import("../src/config");
  const { buildDeps } = await import("../src/bootstrap");
  const { createApp } = await import("../src/app");
  const { openAccess } = await import("../src/ports");
  const deps = await buildDeps(loadConfig({ ...env, PORT: "0" }));
  const app = createApp({ ...deps, access: openAccess });
  const out: string[] = [];
  try {
    for (const path of paths) {
      const once = async () => {
        const t0 = performance.now();
        const res = await app.request(path);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        return performance.now() - t0;
      };
      const cold = await once();
      const warm: number[] = [];
      for (let i = 0; i < 300; i++) warm.push(await once());
      warm.sort((a, b) => a - b);
      out.push(`  ${path}\n    cold ${cold.toFixed(2)} ms; warm p50 ${warm[150].toFixed(3)} ms, p99 ${warm[296].toFixed(3)} ms`);
    }
  } finally {
    await deps.database.close();
  }
  return out.join("\n");
}

async function main() {
  const opts = parseBenchArgs(process.argv.slice(2), { connections: 64, durationSec: 10 });
  const { env, label: database, cleanup } = await benchDatabase(opts, "obs");

  try {
    const dgs10 = sharedDataPath("fred-macro-us", "DGS10.csv");
    let file = dgs10;
    if (!file) {
      file = join(tmpdir(), `svc-bench-dgs10-${process.pid}.csv`);
      writeFileSync(file, generatedDaily());
    }
    console.error(`seeding, importing DGS10 (${dgs10 ? "shared FRED file" : "generated 40-year series"}) and creating a key`);
    await cli(["seed"], env);
    console.error(await cli(["import", file, "--indicator", "DGS10", "--region", "US"], env));
    if (!dgs10) rmSync(file, { force: true });
    // A limit no load run reaches: the benchmark measures reads, not the limiter's refusals.
    const key = (await cli(["keys", "create", "--plan", "free", "--rate-limit", "2000000000"], env)).split("\n")[0]!;
    console.log("server time in process (bare app, no HTTP, one request at a time):");
    console.log(await serverTime(env, CASES.map((c) => c.path)));

    const tool = await loadTool(opts.tool);
    const load = { connections: opts.connections, durationSec: opts.durationSec, threads: opts.threads, tool };
    const rows: Row[] = [
      { name: "baseline: bare Bun.serve, fixed JSON", path: "/", target: "baseline", runs: [], median: null },
      ...(["bare", "keyed"] as const).flatMap((mode) =>
        CASES.map((c): Row => ({ name: `${mode === "bare" ? "bare app" : "keyed"}: ${c.name}`, path: c.path, target: "service", runs: [], median: null })),
      ),
    ];
    const headersOf = (row: Row): Record<string, string> => (row.name.startsWith("keyed") ? { "X-API-Key": key } : {});
    // Interleaved rounds: baseline, then the bare app's cases, then the keyed app's (PGlite: one server at a time).
    for (let round = 1; round <= opts.rounds; round++) {
      const baseline = await startBaseline();
      try {
        if (opts.warmupSec > 0) await runLoad(baseline.baseUrl + "/", { ...load, durationSec: opts.warmupSec });
        rows[0]!.runs.push(await runLoad(baseline.baseUrl + "/", load, baseline.pid));
      } finally {
        await baseline.stop();
      }
      for (const mode of ["bare", "keyed"] as const) {
        const server = await startAppServer("bench/observations.ts", mode, env);
        try {
          for (const row of rows.filter((r) => r.name.startsWith(mode === "bare" ? "bare app" : "keyed"))) {
            const url = server.baseUrl + row.path;
            const check = await fetch(url, { headers: headersOf(row) });
            const body = await check.text();
            if (check.status !== 200) throw new Error(`${row.name}: ${check.status} ${body.slice(0, 200)}`);
            if (opts.warmupSec > 0) await runLoad(url, { ...load, durationSec: opts.warmupSec, headers: headersOf(row) });
            const r = await runLoad(url, { ...load, headers: headersOf(row) }, server.pid);
            row.runs.push(r);
            console.error(`round ${round}/${opts.rounds} ${row.name}: ${Math.round(r.rps)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}`);
          }
        } finally {
          await server.stop();
        }
      }
    }
    for (const row of rows) row.median = medianResult(row.runs);
    const pin = CPUS.server ? `servers on CPU ${CPUS.server}, load generator on CPU ${CPUS.load}` : "no CPU pinning";
    const header =
      `${tool}, ${opts.connections} connections, ${opts.durationSec} s per run after ${opts.warmupSec} s warm-up, ${opts.rounds} round(s) (median), ` +
      `${pin}, ${availableParallelism()} CPUs; database ${database}`;
    printTable("observations", rows, header);
    const ratio = rows[1]!.median!.rps / rows[0]!.median!.rps;
    console.log(`bare app 100-row page / baseline requests/s: ${(ratio * 100).toFixed(1)}% (bar: at least 40%) -> ${ratio >= 0.4 ? "PASS" : "FAIL"}`);
    const outDir = join(REPO_ROOT, "bench/out");
    if (!existsSync(outDir)) mkdirSync(outDir, { recursive: true });
    const outFile = join(outDir, `observations-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(outFile, JSON.stringify({ title: "observations", header, options: { ...opts, env: undefined }, rows }, null, 2));
    console.log(`results: ${outFile}`);
  } finally {
    await cleanup();
  }
}
