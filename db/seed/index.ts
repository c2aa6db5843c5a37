// Seeds a database: regions, the curated catalog, the public briefings, and the real data snapshot (with the kept vega
// samples), so a first start with no network and no database server serves real numbers. Idempotent: regions,
// catalog and briefings are upserts, and the snapshot loads only when the database does not hold its version
// (db/seed/snapshot.ts).
import type { Database } from "../client";
import { seedRegions } from "./regions";
import { seedCatalog } from "./catalog";
import { seedFlows } from "./flows";
import { seedPublicBriefings } from "./briefings";
import { seedSnapshot } from "./snapshot";
import { holdsSnapshot, SNAPSHOT_NAME, snapshotVersion } from "./snapshot-version";
import { recordFamily, storedFamilies } from "./family-records";
import { recordSeeded } from "../repos/seed-state";
import type { SeedOptions } from "./options";

export async function seedDatabase(database: Database, opts: SeedOptions = {}): Promise<void> {
  // Regions and catalog in one transaction: a catalog without its regions is never visible.
  await database.db.transaction(async (tx) => {
    await seedRegions(tx as unknown as Database["db"], opts);
    await seedCatalog(tx as unknown as Database["db"], opts);
  });
  // Their first runs are the job engine's (src/jobs/runtime.ts queues a run of every briefing that has none).
  await seedPublicBriefings(database.db, opts);
  const version = snapshotVersion(opts.regionFilter);
  const now = opts.now ?? new Date();
  if (!(await storedFamilies(database.db, version)).has("catalog")) {
    await recordFamily(database.db, "catalog", version, now);
    await opts.onFamilyStored?.("catalog");
  }
  if (opts.samples !== false && !(await holdsSnapshot(database))) {
    // The series, family by family, then the flows; the snapshot's version is recorded last, so an interrupted seed
    // is completed by the next start (from the first family not recorded).
    const totals = await seedSnapshot(database, opts);
    if (!(await storedFamilies(database.db, version)).has("flows")) {
      await seedFlows(database, opts);
      await recordFamily(database.db, "flows", version, now);
      await opts.onFamilyStored?.("flows");
    }
    await recordSeeded(database.db, SNAPSHOT_NAME, version, totals.rows, now);
  }
}
