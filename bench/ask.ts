// Ask speed: server time of GET /v1/ask with the deterministic composer over the whole real snapshot, in
// process (app.request, no HTTP, one request at a time, open access: what the ask pipeline itself costs). For each
// depth: the first request of each question (cold: resolution, series and insights not yet cached), then p50/p99 of
// 300 warm requests cycling through the questions. Target: p99 under 100 ms at the default depth. Then questions that
// read more than one series' newest value: the intent questions, and rankings across every state (target
// p50 under 50 ms) and every county (under 300 ms), each a cold request then p50/p99 of warm ones. Then the
// default depth over questions of every new kind (a published rate, real GDP growth, a threshold over places, an
// episode, since its peak, a direction, county pay, a flow, a shared county name, a place code), p50/p99 of warm
// requests cycling through them, and rankings and filters over every county (by value, by a year's growth).
//   bun bench/ask.ts [--db pglite|postgres|URL] [--requests 300]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { openDatabase } from "../db/client";
import { seedDatabase } from "../db/seed";
import { makeTestApp } from "../test/support/app";
import { ManualClock } from "../test/support/clock";

const { values: args } = parseArgs({ args: process.argv.slice(2), options: { db: { type: "string", default: "pglite" }, requests: { type: "string", default: "300" } } });
const NOW = new Date("2026-11-24T12:00:00Z");
const QUESTIONS = [
  "What is the unemployment rate in Texas?",
  "how's inflation",
  "population of Los Angeles County over the last 5 years",
  "compare the gdp of france and italy",
  "how is the labor market",
  "are people moving out of california",
];

const url = args.db === "pglite" ? null : args.db === "postgres" ? "postgres://postgres@127.0.0.1:5432/postgres" : args.db!;
const database = url ? await openDatabase({ url, poolSize: 4 }) : await openDatabase({ dataDir: null });
const seeded = performance.now();
await seedDatabase(database, { now: NOW });
console.log(`seeded the real snapshot in ${((performance.now() - seeded) / 1000).toFixed(1)} s (${url ? "postgres" : "pglite"})`);
// The service's default revalidation (1 s), not the tests' 0 (which re-reads every series version per request).
const t = await makeTestApp({ database, clock: new ManualClock(NOW), config: { seriesCacheRevalidateMs: 1000 } });

async function time(q: string, depth: string | null): Promise<number> {
  const started = performance.now();
  const res = await t.request(`/v1/ask?${new URLSearchParams({ q, ...(depth ? { depth } : {}) })}`);
  const body = (await res.json()) as { status?: string };
  if (res.status !== 200 || body.status !== "ok") throw new Error(`${q}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return performance.now() - started;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const n = Number(args.requests);
for (const depth of [null, "briefing"]) {
  const cold = [];
  for (const q of QUESTIONS) cold.push(await time(q, depth));
  const warm = [];
  for (let i = 0; i < n; i++) warm.push(await time(QUESTIONS[i % QUESTIONS.length], depth));
  console.log(
    `depth=${depth ?? "default"}: cold ${cold.map((x) => x.toFixed(1)).join(" / ")} ms; warm p50 ${pct(warm, 50).toFixed(2)} ms, p99 ${pct(warm, 99).toFixed(2)} ms, ` +
      `${(1000 / (warm.reduce((a, b) => a + b, 0) / warm.length)).toFixed(0)} req/s one at a time`,
  );
}
const INTENT = ["What is the current US inflation rate?", "Is unemployment higher in Texas or California?", "How many jobs were added last month?", "Is the US in a recession?"];
/** One question of each new kind, answered at the default depth. */
const ISSUE_40 = [
  "What is India's GDP growth?",
  "How fast is the economy growing?",
  "which states have an unemployment rate above 5%",
  "What was the peak unemployment rate during the Great Recession?",
  "Has inflation come down from its peak?",
  "Is unemployment going up or down?",
  "what is the average pay in Harris County",
  "where do people leaving San Francisco County go",
  "unemployment in Orange County",
  "unemployment rate in CA",
];
const RANKINGS = [
  ["51 states", "Which state has the highest unemployment rate?"],
  ["254 Texas counties", "top 5 counties in Texas by population"],
  ["every county", "Which county has the highest unemployment rate in the country?"],
  ["every county", "Which county has the most people?"],
  ["every county", "which counties have an unemployment rate above 10%"],
  ["every county", "fastest growing county"],
];
{
  const cold = [];
  for (const q of ISSUE_40) cold.push(await time(q, null));
  const warm = [];
  for (let i = 0; i < n; i++) warm.push(await time(ISSUE_40[i % ISSUE_40.length], null));
  console.log(`newer question kinds, depth=default: cold max ${Math.max(...cold).toFixed(1)} ms; warm p50 ${pct(warm, 50).toFixed(2)} ms, p99 ${pct(warm, 99).toFixed(2)} ms`);
}
for (const [label, q] of [...INTENT.map((q) => ["intent", q]), ...RANKINGS]) {
  const cold = await time(q, null);
  const warm = [];
  for (let i = 0; i < Math.max(20, Math.floor(n / 5)); i++) warm.push(await time(q, null));
  console.log(`${label}: "${q}" cold ${cold.toFixed(1)} ms; warm p50 ${pct(warm, 50).toFixed(2)} ms, p99 ${pct(warm, 99).toFixed(2)} ms`);
}
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
await t.close();
