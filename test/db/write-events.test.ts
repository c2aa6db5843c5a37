// Write events belong to the database object: a committed write is announced to that database's listeners, a rolled
// back one is not, and two databases in one process hear only their own writes.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { openDatabase, type Database } from "../../db/client";
import { type SeriesChange } from "../../db/events";
import { upsertSources } from "../../db/repos/catalog";
import { writeSeriesObservations } from "../../db/repos/observations";
import { upsertRegions } from "../../db/repos/regions";
import { indicators, sources } from "../../db/schema";

// bun resets the default timeout per file: this file starts databases.
setDefaultTimeout(120_000);

const EVT = "00000000-0000-4000-8000-00000000e417";
const NOW = new Date("2026-03-01T10:00:00.000Z");
let a: Database;
let b: Database;

/** Every announcement `database` makes, in order. */
function record(database: Database) {
  const heard: (SeriesChange[] | "catalog")[] = [];
  database.events.onSeriesWritten((changed) => heard.push(changed));
  database.events.onCatalogWritten(() => heard.push("catalog"));
  return heard;
}

beforeAll(async () => {
  [a, b] = await Promise.all([openDatabase({ dataDir: null }), openDatabase({ dataDir: null })]);
  for (const d of [a, b]) {
    await d.db.insert(sources).values({ slug: "events-test", name: "Write events test" });
    await d.db.insert(indicators).values({ id: EVT, code: "EVT_A", sourceSlug: "events-test", name: "events test" });
    await upsertRegions(d.db, [{ code: "ZZ-EVT", type: "test", name: "ZZ-EVT", slug: "zz-evt" }]);
  }
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const write = (d: Database, value: number, db = d.db) =>
  writeSeriesObservations(db, {
    indicatorId: EVT,
    regionCode: "ZZ-EVT",
    rows: [{ date: "2024-01-01", value }],
    now: NOW,
  });

test("a committed write is announced once, after it commits; an unchanged re-write is not", async () => {
  const heard = record(a);
  await write(a, 1);
  expect(heard).toEqual([[{ indicatorId: EVT, regionCode: "ZZ-EVT" }]]);
  await write(a, 1);
  expect(heard).toHaveLength(1);
});

test("writes inside a transaction are announced when it commits, and never when it rolls back", async () => {
  const heard = record(a);
  await a.db.transaction(async (tx) => {
    await write(a, 2, tx as never);
    await upsertSources(tx as never, [{ slug: "events-test-2", name: "second" }]);
    expect(heard).toEqual([]);
  });
  expect(heard).toEqual(["catalog", [{ indicatorId: EVT, regionCode: "ZZ-EVT" }]]);

  heard.length = 0;
  const rolledBack = a.db.transaction(async (tx) => {
    await write(a, 3, tx as never);
    await upsertSources(tx as never, [{ slug: "events-test-3", name: "third" }]);
    throw new Error("roll back");
  });
  await expect(rolledBack).rejects.toThrow("roll back");
  expect(heard).toEqual([]);
});

test("two databases in one process hear only their own writes", async () => {
  const heardA = record(a);
  const heardB = record(b);
  await write(b, 10);
  await upsertSources(b.db, [{ slug: "events-test-b", name: "only b" }]);
  expect(heardA).toEqual([]);
  expect(heardB).toEqual([[{ indicatorId: EVT, regionCode: "ZZ-EVT" }], "catalog"]);
});
