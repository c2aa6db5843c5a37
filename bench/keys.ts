// The access layer's cost: the observations page requested with an API key (identify, per-key rate limit,
// entitlement, metering through the usage journal in DATA_DIR) next to the same page from an app built without the access layer (deps.access =
// openAccess, no key sent), measured in the same run over the same database, in interleaved rounds.
// The issue's bar: the keyed path keeps at least 85% of the bare path's requests/s, judged on the median of the
// per-round ratios. Two ways to put them side by side, each round alternating which server goes first:
// - back to back (the default): each server alone on the server CPU, loaded with all connections;
// - together (`--together`): both servers at once on the server CPU, each loaded with half the connections by a
//   load generator of its own, so both meet the machine in the same state: on a shared machine, whose speed drifts
//   by 20% from one ten-second run to the next, this ratio holds within a few percent from round to round. The
//   scheduler gives each server half the CPU, so each one's requests/s is its throughput per CPU second; the table
//   also shows the server CPU time per request (from /proc).
// `--metrics` compares instead the keyed path with and without METRICS_TOKEN (every answer counted for GET /metrics).
//   bun run bench/keys.ts [--together] [--metrics] [--connections 64] [--duration 10] [--rounds 3] [--db pglite|postgres|URL]
// Flags and BENCH_* variables are described in bench/lib/load.ts. PGlite allows one process per data
// directory: back to back, the two servers take turns on it; together, the keyed one runs on a copy of it.
// Internal: `bun bench/keys.ts --serve keyed|bare` is the server process this script starts.
import { cpSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { CPUS, loadTool, median, medianResult, parseBenchArgs, printTable, runLoad, type Row } from "./lib/load";
import { KEYED_PAGE, benchDatabase, cpuSeconds, seedWithKey, serveAppForBench, startAppServer } from "./lib/serve-app";

const PAGE = KEYED_PAGE;

if (process.argv[2] === "--serve") {
  await serveAppForBench(process.argv[3]);
} else {
  await main();
}

async function main() {
  const argv = process.argv.slice(2);
  const together = argv.includes("--together");
  const metrics = argv.includes("--metrics");
  const opts = parseBenchArgs(
    argv.filter((a) => a !== "--together" && a !== "--metrics"),
    { connections: 64, durationSec: 10, rounds: 3 },
  );
  const tool = await loadTool(opts.tool);
  const { env, label: database, cleanup } = await benchDatabase(opts, "keys");

  try {
    const key = await seedWithKey(env, database);
    const keyedEnv = together && !env.DATABASE_URL ? copyDataDir(env) : env;
    const cases: Case[] = metrics
      ? [
          { name: `keyed, GET ${PAGE} with X-API-Key`, mode: "keyed", headers: { "X-API-Key": key }, env },
          {
            name: `keyed with METRICS_TOKEN (answers counted)`,
            mode: "keyed",
            headers: { "X-API-Key": key },
            env: { ...keyedEnv, METRICS_TOKEN: "bench-metrics-token-0123456789" },
          },
        ]
      : [
          { name: `bare app (no access layer), GET ${PAGE}`, mode: "bare", headers: {}, env },
          // Run together on PGlite, the keyed server needs a data directory of its own (one process per directory): a
          // copy of the seeded one, key included.
          {
            name: `keyed, GET ${PAGE} with X-API-Key`,
            mode: "keyed",
            headers: { "X-API-Key": key },
            env: keyedEnv,
          },
        ];
    const rows: Row[] = cases.map((c) => ({ name: c.name, path: PAGE, target: "service", runs: [], median: null }));
    // The first row plays the baseline in printTable, so the ratio column reads keyed / bare.
    rows[0]!.target = "baseline";
    const cpuPerRequest: number[][] = [[], []];
    const load = {
      connections: together ? Math.max(1, opts.connections >> 1) : opts.connections,
      durationSec: opts.durationSec,
      threads: opts.threads,
      tool,
    };
    for (let round = 1; round <= opts.rounds; round++) {
      // Alternate which server goes first, so neither always meets the machine in the same state.
      const order = round % 2 === 1 ? [0, 1] : [1, 0];
      const groups = together ? [order] : order.map((i) => [i]);
      for (const group of groups) {
        const servers = [];
        try {
          for (const i of group)
            servers.push({ i, server: await startAppServer("bench/keys.ts", cases[i]!.mode, cases[i]!.env) });
          for (const { i, server } of servers) {
            const check = await fetch(server.baseUrl + PAGE, { headers: cases[i]!.headers });
            const text = await check.text();
            if (check.status !== 200) throw new Error(`${cases[i]!.mode}: ${check.status} ${text.slice(0, 200)}`);
          }
          if (opts.warmupSec > 0)
            await Promise.all(
              servers.map(({ i, server }) =>
                runLoad(server.baseUrl + PAGE, { ...load, durationSec: opts.warmupSec, headers: cases[i]!.headers }),
              ),
            );
          const cpuBefore = servers.map(({ server }) => cpuSeconds(server.pid));
          const results = await Promise.all(
            servers.map(({ i, server }) =>
              runLoad(server.baseUrl + PAGE, { ...load, headers: cases[i]!.headers }, server.pid),
            ),
          );
          servers.forEach(({ i, server }, k) => {
            const r = results[k]!;
            rows[i]!.runs.push(r);
            const cpu = cpuSeconds(server.pid) - cpuBefore[k]!;
            if (Number.isFinite(cpu) && r.requests > 0) cpuPerRequest[i]!.push((cpu * 1e6) / r.requests);
            console.error(
              `round ${round}/${opts.rounds} ${cases[i]!.mode}${together ? " (together)" : ""}: ${Math.round(r.rps)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, server CPU ${cpuPerRequest[i]!.at(-1)?.toFixed(1) ?? "?"} us/request`,
            );
          });
        } finally {
          for (const { server } of servers) await server.stop();
        }
      }
    }
    for (const row of rows) row.median = medianResult(row.runs);
    const pin = CPUS.server ? `servers on CPU ${CPUS.server}, load generator on CPU ${CPUS.load}` : "no CPU pinning";
    const method = together
      ? `both servers at once, ${load.connections} connections each`
      : `one server at a time, ${load.connections} connections`;
    printTable(
      "keys: access-layer overhead",
      rows,
      `${tool}, ${method}, ${opts.durationSec} s per run after ${opts.warmupSec} s warm-up, ${opts.rounds} interleaved round(s) (median), ${pin}, ${availableParallelism()} CPUs; database ${database}`,
    );
    if (cpuPerRequest[0]!.length && cpuPerRequest[1]!.length) {
      const [first, second] = metrics ? ["without metrics", "with metrics"] : ["bare", "keyed"];
      console.log(
        `server CPU per request (median): ${first} ${median(cpuPerRequest[0]!).toFixed(1)} us, ${second} ${median(cpuPerRequest[1]!).toFixed(1)} us`,
      );
    }
    // The verdict compares each round's keyed run with the bare run beside it (same minutes on the machine):
    // on a shared machine the load drifts between rounds, and a ratio of separate medians mixes rounds.
    const ratios = rows[1]!.runs.map((r, i) => r.rps / rows[0]!.runs[i]!.rps);
    const ratio = median(ratios);
    if (metrics) {
      console.log(
        `per-round with / without METRICS_TOKEN requests/s: ${ratios.map((x) => `${(x * 100).toFixed(1)}%`).join(", ")}; median ${(ratio * 100).toFixed(1)}%`,
      );
      return;
    }
    console.log(
      `per-round keyed / bare: ${ratios.map((x) => `${(x * 100).toFixed(1)}%`).join(", ")}; ratio of the medians above: ${((rows[1]!.median!.rps / rows[0]!.median!.rps) * 100).toFixed(1)}%`,
    );
    console.log(
      `keyed / bare requests/s (median of per-round ratios, ${together ? "together" : "back to back"}): ${(ratio * 100).toFixed(1)}% (bar: at least 85%) -> ${ratio >= 0.85 ? "PASS" : "FAIL"}`,
    );
  } finally {
    await cleanup();
  }
}

type Case = { name: string; mode: "bare" | "keyed"; headers: Record<string, string>; env: Record<string, string> };

/** The environment with a copy of its (PGlite) data directory, removed when this process exits. */
function copyDataDir(env: Record<string, string>): Record<string, string> {
  const copy = `${env.DATA_DIR}-keyed`;
  cpSync(env.DATA_DIR!, copy, { recursive: true });
  process.on("exit", () => rmSync(copy, { recursive: true, force: true }));
  return { ...env, DATA_DIR: copy };
}
