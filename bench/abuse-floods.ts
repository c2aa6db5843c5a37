// Two abuse floods against a real `svc serve` on the embedded database (connectors pointed at the fake upstream,
// test/support/fake-upstream.ts; the development Lightning backend, the default):
// - challenges: anonymous requests for held data, every one answered 402 with an L402 challenge; reports the files and
//   bytes under DATA_DIR/lightning-dev before and after (before the fix every challenge left an invoice file);
// - addresses: strangers asking for series not held (BLS LAUS counties), each request from another client address (a
//   trusted proxy's X-Forwarded-For); reports the server's RSS sampled every 5 s (before the fix the per-address
//   provisioning counters were never pruned).
//   bun bench/abuse-floods.ts [--root /work/main] [--duration 60] [--clients 16] [--case challenges|addresses|both]
// --root runs the server from another checkout (the code before a change) with the same load.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FakeUpstream } from "../test/support/fake-upstream";
import { REPO_ROOT, freePort, rssMb } from "./lib/load";

const { values: args } = parseArgs({
  options: {
    root: { type: "string" },
    duration: { type: "string" },
    clients: { type: "string" },
    case: { type: "string" },
  },
});
const ROOT = args.root ?? REPO_ROOT;
const DURATION_MS = Number(args.duration ?? 60) * 1000;
const CLIENTS = Number(args.clients ?? 16);
const CASES = args.case === "challenges" || args.case === "addresses" ? [args.case] : ["challenges", "addresses"];

const fake = await FakeUpstream.start();
const dataDir = mkdtempSync(join(tmpdir(), "svc-abuse-"));
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env))
  if (
    v !== undefined &&
    !/^(DATABASE_URL|DATA_DIR|PORT|HOST|REDIS_URL|PUBLIC_BASE_URL|PROVISION_|X402_|L402_|LIGHTNING_)/.test(k)
  )
    env[k] = v;
Object.assign(env, fake.env(), {
  DATA_DIR: dataDir,
  NODE_ENV: "development",
  LOG_LEVEL: "error",
  X402_NETWORKS: "none",
  TRUSTED_PROXIES: "127.0.0.1",
  HOME: tmpdir(),
});

const t0 = performance.now();
const log = (m: string) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const port = await freePort();
log(`starting ${ROOT} (the first start seeds)`);
const server = Bun.spawn([process.execPath, "src/cli.ts", "serve"], {
  cwd: ROOT,
  env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
  stdout: "ignore",
  stderr: "inherit",
});
const base = `http://127.0.0.1:${port}`;
// However this script ends (a failed step throws), the server it started ends with it.
process.on("exit", () => server.kill("SIGKILL"));
const HELD = `${base}/v1/observations?indicator=PAYEMS&region=US`;
for (let i = 0; ; i++) {
  if (
    (await fetch(HELD).then(
      (r) => r.status,
      () => 0,
    )) === 402
  )
    break;
  if (i > 6000) throw new Error("server did not start serving 402s");
  await Bun.sleep(100);
}

/** Files and bytes under `dir` (0 when it does not exist). */
function footprint(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  try {
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      const st = statSync(join(dir, name), { throwIfNoEntry: false });
      if (st?.isFile()) files++, (bytes += st.size);
    }
  } catch {}
  return { files, bytes };
}

/** CLIENTS loops sending `request(n)` until the duration ends; answers by status. */
async function flood(
  request: (n: number) => Promise<Response>,
  during?: () => void,
): Promise<{ sent: number; statuses: Record<string, number>; ms: number }> {
  const statuses: Record<string, number> = {};
  let next = 0;
  const start = performance.now();
  const end = start + DURATION_MS;
  const sampler = during ? setInterval(during, 5000) : null;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        try {
          const res = await request(next++);
          await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        } catch {
          statuses.none = (statuses.none ?? 0) + 1;
        }
      }
    }),
  );
  if (sampler) clearInterval(sampler);
  return { sent: next, statuses, ms: performance.now() - start };
}
const byStatus = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
const mb = (b: number) => (b / 1e6).toFixed(1);
const out: string[] = [];

if (CASES.includes("challenges")) {
  const dir = join(dataDir, "lightning-dev");
  const before = footprint(dir);
  log(`challenge flood: ${DURATION_MS / 1000} s, ${CLIENTS} clients`);
  const r = await flood(() => fetch(HELD, { signal: AbortSignal.timeout(10_000) }));
  const after = footprint(dir);
  out.push(
    `challenge flood (${ROOT}): ${CLIENTS} clients, ${(r.ms / 1000).toFixed(0)} s\n\n| requests | answers by status | lightning-dev before | after | per minute |\n|---|---|---|---|---|\n` +
      `| ${r.sent} | ${byStatus(r.statuses)} | ${before.files} files, ${mb(before.bytes)} MB | ${after.files} files, ${mb(after.bytes)} MB | +${(((after.files - before.files) * 60_000) / r.ms).toFixed(0)} files |`,
  );
}

if (CASES.includes("addresses")) {
  const counties = (
    (await (await fetch(`${base}/v1/regions?type=county`)).json()) as { data: { code: string }[] }
  ).data.map((x) => x.code);
  const measures = ["03", "04", "05", "06"];
  const rss: number[] = [rssMb(server.pid)];
  log(`rotating-address flood: ${DURATION_MS / 1000} s, ${CLIENTS} clients, RSS ${rss[0]!.toFixed(0)} MB`);
  const r = await flood(
    (n) => {
      const county = counties[n % counties.length]!;
      const mm = measures[Math.floor(n / counties.length) % measures.length]!;
      const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      return fetch(`${base}/v1/observations/latest?indicator=LAUCN${mm}&region=${county}`, {
        headers: { "X-Forwarded-For": ip },
        signal: AbortSignal.timeout(10_000),
      });
    },
    () => rss.push(rssMb(server.pid)),
  );
  rss.push(rssMb(server.pid));
  out.push(
    `rotating-address flood (${ROOT}): ${CLIENTS} clients, ${(r.ms / 1000).toFixed(0)} s, each request from another address\n\n| requests (addresses) | answers by status | RSS start | RSS max | RSS end | RSS every 5 s (MB) |\n|---|---|---|---|---|---|\n` +
      `| ${r.sent} | ${byStatus(r.statuses)} | ${rss[0]!.toFixed(0)} MB | ${Math.max(...rss).toFixed(0)} MB | ${rss.at(-1)!.toFixed(0)} MB | ${rss.map((x) => x.toFixed(0)).join(" ")} |`,
  );
}

server.kill("SIGTERM");
await server.exited;
fake.close();
rmSync(dataDir, { recursive: true, force: true });
console.log(`\n${out.join("\n\n")}`);
process.exit(0);
