// Start-up figures: from an empty temporary DATA_DIR (or a fresh PostgreSQL database) and an empty
// image cache, start the server on a free loopback port and print
//   - the very first start: time to the first 200 of /api/health, to "serving" (health no longer `starting`), to the
//     first 200 of the US unemployment rate (GET /v1/observations/latest?indicator=UNRATE with a key from signup), and
//     to everything served (health lists no part of the data as loading);
//   - from the seeded image (another empty DATA_DIR, the image cache the first start filled) and on each restart (the
//     first start's DATA_DIR): time to serving, and the slowest answer in the first minute of a mix of first requests
//     (health, catalog, regions, the US and a state's unemployment rate: bench/lib/first-requests.ts);
//   - the longest gap between two answers of /api/health (each poll waits up to 10 s) from "listening" (or the first
//     200) until the start-up work is finished, or --settle seconds,
//   - peak RSS of the server's process tree during the first start (sampled from /proc every 50 ms, with the start-up step
//     /api/health named then) and idle RSS once
//     the start-up work is done, and again after --quiet seconds without a request (a quiet node trims its memory:
//     src/idle-footprint.ts), with the latency of the first request after the quiet and of the one after it,
//   - the machine's load average before and after (the figures are only comparable at like loads).
// The start-up work is "done" when /api/health stops reporting `status: "starting"` and lists nothing `loading` (or,
// for servers without that state, when the log says the seeded signals were detected, or --settle seconds pass).
// Polling goes on --after seconds past ready (the job engine's first work), and the gap counts there too.
// The seeded-database image cache (IMAGE_CACHE_DIR) is an empty temporary directory unless --image-cache names one.
// `--compare <checkout>` measures another checkout (e.g. the main branch's worktree) the same way first, in the same run.
//   bun bench/start.ts [--binary dist/svc] [--db pglite|postgres|postgres://...] [--settle 300] [--restarts 2] [--after 10] [--quiet 45]
//                      [--minute 60] [--image-cache <dir>] [--compare <checkout>]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { freePort, REPO_ROOT } from "./lib/load";
import { probeFirstRequests, type FirstRequests } from "./lib/first-requests";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    binary: { type: "string" },
    db: { type: "string", default: "pglite" },
    settle: { type: "string", default: "300" },
    minute: { type: "string", default: "60" },
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
  /** When health stopped saying `starting` (the app serves; a first start then serves its data part by part). */
  servingMs: number | null;
  first: FirstRequests;
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
  let servingMs: number | null = null;
  const url = `http://127.0.0.1:${port}/api/health`;
  const deadline = t0 + settleMs;
  // A new user's first requests, beside the health polling below.
  const probe = probeFirstRequests(`http://127.0.0.1:${port}`, t0, { minuteMs: Number(args.minute) * 1000, untilEverything: waitReady, deadline });
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
        // (an older release) when its log says the seeded signals were detected.
        const starting = (health as { status?: string }).status === "starting";
        const loading = (health as { loading?: { families: string[] } }).loading?.families;
        step = starting ? ((health as { startup?: { step?: string } }).startup?.step ?? null) : loading ? `serving, loading ${loading[0]}` : "serving";
        sawStarting ||= starting;
        if (!starting && servingMs === null) servingMs = at - t0;
        const done = !starting && !loading && (sawStarting || detectedInLog || !waitReady);
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
  const first = await probe;
  clearInterval(sampler);
  proc.kill("SIGTERM");
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
  if (!exited) proc.kill("SIGKILL");
  if (firstOkMs === null) console.error(`${label}: never healthy; log:\n${log.slice(-4000)}`);
  return { listeningMs, firstOkMs, readyMs, longestGapMs: longestGap, longestGapEndMs: longestGapEnd, peakRssMb: peak, peakStep, peakByStep, idleRssMb: idle, quiet, health, servingMs, first };
}

const fmtS = (ms: number | null) => (ms === null ? "—" : `${(ms / 1000).toFixed(2)} s`);
const fmtMb = (mb: number | null) => (mb === null ? "—" : `${Math.round(mb)} MB`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

async function main(root: string) {
  const loadBefore = load();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-start-"));
  const ownCache = args["image-cache"] ? null : mkdtempSync(join(tmpdir(), "svc-bench-image-"));
  const env: Record<string, string> = { DATA_DIR: dataDir, IMAGE_CACHE_DIR: ownCache ?? args["image-cache"]! };
  const imageDataDir = mkdtempSync(join(tmpdir(), "svc-bench-from-image-"));
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
    const first = await runServer(root, "first start", env, true, Number(args.after) * 1000, Number(args.quiet) * 1000);
    // The embedded database's next first start, in another empty data directory: it copies the image just kept.
    const fromImage = args.db === "pglite" ? await runServer(root, "first start from the image", { ...env, DATA_DIR: imageDataDir }, false, 2000) : null;
    const restarts: Run[] = [];
    for (let i = 0; i < Number(args.restarts); i++) restarts.push(await runServer(root, `restart ${i + 1}`, env, false, 2000));
    const target = args.binary ? `binary ${args.binary}` : `bun src/server.ts in ${root}`;
    const image = args["image-cache"] ? `image cache ${args["image-cache"]}` : "image cache empty";
    const minute = (r: Run) =>
      `slowest answer in the first ${args.minute} s ${Math.round(r.first.slowestMs)} ms${r.first.slowestPath ? ` (${r.first.slowestPath})` : ""}, ${r.first.over200} of ${r.first.answered} over 200 ms`;
    console.log(`\nstart-up (${target}, ${args.db}, ${image}; ${availableParallelism()} cpus; load average before ${loadBefore}, after ${load()})`);
    console.log(`  first start → "listening" logged        ${fmtS(first.listeningMs)}`);
    console.log(`  first start → first 200 /api/health      ${fmtS(first.firstOkMs)}`);
    console.log(`  first start → serving (not "starting")   ${fmtS(first.servingMs)}`);
    console.log(`  first start → first US unemployment rate ${fmtS(first.first.unrateMs)}`);
    console.log(`  first start → everything served          ${fmtS(first.first.everythingMs ?? first.readyMs)}`);
    console.log(`  longest /api/health gap (first start+${args.after} s) ${Math.round(first.longestGapMs)} ms (ended ${fmtS(first.longestGapEndMs)} after the start)`);
    console.log(`  first start: ${minute(first)}`);
    console.log(`  peak RSS, process tree (first start)      ${fmtMb(first.peakRssMb)}${first.peakStep ? ` (during "${first.peakStep}")` : ""}`);
    console.log(`  peak RSS by step: ${[...first.peakByStep].map(([s, mb]) => `${s} ${fmtMb(mb)}`).join("; ")}`);
    console.log(`  idle RSS after first start                ${fmtMb(first.idleRssMb)}`);
    if (first.quiet) {
      console.log(`  idle RSS after ${args.quiet} s without a request     ${fmtMb(first.quiet.rssMb)}`);
      console.log(`  then /api/health: first / second request  ${first.quiet.firstMs.toFixed(1)} ms / ${first.quiet.secondMs.toFixed(1)} ms`);
    }
    if (fromImage) console.log(`  from the image → serving ${fmtS(fromImage.servingMs)}; first US unemployment rate ${fmtS(fromImage.first.unrateMs)}; ${minute(fromImage)}`);
    for (const [i, r] of restarts.entries())
      console.log(`  restart ${i + 1} → serving ${fmtS(r.servingMs)}; first US unemployment rate ${fmtS(r.first.unrateMs)}; ${minute(r)} (peak ${fmtMb(r.peakRssMb)}, longest gap ${Math.round(r.longestGapMs)} ms)`);
  } finally {
    await dropDb?.();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(imageDataDir, { recursive: true, force: true });
    if (ownCache) rmSync(ownCache, { recursive: true, force: true });
  }
}

if (args.compare) await main(args.compare);
await main(REPO_ROOT);
