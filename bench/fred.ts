// A 100-row page of PAYEMS from GET /fred/series/observations (JSON) beside the same page from GET /v1/observations,
// measured side by side in one process on one seeded database, through the whole app with an API key (admission,
// metering, the page memo): the key in `api_key` for FRED, in X-API-Key for /v1. Rounds alternate the two so that
// both see the same machine. Target (issue 44): FRED's throughput at least 0.9 of /v1's.
//   bun run bench/fred.ts [--rounds 5] [--requests 2000] [--access keyed|open]
import { parseArgs } from "node:util";
import { makeTestApp } from "../test/support/app";
import { testKey } from "../test/support/keys";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { rounds: { type: "string" }, requests: { type: "string" }, access: { type: "string" } },
});
// keyed: the whole stack with an API key; open: admission open to all (what the read itself costs).
const KEYED = (values.access ?? "keyed") === "keyed";
const ROUNDS = Number(values.rounds ?? 5);
const REQUESTS = Number(values.requests ?? 2000);

// As in production: series heads trusted for a second, the page memo on.
const t = await makeTestApp({ keyAccess: KEYED, config: { seriesCacheRevalidateMs: 1000, pageMemo: true } });
t.clock.set("2026-11-29T12:00:00Z");
const { key } = await testKey(t, { plan: "developer" as never });

const cases = [
  {
    name: "/v1/observations",
    path: "/v1/observations?indicator=PAYEMS&region=US&limit=100",
    headers: { "x-api-key": key } as Record<string, string>,
  },
  {
    name: "/fred/series/observations",
    path: `/fred/series/observations?series_id=PAYEMS&file_type=json&sort_order=desc&limit=100&api_key=${key}`,
    headers: {},
  },
];

let sent = 0;
async function run(c: (typeof cases)[number], n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    // A developer key's rate window is 300 a minute: the manual clock moves on a minute every 250 requests, for both.
    if (++sent % 250 === 0) t.clock.advance(61_000);
    const res = await t.app.request(c.path, { headers: c.headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${c.path}: ${res.status}`);
  }
  return (n / (performance.now() - t0)) * 1000;
}

// The two pages hold the same 100 rows.
const v1 = (await (await t.app.request(cases[0].path, { headers: cases[0].headers })).json()) as {
  data: { date: string }[];
};
const fred = (await (await t.app.request(cases[1].path)).json()) as { observations: { date: string }[] };
if (v1.data.map((r) => r.date).join() !== fred.observations.map((r) => r.date).join())
  throw new Error("the two pages differ");

for (const c of cases) await run(c, 200); // warm: caches, memo, JIT
const rates: Record<string, number[]> = Object.fromEntries(cases.map((c) => [c.name, []]));
for (let r = 0; r < ROUNDS; r++)
  for (const c of r % 2 ? [...cases].reverse() : cases) rates[c.name].push(await run(c, REQUESTS));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `100-row PAYEMS page, JSON, ${KEYED ? "keyed" : "open access"}, in process (${ROUNDS} rounds x ${REQUESTS} requests each, median req/s)`,
);
for (const c of cases)
  console.log(
    `  ${c.name.padEnd(28)} ${median(rates[c.name]).toFixed(0).padStart(7)} req/s   rounds: ${rates[c.name].map((x) => x.toFixed(0)).join(", ")}`,
  );
const ratio = median(rates[cases[1].name]) / median(rates[cases[0].name]);
console.log(`  ratio fred / v1: ${ratio.toFixed(3)} (target >= 0.9)`);
await t.close();
