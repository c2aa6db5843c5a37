// What a start does to the database before everything is served, on the database's thread
// (src/startup/database-thread.ts), family by family (db/seed/families.ts) so each is served as soon as it is stored:
// - the seed, when the database does not hold this release's data: regions and catalog, then the data families, what
//   people ask first first (the US national series, the states' monthly unemployment), the flows, the derived svc:
//   series, VACUUM ANALYZE (not sooner: statistics of the first families would plan the rest of the load for tables
//   a hundred times smaller);
// - the signals over everything the seed wrote (the changes outbox the database filled as it wrote), and the public
//   briefings' first runs (through the ask service, as the job engine would run them);
// - the job engine's schema (pg-boss installs it on its first start, some hundred statements), so the server's thread
//   does not.
// A later start finds everything recorded and only brings the curated public briefings up to this release.
import type { Database } from "../../db/client";
import type { DataFamilyId } from "../../db/seed/families";
import { holdsSeed, recordFamily, storedFamilies } from "../../db/seed/family-records";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import type { Config } from "../config";
import type { Logger } from "../logger";
import type { Progress } from "../progress";

// What only a start with work to do needs (the seed, detection, the ask engine, the job engine) is imported then: a
// later start's database thread holds none of it in memory.
/** Rows per transaction of the first start's seed: about 0.1 s of the database's time each on a quiet machine. */
const SEED_ROWS_PER_TRANSACTION = 5_000;

export type FirstStartOptions = {
  config: Config;
  now: Date;
  progress: Progress;
  logger: Logger;
  /** Told as each family is stored (the server serves it from then on). */
  onFamilyStored(id: DataFamilyId): void;
  /**
   * The database the signals and briefings are worked out on, when not the one seeded: on the embedded database, one
   * whose statements give way to the server's (db/pglite-host.ts), so requests are answered promptly meanwhile.
   */
  background?: Database;
};

/** Stores what is missing of this release's data (see the file comment); returns whether it seeded. */
export async function completeFirstStart(database: Database, opts: FirstStartOptions): Promise<boolean> {
  const { now, progress, logger } = opts;
  let seeded = false;
  if (!(await holdsSeed(database.db))) {
    const { seedAndAnalyze } = await import("../services/seeding");
    logger.info("seeding regions, catalog and the real data snapshot (no network needed)", { database: database.kind });
    const t0 = performance.now();
    await seedAndAnalyze(database, {
      now,
      progress,
      // The server reads what is stored meanwhile: each of its statements waits for the transaction under way.
      rowsPerTransaction: SEED_ROWS_PER_TRANSACTION,
      onFamilyStored: async (id) => {
        logger.info("stored", { family: id, ms: Math.round(performance.now() - t0) });
        opts.onFamilyStored(id);
      },
    });
    logger.info("seeded", { ms: Math.round(performance.now() - t0) });
    seeded = true;
  } else {
    const { seedPublicBriefings } = await import("../../db/seed/briefings");
    await seedPublicBriefings(database.db, { now });
  }
  if ((await storedFamilies(database.db, SNAPSHOT_VERSION)).has("signals")) return seeded;
  await detectAndBrief(opts.background ?? database, opts);
  await recordFamily(database.db, "signals", SNAPSHOT_VERSION, now);
  opts.onFamilyStored("signals");
  // The job engine's schema: here, not on the server's thread (and so in the seeded image).
  progress.start("job engine schema", 1);
  const { openBoss } = await import("../jobs/boss");
  const { boss, release } = openBoss(
    database,
    { runsJobs: false, poolMax: 1, superviseSeconds: 60, pollSeconds: 2 },
    logger,
  );
  await boss.start();
  await boss.stop({ graceful: false, close: true });
  await release();
  progress.done();
  return seeded;
}

async function detectAndBrief(database: Database, opts: FirstStartOptions): Promise<void> {
  const { now, progress, logger, config } = opts;
  const [
    { countSeriesChanges },
    { createCaches },
    { computePool, workerThread },
    { workerEntry },
    { detectChangedSeries },
    { createAsker },
    { briefingIdsAwaitingRun, runBriefing },
  ] = await Promise.all([
    import("../../db/repos/series-changes"),
    import("../services/caches"),
    import("../services/compute-pool"),
    import("./worker-entry"),
    import("../services/signal-detection"),
    import("../services/ask"),
    import("../services/briefings"),
  ]);
  // Signals over every series written: the changes outbox the database filled as they were written (the job
  // engine's detect job drains the same outbox; emptied here, it finds nothing left to do).
  const t0 = performance.now();
  // The detectors run on a compute thread of their own: on this thread they would hold the server's statements.
  const compute = computePool({
    threads: 1,
    queueMax: 2,
    startThread: () => workerThread(workerEntry("compute-thread")),
  });
  const caches = createCaches(database, { compute });
  // A tick per series: detection makes garbage fast (some kilobytes per observation), collected as it goes.
  progress.start("signal detection", await countSeriesChanges(database.db));
  try {
    const s = await detectChangedSeries({ db: database.db, caches, now: () => now }, () => progress.tick());
    logger.info("signals detected over the seeded series", {
      series: s.series,
      intervals: s.inserted,
      ms: Math.round(performance.now() - t0),
    });
  } finally {
    progress.done();
    await compute.close();
  }
  // The public briefings' first runs: a run that fails is stored as failed, and the job engine tries again.
  const ids = await briefingIdsAwaitingRun(database.db);
  progress.start("public briefings' first runs", ids.length);
  const clock = { now: () => new Date() };
  const asker = createAsker({ database, clock, caches, config });
  for (const id of ids) {
    await runBriefing({ db: database.db, clock, logger }, asker, id);
    progress.tick();
  }
  progress.done();
}
