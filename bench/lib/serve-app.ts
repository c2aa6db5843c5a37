// Shared by the bench scripts that run the real app in a server process of their own (observations, keys):
// - serveAppForBench: the server mode, `bun bench/X.ts --serve bare|keyed`: the real app with the real dependencies
//   (buildDeps), with the access layer removed for "bare", so keyed and bare runs differ only there;
// - startAppServer: starts that mode of a script (pinned to the server CPU) and waits until it answers;
// - benchDatabase: the environment of those processes, on a temporary embedded data directory or a temporary
//   PostgreSQL database (dropped by cleanup);
// - cli: runs `src/cli.ts` (seed, import, keys create) in that environment;
// - cpuSeconds: a server process's CPU time so far (per-request CPU figures).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { CPUS, REPO_ROOT, freePort, type BenchOptions } from "./load";

export async function serveAppForBench(variant: string | undefined): Promise<void> {
  const { loadConfig } = await import("../../src/config");
  const { buildDeps } = await import("../../src/bootstrap");
  const { createApp } = await import("../../src/app");
  const { openAccess } = await import("../../src/ports");
  const config = loadConfig(process.env);
  const deps = await buildDeps(config);
  await deps.keys.cache.ready(5000);
  const app = createApp(variant === "bare" ? { ...deps, access: openAccess } : deps);
  const server = Bun.serve({ hostname: "127.0.0.1", port: config.port, fetch: app.fetch, development: false });
  console.log(`listening ${server.port}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.stop(true);
    await deps.keys.close();
    await deps.database.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

export type AppServer = { baseUrl: string; pid: number; stop(): Promise<void> };

/**
 * Starts `bun <script> --serve <variant>` on a free loopback port and waits for /api/health to answer 200. `root`: the
 * tree whose script and sources run (another ref checked out by bench/lib/ref-tree.ts), this one by default.
 */
export async function startAppServer(
  script: string,
  variant: "bare" | "keyed",
  env: Record<string, string>,
  root = REPO_ROOT,
): Promise<AppServer> {
  const port = await freePort();
  const cmd = [process.execPath, join(root, script), "--serve", variant];
  const proc = Bun.spawn(CPUS.server ? ["taskset", "-c", CPUS.server, ...cmd] : cmd, {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdout: "ignore",
    stderr: "inherit",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${variant} server exited ${proc.exitCode}`);
    if (performance.now() > deadline) throw new Error(`${variant} server not ready`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {}
    await Bun.sleep(100);
  }
  return {
    baseUrl,
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** User plus system CPU time of a process so far, in seconds (NaN where /proc is not there). */
export function cpuSeconds(pid: number): number {
  try {
    // After the command name (which may hold spaces and parentheses, hence the last ')'), utime and stime are the
    // 12th and 13th fields, in clock ticks (100 a second on Linux).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Runs the CLI with `args` in `env`; its standard output, trimmed. */
export async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const cmd = [process.execPath, "src/cli.ts", ...args];
  const proc = Bun.spawn(cmd, { cwd: REPO_ROOT, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${err || out}`);
  return out.trim();
}

/**
 * The environment of a bench's server and CLI processes: this process's, without any database, data directory,
 * port, Redis or SMTP setting, on a temporary data directory (PGlite: the database; PostgreSQL: node-local state such
 * as the usage journal) and, for `--db postgres`, a temporary database. `cleanup` removes both.
 */
export async function benchDatabase(
  opts: Pick<BenchOptions, "db" | "dataDir">,
  name: string,
): Promise<{ env: Record<string, string>; label: string; cleanup(): Promise<void> }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !["DATABASE_URL", "DATA_DIR", "PORT", "HOST", "REDIS_URL", "SMTP_URL"].includes(k))
      env[k] = v;
  env.LOG_LEVEL = "warn";
  if (opts.db === "pglite") {
    const dir = opts.dataDir ?? mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
    env.DATA_DIR = dir;
    return {
      env,
      label: `pglite (DATA_DIR ${dir})`,
      cleanup: async () => void (opts.dataDir ? undefined : rmSync(dir, { recursive: true, force: true })),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
  env.DATA_DIR = dir;
  let url = opts.db;
  let dropDatabase = async () => {};
  if (opts.db === "postgres") {
    const admin = process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    const db = `svc_bench_${name}_${process.pid}`;
    const sql = postgres(admin, { max: 1, onnotice: () => {} });
    await sql.unsafe(`CREATE DATABASE ${db}`);
    await sql.end();
    const u = new URL(admin);
    u.pathname = `/${db}`;
    url = u.toString();
    dropDatabase = async () => {
      const s = postgres(admin, { max: 1, onnotice: () => {} });
      await s.unsafe(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => {});
      await s.end();
    };
  }
  env.DATABASE_URL = url;
  return {
    env,
    label: `postgres (${new URL(url).host}${new URL(url).pathname})`,
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
      await dropDatabase();
    },
  };
}

/** A held sample series (BLS, 122 monthly rows): a full 100-row page, the keyed page of the keys and scale-out benches. */
export const KEYED_PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=100";

/** Seeds the bench database and creates a free key whose limit no load run reaches: a bench measures counting, not refusals. */
export async function seedWithKey(env: Record<string, string>, database: string): Promise<string> {
  console.error(`seeding (${database}) and creating a key`);
  await cli(["seed"], env);
  return (await cli(["keys", "create", "--plan", "free", "--rate-limit", "2000000000"], env)).split("\n")[0]!;
}
