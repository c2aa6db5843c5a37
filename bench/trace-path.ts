// How long the way through the house is: the source files and function calls of our own code (src/, db/,
// payments/) that one request runs, for a keyed cold read (a page neither the page memo nor the series cache holds)
// and a page memo hit of the same URL, and an MCP tools/call of get_observations for that page. Every function of those files is counted by instrumenting its source as it
// is loaded (a Bun plugin: the TypeScript is transpiled by Bun, each function body gets a counter call at its start,
// found with @babel/parser), so closures, methods and arrow functions all count; only the request's own thread is
// counted (the embedded database runs on a thread of its own), and only while the request is answered and its body read.
// The app is built as `svc serve` builds it (buildDeps, createApp) on a copy of one freshly seeded data directory; one-time work
// (the OpenAPI document, the catalog, the key cache) is done first by a warm-up on another series.
// With `--ref REF` (repeatable) the same is traced for that git ref (a temporary git worktree) and printed beside.
// --verbose lists the calls per file, and per function for the memo hit and the MCP call.
//   bun run bench/trace-path.ts [--ref main] [--verbose]
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "./lib/load";
import { checkoutRef } from "./lib/ref-tree";
import { KEYED_PAGE } from "./lib/serve-app";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { ref: { type: "string", multiple: true }, child: { type: "string" }, data: { type: "string" }, key: { type: "string" }, verbose: { type: "boolean" } },
});

/** The warm-up: another series' page, twice (cold, then a memo hit), so that what happens once per process is done. */
const WARM_UP = "/v1/observations?indicator=PAYEMS&region=US&limit=100";

type Trace = { files: number; calls: number; functions: number; perFile: Record<string, number>; perFunction: Record<string, number> };
type Traced = { cold: Trace; hit: Trace; tool: Trace };

if (values.child) {
  console.log(JSON.stringify(await traceTree(values.child, values.data!, values.key!)));
  process.exit(0);
}

// One seeded data directory (this tree's CLI) and key, copied for each tree: seeding is most of a run's time.
const seeded = mkdtempSync(join(tmpdir(), "svc-trace-path-"));
console.error(`seeding ${seeded}`);
await cli(REPO_ROOT, ["seed"], envFor(seeded));
const key = (await cli(REPO_ROOT, ["keys", "create", "--plan", "free", "--rate-limit", "2000000000"], envFor(seeded))).split("\n")[0]!;

const trees: { label: string; root: string; remove?: () => void }[] = [{ label: "this tree", root: REPO_ROOT }];
for (const ref of values.ref ?? []) {
  const t = await checkoutRef(ref);
  trees.push({ label: ref, root: t.root, remove: t.remove });
}
const results: Traced[] = [];
try {
  // Each tree in a process of its own: its modules are instrumented as they load, and nothing else is.
  for (const t of trees) {
    const argv = [process.execPath, join(REPO_ROOT, "bench/trace-path.ts"), "--child", t.root, "--data", seeded, "--key", key];
    const p = Bun.spawn(argv, { cwd: REPO_ROOT, stdout: "pipe", stderr: "inherit" });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    if (code !== 0) throw new Error(`${t.label}: trace exited ${code}`);
    results.push(JSON.parse(out.trim().split("\n").at(-1)!) as Traced);
  }
} finally {
  for (const t of trees) t.remove?.();
  rmSync(seeded, { recursive: true, force: true });
}

console.log(`\n${KEYED_PAGE}, keyed; our code only (src/, db/, payments/), the request's thread`);
console.log(["".padEnd(26), ...trees.map((t) => t.label.padEnd(30))].join(""));
const row = (name: string, f: (r: Traced) => string) => console.log([name.padEnd(26), ...results.map((r) => f(r).padEnd(30))].join(""));
row("cold read: files", (r) => String(r.cold.files));
row("cold read: calls", (r) => `${r.cold.calls} (${r.cold.functions} functions)`);
row("memo hit: files", (r) => String(r.hit.files));
row("memo hit: calls", (r) => `${r.hit.calls} (${r.hit.functions} functions)`);
row("MCP tool call: files", (r) => String(r.tool.files));
row("MCP tool call: calls", (r) => `${r.tool.calls} (${r.tool.functions} functions)`);
if (values.verbose) {
  results.forEach((r, k) => {
    for (const [what, t] of [["cold read", r.cold], ["memo hit", r.hit], ["MCP tool call", r.tool]] as const) {
      console.log(`\n${trees[k]!.label}, ${what}:`);
      for (const [file, n] of Object.entries(t.perFile).sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${file}`);
      if (what !== "cold read") for (const [fn, n] of Object.entries(t.perFunction)) console.log(`        ${String(n).padStart(3)}  ${fn}`);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The child: instrument, build, trace.

/** The environment of a tree's app and CLI on `dataDir`. */
function envFor(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !["DATABASE_URL", "REDIS_URL", "SMTP_URL", "METRICS_TOKEN", "PAGE_MEMO"].includes(k)) env[k] = v;
  return { ...env, LOG_LEVEL: "warn", DATA_DIR: dataDir };
}

async function traceTree(root: string, seeded: string, key: string): Promise<Traced> {
  const counter = instrument(root);
  const dataDir = mkdtempSync(join(tmpdir(), "svc-trace-path-tree-"));
  cpSync(seeded, dataDir, { recursive: true });
  const env = envFor(dataDir);
  try {
    const { loadConfig } = await import(join(root, "src/config"));
    const { buildDeps } = await import(join(root, "src/bootstrap"));
    const { createApp } = await import(join(root, "src/app"));
    const deps = await buildDeps(loadConfig(env));
    await deps.keys.cache.ready(5000);
    const app = createApp(deps);
    const get = async (path: string) => {
      const res = await app.fetch(new Request(`http://127.0.0.1:8080${path}`, { headers: { authorization: `Bearer ${key}` } }));
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    };
    await get(WARM_UP);
    await get(WARM_UP);
    const cold = await counter.during(() => get(KEYED_PAGE));
    const hit = await counter.during(() => get(KEYED_PAGE));
    // An MCP tools/call of get_observations for the same page (the SDK loaded and the page remembered by a first call).
    const mcp = async () => {
      const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_observations", arguments: { ...Object.fromEntries(new URL(KEYED_PAGE, "http://x").searchParams), limit: 100 } } };
      const res = await app.fetch(
        new Request("http://127.0.0.1:8080/api/mcp", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify(body),
        }),
      );
      const answer = (await res.json()) as { result?: { isError?: boolean } };
      if (res.status !== 200 || !answer.result || answer.result.isError) throw new Error(`MCP get_observations: ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
    };
    await mcp();
    const tool = await counter.during(mcp);
    await deps.keys.close();
    await deps.database.close();
    return { cold, hit, tool };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function cli(root: string, args: string[], env: Record<string, string>): Promise<string> {
  const p = Bun.spawn([process.execPath, "src/cli.ts", ...args], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${root}: ${args.join(" ")} exited ${code}: ${err || out}`);
  return out.trim();
}

type Counter = { during(fn: () => Promise<void>): Promise<Trace> };

/** Registers the plugin that instruments every function of `root`'s own source files as they load. */
function instrument(root: string): Counter {
  const { parse } = require("@babel/parser") as typeof import("@babel/parser");
  const names: { file: string; fn: string }[] = [];
  let counts: Uint32Array | null = null;
  const tick = (id: number) => {
    if (counts) counts[id]!++;
  };
  (globalThis as Record<string, unknown>).__tracePathTick = tick;
  const transpiler = new Bun.Transpiler({ loader: "ts", target: "bun" });
  const ours = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/(src|db|payments)/(?!.*node_modules).*\\.ts$`);
  Bun.plugin({
    name: "trace-path",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        const text = await Bun.file(path).text();
        // A file that imports a macro is left as it is (the transpiler here cannot run macros): it is not counted.
        if (!ours.test(path) || text.includes('type: "macro"')) return { contents: text, loader: "ts" };
        const js = transpiler.transformSync(text);
        return { contents: instrumentJs(js, relative(root, path), parse, names), loader: "js" };
      });
    },
  });
  return {
    async during(fn) {
      counts = new Uint32Array(names.length + 1_000_000);
      const mine = counts;
      try {
        await fn();
      } finally {
        counts = null;
      }
      const perFile: Record<string, number> = {};
      const perFunction: Record<string, number> = {};
      let calls = 0;
      let functions = 0;
      names.forEach((n, id) => {
        const c = mine[id]!;
        if (c === 0) return;
        calls += c;
        functions++;
        perFile[n.file] = (perFile[n.file] ?? 0) + c;
        perFunction[`${n.file} ${n.fn}`] = c;
      });
      return { files: Object.keys(perFile).length, calls, functions, perFile, perFunction };
    },
  };
}

type Node = { type: string; start: number; end: number; [k: string]: any };

/** `js` with a counter call at the start of every function body (an expression body becomes `(tick, expr)`). */
function instrumentJs(js: string, file: string, parse: typeof import("@babel/parser").parse, names: { file: string; fn: string }[]): string {
  const ast = parse(js, { sourceType: "module", plugins: [] }) as unknown as Node;
  const inserts: { at: number; text: string }[] = [];
  const visit = (node: Node, parent: Node | null) => {
    if (/Function|Method/.test(node.type) && node.body) {
      const id = names.length;
      names.push({ file, fn: functionName(node, parent) });
      if (node.body.type === "BlockStatement") inserts.push({ at: node.body.start + 1, text: `__tracePathTick(${id});` });
      else inserts.push({ at: node.body.start, text: `(__tracePathTick(${id}), ` }, { at: node.body.end, text: ")" });
    }
    for (const k of Object.keys(node)) {
      if (k === "loc" || k === "extra" || k === "leadingComments" || k === "trailingComments") continue;
      const v = node[k];
      if (Array.isArray(v)) for (const c of v) c && typeof c.type === "string" && visit(c, node);
      else if (v && typeof v.type === "string") visit(v, node);
    }
  };
  visit(ast, null);
  inserts.sort((a, b) => b.at - a.at);
  let out = js;
  for (const i of inserts) out = out.slice(0, i.at) + i.text + out.slice(i.at);
  return out;
}

function functionName(node: Node, parent: Node | null): string {
  if (node.id?.name) return node.id.name;
  if (node.key?.name) return node.key.name;
  if (parent?.type === "VariableDeclarator" && parent.id?.name) return parent.id.name;
  if (parent?.type === "ObjectProperty" && parent.key?.name) return parent.key.name;
  return `<anonymous>@${node.start}`;
}
