// CPU per keyed page memo hit, in process: the least noisy figure of the keyed page path on a loaded machine (no
// sockets, no load generator). Seeds a temporary data directory, builds the app as `svc serve` does (buildDeps,
// createApp) from each tree given, each on a data directory of its own, and answers the keyed 100-row page (bench/lib/serve-app.ts KEYED_PAGE) one request
// after another through app.fetch, reading each body. Prints the median µs of process CPU per request over several batches, the
// trees interleaved batch by batch so machine load falls on all of them alike.
// `--root DIR` (repeatable) measures the tree at DIR too (a `git worktree add --detach DIR REF` of an older commit,
// with node_modules linked); the working tree is always measured first.
//   bun run bench/memo-hit-cpu.ts [--root /tmp/old] [--batches 15] [--requests 2000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT, median } from "./lib/load";
import { KEYED_PAGE } from "./lib/serve-app";

const { values } = parseArgs({ args: process.argv.slice(2), options: { root: { type: "string", multiple: true }, batches: { type: "string" }, requests: { type: "string" } } });
const batches = Number(values.batches ?? 15);
const perBatch = Number(values.requests ?? 2000);

type Tree = { label: string; key: string; fetch: (req: Request) => Response | Promise<Response>; close(): Promise<void> };

async function cli(root: string, args: string[], env: Record<string, string>): Promise<string> {
  const p = Bun.spawn([process.execPath, "src/cli.ts", ...args], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${root}: ${args.join(" ")} exited ${code}: ${err || out}`);
  return out.trim();
}

/** The tree at `root` on a data directory of its own, seeded by its own CLI, with a key no run exhausts. */
async function build(root: string): Promise<Tree> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-memo-hit-cpu-"));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !["DATABASE_URL", "REDIS_URL", "SMTP_URL", "METRICS_TOKEN"].includes(k)) env[k] = v;
  Object.assign(env, { LOG_LEVEL: "warn", DATA_DIR: dataDir });
  console.error(`${root}: seeding ${dataDir}`);
  await cli(root, ["seed"], env);
  const key = (await cli(root, ["keys", "create", "--plan", "free", "--rate-limit", "2000000000"], env)).split("\n")[0]!;
  const { loadConfig } = await import(join(root, "src/config"));
  const { buildDeps } = await import(join(root, "src/bootstrap"));
  const { createApp } = await import(join(root, "src/app"));
  const deps = await buildDeps(loadConfig(env));
  await deps.keys.cache.ready(5000);
  const app = createApp(deps);
  return {
    label: root,
    key,
    fetch: (req) => app.fetch(req),
    close: async () => (await deps.keys.close(), await deps.database.close(), rmSync(dataDir, { recursive: true, force: true })),
  };
}

const request = (key: string) => new Request(`http://127.0.0.1:8080${KEYED_PAGE}`, { headers: { authorization: `Bearer ${key}` } });

/** µs of process CPU (user + system) per request: wall time would count what other processes take of the cores. */
async function batch(tree: Tree, n: number): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await tree.fetch(request(tree.key));
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${tree.label}: ${res.status}`);
  }
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / n;
}

const trees: Tree[] = [];
for (const root of [REPO_ROOT, ...(values.root ?? []).map((r) => resolve(r))]) {
  const tree = await build(root);
  await batch(tree, 500); // cold read, then memo hits; the JIT warms up
  trees.push(tree);
}
const samples = trees.map(() => [] as number[]);
for (let b = 0; b < batches; b++) for (const [i, tree] of trees.entries()) samples[i]!.push(await batch(tree, perBatch));

const { readFileSync } = await import("node:fs");
console.log(`${KEYED_PAGE}, keyed, ${batches} batches x ${perBatch} sequential app.fetch; load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
for (const [i, tree] of trees.entries()) {
  const s = samples[i]!.slice().sort((a, b) => a - b);
  // The lower quartile as well: on a loaded machine the other processes' share inflates the upper half of the batches.
  console.log(`${tree.label}: median ${median(s).toFixed(1)} µs CPU/request (lower quartile ${s[Math.floor(s.length / 4)]!.toFixed(1)}, min ${s[0]!.toFixed(1)}, max ${s.at(-1)!.toFixed(1)})`);
}
for (const tree of trees) await tree.close();
