// Scores ask's ANSWERS on content (test/ask/content.tsv), not the series it cited: the first sentence must carry the
// expected number (computed from the stored observations with plain SQL and arithmetic by answer-rules.ts,
// independently of the resolver and of the services it calls), the places named in the question and, for yes/no
// questions, the right yes or no. The expectations are rules over the data ("the 12-month change of CPIAUCSL for US
// at its newest month"), so the set holds on any snapshot: when fresher data lands the expected numbers move with it.
// The rows were written before the resolver was read and are split in halves: `tune` rows may guide changes to the
// resolver, `held` rows never do; both shares are printed and the held-out one must stay at or above 85%. An answer
// the number checker does not find grounded is a miss whatever it says.
// Runs on the embedded database only: it measures the answers, which are the same on both backends.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Database } from "../../db/client";
import { createAsker, type Asker } from "../../src/services/ask";
import { makeTestApp, type TestApp } from "../support/app";
import { ManualClock } from "../support/clock";
import { EVAL_NOW, testBackend, WHOLE_SNAPSHOT_HOOK_MS, wholeSnapshotDatabase } from "../support/db";
import { parseLabels, scoreReply, type AskData, type Labels } from "./answer-rules";
import { snapshotData } from "./snapshot-data";

setDefaultTimeout(300_000);

/** The held-out half's required share. */
const REQUIRED_HELD_SHARE = 0.85;

type Row = Labels & { question: string; split: "tune" | "held" };
const rows: Row[] = readFileSync(resolve(import.meta.dir, "content.tsv"), "utf8")
  .trimEnd()
  .split("\n")
  .slice(1)
  .map((l) => {
    const c = l.split("\t");
    return { question: c[0], split: c[1] as Row["split"], ...parseLabels(c[2], c[3], c[4]) };
  });

let t: TestApp;
let database: Database;
let asker: Asker;
let data: AskData;
const NOW = EVAL_NOW;

beforeAll(async () => {
  if (testBackend !== "pglite") return;
  database = await wholeSnapshotDatabase(NOW);
  t = await makeTestApp({ database, clock: new ManualClock(NOW) });
  asker = createAsker(t.deps);
  data = snapshotData(database);
}, WHOLE_SNAPSHOT_HOOK_MS);
afterAll(() => t?.close());

async function score(r: Row): Promise<string | null> {
  return scoreReply(r, await asker.answer({ q: r.question, depth: "default" }), data);
}

test.skipIf(testBackend !== "pglite")("ask's answers carry the expected content (tuning half and held-out half)", async () => {
  expect(rows.length).toBeGreaterThanOrEqual(60);
  const tally = { tune: { ok: 0, n: 0, misses: [] as string[] }, held: { ok: 0, n: 0, misses: [] as string[] } };
  for (const r of rows) {
    const why = await score(r);
    const side = tally[r.split];
    side.n++;
    if (why === null) side.ok++;
    else side.misses.push(`${r.question}\n      ${why}`);
  }
  for (const split of ["tune", "held"] as const) {
    const s = tally[split];
    console.log(`ask content (${split}): ${s.ok}/${s.n} (${((s.ok / s.n) * 100).toFixed(1)}%)${s.misses.length ? `; misses:\n  ${s.misses.join("\n  ")}` : ""}`);
  }
  expect(tally.held.ok / tally.held.n).toBeGreaterThanOrEqual(REQUIRED_HELD_SHARE);
});
