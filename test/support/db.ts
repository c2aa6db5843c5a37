// A fresh, seeded database per caller, on the backend the run is for (seeded as a first start leaves it: the svc:
// series derived, and the public briefings have had their first run, which the job engine does on a fresh install):
// - TEST_DATABASE_URL set: real PostgreSQL; a template database is migrated and seeded once on the server for this
//   seed (named by its fingerprint, built by one process under an advisory lock while test files running side by side
//   wait, and kept for later runs) and each test database is CREATE DATABASE ... TEMPLATE (about 100 ms).
// - otherwise: PGlite in memory, loaded from a dump of the seeded database made once and kept between runs
//   (test/support/seed-cache.ts).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { eq } from "drizzle-orm";
import { openDatabase, type Database } from "../../db/client";
import { seedDatabase } from "../../db/seed";
import { SNAPSHOT_NAME, SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import { seedSnapshots } from "../../db/schema";
import { DATA_FAMILY_IDS } from "../../db/seed/families";
import { recordFamily } from "../../db/seed/family-records";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/logger";
import { createAsker } from "../../src/services/ask";
import { briefingIdsAwaitingRun, runBriefing } from "../../src/services/briefings";
import { createCaches } from "../../src/services/caches";
import { registerCleanup } from "./cleanup";
import { deriveNow } from "./derive";
import { databaseFromDump, dumpKey, seededDump } from "./seed-cache";

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
  regionFilter: {
    name: "test-counties",
    keep: (code: string) =>
      code.length !== 5 || TEST_SEED_STATES.includes(code.slice(0, 2)) || TEST_SEED_COUNTIES.includes(code),
  },
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
    if (out.kind !== "stored" || out.run.status === "failed")
      throw new Error(`test seed: the first run of briefing ${id} failed: ${JSON.stringify(out)}`);
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

/** The clock the ask evaluations read the whole snapshot at (they share its seed). */
export const EVAL_NOW = new Date("2026-11-24T12:00:00Z");
const wholeSnapshotDump = (now: Date) =>
  seededDump("whole-snapshot", `${THIS_FILE}\n${now.toISOString()}`, async (db) => {
    await seedDatabase(db, { now });
    await deriveNow(db, now);
  });

/**
 * Builds what this run's test files will load (the test seed's dump or PostgreSQL template, and on the embedded
 * database the whole snapshot the evaluations read), unless already built: test/support/warm-seeds.ts, and each
 * worker of `bun test --parallel` before its first file, so no test hook waits minutes for a seed another process is
 * building.
 */
export async function warmTestSeeds(which: "test-seed" | "whole-snapshot" | "all" = "all"): Promise<void> {
  if (which !== "whole-snapshot") await (testBackend === "pglite" ? testSeedDump() : seededTemplate());
  if (which !== "test-seed" && testBackend === "pglite") await wholeSnapshotDump(EVAL_NOW);
}

/** The hook that asks for it first seeds the whole snapshot: minutes on a busy machine (later ones load its dump). */
export const WHOLE_SNAPSHOT_HOOK_MS = 900_000;
/**
 * An embedded database of its own holding the whole snapshot, seeded as a first start at `now` seeds it (for the
 * evaluations that read every series). Close it when done.
 */
export function wholeSnapshotDatabase(now: Date): Promise<Database> {
  return databaseFromDump(wholeSnapshotDump(now));
}

/** The seeded template for this seed, built once on the server (see above); its name is its fingerprint. */
async function seededTemplate(): Promise<string> {
  const name = `svc_tmpl_${dumpKey("pg", THIS_FILE).slice(3)}`;
  const building = `${name}_b`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin`SELECT pg_advisory_lock(hashtext(${name}))`;
    const [held] = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
    if (!held) {
      // A half-built template left by a process that died while building it.
      await admin.unsafe(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.unsafe(`CREATE DATABASE ${building}`);
      const db = await openDatabase({ url: withDb(adminUrl(), building), poolSize: 2 });
      try {
        await seedDatabase(db, testSeed);
        await deriveNow(db, testSeed.now);
        await firstBriefingRuns(db);
        await db.exec("ANALYZE");
      } finally {
        await db.close();
      }
      await admin.unsafe(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    await admin`SELECT pg_advisory_unlock(hashtext(${name}))`;
  } finally {
    await admin.end();
  }
  return name;
}

/** A new test database on PostgreSQL, copied from the seeded template; its URL. */
async function newTestDatabaseUrl(): Promise<string> {
  template ??= seededTemplate();
  const tmpl = await template;
  const name = `svc_t_${process.pid}_${++counter}_${Date.now().toString(36)}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${tmpl}`);
  await admin.end();
  created.push(name);
  return withDb(adminUrl(), name);
}

/** A database of its own, seeded with regions, catalog and samples. Close it when done. */
export async function makeTestDatabase(): Promise<Database> {
  if (testBackend === "pglite") return databaseFromDump(testSeedDump());
  return openDatabase({ url: await newTestDatabaseUrl(), poolSize: 4 });
}

export type SharedDatabase = {
  /** What a process started on it is given: DATABASE_URL on PostgreSQL, DATA_DIR on the embedded database. */
  env: Record<string, string>;
  /** Its URL on PostgreSQL, else null. */
  url: string | null;
  /** Its data directory on the embedded database, else null. */
  dataDir: string | null;
  open(poolSize?: number): Promise<Database>;
};

/**
 * A seeded database that outlives the connections to it, for processes a test starts or a test that closes and opens
 * it again: on PostgreSQL a test database of its own, on the embedded database a data directory holding the seed
 * (opened by one process at a time). `prepare` runs on it first.
 */
export async function sharedDatabase(prepare?: (database: Database) => Promise<void>): Promise<SharedDatabase> {
  let shared: SharedDatabase;
  if (testBackend === "postgres") {
    const url = await newTestDatabaseUrl();
    shared = {
      env: { DATABASE_URL: url },
      url,
      dataDir: null,
      open: (poolSize = 2) => openDatabase({ url, poolSize }),
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), "svc-shared-db-"));
    registerCleanup(async () => rmSync(dataDir, { recursive: true, force: true }));
    await (await openDatabase({ dataDir, loadDataDir: await testSeedDump() })).close();
    shared = { env: { DATA_DIR: dataDir }, url: null, dataDir, open: () => openDatabase({ dataDir }) };
  }
  if (prepare) {
    const database = await shared.open();
    try {
      await prepare(database);
    } finally {
      await database.close();
    }
  }
  return shared;
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

/**
 * Records a test database as holding this release's whole snapshot, so a server started on it serves at once instead
 * of first loading the counties the test seed leaves out (over a million rows: minutes beside other test files). For
 * tests of something other than the first-start seed (test/cli/first-start.test.ts and the PostgreSQL first-start
 * race test that).
 */
export async function takeAsSeeded(database: Database): Promise<void> {
  await database.db
    .update(seedSnapshots)
    .set({ version: SNAPSHOT_VERSION })
    .where(eq(seedSnapshots.name, SNAPSHOT_NAME));
  // Every part of the first start's data too (db/seed/families.ts), its signals included: the job engine detects
  // over what the test seed wrote, as after `svc seed`.
  for (const id of DATA_FAMILY_IDS) await recordFamily(database.db, id, SNAPSHOT_VERSION, new Date());
}
