// The flags every bench script shares (bench/lib/load.ts describes them) and the requests a run drives.
import { parseArgs } from "node:util";

export type BenchOptions = {
  connections: number;
  durationSec: number;
  warmupSec: number;
  rounds: number;
  threads: number;
  /** "pglite", "postgres" (temporary database on the local server) or a postgres:// URL. */
  db: string;
  dataDir?: string;
  tool?: "wrk" | "autocannon";
  /** Extra environment for the service process. */
  env?: Record<string, string>;
};

export type Case = { name: string; path: string; headers?: Record<string, string>; expectStatus?: number };

export function parseBenchArgs(
  argv: string[] = process.argv.slice(2),
  defaults: Partial<BenchOptions> = {},
): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      connections: { type: "string" },
      duration: { type: "string" },
      warmup: { type: "string" },
      rounds: { type: "string" },
      threads: { type: "string" },
      db: { type: "string" },
      "data-dir": { type: "string" },
      tool: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(
      "flags: --connections N (64) --duration S (10) --warmup S (2) --rounds N (1) --threads N (1)\n" +
        "       --db pglite|postgres|postgres://... (pglite) --data-dir DIR --tool wrk|autocannon\n" +
        "env:   BENCH_CONNECTIONS BENCH_DURATION BENCH_WARMUP BENCH_ROUNDS BENCH_THREADS BENCH_DB BENCH_DATA_DIR BENCH_TOOL BENCH_PG_ADMIN_URL",
    );
    process.exit(0);
  }
  const env = process.env;
  const num = (flag: string | undefined, envName: string, def: number, min: number): number => {
    const raw = flag ?? env[envName];
    if (raw === undefined || raw === "") return def;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min)
      throw new Error(`${envName.toLowerCase().replace("bench_", "--")}: expected a number >= ${min}, got ${raw}`);
    return n;
  };
  const tool = values.tool ?? env.BENCH_TOOL ?? defaults.tool;
  if (tool !== undefined && tool !== "wrk" && tool !== "autocannon")
    throw new Error(`--tool: wrk or autocannon, got ${tool}`);
  return {
    connections: num(values.connections, "BENCH_CONNECTIONS", defaults.connections ?? 64, 1),
    durationSec: num(values.duration, "BENCH_DURATION", defaults.durationSec ?? 10, 1),
    warmupSec: num(values.warmup, "BENCH_WARMUP", defaults.warmupSec ?? 2, 0),
    rounds: num(values.rounds, "BENCH_ROUNDS", defaults.rounds ?? 1, 1),
    threads: num(values.threads, "BENCH_THREADS", defaults.threads ?? 1, 1),
    db: values.db ?? env.BENCH_DB ?? defaults.db ?? "pglite",
    dataDir: values["data-dir"] ?? env.BENCH_DATA_DIR ?? defaults.dataDir,
    tool,
    env: defaults.env,
  };
}
