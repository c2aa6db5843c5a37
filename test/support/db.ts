// A fresh, seeded database per caller, on the backend the run is for (seeded as a first start leaves it: the svc:
// series derived, and the public briefings have had their first run, which the job engine does on a fresh install):
// - TEST_DATABASE_URL set: real PostgreSQL; a template database is migrated and seeded once per
//   process and each test database is CREATE DATABASE ... TEMPLATE (about 100 ms).
// - otherwise: PGlite in memory, loaded from a dump of the seeded database made once and kept between runs
//   (test/support/seed-cache.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { openDatabase, type Database } from "../../db/client";
import { seedDatabase } from "../../db/seed";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/logger";
import { createAsker } from "../../src/services/ask";
import { briefingIdsAwaitingRun, runBriefing } from "../../src/services/briefings";
import { createCaches } from "../../src/services/caches";
import { registerCleanup } from "./cleanup";
import { deriveNow } from "./derive";
import { databaseFromDump, seededDump } from "./seed-cache";

export const testBackend: "postgres" | "pglite" = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/**
 * The seed every test database gets: the whole catalog and real snapshot, except counties outside California,
 * Connecticut and Delaware, and Hawaii County (a database per test file stays small; test/db/snapshot.test.ts loads the whole snapshot).
 */
export const TEST_SEED_STATES = ["06", "09", "10"];
/** Counties kept from other states: Hawaii County, where the Mauna Loa CO2 station is. */
const TEST_SEED_COUNTIES = ["15001"];
export const testSeed = {
  now: new Date("2026-11-22T00:00:00Z"),
  regionFilter: { name: "test-counties", keep: (code: string) => code.length !== 5 || TEST_SEED_STATES.includes(code.slice(0, 2)) || TEST_SEED_COUNTIES.includes(code) },
};
let template: Promise<string> | null = null;
const created: string[] = [];
let counter = 0;

function adminUrl(): string {
  return process.env.TEST_DATABASE_URL!;
}
function withDb(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The first run of every public briefing, through the real ask service, as the job engine runs them after a first start. */
async function firstBriefingRuns(database: Database): Promise<void> {
  const clock = { now: () => testSeed.now };
  const caches = createCaches(database, { revalidateMs: 0 });
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent" });
  const asker = createAsker({ database, clock, caches, config });
  const run = { db: database.db, clock, logger: createLogger("silent") };
  for (const id of await briefingIdsAwaitingRun(database.db)) {
    const out = await runBriefing(run, asker, id);
    if (out.kind !== "stored" || out.run.status === "failed") throw new Error(`test seed: the first run of briefing ${id} failed: ${JSON.stringify(out)}`);
  }
}

/** What the test seed is, beyond the service's files: this file (its options, the briefing runs) and derive.ts. */
const THIS_FILE = readFileSync(import.meta.path, "utf8") + readFileSync(join(import.meta.dir, "derive.ts"), "utf8");
const testSeedDump = () =>
  seededDump("test-seed", THIS_FILE, async (db) => {
    await seedDatabase(db, testSeed);
    await deriveNow(db, testSeed.now);
    await firstBriefingRuns(db);
  });

/** The hook that asks for it first seeds the whole snapshot: minutes on a busy machine (later ones load its dump). */
export const WHOLE_SNAPSHOT_HOOK_MS = 900_000;
/**
 * An embedded database of its own holding the whole snapshot, seeded as a first start at `now` seeds it (for the
 * evaluations that read every series). Close it when done.
 */
export function wholeSnapshotDatabase(now: Date): Promise<Database> {
  return databaseFromDump(seededDump("whole-snapshot", `${THIS_FILE}\n${now.toISOString()}`, async (db) => {
    await seedDatabase(db, { now });
    await deriveNow(db, now);
  }));
}

async function seededTemplate(): Promise<string> {
  const name = `svc_tmpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  const db = await openDatabase({ url: withDb(adminUrl(), name), poolSize: 2 });
  await seedDatabase(db, testSeed);
  await deriveNow(db, testSeed.now);
  await firstBriefingRuns(db);
  await db.exec("ANALYZE");
  await db.close();
  return name;
}

/** A database of its own, seeded with regions, catalog and samples. Close it when done. */
export async function makeTestDatabase(): Promise<Database> {
  if (testBackend === "pglite") return databaseFromDump(testSeedDump());
  template ??= seededTemplate();
  const tmpl = await template;
  const name = `svc_t_${process.pid}_${++counter}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${tmpl}`);
  await admin.end();
  created.push(name);
  return openDatabase({ url: withDb(adminUrl(), name), poolSize: 4 });
}

/** Drops every database this process created; registered to run once after all test files. */
async function dropTestDatabases(): Promise<void> {
  if (testBackend !== "postgres" || created.length === 0) return;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  for (const name of created.reverse()) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  }
  await admin.end();
}

registerCleanup(dropTestDatabases);
