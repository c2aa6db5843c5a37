// `svc seed`: regions, the curated catalog and real sample observations (idempotent), then VACUUM ANALYZE. Also the
// first-start seed that `svc serve` runs on an empty database.
import { SCHEMA_LOCK, type Database } from "../../db/client";
import { hasRegions } from "../../db/repos/seed-state";
import { openConfiguredDatabase } from "../bootstrap";
import type { Logger } from "../logger";
import { terminalProgress, type Progress } from "../progress";
import { deriveAll } from "../services/derived-series";
import { createCaches } from "../services/caches";
import { CliError } from "./cli-error";
import type { Command } from "./command";

/**
 * Runs the whole seed in one transaction, so an interrupted first start leaves an empty database that the next start
 * seeds again (instead of a half-seeded one that looks seeded), then VACUUM ANALYZE: PGlite has no autovacuum, and
 * without it bulk-loaded tables have no planner statistics and no visibility map (so no index-only scans of the
 * covering latest-observations index).
 */
export async function seedAndAnalyze(database: Database, opts: { now: Date; progress: Progress }): Promise<void> {
  // Loaded on demand: the seed data is large, and commands that do not seed (import, later starts) skip parsing it.
  const { seedDatabase } = await import("../../db/seed");
  await database.db.transaction((tx) => seedDatabase(tx as unknown as Database["db"], { now: opts.now, progress: opts.progress }));
  // Derived svc: series computed from what the seed holds, so they are listed (and priced) from the first start.
  await deriveAll({ db: database.db, caches: createCaches(database), now: () => opts.now });
  await database.exec("VACUUM ANALYZE");
}

/** Seeds only when the database has no regions (the seed writes them first). Returns whether it seeded. */
export async function seedIfEmpty(database: Database, opts: { now: Date; progress: Progress; logger: Logger }): Promise<boolean> {
  if (await hasRegions(database.db)) return false;
  opts.logger.info("empty database: seeding regions, catalog and sample observations", { database: database.kind });
  const t0 = performance.now();
  await seedAndAnalyze(database, opts);
  opts.logger.info("seeded", { ms: Math.round(performance.now() - t0) });
  return true;
}

export const seedCommand: Command = {
  summary: "Seed regions, the catalog and real sample observations (idempotent), then VACUUM ANALYZE.",
  usage: "",
  async run(args, config) {
    if (args.length > 0) throw new CliError(`unexpected argument '${args[0]}' (seed takes no arguments)`);
    const database = await openConfiguredDatabase(config, { maintenance: true });
    try {
      const t0 = performance.now();
      await database.exclusive(SCHEMA_LOCK, (locked) => seedAndAnalyze(locked, { now: new Date(), progress: terminalProgress() }));
      console.log(`seeded (${database.kind}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      await database.close();
    }
  },
};
