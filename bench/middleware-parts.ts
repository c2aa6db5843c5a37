// What each custom HTTP piece saves over Hono's own, per request, in process (no sockets; process CPU time, so what
// other processes take of the cores is not counted). The figures decide which pieces stay (PERFORMANCE.md): one stays
// only where Hono's part costs more than about 5% of a keyed page memo hit (bench/memo-hit-cpu.ts: about 20 µs).
//   bun run bench/middleware-parts.ts [--requests 100000] [--rounds 5]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { parseAccept } from "hono/utils/accept";
import { TrieRouter } from "hono/router/trie-router";
import { SmartRouter } from "hono/router/smart-router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { inOrder } from "../src/http/checks";
import { publicCors } from "../src/http/answer-headers";
import { observationsQuerySchema } from "../src/schemas/observations";
import { BoundedCache } from "../src/services/bounded-cache";
import { REPO_ROOT, median } from "./lib/load";
import { KEYED_PAGE } from "./lib/serve-app";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { requests: { type: "string" }, rounds: { type: "string" } },
});
const N = Number(values.requests ?? 100_000);
const ROUNDS = Number(values.rounds ?? 5);

/** Median µs of process CPU per call of `fn` over ROUNDS rounds of N calls. */
async function cpuPerCall(fn: () => unknown | Promise<unknown>): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      const out = fn();
      if (out instanceof Promise) await out;
    }
    const used = process.cpuUsage(t0);
    rounds.push((used.user + used.system) / N);
  }
  return median(rounds);
}

const rows: [string, number][] = [];
const record = (name: string, us: number) => {
  rows.push([name, us]);
  console.error(`${name}: ${us.toFixed(3)} µs`);
};

// 1. One more middleware layer in Hono's chain (a pass-through that sets one header).
const body = JSON.stringify({ data: Array.from({ length: 100 }, (_, i) => ({ date: `2020-01-${i}`, value: i })) });
function appWith(middleware: MiddlewareHandler[]): Hono {
  const app = new Hono();
  for (const m of middleware) app.use("*", m);
  app.get("/v1/observations", (c) => c.body(body, 200, { "content-type": "application/json" }));
  return app;
}
const fetchOf = (app: Hono, req: Request) => async () => void (await (await app.fetch(req)).arrayBuffer());
const page = new Request(`http://127.0.0.1${KEYED_PAGE}`, {
  headers: { origin: "http://example.com", "accept-encoding": "gzip, deflate, br, zstd" },
});
const layer =
  (i: number): MiddlewareHandler =>
  (c, next) => (c.header(`x-layer-${i}`, "1"), next());
const none0 = await cpuPerCall(fetchOf(appWith([]), page));
const oneLayer = await cpuPerCall(fetchOf(appWith([layer(0)]), page));
const elevenLayers = await cpuPerCall(fetchOf(appWith(Array.from({ length: 11 }, (_, i) => layer(i))), page));
record("one middleware layer more (of 11 vs 1)", (elevenLayers - oneLayer) / 10);

// 1b. Five checks in one inOrder layer (src/http/checks.ts) against five middleware layers.
const check = (i: number) => (c: { header(n: string, v: string): void }) => void c.header(`x-check-${i}`, "1");
const fiveLayers = await cpuPerCall(fetchOf(appWith(Array.from({ length: 5 }, (_, i) => layer(i))), page));
const fiveChecks = await cpuPerCall(
  fetchOf(appWith([inOrder(...Array.from({ length: 5 }, (_, i) => check(i))) as MiddlewareHandler]), page),
);
record("five checks: one layer each", fiveLayers - none0);
record("five checks: one inOrder layer", fiveChecks - none0);

// 2. CORS: Hono's cors() against src/http/answer-headers.ts publicCors.
const corsOptions = {
  allowHeaders: ["Authorization", "X-API-Key", "Content-Type"],
  exposeHeaders: ["X-Request-Id", "ETag", "X-RateLimit-Limit"],
};
const none = await cpuPerCall(fetchOf(appWith([]), page));
const ours = await cpuPerCall(fetchOf(appWith([inOrder(publicCors(corsOptions)) as MiddlewareHandler]), page));
const honos = await cpuPerCall(
  fetchOf(
    appWith([cors({ origin: "*", allowHeaders: corsOptions.allowHeaders, exposeHeaders: corsOptions.exposeHeaders })]),
    page,
  ),
);
record("CORS: src/http/answer-headers.ts publicCors (a check in an inOrder layer)", ours - none);
record("CORS: hono/cors", honos - none);

// 3. Accept-Encoding: Hono's parser on every request (what content-coding.ts does now).
const acceptEncoding = "gzip, deflate, br, zstd";
record("Accept-Encoding parsed by hono/utils/accept", await cpuPerCall(() => parseAccept(acceptEncoding)));

// 4. Query validation: zod on every request (@hono/zod-openapi's validator, what the app runs) against a memory of
// validated query strings (what the app ran before). A page memo hit skips validation either way.
const query = Object.fromEntries(new URL(page.url).searchParams);
const validated = new BoundedCache<string, unknown>({ maxEntries: 4096 });
validated.set(new URL(page.url).search, Object.freeze(observationsQuerySchema.parse(query)));
record(
  "query: zod safeParseAsync (stock validator)",
  await cpuPerCall(() => observationsQuerySchema.safeParseAsync(query)),
);
record(
  "query: remembered (a BoundedCache by query string)",
  await cpuPerCall(() => validated.get(new URL(page.url).search)),
);

// 5. Routing: Hono's default router (what the app runs: the briefing paths' overlap moves every route to the trie
// router) against the regular-expression router alone on the routes outside /v1/briefings/ (what the app ran before).
const routes: [string, string][] = [];
for (const f of readdirSync(join(REPO_ROOT, "src/routes"))) {
  const text = readFileSync(join(REPO_ROOT, "src/routes", f), "utf8");
  for (const m of text.matchAll(/method:\s*"(\w+)",\s*path:\s*"([^"]+)"/g))
    routes.push([m[1]!.toUpperCase(), m[2]!.replace(/\{(\w+)\}/g, ":$1")]);
}
function routerWith(router: { add(m: string, p: string, h: string): void; match(m: string, p: string): unknown }) {
  router.add("ALL", "*", "middleware");
  for (const [m, p] of routes) router.add(m, p, `${m} ${p}`);
  router.match("GET", "/v1/observations");
  return () => router.match("GET", "/v1/observations");
}
const outsideBriefings = new RegExpRouter<string>();
outsideBriefings.add("ALL", "*", "middleware");
for (const [m, p] of routes) if (!p.startsWith("/v1/briefings/")) outsideBriefings.add(m, p, `${m} ${p}`);
record(
  `routing (${routes.length} routes): RegExpRouter outside /v1/briefings/`,
  await cpuPerCall(() => outsideBriefings.match("GET", "/v1/observations")),
);
record(
  `routing (${routes.length} routes): Hono's default (SmartRouter)`,
  await cpuPerCall(routerWith(new SmartRouter<string>({ routers: [new RegExpRouter(), new TrieRouter()] }))),
);

console.log(
  `\nper request, median of ${ROUNDS} x ${N} (process CPU); a keyed page memo hit is about 20 µs (bench/memo-hit-cpu.ts)`,
);
for (const [name, us] of rows)
  console.log(
    `${name.padEnd(56)} ${us.toFixed(3).padStart(7)} µs  ${((100 * us) / 20).toFixed(1).padStart(5)}% of a memo hit`,
  );
