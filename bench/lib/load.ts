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
//   runBench(title, cases, opts) -> Row[]
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
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

export const REPO_ROOT = resolve(import.meta.dir, "../..");

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

export type LoadResult = {
  tool: "wrk" | "autocannon";
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses outside 2xx/3xx plus socket errors and timeouts. */
  errors: number;
  rssIdleMb?: number;
  rssPeakMb?: number;
};

export type Row = {
  name: string;
  path: string;
  target: "baseline" | "service";
  runs: LoadResult[];
  median: LoadResult | null;
  error?: string;
};

export type ServerHandle = {
  name: string;
  baseUrl: string;
  pid: number;
  rssMb(): number;
  log(): string;
  stop(): Promise<void>;
};

// ------------------------------------------------------------------------------------------ options

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

function wrkDurationMs(s: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s.trim());
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "ms" ? v : m[2] === "s" ? v * 1000 : v * 60_000;
}

/** Parses `wrk --latency` output. Exported for tests. */
export function parseWrk(out: string): Omit<LoadResult, "tool"> {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1];
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1];
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const sockErrors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  if (!Number.isFinite(rps) || !p50 || !p99) throw new Error(`could not parse wrk output:\n${out}`);
  return { rps, requests, p50Ms: wrkDurationMs(p50), p99Ms: wrkDurationMs(p99), errors: non2xx + sockErrors };
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

// ------------------------------------------------------------------------------------------ report

/** The median (the mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Per-field medians of a row's runs (errors summed, peak memory the highest). */
export function medianResult(runs: LoadResult[]): LoadResult | null {
  if (runs.length === 0) return null;
  return {
    tool: runs[0].tool,
    requests: median(runs.map((r) => r.requests)),
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    rssIdleMb: runs[0].rssIdleMb,
    rssPeakMb: Math.max(...runs.map((r) => r.rssPeakMb ?? 0)),
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => (n < 10 ? fmt(n, 2) : n < 100 ? fmt(n, 1) : fmt(n, 0));

export function printTable(title: string, rows: Row[], header: string): void {
  const base = rows.find((r) => r.target === "baseline")?.median;
  const table = [["case", "req/s", "p50 ms", "p99 ms", "vs baseline", "errors", "RSS MB idle -> peak"]];
  for (const r of rows) {
    const m = r.median;
    if (!m) {
      table.push([r.name, "-", "-", "-", "not run", "-", "-"]);
      continue;
    }
    const ratio = base && base.rps > 0 ? `${fmt(m.rps / base.rps, 4)} (1/${fmt(base.rps / m.rps, 0)})` : "";
    table.push([
      r.name,
      fmt(m.rps),
      ms(m.p50Ms),
      ms(m.p99Ms),
      r.target === "baseline" ? "1" : ratio,
      fmt(m.errors),
      m.rssIdleMb !== undefined ? `${fmt(m.rssIdleMb)} -> ${fmt(m.rssPeakMb ?? 0)}` : "",
    ]);
  }
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  console.log(`\n${title}\n${header}`);
  for (const [i, row] of table.entries()) {
    console.log(row.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  for (const r of rows) if (r.error) console.log(`not run: ${r.name} ${r.error}`);
}

// ------------------------------------------------------------------------------------------ whole run

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
    `service ready in ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${fmt(service.rssMb())} MB`,
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
      else console.error(`${row.name}: ${res.status}, ${fmt(body.length)} bytes`);
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
          `round ${round}/${opts.rounds} ${row.name}: ${fmt(r.rps)} req/s, p50 ${ms(r.p50Ms)} ms, p99 ${ms(r.p99Ms)} ms`,
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
