// Start-up figures (issue 26): from an empty temporary DATA_DIR (or a fresh PostgreSQL database), start the server on
// a free loopback port, poll /api/health every 100 ms and print
//   - time to the first 200 (and to the "listening" log line),
//   - the longest gap between two answers of /api/health (each poll waits up to 10 s) from "listening" (or the first
//     200) until the start-up work (seed, derived series, signal detection) is finished, or --settle seconds,
//   - peak RSS of the server's process tree during the first start (sampled from /proc every 50 ms, with the start-up step
//     /api/health named then) and idle RSS once
//     the start-up work is done, and again after --quiet seconds without a request (a quiet node trims its memory:
//     src/idle-footprint.ts), with the latency of the first request after the quiet and of the one after it,
//   - the time to healthy of a restart on the data the first start left (SIGTERM, then start again),
//   - the machine's load average before and after.
// The start-up work is "done" when /api/health stops reporting `status: "starting"` (or, for servers without that
// state, when the log says the seeded signals were detected, or --settle seconds pass).
// Polling goes on --after seconds past ready (the job engine's first work), and the gap counts there too.
// The seeded-database image cache (IMAGE_CACHE_DIR) is an empty temporary directory unless --image-cache names one:
// the first start is then a machine's very first (it seeds); `--image-cache warm` starts once beforehand, unmeasured,
// so the measured first start copies the image as any later first start on the machine does.
// `--compare <checkout>` measures another checkout (e.g. the main branch's worktree) the same way first, in the same run.
//   bun bench/start.ts [--binary dist/svc] [--db pglite|postgres|postgres://...] [--settle 180] [--restarts 2] [--after 10] [--quiet 45]
//                      [--image-cache warm|<dir>] [--compare <checkout>]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { freePort, REPO_ROOT } from "./lib/load";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    binary: { type: "string" },
    db: { type: "string", default: "pglite" },
    settle: { type: "string", default: "180" },
    restarts: { type: "string", default: "2" },
    after: { type: "string", default: "10" },
    quiet: { type: "string", default: "45" },
    "image-cache": { type: "string" },
    compare: { type: "string" },
  },
});

const POLL_MS = 100;
const REQUEST_TIMEOUT_MS = 10_000;
const settleMs = Number(args.settle) * 1000;

/** Every pid whose ancestry reaches `root` (the server and anything it spawned, e.g. workers run as processes). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {}
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

function treeRssMb(root: number): number {
  let kb = 0;
  for (const pid of processTree(root)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {}
  }
  return kb / 1024;
}

type Run = {
  listeningMs: number | null;
  firstOkMs: number | null;
  readyMs: number | null;
  longestGapMs: number;
  /** When the longest gap ended, from the start. */
  longestGapEndMs: number;
  peakRssMb: number;
  peakStep: string | null;
  /** The highest RSS sampled during each start-up step, in the order the steps came. */
  peakByStep: Map<string, number>;
  idleRssMb: number | null;
  /** After the quiet period (null when not asked for): RSS, and the first and second /api/health latencies. */
  quiet: { rssMb: number; firstMs: number; secondMs: number } | null;
  health: unknown;
};

async function runServer(root: string, label: string, env: Record<string, string>, waitReady: boolean, afterMs: number, quietMs = 0): Promise<Run> {
  const port = await freePort();
  const cmd = args.binary ? [args.binary, "serve"] : ["bun", "src/server.ts"];
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let log = "";
  let listeningMs: number | null = null;
  let detectedInLog = false;
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) {
      const text = dec.decode(chunk);
      log += text;
      if (listeningMs === null && /"msg":"listening"/.test(log)) listeningMs = performance.now() - t0;
      if (/signals detected over the seeded series|signal detection over the seed failed/.test(text)) detectedInLog = true;
    }
  };
  void read(proc.stdout);
  void read(proc.stderr);

  let peak = 0;
  // The start-up step /api/health last named, and the one under way when the peak was sampled.
  let step: string | null = null;
  let peakStep: string | null = null;
  const peakByStep = new Map<string, number>();
  const sampler = setInterval(() => {
    const rss = treeRssMb(proc.pid);
    if (rss > peak) [peak, peakStep] = [rss, step];
    if (step !== null && rss > (peakByStep.get(step) ?? 0)) peakByStep.set(step, rss);
  }, 50);

  let firstOkMs: number | null = null;
  let lastOk = 0;
  let longestGap = 0;
  let longestGapEnd = 0;
  let readyMs: number | null = null;
  let health: unknown = null;
  let sawStarting = false;
  const url = `http://127.0.0.1:${port}/api/health`;
  const deadline = t0 + settleMs;
  while (performance.now() < deadline && proc.exitCode === null) {
    const tick = performance.now();
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const at = performance.now();
      if (res.status === 200) {
        health = await res.json();
        // A server that said "listening" owes answers from then on: the wait for the first one is a gap too.
        if (firstOkMs === null) {
          firstOkMs = at - t0;
          if (listeningMs !== null && firstOkMs - listeningMs > longestGap) {
            longestGap = firstOkMs - listeningMs;
            longestGapEnd = firstOkMs;
          }
        } else if (at - lastOk > longestGap) {
          longestGap = at - lastOk;
          longestGapEnd = at - t0;
        }
        lastOk = at;
        // A server that answers `status: starting` while it seeds is ready when that ends; one that does not
        // (before issue 26) when its log says the seeded signals were detected.
        const starting = (health as { status?: string }).status === "starting";
        step = starting ? ((health as { startup?: { step?: string } }).startup?.step ?? null) : "serving";
        sawStarting ||= starting;
        const done = !starting && (sawStarting || detectedInLog || !waitReady);
        if (done && readyMs === null) readyMs = at - t0;
      } else await res.arrayBuffer();
    } catch {}
    // Polling goes on a while after ready: the work a start leaves to the job engine must not stop answers either.
    if (readyMs !== null && performance.now() - t0 > readyMs + afterMs) break;
    await Bun.sleep(Math.max(0, POLL_MS - (performance.now() - tick)));
  }
  // Never ready within --settle: the silence since the last answer counts too.
  if (readyMs === null && lastOk > 0) longestGap = Math.max(longestGap, performance.now() - lastOk);
  // The lowest of a few samples.
  const lowestRss = async () => {
    const samples: number[] = [];
    for (let i = 0; i < 10; i++) {
      samples.push(treeRssMb(proc.pid));
      await Bun.sleep(200);
    }
    return Math.min(...samples);
  };
  let idle: number | null = null;
  let quiet: Run["quiet"] = null;
  if (readyMs !== null) {
    idle = await lowestRss();
    if (quietMs > 0) {
      await Bun.sleep(quietMs);
      const rssMb = await lowestRss();
      const timed = async () => {
        const t = performance.now();
        await (await fetch(`http://127.0.0.1:${port}/api/health`)).arrayBuffer();
        return performance.now() - t;
      };
      quiet = { rssMb, firstMs: await timed(), secondMs: await timed() };
    }
  }
  clearInterval(sampler);
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
  if (!exited) proc.kill("SIGKILL");
  if (firstOkMs === null) console.error(`${label}: never healthy; log:\n${log.slice(-4000)}`);
  return { listeningMs, firstOkMs, readyMs, longestGapMs: longestGap, longestGapEndMs: longestGapEnd, peakRssMb: peak, peakStep, peakByStep, idleRssMb: idle, quiet, health };
}

const fmtS = (ms: number | null) => (ms === null ? "—" : `${(ms / 1000).toFixed(2)} s`);
const fmtMb = (mb: number | null) => (mb === null ? "—" : `${Math.round(mb)} MB`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

async function main(root: string) {
  const loadBefore = load();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-start-"));
  const ownCache = !args["image-cache"] || args["image-cache"] === "warm" ? mkdtempSync(join(tmpdir(), "svc-bench-image-")) : null;
  const env: Record<string, string> = { DATA_DIR: dataDir, IMAGE_CACHE_DIR: ownCache ?? args["image-cache"]! };
  let dropDb: (() => Promise<void>) | null = null;
  if (args.db !== "pglite") {
    const admin = args.db === "postgres" ? (process.env.BENCH_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres") : args.db;
    const name = `svc_bench_start_${process.pid}`;
    const sql = postgres(admin, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database ${name}`);
    const u = new URL(admin);
    u.pathname = `/${name}`;
    env.DATABASE_URL = u.toString();
    dropDb = async () => {
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    };
  }
  try {
    if (args["image-cache"] === "warm" && args.db === "pglite") {
      const warmDir = mkdtempSync(join(tmpdir(), "svc-bench-warm-"));
      await runServer(root, "warming the image cache", { ...env, DATA_DIR: warmDir }, true, 0);
      rmSync(warmDir, { recursive: true, force: true });
    }
    const first = await runServer(root, "first start", env, true, Number(args.after) * 1000, Number(args.quiet) * 1000);
    const restarts: Run[] = [];
    for (let i = 0; i < Number(args.restarts); i++) restarts.push(await runServer(root, `restart ${i + 1}`, env, false, 2000));
    const target = args.binary ? `binary ${args.binary}` : `bun src/server.ts in ${root}`;
    const image = args["image-cache"] === "warm" ? "image cache warm" : args["image-cache"] ? `image cache ${args["image-cache"]}` : "image cache empty";
    console.log(`\nstart-up (${target}, ${args.db}, ${image}; ${availableParallelism()} cpus; load average before ${loadBefore}, after ${load()})`);
    console.log(`  first start → "listening" logged        ${fmtS(first.listeningMs)}`);
    console.log(`  first start → first 200 /api/health      ${fmtS(first.firstOkMs)}`);
    console.log(`  first start → start-up work done          ${fmtS(first.readyMs)}`);
    console.log(`  longest /api/health gap (first start+${args.after} s) ${Math.round(first.longestGapMs)} ms (ended ${fmtS(first.longestGapEndMs)} after the start)`);
    console.log(`  peak RSS, process tree (first start)      ${fmtMb(first.peakRssMb)}${first.peakStep ? ` (during "${first.peakStep}")` : ""}`);
    console.log(`  peak RSS by step: ${[...first.peakByStep].map(([s, mb]) => `${s} ${fmtMb(mb)}`).join("; ")}`);
    console.log(`  idle RSS after first start                ${fmtMb(first.idleRssMb)}`);
    if (first.quiet) {
      console.log(`  idle RSS after ${args.quiet} s without a request     ${fmtMb(first.quiet.rssMb)}`);
      console.log(`  then /api/health: first / second request  ${first.quiet.firstMs.toFixed(1)} ms / ${first.quiet.secondMs.toFixed(1)} ms`);
    }
    for (const [i, r] of restarts.entries())
      console.log(`  restart ${i + 1} → first 200 /api/health / ready  ${fmtS(r.firstOkMs)} / ${fmtS(r.readyMs)} (peak ${fmtMb(r.peakRssMb)}, longest gap ${Math.round(r.longestGapMs)} ms)`);
  } finally {
    await dropDb?.();
    rmSync(dataDir, { recursive: true, force: true });
    if (ownCache) rmSync(ownCache, { recursive: true, force: true });
  }
}

if (args.compare) await main(args.compare);
await main(REPO_ROOT);
