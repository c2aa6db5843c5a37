// Seeds an empty database: regions, the curated catalog, and real sample observations, so a first
// start with no network and no database server serves real numbers. Idempotent.
import type { Db } from "../client";
import { seedRegions } from "./regions";
import { seedCatalog } from "./catalog";
import { seedSamples } from "./samples";
import type { SeedOptions } from "./options";

export async function seedDatabase(db: Db, opts: SeedOptions = {}): Promise<void> {
  await seedRegions(db, opts);
  await seedCatalog(db, opts);
  if (opts.samples !== false) await seedSamples(db, opts);
}
