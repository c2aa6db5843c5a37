// Seeding a database with this release's data: what `svc seed` runs, what `svc import` runs on an empty database, and
// what the server's first start runs (src/startup/first-start.ts), in one place that no command owns.
import type { Database } from "../../db/client";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import { holdsSeed, recordFamily, storedFamilies } from "../../db/seed/family-records";
import type { SeedOptions } from "../../db/seed/options";
import { seedPublicBriefings } from "../../db/seed/briefings";
import type { Logger } from "../logger";
import type { Progress } from "../progress";
import { deriveAll } from "./derived-series";
import { createCaches } from "./caches";

/**
 * Seeds (regions and catalog in one transaction, then the data snapshot, whose version is recorded last, so an
 * interrupted first start is completed by the next one), derives the svc: series, then VACUUM ANALYZE: PGlite has no
 * autovacuum, and without it bulk-loaded tables have no planner statistics and no visibility map (so no index-only
 * scans of the covering latest-observations index).
 */
export async function seedAndAnalyze(
  database: Database,
  opts: { now: Date; progress: Progress } & Pick<SeedOptions, "onFamilyStored" | "rowsPerTransaction">,
): Promise<void> {
  // Loaded on demand: the seed data is large, and commands that do not seed (later starts) skip parsing it.
  const { seedDatabase } = await import("../../db/seed");
  await seedDatabase(database, {
    now: opts.now,
    progress: opts.progress,
    onFamilyStored: opts.onFamilyStored,
    rowsPerTransaction: opts.rowsPerTransaction,
  });
  // Derived svc: series computed from what the seed holds, so they are listed (and priced) from the first start.
  if (!(await storedFamilies(database.db, SNAPSHOT_VERSION)).has("derived")) {
    await deriveAll({ db: database.db, caches: createCaches(database), now: () => opts.now });
    await recordFamily(database.db, "derived", SNAPSHOT_VERSION, opts.now);
    await opts.onFamilyStored?.("derived");
  }
  await database.exec("VACUUM ANALYZE");
}

/**
 * Seeds when the database does not hold the shipped snapshot: a fresh database, one whose first start was
 * interrupted, or one seeded by an older release. Returns whether it seeded. A later start only checks, and brings
 * the curated public briefings up to this release (a few rows, written only when they changed).
 */
export async function seedIfNeeded(
  database: Database,
  opts: { now: Date; progress: Progress; logger: Logger },
): Promise<boolean> {
  if (await holdsSeed(database.db)) {
    await seedPublicBriefings(database.db, { now: opts.now });
    return false;
  }
  opts.logger.info("seeding regions, catalog and the real data snapshot (no network needed)", {
    database: database.kind,
  });
  const t0 = performance.now();
  await seedAndAnalyze(database, opts);
  opts.logger.info("seeded", { ms: Math.round(performance.now() - t0) });
  return true;
}
