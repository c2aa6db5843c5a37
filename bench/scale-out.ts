// Scale-out: the keyed 100-row page on PostgreSQL, counted in the server's own process, counted in Redis, and served
// by two nodes sharing that database and Redis, each loaded at the same time (their sum is the figure). Interleaved
// rounds, each case on the server CPU in turn (the two nodes share it, as two nodes on one machine would).
// The issue's bar: with Redis, at least 70% of the requests/s without it (median of the per-round ratios).
//   bun run bench/scale-out.ts [--connections 64] [--duration 6] [--rounds 3] [--redis redis://127.0.0.1:6379]
// Internal: `bun bench/scale-out.ts --serve keyed` is the server process this script starts.
import { availableParallelism } from "node:os";
import { CPUS, loadTool, median, medianResult, parseBenchArgs, printTable, runLoad, type LoadResult, type Row } from "./lib/load";
import { KEYED_PAGE, benchDatabase, seedWithKey, serveAppForBench, startAppServer } from "./lib/serve-app";

const PAGE = KEYED_PAGE;

if (process.argv[2] === "--serve") {
  await serveAppForBench(process.argv[3]);
} else {
  await main();
}

async function main() {
  const argv = process.argv.slice(2);
  const redisAt = argv.indexOf("--redis");
  const redisUrl = redisAt >= 0 ? argv[redisAt + 1]! : "redis://127.0.0.1:6379";
  const rest = redisAt >= 0 ? [...argv.slice(0, redisAt), ...argv.slice(redisAt + 2)] : argv;
  const opts = parseBenchArgs(rest, { connections: 64, durationSec: 6, rounds: 3, db: "postgres" });
  const tool = await loadTool(opts.tool);
  const { env, label: database, cleanup } = await benchDatabase(opts, "scaleout");
  try {
    const key = await seedWithKey(env, database);
    const headers = { "X-API-Key": key };
    const withRedis = { ...env, REDIS_URL: redisUrl };
    const cases = [
      { name: `PostgreSQL, counted in process: GET ${PAGE}`, nodes: [env] },
      { name: "PostgreSQL + Redis, one node", nodes: [withRedis] },
      { name: "PostgreSQL + Redis, two nodes at once (sum)", nodes: [withRedis, withRedis] },
    ];
    const rows: Row[] = cases.map((c, i) => ({ name: c.name, path: PAGE, target: i === 0 ? "baseline" : "service", runs: [], median: null }));
    for (let round = 1; round <= opts.rounds; round++) {
      for (const [i, c] of cases.entries()) {
        const servers = [];
        try {
          for (const nodeEnv of c.nodes) servers.push(await startAppServer("bench/scale-out.ts", "keyed", nodeEnv));
          for (const s of servers) {
            const check = await fetch(s.baseUrl + PAGE, { headers });
            if (check.status !== 200) throw new Error(`${c.name}: ${check.status} ${(await check.text()).slice(0, 200)}`);
          }
          const connections = Math.max(1, Math.floor(opts.connections / servers.length));
          const load = { connections, durationSec: opts.durationSec, threads: opts.threads, tool, headers };
          if (opts.warmupSec > 0) await Promise.all(servers.map((s) => runLoad(s.baseUrl + PAGE, { ...load, durationSec: opts.warmupSec })));
          const results = await Promise.all(servers.map((s) => runLoad(s.baseUrl + PAGE, load, s.pid)));
          const sum = combined(results);
          rows[i]!.runs.push(sum);
          const each = results.length > 1 ? ` (${results.map((r) => Math.round(r.rps)).join(" + ")})` : "";
          console.error(`round ${round}/${opts.rounds} ${c.name}: ${Math.round(sum.rps)} req/s${each}, p50 ${sum.p50Ms} ms, p99 ${sum.p99Ms} ms, errors ${sum.errors}`);
        } finally {
          for (const s of servers) await s.stop();
        }
      }
    }
    for (const row of rows) row.median = medianResult(row.runs);
    const pin = CPUS.server ? `servers on CPU ${CPUS.server}, load generator on CPU ${CPUS.load}` : "no CPU pinning";
    printTable("scale-out: exact rate limits shared through Redis", rows, `${tool}, ${opts.connections} connections in all, ${opts.durationSec} s per run after ${opts.warmupSec} s warm-up, ${opts.rounds} interleaved round(s) (median), ${pin}, ${availableParallelism()} CPUs; database ${database}; Redis ${redisUrl}`);
    const ratios = rows[1]!.runs.map((r, i) => r.rps / rows[0]!.runs[i]!.rps);
    const ratio = median(ratios);
    console.log(`per-round Redis / in process: ${ratios.map((x) => `${(x * 100).toFixed(1)}%`).join(", ")}`);
    console.log(`Redis / in-process requests/s (median of per-round ratios): ${(ratio * 100).toFixed(1)}% (bar: at least 70%) -> ${ratio >= 0.7 ? "PASS" : "FAIL"}`);
  } finally {
    await cleanup();
  }
}

/** Two nodes loaded at once as one figure: requests/s and errors add up; latencies are the slower node's. */
function combined(results: LoadResult[]): LoadResult {
  if (results.length === 1) return results[0]!;
  const out = { ...results[0]! };
  out.rps = results.reduce((a, r) => a + r.rps, 0);
  out.requests = results.reduce((a, r) => a + r.requests, 0);
  out.errors = results.reduce((a, r) => a + r.errors, 0);
  out.p50Ms = Math.max(...results.map((r) => r.p50Ms));
  out.p99Ms = Math.max(...results.map((r) => r.p99Ms));
  return out;
}
