// The plain measurement of the one request path: the service as `bun start` runs it (`svc serve` on PGlite, job engine and
// billing included, nothing pinned: server and load generator share the machine's CPUs), with wrk at 64
// connections on the keyed 100-row observations page, next to a bare Bun.serve answering the same bytes in the same
// run. Beside it, the app as bench/observations.ts serves it (no job engine, no billing): keyed, and unkeyed (built
// without the access layer), unpinned too, so the difference between the two figures is the process, not the pinning.
// With `--ref REF` (repeatable) the same runs are made for that git ref (a temporary `git worktree`) and printed side
// by side, each round alternating which tree goes first; `--refs-only` leaves out the working tree.
// --pin places the servers on one CPU and wrk on the other (bench/observations.ts's placement).
// --metrics sets METRICS_TOKEN and reports the share of the load the page memo answered (svc serve).
// --variant "app keyed" (repeatable) runs only the variants named; --copy-seed seeds once (the first tree) for all.
//   bun run bench/one-path.ts [--ref main] [--metrics] [--duration 10] [--rounds 1] [--connections 64] [--variant "app keyed"]
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CPUS, REPO_ROOT, freePort, runLoad, median } from "./lib/load";
import { checkoutRef } from "./lib/ref-tree";
import { KEYED_PAGE } from "./lib/serve-app";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    ref: { type: "string", multiple: true }, "refs-only": { type: "boolean" }, metrics: { type: "boolean" }, pin: { type: "boolean" }, duration: { type: "string" }, rounds: { type: "string" },
    connections: { type: "string" }, variant: { type: "string", multiple: true }, "copy-seed": { type: "boolean" },
  },
});
const durationSec = Number(values.duration ?? 10);
const rounds = Number(values.rounds ?? 1);
const connections = Number(values.connections ?? 64);
const METRICS_TOKEN = "one-path-bench-metrics-token";

type Tree = { label: string; root: string; env: Record<string, string>; key: string; cleanup(): void };
type Variant = "serve keyed" | "app keyed" | "app unkeyed";
const ALL_VARIANTS: Variant[] = ["serve keyed", "app keyed", "app unkeyed"];
const unknownVariant = (values.variant ?? []).find((v) => !ALL_VARIANTS.includes(v as Variant));
if (unknownVariant) throw new Error(`--variant ${unknownVariant}: one of ${ALL_VARIANTS.map((v) => JSON.stringify(v)).join(", ")}`);
// --variant (repeatable) runs only those, to keep a run short.
const VARIANTS: Variant[] = values.variant?.length ? (values.variant as Variant[]) : ALL_VARIANTS;

function baseEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !["DATABASE_URL", "DATA_DIR", "PORT", "HOST", "REDIS_URL", "SMTP_URL", "PUBLIC_BASE_URL"].includes(k)) env[k] = v;
  // /metrics counts every answer, which costs a little: on only with --metrics (memo hit share reported then).
  return { ...env, LOG_LEVEL: "warn", DATA_DIR: dataDir, ...(values.metrics ? { METRICS_TOKEN } : {}) };
}

async function run(cmd: string[], cwd: string, env: Record<string, string>): Promise<string> {
  const p = Bun.spawn(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${err || out}`);
  return out.trim();
}

/** A tree (this one, or a worktree of `ref`) with a seeded data directory and a key no run exhausts. */
async function prepare(label: string, ref: string | null, seeded: { dataDir: string; key: string } | null): Promise<Tree> {
  const tree = ref ? await checkoutRef(ref) : null;
  const root = tree?.root ?? REPO_ROOT;
  const removeTree = () => tree?.remove();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-one-path-data-"));
  const env = baseEnv(dataDir);
  const cleanup = () => (rmSync(dataDir, { recursive: true, force: true }), removeTree());
  if (seeded) {
    console.error(`${label}: a copy of ${seeded.dataDir}`);
    cpSync(seeded.dataDir, dataDir, { recursive: true });
    return { label, root, env, key: seeded.key, cleanup };
  }
  console.error(`${label}: seeding ${dataDir}`);
  await run([process.execPath, "src/cli.ts", "seed"], root, env);
  // The signals over what `svc seed` wrote, detected now: else the first `svc serve` measured detects them (its job
  // engine's first work, some 16 s of CPU) while it is under load, and measures that instead of the request path.
  await run([process.execPath, "src/cli.ts", "signals", "detect"], root, env);
  const key = (await run([process.execPath, "src/cli.ts", "keys", "create", "--plan", "free", "--rate-limit", "2000000000"], root, env)).split("\n")[0]!;
  return { label, root, env, key, cleanup };
}

type Proc = { base: string; proc: ReturnType<typeof Bun.spawn>; stop(): Promise<void> };

/** --pin: servers on one CPU, wrk on the other, as bench/observations.ts runs them. */
const pin = values.pin && CPUS.server ? { server: CPUS.server, load: CPUS.load } : null;

async function start(argv: string[], cwd: string, env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const cmd = pin ? ["taskset", "-c", pin.server, ...argv] : argv;
  const proc = Bun.spawn(cmd, { cwd, env: { ...env, PORT: String(port), HOST: "127.0.0.1" }, stdout: "ignore", stderr: "inherit" });
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = performance.now() + 120_000; ; ) {
    if (proc.exitCode !== null || performance.now() > deadline) throw new Error(`${cmd.join(" ")}: not ready`);
    const ok = await fetch(`${base}/api/health`).then((r) => r.arrayBuffer().then(() => r.status === 200), () => false);
    // `svc serve` answers health while it opens the database: wait for the data routes.
    if (ok && (await fetch(`${base}/v1/indicators?limit=1`).then((r) => r.arrayBuffer().then(() => r.status === 200), () => false))) break;
    await Bun.sleep(200);
  }
  return { base, proc, stop: async () => (proc.kill("SIGTERM"), void (await proc.exited)) };
}

function serverOf(tree: Tree, v: Variant): Promise<Proc> {
  if (v === "serve keyed") return start([process.execPath, "src/cli.ts", "serve"], tree.root, tree.env);
  return start([process.execPath, "bench/observations.ts", "--serve", v === "app keyed" ? "keyed" : "bare"], tree.root, tree.env);
}

/** Page-memo hits counted by the server's /metrics (0 when the tree has no such counter). */
async function memoHits(base: string): Promise<number> {
  const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text(), () => "");
  const m = /svc_cache_lookups_total\{cache="page_memo",result="hit"\}\s+(\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
}

type Measured = { rps: number; bare: number; memoShare: number | null };

async function measure(tree: Tree, v: Variant): Promise<Measured> {
  const server = await serverOf(tree, v);
  const headers: Record<string, string> = v === "app unkeyed" ? {} : { authorization: `Bearer ${tree.key}` };
  try {
    const res = await fetch(server.base + KEYED_PAGE, { headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${tree.label} ${v}: ${res.status} ${body.slice(0, 200)}`);
    const bare = await start([process.execPath, join(REPO_ROOT, "bench/lib/baseline-server.ts")], REPO_ROOT, { BASELINE_BODY: body, BASELINE_CONTENT_TYPE: res.headers.get("content-type") ?? "application/json" });
    try {
      const load = { connections, durationSec, cpu: pin?.load ?? null, headers };
      await runLoad(server.base + KEYED_PAGE, { ...load, durationSec: 2 });
      const hits0 = await memoHits(server.base);
      const served = await runLoad(server.base + KEYED_PAGE, load);
      const hits = (await memoHits(server.base)) - hits0;
      const baseline = await runLoad(bare.base + KEYED_PAGE, load);
      if (served.errors) throw new Error(`${tree.label} ${v}: ${served.errors} errors`);
      const memoShare = v === "serve keyed" && values.metrics ? hits / served.requests : null;
      return { rps: served.rps, bare: baseline.rps, memoShare };
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
  }
}

// --copy-seed: every tree starts from a copy of the first tree's seeded data directory (trees of one schema), which
// saves a seed per ref: most of a short run's time.
const trees: Tree[] = [];
for (const [label, ref] of [...(values["refs-only"] ? [] : [["this tree", null] as const]), ...(values.ref ?? []).map((r) => [r, r] as const)]) {
  const first = trees[0];
  trees.push(await prepare(label, ref, values["copy-seed"] && first ? { dataDir: first.env.DATA_DIR!, key: first.key } : null));
}
const results = new Map<string, Measured[]>();
try {
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...trees].reverse() : trees;
    for (const v of VARIANTS) {
      for (const tree of order) {
        const m = await measure(tree, v);
        const k = `${tree.label}\t${v}`;
        results.set(k, [...(results.get(k) ?? []), m]);
        console.error(`${k}: ${m.rps.toFixed(0)} req/s, bare ${m.bare.toFixed(0)}, ratio ${(m.rps / m.bare).toFixed(2)}${m.memoShare === null ? "" : `, memo answered ${(100 * m.memoShare).toFixed(0)}%`} (load ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")})`);
      }
    }
  }
} finally {
  for (const t of trees) t.cleanup();
}

console.log(`\n${KEYED_PAGE}, wrk -c${connections} ${durationSec}s, ${rounds} round(s), ${pin ? "pinned" : "nothing pinned"}; ratio = req/s / bare Bun.serve (same bytes, same run)`);
console.log(["variant".padEnd(14), ...trees.map((t) => t.label.padEnd(28))].join(""));
for (const v of VARIANTS) {
  const cells = trees.map((t) => {
    const ms = results.get(`${t.label}\t${v}`) ?? [];
    const ratio = median(ms.map((m) => m.rps / m.bare));
    return `${ratio.toFixed(2)} (${median(ms.map((m) => m.rps)).toFixed(0)} req/s)`.padEnd(28);
  });
  console.log([v.padEnd(14), ...cells].join(""));
}
