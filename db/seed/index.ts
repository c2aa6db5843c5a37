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
import { holdsSnapshot } from "./snapshot-version";
import type { SeedOptions } from "./options";

export async function seedDatabase(database: Database, opts: SeedOptions = {}): Promise<void> {
  // Regions and catalog in one transaction: a catalog without its regions is never visible.
  await database.db.transaction(async (tx) => {
    await seedRegions(tx as unknown as Database["db"], opts);
    await seedCatalog(tx as unknown as Database["db"], opts);
  });
  // Their first runs are the job engine's (src/jobs/runtime.ts queues a run of every briefing that has none).
  await seedPublicBriefings(database.db, opts);
  if (opts.samples !== false && !(await holdsSnapshot(database))) {
    // Flows first: the snapshot records its version last, so an interrupted seed is completed by the next start.
    await seedFlows(database.db, opts);
    await seedSnapshot(database, opts);
  }
}

