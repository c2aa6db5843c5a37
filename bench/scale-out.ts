// Scale-out: the keyed 100-row page on PostgreSQL, counted in the server's own process, counted in Redis, and served
// by two nodes sharing that database and Redis, each loaded at the same time (their sum is the figure). Interleaved
// rounds, each case on the server CPU in turn (the two nodes share it, as two nodes on one machine would). Beside
// requests/s, each case's server CPU time per request (from /proc): on a shared machine it moves less than
// requests/s, and it says where a gap comes from.
// The issue's bar: with Redis, at least 70% of the requests/s without it (median of the per-round ratios).
// `--ref REF` (repeatable) serves the single-node cases from REF too (a temporary worktree), in the same rounds, the
// trees' order alternating: how a change is measured against the commit before it. `--together` runs each tree's
// in-process and Redis nodes at once on the server CPU, half the connections each (as bench/keys.ts --together): on a
// shared machine whose speed drifts between runs, both figures of a ratio then meet it in the same state.
//   bun run bench/scale-out.ts [--connections 64] [--duration 6] [--rounds 3] [--redis redis://127.0.0.1:6379] [--ref main] [--together]
// Internal: `bun bench/scale-out.ts --serve keyed` is the server process this script starts.
import { availableParallelism } from "node:os";
import {
  CPUS,
  REPO_ROOT,
  loadTool,
  median,
  medianResult,
  parseBenchArgs,
  printTable,
  runLoad,
  type LoadResult,
  type Row,
} from "./lib/load";
import { checkoutRef, type RefTree } from "./lib/ref-tree";
import {
  KEYED_PAGE,
  benchDatabase,
  cpuSeconds,
  seedWithKey,
  serveAppForBench,
  startAppServer,
  type AppServer,
} from "./lib/serve-app";

const PAGE = KEYED_PAGE;
const BAR = 0.7;

type Tree = { label: string; root: string };
type Case = { name: string; tree: Tree; counting: "process" | "redis"; nodes: number; row: Row; cpuUs: number[] };

if (process.argv[2] === "--serve") {
  await serveAppForBench(process.argv[3]);
} else {
  await main();
}

/** `--redis URL`, `--ref REF` (repeatable) and `--together` taken out of argv; the rest is for parseBenchArgs. */
function ownArgs(argv: string[]): { redisUrl: string; refs: string[]; together: boolean; rest: string[] } {
  let redisUrl = "redis://127.0.0.1:6379";
  let together = false;
  const refs: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--redis") redisUrl = argv[++i]!;
    else if (argv[i] === "--ref") refs.push(argv[++i]!);
    else if (argv[i] === "--together") together = true;
    else rest.push(argv[i]!);
  }
  return { redisUrl, refs, together, rest };
}

async function main() {
  const { redisUrl, refs, together, rest } = ownArgs(process.argv.slice(2));
  const opts = parseBenchArgs(rest, { connections: 64, durationSec: 6, rounds: 3, db: "postgres" });
  const tool = await loadTool(opts.tool);
  const checkedOut: RefTree[] = [];
  const { env, label: database, cleanup } = await benchDatabase(opts, "scaleout");
  try {
    const trees: Tree[] = [{ label: "this tree", root: REPO_ROOT }];
    for (const ref of refs) {
      const tree = await checkoutRef(ref);
      checkedOut.push(tree);
      trees.push({ label: ref, root: tree.root });
    }
    const key = await seedWithKey(env, database);
    const headers = { "X-API-Key": key };
    const withRedis = { ...env, REDIS_URL: redisUrl };
    const newCase = (tree: Tree, counting: Case["counting"], nodes: number, what: string): Case => {
      const name = trees.length > 1 ? `${tree.label}: ${what}` : what;
      return {
        name,
        tree,
        counting,
        nodes,
        row: { name, path: PAGE, target: "service", runs: [], median: null },
        cpuUs: [],
      };
    };
    const perTree = trees.map(
      (tree) =>
        [
          newCase(tree, "process", 1, `PostgreSQL, counted in process: GET ${PAGE}`),
          newCase(tree, "redis", 1, "PostgreSQL + Redis, one node"),
        ] as const,
    );
    const twoNodes = newCase(trees[0]!, "redis", 2, "PostgreSQL + Redis, two nodes at once (sum)");
    perTree[0]![0].row.target = "baseline";

    /** Runs the cases of `group` at once on the server CPU, the connections split evenly between all their nodes. */
    const measure = async (group: readonly Case[], round: number): Promise<void> => {
      const servers: { c: Case; s: AppServer }[] = [];
      try {
        for (const c of group)
          for (let n = 0; n < c.nodes; n++)
            servers.push({
              c,
              s: await startAppServer(
                "bench/scale-out.ts",
                "keyed",
                c.counting === "redis" ? withRedis : env,
                c.tree.root,
              ),
            });
        for (const { c, s } of servers) {
          const check = await fetch(s.baseUrl + PAGE, { headers });
          if (check.status !== 200) throw new Error(`${c.name}: ${check.status} ${(await check.text()).slice(0, 200)}`);
        }
        const connections = Math.max(1, Math.floor(opts.connections / servers.length));
        const load = { connections, durationSec: opts.durationSec, threads: opts.threads, tool, headers };
        if (opts.warmupSec > 0)
          await Promise.all(
            servers.map(({ s }) => runLoad(s.baseUrl + PAGE, { ...load, durationSec: opts.warmupSec })),
          );
        const cpuBefore = servers.map(({ s }) => cpuSeconds(s.pid));
        const results = await Promise.all(servers.map(({ s }) => runLoad(s.baseUrl + PAGE, load, s.pid)));
        const cpu = servers.map(({ s }, i) => cpuSeconds(s.pid) - cpuBefore[i]!);
        const loadavg = await loadAverage();
        for (const c of group) {
          const mine = servers.flatMap((x, i) => (x.c === c ? [i] : []));
          const sum = combined(mine.map((i) => results[i]!));
          const cpuOf = mine.reduce((a, i) => a + cpu[i]!, 0);
          c.row.runs.push(sum);
          if (Number.isFinite(cpuOf) && sum.requests > 0) c.cpuUs.push((cpuOf * 1e6) / sum.requests);
          const each = mine.length > 1 ? ` (${mine.map((i) => Math.round(results[i]!.rps)).join(" + ")})` : "";
          const at = group.length > 1 ? ", together" : "";
          console.error(
            `round ${round}/${opts.rounds}${at} ${c.name}: ${Math.round(sum.rps)} req/s${each}, p50 ${sum.p50Ms} ms, p99 ${sum.p99Ms} ms, errors ${sum.errors}, server CPU ${c.cpuUs.at(-1)?.toFixed(0) ?? "?"} us/request (load average ${loadavg})`,
          );
        }
      } finally {
        for (const { s } of servers) await s.stop();
      }
    };

    for (let round = 1; round <= opts.rounds; round++) {
      const order = round % 2 ? perTree : [...perTree].reverse();
      // Apart: in process, then Redis, each tree in turn, so the two figures of a ratio are measured minutes apart at
      // most. Together: each tree's two nodes at once, so both figures come from the same seconds.
      const groups: (readonly Case[])[] = together
        ? order.map((t) => [...t])
        : [...order.map((t) => [t[0]]), ...order.map((t) => [t[1]])];
      for (const group of [...groups, [twoNodes]]) await measure(group, round);
    }
    const all = [...perTree.flat(), twoNodes];
    for (const c of all) c.row.median = medianResult(c.row.runs);
    const pin = CPUS.server ? `servers on CPU ${CPUS.server}, load generator on CPU ${CPUS.load}` : "no CPU pinning";
    printTable(
      "scale-out: exact rate limits shared through Redis",
      all.map((c) => c.row),
      `${tool}, ${opts.connections} connections in all, ${opts.durationSec} s per run after ${opts.warmupSec} s warm-up, ${opts.rounds} interleaved round(s) (median)${together ? ", each tree's two single nodes together, sharing the server CPU" : ""}, ${pin}, ${availableParallelism()} CPUs; database ${database}; Redis ${redisUrl}; load average at the end ${await loadAverage()}`,
    );
    console.log("server CPU per request (median of rounds):");
    for (const c of all) console.log(`  ${c.name}: ${median(c.cpuUs).toFixed(0)} us`);
    for (const [t, [inProcess, redis]] of perTree.entries()) {
      const label = trees.length > 1 ? `${trees[t]!.label}: ` : "";
      const ratios = redis.row.runs.map((r, i) => r.rps / inProcess.row.runs[i]!.rps);
      const ratio = median(ratios);
      console.log(`${label}per-round Redis / in process: ${ratios.map((x) => `${(x * 100).toFixed(1)}%`).join(", ")}`);
      const verdict = t === 0 ? ` (bar: at least ${BAR * 100}%) -> ${ratio >= BAR ? "PASS" : "FAIL"}` : "";
      console.log(
        `${label}Redis / in-process requests/s (median of per-round ratios): ${(ratio * 100).toFixed(1)}%${verdict}`,
      );
      console.log(
        `${label}server CPU per request, in process / Redis: ${((median(inProcess.cpuUs) / median(redis.cpuUs)) * 100).toFixed(1)}%`,
      );
    }
  } finally {
    await cleanup();
    for (const tree of checkedOut) tree.remove();
  }
}

async function loadAverage(): Promise<string> {
  const text = await Bun.file("/proc/loadavg")
    .text()
    .catch(() => "? ? ?");
  return text.split(" ").slice(0, 3).join(" ");
}

/** Two nodes loaded at once as one figure: requests/s and errors add up; latencies are the slower node's. */
function combined(results: LoadResult[]): LoadResult {
  if (results.length === 1) return results[0]!;
  const out = { ...results[0]! };
  out.rps = results.reduce((a, r) => a + r.rps, 0);
  out.requests = results.reduce((a, r) => a + r.requests, 0);
  out.errors = results.reduce((a, r) => a + r.errors, 0);
  out.p50Ms = Math.max(...results.map((r) => r.p50Ms));
  out.p99Ms = Math.max(...results.map((r) => r.p99Ms));
  return out;
}
