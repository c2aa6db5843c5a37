// Whether the thread that answers requests stays free while CPU-heavy work runs (issue 41): a real `svc serve` on the
// embedded database, `/api/health` and a cached keyed data read (the keyed page, warmed) probed one at a time, p50 and
// p99, in three phases:
//   quiet:     nothing else runs (the reference);
//   after seed: right after start on a data directory `svc seed` just filled, while the first start's detection
//              drains the outbox of every series the seed wrote (on the database's thread; the phase ends when the
//              server logs that detection ended, or after 30 s);
//   detect:    `svc signals detect`, which the running server carries out (detection over every held series, as the
//              detect job runs it: reads and writes through the database's thread, the detectors on the compute pool);
//   flood:     --clients clients (over --keys free keys) asking for uncached charts (ten states, a window starting a
//              day earlier each time, at sizes that differ), for --flood seconds; the charts' statuses are counted.
//   bun bench/offthread.ts [--root /work/main] [--clients 16] [--keys 8] [--flood 10]
// --root runs the server from another checkout (the code before a change) with the same load. The seed is counted
// apart (about 20 s); the phases fit in a minute.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT, freePort } from "./lib/load";

const { values: args } = parseArgs({ options: { root: { type: "string" }, clients: { type: "string" }, keys: { type: "string" }, flood: { type: "string" } } });
const ROOT = args.root ?? REPO_ROOT;
const CLIENTS = Number(args.clients ?? 16);
const KEYS = Number(args.keys ?? 8);
const FLOOD_MS = Number(args.flood ?? 10) * 1000;
const QUIET_MS = 3000;
const DETECTION_MAX_MS = 30_000;

const dataDir = mkdtempSync(join(tmpdir(), "svc-offthread-"));
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(DATABASE_URL|DATA_DIR|PORT|HOST|REDIS_URL|SMTP_URL|PUBLIC_BASE_URL|LOG_LEVEL)/.test(k)) env[k] = v;
Object.assign(env, { DATA_DIR: dataDir, LOG_LEVEL: "info", HOME: tmpdir() });
const t0 = performance.now();
const log = (m: string) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);

async function cli(argv: string[]): Promise<string> {
  const proc = Bun.spawn([process.execPath, "src/cli.ts", ...argv], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`svc ${argv.join(" ")} exited ${code}: ${err || out}`);
  return out.trim();
}

log(`seeding ${dataDir} with ${ROOT}`);
await cli(["seed"]);
const keys: string[] = [];
for (let i = 0; i < KEYS; i++) keys.push((await cli(["keys", "create", "--plan", "free", "--rate-limit", "2000000000"])).split("\n")[0]!);
log(`seeded, ${KEYS} keys; starting the server`);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn([process.execPath, "src/cli.ts", "serve"], { cwd: ROOT, env: { ...env, PORT: String(port), HOST: "127.0.0.1" }, stdout: "ignore", stderr: "pipe" });
process.on("exit", () => {
  server.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});
// The server's log, read as it comes: the line that ends detection ends that phase.
let detectionLine: string | null = null;
void (async () => {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of server.stderr) {
    rest += decoder.decode(chunk);
    const lines = rest.split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line.includes("signals detected over")) detectionLine = line;
  }
})();

const PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=100";
const auth = (k: number) => ({ authorization: `Bearer ${keys[k % keys.length]}` });
for (let i = 0; ; i++) {
  const status = await fetch(`${base}${PAGE}`, { headers: auth(0) }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
  if (status === 200) break;
  if (i > 1200) throw new Error(`server did not serve the keyed page (last status ${status})`);
  await Bun.sleep(50);
}
log("serving");

/** CPU seconds (user + system) of the server's main thread (the one that answers requests) and of the whole process. */
function cpu(): { main: number; all: number } {
  const of = (path: string) => {
    try {
      const f = readFileSync(path, "utf8");
      const fields = f.slice(f.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return NaN;
    }
  };
  return { main: of(`/proc/${server.pid}/task/${server.pid}/stat`), all: of(`/proc/${server.pid}/stat`) };
}

type Probe = { health: number[]; read: number[]; slowest: number; wallS: number; mainCpuS: number; allCpuS: number };
/** Health and the cached read, one request at a time, alternating, until `until()` says stop. */
async function probe(until: () => boolean): Promise<Probe> {
  const out: Probe = { health: [], read: [], slowest: 0, wallS: 0, mainCpuS: 0, allCpuS: 0 };
  const t = performance.now();
  const c = cpu();
  for (let i = 0; !until(); i++) {
    const health = i % 2 === 0;
    const sent = performance.now();
    const res = await fetch(health ? `${base}/api/health` : `${base}${PAGE}`, health ? {} : { headers: auth(0) });
    await res.arrayBuffer();
    const ms = performance.now() - sent;
    (health ? out.health : out.read).push(ms);
    out.slowest = Math.max(out.slowest, ms);
    await Bun.sleep(20);
  }
  const c2 = cpu();
  Object.assign(out, { wallS: (performance.now() - t) / 1000, mainCpuS: c2.main - c.main, allCpuS: c2.all - c.all });
  return out;
}
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN);
const show = (name: string, p: Probe, extra = "") =>
  console.log(
    `${name.padEnd(10)} health p50 ${pct(p.health, 0.5).toFixed(1).padStart(7)} ms  p99 ${pct(p.health, 0.99).toFixed(1).padStart(7)} ms | cached read p50 ${pct(p.read, 0.5).toFixed(1).padStart(7)} ms  p99 ${pct(p.read, 0.99).toFixed(1).padStart(7)} ms | slowest ${p.slowest.toFixed(0)} ms, ${p.health.length + p.read.length} probes in ${p.wallS.toFixed(1)} s; CPU: main thread ${p.mainCpuS.toFixed(1)} s, process ${p.allCpuS.toFixed(1)} s${extra}`,
  );

console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}; server ${ROOT}`);
// The first start's detection over what `svc seed` wrote (on the database's thread), right after the server serves.
const detectionStart = performance.now();
const during = await probe(() => detectionLine !== null || performance.now() - detectionStart > DETECTION_MAX_MS);
const detected = detectionLine ? /"series":(\d+).*"ms":(\d+)/.exec(detectionLine) : null;
show("after seed", during, detected ? `; detection: ${detected[1]} series in ${(Number(detected[2]) / 1000).toFixed(1)} s` : `; detection still running after ${DETECTION_MAX_MS / 1000} s`);
for (let i = 0; i < 1200 && !detectionLine; i++) await Bun.sleep(100);

// Detection again over every held series, in the server (`svc signals detect` is carried out by the running server,
// on its own thread and caches, as the detect job is).
const redetect = Bun.spawn([process.execPath, "src/cli.ts", "signals", "detect"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
let redetected = false;
void redetect.exited.then(() => (redetected = true));
const redetectStart = performance.now();
const again = await probe(() => redetected);
const redetectOut = (await new Response(redetect.stdout).text()).trim().split("\n").pop();
show("detect", again, `; svc signals detect: ${((performance.now() - redetectStart) / 1000).toFixed(1)} s (${redetectOut})`);

const quietEnd = performance.now() + QUIET_MS;
show("quiet", await probe(() => performance.now() > quietEnd));

const STATES = "06,48,36,12,17,42,39,13,37,26";
const statuses: Record<number, number> = {};
let next = 0;
const floodEnd = performance.now() + FLOOD_MS;
const flooders = Array.from({ length: CLIENTS }, async (_, c) => {
  while (performance.now() < floodEnd) {
    const n = next++;
    const start = new Date(Date.UTC(2000, 0, 1) - n * 86_400_000).toISOString().slice(0, 10);
    const size = `width=${700 + (n % 13) * 23}&height=${420 + (n % 7) * 17}`;
    const res = await fetch(`${base}/v1/chart?indicator=unemployment_rate&region=${STATES}&start_date=${start}&${size}`, { headers: auth(c) }).catch(() => null);
    const status = res ? res.status : 0;
    await res?.arrayBuffer();
    statuses[status] = (statuses[status] ?? 0) + 1;
    // A refusal's Retry-After is honoured, as a polite client would.
    if (res && (status === 429 || status === 503)) await Bun.sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
  }
});
await Bun.sleep(500);
const flood = await probe(() => performance.now() > floodEnd);
await Promise.all(flooders);
show("flood", flood, `; charts: ${Object.entries(statuses).map(([s, n]) => `${n} ${s}`).join(", ")} (${CLIENTS} clients, ${KEYS} keys, ${FLOOD_MS / 1000} s)`);
server.kill("SIGTERM");
await server.exited;
