// The access layer's cost: the observations page requested with an API key (identify, per-key rate limit,
// entitlement, metering through the usage journal in DATA_DIR) next to the same page from an app built without the access layer (deps.access =
// openAccess, no key sent), measured in the same run over the same database, in interleaved rounds.
// The issue's bar: the keyed path keeps at least 85% of the bare path's requests/s, judged on the median of the
// per-round ratios (each round runs both servers back to back, alternating which goes first).
//   bun run bench/keys.ts [--connections 64] [--duration 10] [--rounds 3] [--db pglite|postgres|URL]
// Flags and BENCH_* variables are described in bench/lib/load.ts. PGlite allows one process per data
// directory, so the two servers take turns on it; with PostgreSQL they would not need to, but take turns too.
// Internal: `bun bench/keys.ts --serve keyed|bare` is the server process this script starts.
import { availableParallelism } from "node:os";
import { CPUS, loadTool, median, medianResult, parseBenchArgs, printTable, runLoad, type LoadResult, type Row } from "./lib/load";
import { benchDatabase, cli, serveAppForBench, startAppServer } from "./lib/serve-app";

// A held sample series (BLS, 122 monthly rows), a full 100-row page.
const PAGE = "/v1/observations?indicator=LNU04032230&region=US&limit=100";

if (process.argv[2] === "--serve") {
  await serveAppForBench(process.argv[3]);
} else {
  await main();
}

async function main() {
  const opts = parseBenchArgs(process.argv.slice(2), { connections: 64, durationSec: 10, rounds: 3 });
  const tool = await loadTool(opts.tool);
  const { env, label: database, cleanup } = await benchDatabase(opts, "keys");

  try {
    console.error(`seeding (${database}) and creating a key`);
    await cli(["seed"], env);
    // A limit no load run reaches: the benchmark measures the limiter's cost, not its refusals.
    const key = (await cli(["keys", "create", "--plan", "free", "--rate-limit", "2000000000"], env)).split("\n")[0]!;
    const cases: { name: string; mode: "bare" | "keyed"; headers: Record<string, string> }[] = [
      { name: `bare app (no access layer), GET ${PAGE}`, mode: "bare" as const, headers: {} },
      { name: `keyed, GET ${PAGE} with X-API-Key`, mode: "keyed" as const, headers: { "X-API-Key": key } },
    ];
    const rows: Row[] = cases.map((c) => ({ name: c.name, path: PAGE, target: "service", runs: [], median: null }));
    // The first row plays the baseline in printTable, so the ratio column reads keyed / bare.
    rows[0]!.target = "baseline";
    for (let round = 1; round <= opts.rounds; round++) {
      // Alternate which server goes first, so neither always meets the machine in the same state.
      const order = round % 2 === 1 ? [0, 1] : [1, 0];
      for (const i of order) {
        const c = cases[i]!;
        const server = await startAppServer("bench/keys.ts", c.mode, env);
        try {
          const check = await fetch(server.baseUrl + PAGE, { headers: c.headers });
          const text = await check.text();
          if (check.status !== 200) throw new Error(`${c.mode}: ${check.status} ${text.slice(0, 200)}`);
          if (opts.warmupSec > 0) await runLoad(server.baseUrl + PAGE, { connections: opts.connections, durationSec: opts.warmupSec, threads: opts.threads, tool, headers: c.headers });
          const r: LoadResult = await runLoad(server.baseUrl + PAGE, { connections: opts.connections, durationSec: opts.durationSec, threads: opts.threads, tool, headers: c.headers }, server.pid);
          rows[i]!.runs.push(r);
          console.error(`round ${round}/${opts.rounds} ${c.mode}: ${Math.round(r.rps)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}`);
        } finally {
          await server.stop();
        }
      }
    }
    for (const row of rows) row.median = medianResult(row.runs);
    const pin = CPUS.server ? `servers on CPU ${CPUS.server}, load generator on CPU ${CPUS.load}` : "no CPU pinning";
    printTable(
      "keys: access-layer overhead",
      rows,
      `${tool}, ${opts.connections} connections, ${opts.durationSec} s per run after ${opts.warmupSec} s warm-up, ${opts.rounds} interleaved round(s) (median), ${pin}, ${availableParallelism()} CPUs; database ${database}`,
    );
    // The verdict compares each round's keyed run with the bare run beside it (same minutes on the machine):
    // on a shared machine the load drifts between rounds, and a ratio of separate medians mixes rounds.
    const ratios = rows[1]!.runs.map((r, i) => r.rps / rows[0]!.runs[i]!.rps);
    const ratio = median(ratios);
    console.log(`per-round keyed / bare: ${ratios.map((x) => `${(x * 100).toFixed(1)}%`).join(", ")}; ratio of the medians above: ${((rows[1]!.median!.rps / rows[0]!.median!.rps) * 100).toFixed(1)}%`);
    console.log(`keyed / bare requests/s (median of per-round ratios): ${(ratio * 100).toFixed(1)}% (bar: at least 85%) -> ${ratio >= 0.85 ? "PASS" : "FAIL"}`);
  } finally {
    await cleanup();
  }
}
