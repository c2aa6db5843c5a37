// What the blank embedded cluster (db/blank-cluster.ts) saves a first start: a new embedded database made by PGlite's
// initdb, against one loaded from db/blank-cluster/pglite.tar.gz, with the same PGlite and initdb parameters, each in
// a process of its own (on a new data directory), alternating, --rounds times. Prints the time to ready and the
// process's peak RSS (sampled every 20 ms) of each, and the machine's load.
//   bun bench/blank-cluster.ts [--rounds 2]
import { PGlite } from "@electric-sql/pglite";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { BLANK_CLUSTER_PATH, PGLITE_INITDB_PARAMS } from "../db/blank-cluster";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: { rounds: { type: "string", default: "2" }, child: { type: "string" } },
});
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

if (args.child) {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-blank-"));
  const t0 = performance.now();
  const pg = new PGlite({
    dataDir,
    initDbStartParams: PGLITE_INITDB_PARAMS,
    ...(args.child === "blank" ? { loadDataDir: Bun.file(BLANK_CLUSTER_PATH) } : {}),
  });
  await pg.waitReady;
  await pg.query("select 1");
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  await pg.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify({ ms, peakMb: peak / 1e6 }));
} else {
  console.log(
    `new embedded database: initdb vs the blank cluster (${availableParallelism()} cpus; load average before ${load()})`,
  );
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const mode of ["initdb", "blank"]) {
      const proc = Bun.spawn([process.execPath, import.meta.path, "--child", mode], {
        stdout: "pipe",
        stderr: "inherit",
      });
      const out = JSON.parse((await new Response(proc.stdout).text()).trim()) as { ms: number; peakMb: number };
      const label = mode === "initdb" ? "initdb           " : "blank cluster    ";
      console.log(
        `  round ${round}, ${label} ready in ${(out.ms / 1000).toFixed(2)} s, peak RSS ${Math.round(out.peakMb)} MB (load ${load()})`,
      );
    }
  }
}
