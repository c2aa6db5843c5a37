// Every held series through every kind of ask answer: for each indicator held, one series of each kind
// of place that holds it, read as ask reads it (the catalog's stated values, the topic-free view) and answered for
// each intent. No rate, change or 0/1 state is ever given a percent change, a change already computed is answered
// with its own value when its growth is asked, and a rate's growth is its difference. Runs on the whole snapshot
// (the embedded database, like the other evaluations): the series are the same on both backends.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Intent, IntentReading } from "../../src/domain/ask/intent";
import { episodesOf } from "../../src/domain/episodes";
import { percentChangeApplies } from "../../src/domain/value-kinds";
import { resolveSeriesTarget } from "../../src/services/concepts";
import { seriesData } from "../../src/services/series-read";
import { leadFor, readEpisodes, viewOf } from "../../src/services/ask-views";
import { makeTestApp, type TestApp } from "../support/app";
import { ManualClock } from "../support/clock";
import { EVAL_NOW, testBackend, WHOLE_SNAPSHOT_HOOK_MS, wholeSnapshotDatabase } from "../support/db";

setDefaultTimeout(300_000);

let t: TestApp;
beforeAll(async () => {
  if (testBackend !== "pglite") return;
  t = await makeTestApp({ database: await wholeSnapshotDatabase(EVAL_NOW), clock: new ManualClock(EVAL_NOW) });
}, WHOLE_SNAPSHOT_HOOK_MS);
afterAll(() => t?.close());

const INTENTS: Intent[] = [
  { kind: "level", at: null },
  { kind: "growth", at: null },
  { kind: "growth", at: null, months: 3 },
  { kind: "change", at: null, months: null, since: null },
  { kind: "change", at: null, months: 12, since: null },
  { kind: "direction", months: null },
  { kind: "extreme", dir: "max", since: null },
  { kind: "episode", dir: "max" },
  { kind: "since_peak", dir: "max", allTime: false, claim: "below" },
  { kind: "threshold", op: ">", value: 1 },
];

test.skipIf(testBackend !== "pglite")("no rate, change or 0/1 state is given a percent change, whatever is asked of it", async () => {
  const store = { db: t.database.db, caches: t.deps.caches, now: () => EVAL_NOW };
  const result = await t.database.db.execute(sql`
    SELECT DISTINCT ON (s.indicator_id, r.type) i.code, i.source_slug AS source, s.region_code AS region
    FROM series s JOIN indicators i ON i.id = s.indicator_id JOIN regions r ON r.code = s.region_code
    WHERE s.observation_count > 1 AND i.is_active
    ORDER BY s.indicator_id, r.type, s.region_code`);
  const held = ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { code: string; source: string; region: string }[]);
  expect(held.length).toBeGreaterThan(80);
  const { episodes } = await readEpisodes(store);
  expect(episodes.length).toBeGreaterThan(episodesOf([]).length);
  const wrong: string[] = [];
  const kinds = new Map<string, number>();
  for (const h of held) {
    const target = await resolveSeriesTarget(store, { code: h.code, source: h.source, region: h.region });
    const { points } = await seriesData(store, target);
    // No topic: the catalog's own name and stated values decide.
    const v = viewOf(target, { id: h.code, phrases: [] }, h.region, points);
    kinds.set(v.values.kind, (kinds.get(v.values.kind) ?? 0) + 1);
    for (const intent of INTENTS) {
      for (const question of ["how is it doing", "what is its growth rate"]) {
        const reading: IntentReading = { intent, yesNo: intent.kind === "threshold" || intent.kind === "since_peak" };
        const lead = leadFor(v, { question, reading, episodes, episode: intent.kind === "episode" ? "great recession" : null });
        const where = `${h.code}@${h.region} (${v.values.kind}) ${intent.kind}${"months" in intent && intent.months ? `/${intent.months}` : ""}`;
        if (!percentChangeApplies(v.values) && (lead.computed === "percent_change" || "yoy_percent" in lead.figures || "percent" in lead.figures)) wrong.push(`${where}: ${lead.text}`);
        if (v.values.kind === "change" && intent.kind === "growth" && !intent.months && lead.figures.value !== points.filter((p) => p.value !== null).at(-1)!.value) {
          wrong.push(`${where}: growth of a change is not its own newest value: ${lead.text}`);
        }
        if (v.values.kind === "rate" && intent.kind === "growth" && lead.computed !== "difference" && lead.computed !== undefined) wrong.push(`${where}: a rate's growth is not its difference: ${lead.text}`);
      }
    }
  }
  console.log(`walked ${held.length} series (${[...kinds].map(([k, n]) => `${n} ${k}`).join(", ")}) through ${INTENTS.length} intents`);
  expect(wrong).toEqual([]);
  // Every kind is among them.
  expect([...kinds.keys()].sort()).toEqual(["binary", "change", "index", "level", "rate"]);
});
