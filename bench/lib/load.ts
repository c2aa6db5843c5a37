// Load-test runner shared by bench/*.ts. Every figure is reported next to a bare Bun.serve returning a
// fixed JSON body, measured in the same run on the same CPU, so results read as a ratio rather than as
// absolute numbers from a machine that other work may be sharing.
//
// API (see bench/catalog.ts for a complete script):
//   parseBenchArgs(argv, defaults?) -> BenchOptions
//       flags (each also read from an env var, flag wins): --connections/BENCH_CONNECTIONS (64),
//       --duration/BENCH_DURATION seconds per run (10), --warmup/BENCH_WARMUP seconds (2),
//       --rounds/BENCH_ROUNDS interleaved rounds, median reported (1), --threads/BENCH_THREADS load
//       generator threads (1), --db/BENCH_DB: `pglite` (temp DATA_DIR, default), `postgres` (a temp
//       database on BENCH_PG_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres, dropped after) or
//       a postgres:// URL used as is, --data-dir/BENCH_DATA_DIR to reuse an embedded data dir (skips
//       initdb and seed after the first run), --tool/BENCH_TOOL wrk|autocannon (wrk when available).
//   runBench(title, cases, opts) -> Row[]   (bench/lib/run-bench.ts)
//       starts the baseline and the service (`bun src/cli.ts serve`) on free loopback ports, checks each
//       case answers its expected status once, warms up, runs every case (baseline first) per round,
//       prints a table (req/s, p50, p99, req/s ratio to the baseline, errors, server RSS idle -> peak)
//       and writes bench/out/<title>-<time>.json. Case = { name, path, headers?, expectStatus? (200) }.
//   Lower-level pieces, for scripts that need their own flow:
//     startBaseline({ cpu? }) / startService({ db, dataDir?, env?, cpu?, readyTimeoutMs? }) -> ServerHandle
//       { name, baseUrl, pid, rssMb(), log(), stop() }
//     runLoad(url, { connections, durationSec, threads?, cpu?, headers?, tool? }, sampleRssOf?) -> LoadResult
//     printTable(title, rows, opts)
//
// Placement: with two or more CPUs and `taskset` available, the servers run on CPU 0 and the load
// generator on CPU 1 (PostgreSQL itself is not pinned). Only loopback addresses are used. The load
// generator is wrk (`--latency`, installed with apt-get when missing and root), else autocannon via bunx.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import type { BenchOptions, Case } from "./options";
import { medianResult, parseWrk, printTable, type LoadResult, type Row } from "./results";

export const REPO_ROOT = resolve(import.meta.dir, "../..");

export { parseBenchArgs, type BenchOptions, type Case } from "./options";
export { median, medianResult, parseWrk, printTable, type LoadResult, type Row } from "./results";

export type ServerHandle = {
  name: string;
  baseUrl: string;
  pid: number;
  rssMb(): number;
  log(): string;
  stop(): Promise<void>;
};

// ------------------------------------------------------------------------------------------ placement

const canPin = availableParallelism() >= 2 && !!Bun.which("taskset");
/** CPU for the servers under test and for the load generator; null when pinning is not possible. */
export const CPUS = { server: canPin ? "0" : null, load: canPin ? "1" : null } as const;

function pinned(cpu: string | null | undefined, cmd: string[]): string[] {
  return cpu ? ["taskset", "-c", cpu, ...cmd] : cmd;
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** Resident set size of a process in MB, from /proc (0 when unavailable). */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

// ------------------------------------------------------------------------------------------ servers

async function spawnServer(
  name: string,
  cmd: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
  readyTimeoutMs: number,
  cleanup: () => Promise<void> = async () => {},
): Promise<ServerHandle> {
  const proc = Bun.spawn(cmd, { cwd: REPO_ROOT, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const chunks: string[] = [];
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      const dec = new TextDecoder();
      for await (const c of stream) {
        chunks.push(dec.decode(c, { stream: true }));
        if (chunks.length > 2000) chunks.splice(0, 1000);
      }
    })();
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const handle: ServerHandle = {
    name,
    baseUrl,
    pid: proc.pid, // taskset execs the command, so this is the server's own pid
    rssMb: () => rssMb(proc.pid),
    log: () => chunks.join(""),
    async stop() {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
        if (!done) {
          proc.kill("SIGKILL");
          await proc.exited;
        }
      }
      await cleanup();
    },
  };
  const deadline = performance.now() + readyTimeoutMs;
  let last = "";
  while (performance.now() < deadline) {
    if (proc.exitCode !== null) break;
    try {
      const res = await fetch(baseUrl + readyPath, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status === 200) return handle;
      last = `status ${res.status}`;
      if (res.status < 500) break; // a 4xx will not change by waiting
    } catch (e) {
      last = (e as Error).message;
    }
    await Bun.sleep(200);
  }
  const why = proc.exitCode !== null ? `exited with code ${proc.exitCode}` : `not ready (${last})`;
  await handle.stop();
  throw new Error(`${name}: ${why}\n---- output ----\n${handle.log().split("\n").slice(-40).join("\n")}`);
}

export async function startBaseline(opts: { cpu?: string | null } = {}): Promise<ServerHandle> {
  const port = await freePort();
  const cmd = pinned(opts.cpu === undefined ? CPUS.server : opts.cpu, [
    process.execPath,
    join(REPO_ROOT, "bench/lib/baseline-server.ts"),
  ]);
  return spawnServer("baseline", cmd, { ...cleanEnv(), PORT: String(port) }, port, "/", 10_000);
}

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !["DATABASE_URL", "DATA_DIR", "PORT", "HOST", "PUBLIC_BASE_URL", "TEST_DATABASE_URL"].includes(k)
    )
      env[k] = v;
  }
  return env;
}

/**
 * The real service, `bun src/cli.ts serve`, on a free loopback port. db: "pglite" (DATA_DIR is
 * dataDir or a temporary directory removed on stop), "postgres" (a temporary database on the local
 * server, dropped on stop) or a postgres:// URL used as is.
 */
export async function startService(
  opts: {
    db?: string;
    dataDir?: string;
    env?: Record<string, string>;
    cpu?: string | null;
    readyTimeoutMs?: number;
  } = {},
): Promise<ServerHandle & { database: string }> {
  const port = await freePort();
  const db = opts.db ?? "pglite";
  const env: Record<string, string> = {
    ...cleanEnv(),
    LOG_LEVEL: "warn",
    ...opts.env,
    PORT: String(port),
    HOST: "127.0.0.1",
  };
  let cleanup = async () => {};
  let database: string;
  if (db === "pglite") {
    const dir = opts.dataDir ? resolve(opts.dataDir) : mkdtempSync(join(tmpdir(), "svc-bench-"));
    env.DATA_DIR = dir;
    if (!opts.dataDir) cleanup = async () => rmSync(dir, { recursive: true, force: true });
    database = `pglite (DATA_DIR ${dir})`;
  } else if (db === "postgres") {
    const admin = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    const name = `svc_bench_${process.pid}_${Date.now().toString(36)}`;
    const sql = postgres(admin, { max: 1, onnotice: () => {} });
    await sql.unsafe(`CREATE DATABASE ${name}`);
    await sql.end();
    const u = new URL(admin);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    cleanup = async () => {
      const s = postgres(admin, { max: 1, onnotice: () => {} });
      await s.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await s.end();
    };
    database = `postgres (temporary database ${name} on ${u.host})`;
  } else if (/^postgres(ql)?:\/\//.test(db)) {
    env.DATABASE_URL = db;
    database = `postgres (${new URL(db).host}${new URL(db).pathname})`;
  } else {
    throw new Error(`--db: pglite, postgres or a postgres:// URL, got ${db}`);
  }
  const cmd = pinned(opts.cpu === undefined ? CPUS.server : opts.cpu, [
    process.execPath,
    join(REPO_ROOT, "src/cli.ts"),
    "serve",
  ]);
  try {
    // First start on an empty database runs initdb (PGlite), migrations and the seed.
    const h = await spawnServer("service", cmd, env, port, "/api/health", opts.readyTimeoutMs ?? 300_000, cleanup);
    return { ...h, database };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

// ------------------------------------------------------------------------------------------ load

let toolChecked: Promise<"wrk" | "autocannon"> | null = null;

/** wrk when present (installing it with apt-get if we are root), else autocannon through bunx. */
export function loadTool(preferred?: "wrk" | "autocannon"): Promise<"wrk" | "autocannon"> {
  if (preferred === "autocannon") return Promise.resolve("autocannon");
  toolChecked ??= (async () => {
    if (Bun.which("wrk")) return "wrk";
    if (process.getuid?.() === 0 && Bun.which("apt-get")) {
      console.error("wrk is missing: apt-get install -y wrk");
      const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
      let r = Bun.spawnSync(["apt-get", "install", "-y", "-qq", "wrk"], { env, stdout: "ignore", stderr: "ignore" });
      if (r.exitCode !== 0) {
        Bun.spawnSync(["apt-get", "update", "-qq"], { env, stdout: "ignore", stderr: "ignore" });
        r = Bun.spawnSync(["apt-get", "install", "-y", "-qq", "wrk"], { env, stdout: "ignore", stderr: "ignore" });
      }
      if (r.exitCode === 0 && Bun.which("wrk")) return "wrk";
    }
    if (preferred === "wrk") throw new Error("wrk is not installed and could not be installed");
    console.error("wrk unavailable: using autocannon (bunx autocannon)");
    return "autocannon";
  })();
  return toolChecked;
}

/**
 * Drives `url` for durationSec with `connections` connections. While it runs, samples the RSS of
 * `sampleRssOf` (a pid) every 250 ms and reports the value before the run and the peak.
 */
export async function runLoad(
  url: string,
  opts: {
    connections: number;
    durationSec: number;
    threads?: number;
    cpu?: string | null;
    headers?: Record<string, string>;
    tool?: "wrk" | "autocannon";
  },
  sampleRssOf?: number,
): Promise<LoadResult> {
  const tool = await loadTool(opts.tool);
  const cpu = opts.cpu === undefined ? CPUS.load : opts.cpu;
  const headers = Object.entries(opts.headers ?? {});
  const cmd =
    tool === "wrk"
      ? [
          "wrk",
          `-t${opts.threads ?? 1}`,
          `-c${opts.connections}`,
          `-d${opts.durationSec}s`,
          "--latency",
          "--timeout",
          "10s",
          ...headers.flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
          url,
        ]
      : [
          process.execPath,
          "x",
          "autocannon",
          "-j",
          "-c",
          String(opts.connections),
          "-d",
          String(opts.durationSec),
          "-w",
          String(opts.threads ?? 1),
          ...headers.flatMap(([k, v]) => ["-H", `${k}=${v}`]),
          url,
        ];
  const rssIdle = sampleRssOf ? rssMb(sampleRssOf) : undefined;
  let rssPeak = rssIdle ?? 0;
  const timer = sampleRssOf ? setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(sampleRssOf))), 250) : null;
  try {
    const proc = Bun.spawn(pinned(cpu, cmd), { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) throw new Error(`${tool} exited ${code}: ${err || out}`);
    let r: Omit<LoadResult, "tool">;
    if (tool === "wrk") r = parseWrk(out);
    else {
      const j = JSON.parse(out);
      r = {
        rps: j.requests.average,
        requests: j.requests.total,
        p50Ms: j.latency.p50,
        p99Ms: j.latency.p99,
        errors: (j.non2xx ?? 0) + (j.errors ?? 0) + (j.timeouts ?? 0),
      };
    }
    return { tool, ...r, ...(sampleRssOf ? { rssIdleMb: rssIdle, rssPeakMb: rssPeak } : {}) };
  } finally {
    if (timer) clearInterval(timer);
  }
}
