// The anonymous flood: strangers without a key asking for series the catalog offers but the store
// does not hold (BLS LAUS county measures: 4 x 3,144 pairs), each request from another client address (a trusted
// proxy's X-Forwarded-For), against a real `svc serve` on the embedded database with the connectors pointed at the
// fake upstream (test/support/fake-upstream.ts). Partway through, a real user with a key asks for a series not held.
// Reports the answers by status, the provisioning queue (pg-boss queued + active, from /api/health, the largest seen
// and at the end), the upstream requests a minute (what the fake received), and the user's wait from its first
// request to its first answer other than 202.
// --free-keys N floods instead with N free keys from one address (six free keys signed up from one address once
// filled the queue to its global cap), and the user's key is a Professional one.
//   bun bench/anonymous-flood.ts [--root /work/main] [--duration 40] [--clients 16] [--free-keys 6]
// --root runs the server from another checkout (the code before a change) with the same load.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FakeUpstream } from "../test/support/fake-upstream";
import { REPO_ROOT, freePort } from "./lib/load";

const { values: args } = parseArgs({ options: { root: { type: "string" }, duration: { type: "string" }, clients: { type: "string" }, "free-keys": { type: "string" } } });
const FREE_KEYS = Number(args["free-keys"] ?? 0);
const ROOT = args.root ?? REPO_ROOT;
const DURATION_MS = Number(args.duration ?? 40) * 1000;
const CLIENTS = Number(args.clients ?? 16);
const MEASURES = ["03", "04", "05", "06"];
const USER_SERIES = "LAUCN060370000000003";

const fake = await FakeUpstream.start();
// The user's series exists upstream; every stranger's is answered "Series does not exist" by the fake BLS.
fake.setBlsSeries(USER_SERIES, [{ year: "2025", period: "M12", value: "5.9", footnotes: [{}] }, { year: "2025", period: "M11", value: "5.8", footnotes: [{}] }]);
const dataDir = mkdtempSync(join(tmpdir(), "svc-flood-"));
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(DATABASE_URL|DATA_DIR|PORT|HOST|REDIS_URL|PUBLIC_BASE_URL|PROVISION_)/.test(k)) env[k] = v;
Object.assign(env, fake.env(), { DATA_DIR: dataDir, NODE_ENV: "production", LOG_LEVEL: "error", X402_NETWORKS: "none", LIGHTNING_BACKEND: "none", TRUSTED_PROXIES: "127.0.0.1", JOBS_SUPERVISE_SECONDS: "1", HOME: tmpdir() });

async function cli(argv: string[]): Promise<string> {
  const p = Bun.spawn([process.execPath, "src/cli.ts", ...argv], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`svc ${argv.join(" ")}: ${err || out}`);
  return out.trim();
}

const t0 = performance.now();
const log = (m: string) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);
log(`seeding (${ROOT})`);
await cli(["seed"]);
const newKey = async (plan: string, ...extra: string[]) => (await cli(["keys", "create", "--plan", plan, ...extra])).split("\n")[0]!;
const key = FREE_KEYS > 0 ? await newKey("professional") : await newKey("free", "--rate-limit", "100000");
// Free keys as POST /v1/signup makes them: the free plan's own rate limit.
const freeKeys: string[] = [];
for (let i = 0; i < FREE_KEYS; i++) freeKeys.push(await newKey("free"));
const port = await freePort();
const server = Bun.spawn([process.execPath, "src/cli.ts", "serve"], { cwd: ROOT, env: { ...env, PORT: String(port), HOST: "127.0.0.1" }, stdout: "ignore", stderr: "inherit" });
const base = `http://127.0.0.1:${port}`;
// However this script ends (a failed step throws), the server it started ends with it.
process.on("exit", () => server.kill("SIGKILL"));
for (let i = 0; ; i++) {
  if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
  if (i > 600) throw new Error("server did not start");
  await Bun.sleep(100);
}
let counties: string[] = [];
for (let i = 0; counties.length === 0; i++) {
  const res = await fetch(`${base}/v1/regions?type=county`);
  const body = (await res.json()) as { data?: { code: string }[] };
  if (res.ok && body.data) counties = body.data.map((r) => r.code);
  else if (i > 120) throw new Error(`GET /v1/regions?type=county: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  else await Bun.sleep(500);
}
log(`serving; ${counties.length} counties; flooding for ${DURATION_MS / 1000} s with ${CLIENTS} clients`);

const statuses: Record<string, number> = {};
let next = 0;
let stop = false;
let queueMax = 0;
const queueDepth = async () => {
  const h = (await (await fetch(`${base}/api/health`)).json()) as { jobs?: { queues?: { queue: string; queued: number; active: number }[] } };
  const q = h.jobs?.queues?.find((x) => x.queue === "provision");
  return q ? q.queued + q.active : 0;
};
const floodStart = performance.now();
const upstreamBefore = fake.requests.length;
const flood = Array.from({ length: CLIENTS }, async () => {
  while (!stop) {
    const n = next++;
    const county = counties[n % counties.length]!;
    const mm = MEASURES[Math.floor(n / counties.length) % MEASURES.length]!;
    const ip = FREE_KEYS > 0 ? "10.9.9.9" : `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const headers: Record<string, string> = { "X-Forwarded-For": ip };
    if (FREE_KEYS > 0) headers["X-API-Key"] = freeKeys[n % FREE_KEYS]!;
    try {
      const res = await fetch(`${base}/v1/observations/latest?indicator=LAUCN${mm}&region=${county}`, { headers, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    } catch {
      statuses.none = (statuses.none ?? 0) + 1;
    }
  }
});
const sampler = (async () => {
  while (!stop) {
    queueMax = Math.max(queueMax, await queueDepth().catch(() => 0));
    await Bun.sleep(500);
  }
})();

// The real user, a third of the way in: first request to first answer other than 202 (at most 120 s).
await Bun.sleep(DURATION_MS / 3);
const userStart = performance.now();
let userStatus = 0;
let userWait: number | null = null;
while (performance.now() - userStart < 120_000) {
  const res = await fetch(`${base}/v1/observations/latest?indicator=LAUCN03&region=06037`, { headers: { "X-API-Key": key } });
  await res.arrayBuffer();
  userStatus = res.status;
  if (res.status !== 202) {
    userWait = performance.now() - userStart;
    break;
  }
  await Bun.sleep(250);
}
const remaining = DURATION_MS - (performance.now() - floodStart);
if (remaining > 0) await Bun.sleep(remaining);
stop = true;
await Promise.all([...flood, sampler]);
const floodMs = performance.now() - floodStart;
const upstream = fake.requests.slice(upstreamBefore).filter((r) => r.provider === "bls").length;
const queueEnd = await queueDepth();
server.kill("SIGTERM");
await server.exited;
fake.close();
rmSync(dataDir, { recursive: true, force: true });

const sent = Object.values(statuses).reduce((a, b) => a + b, 0);
const who = FREE_KEYS > 0 ? `${FREE_KEYS} free keys from one address; the user's key Professional` : "each request from another address";
console.log(`\n${FREE_KEYS > 0 ? "free-key" : "anonymous"} flood (${ROOT}): ${CLIENTS} clients, ${(floodMs / 1000).toFixed(0)} s, ${who}\n`);
console.log("| requests | answers by status | provision queue (max / end) | BLS requests upstream (per minute) | keyed user's wait |");
console.log("|---|---|---|---|---|");
console.log(
  `| ${sent} | ${Object.entries(statuses).map(([k, v]) => `${k}: ${v}`).join(", ")} | ${queueMax} / ${queueEnd} | ${upstream} (${((upstream * 60_000) / floodMs).toFixed(0)}) | ${userWait === null ? `no answer but 202 after 120 s` : `${(userWait / 1000).toFixed(1)} s (${userStatus})`} |`,
);
process.exit(0);
