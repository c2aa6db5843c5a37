// One whole bench run (bench/lib/load.ts describes it): the baseline and the service started, each case checked once,
// warmed up and loaded in interleaved rounds, the table printed and the figures written to bench/out/.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { CPUS, loadTool, REPO_ROOT, runLoad, startBaseline, startService } from "./load";
import type { BenchOptions, Case } from "./options";
import { formatMs, formatNumber, medianResult, printTable, type Row } from "./results";

/**
 * Starts the baseline and the service, checks every case once, warms up, runs `rounds` interleaved
 * rounds (baseline first in each), prints the table and writes bench/out/<title>-<time>.json.
 */
export async function runBench(title: string, cases: Case[], opts: BenchOptions): Promise<Row[]> {
  const tool = await loadTool(opts.tool);
  const started = performance.now();
  console.error(`starting the baseline and the service (${opts.db}); a first start on an empty database runs the seed`);
  const baseline = await startBaseline();
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({ db: opts.db, dataDir: opts.dataDir, env: opts.env });
  } catch (e) {
    await baseline.stop();
    throw e;
  }
  console.error(
    `service ready in ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${formatNumber(service.rssMb())} MB`,
  );
  const rows: Row[] = [
    { name: "baseline: bare Bun.serve, fixed JSON", path: "/", target: "baseline", runs: [], median: null },
    ...cases.map((c): Row => ({ name: `GET ${c.path}`, path: c.path, target: "service", runs: [], median: null })),
  ];
  const caseOf = (row: Row) => cases.find((c) => c.path === row.path && row.target === "service");
  try {
    for (const row of rows) {
      const c = caseOf(row);
      const h = row.target === "baseline" ? baseline : service;
      const res = await fetch(h.baseUrl + row.path, { headers: c?.headers });
      const body = await res.text();
      const want = c?.expectStatus ?? 200;
      if (res.status !== want) row.error = `answered ${res.status}, expected ${want}: ${body.slice(0, 120)}`;
      else console.error(`${row.name}: ${res.status}, ${formatNumber(body.length)} bytes`);
    }
    const live = rows.filter((r) => !r.error);
    const load = { connections: opts.connections, threads: opts.threads, tool };
    if (opts.warmupSec > 0) {
      for (const row of live) {
        const h = row.target === "baseline" ? baseline : service;
        await runLoad(h.baseUrl + row.path, { ...load, durationSec: opts.warmupSec, headers: caseOf(row)?.headers });
      }
    }
    for (let round = 1; round <= opts.rounds; round++) {
      for (const row of live) {
        const h = row.target === "baseline" ? baseline : service;
        const r = await runLoad(
          h.baseUrl + row.path,
          { ...load, durationSec: opts.durationSec, headers: caseOf(row)?.headers },
          h.pid,
        );
        row.runs.push(r);
        console.error(
          `round ${round}/${opts.rounds} ${row.name}: ${formatNumber(r.rps)} req/s, p50 ${formatMs(r.p50Ms)} ms, p99 ${formatMs(r.p99Ms)} ms`,
        );
      }
    }
    for (const row of rows) row.median = medianResult(row.runs);
  } finally {
    await service.stop();
    await baseline.stop();
  }
  const pin = CPUS.server ? `servers on CPU ${CPUS.server}, load generator on CPU ${CPUS.load}` : "no CPU pinning";
  const header =
    `${tool}, ${opts.connections} connections, ${opts.threads} thread(s), ${opts.durationSec} s per run after ${opts.warmupSec} s warm-up, ` +
    `${opts.rounds} round(s) (median), ${pin}, ${availableParallelism()} CPUs; database ${service.database}`;
  printTable(title, rows, header);
  const outDir = join(REPO_ROOT, "bench/out");
  if (!existsSync(outDir)) mkdirSync(outDir, { recursive: true });
  const file = join(
    outDir,
    `${title.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
  );
  writeFileSync(file, JSON.stringify({ title, header, options: { ...opts, env: undefined }, rows }, null, 2));
  console.log(`results: ${file}`);
  return rows;
}
