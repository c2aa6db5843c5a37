// What a server start does before it serves data, while it already answers /api/health (src/commands/serve.ts):
// - a later start (the database holds this release's seed): open it, bring the public briefings up to this release;
// - a first start of the embedded database: copy the seeded image built by an earlier first start of the same code
//   and data (src/startup/image.ts), else seed on a worker thread (src/startup/seed-worker.ts) and keep the result as
//   the image for the next first start;
// - a database that needs seeding (PostgreSQL's first start, an interrupted first start, a new snapshot version):
//   seed on the worker thread, which holds the schema lock (nodes starting together seed once).
// The database is opened by this thread only when the worker has closed it.
import { join } from "node:path";
import type { Database } from "../../db/client";
import { seedPublicBriefings } from "../../db/seed/briefings";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import { openConfiguredDatabase } from "../configured-database";
import { holdsSeed } from "../commands/seed";
import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";
import type { Logger } from "../logger";
import { holdsDatabase, imageFingerprint, restoreImage, saveImage } from "./image";
import type { SeedRequest, SeedWorkerMessage, StartupProgress } from "./messages";
import { workerEntry } from "./worker-entry";

type PrepareOptions = { logger: Logger; now: Date; onProgress: (p: StartupProgress) => void };

/** Runs the seed worker to its end; resolves whether it seeded, rejects with its error. */
export function runSeedWorker(config: Config, opts: PrepareOptions): Promise<boolean> {
  return new Promise((resolve, reject) => {
    // smol: a smaller heap, collected more often (the seed makes much short-lived garbage).
    const worker = new Worker(workerEntry("seed-worker"), { smol: true });
    const end = (fn: () => void) => {
      worker.terminate();
      fn();
    };
    worker.onmessage = (event: MessageEvent<SeedWorkerMessage>) => {
      const m = event.data;
      if (m.type === "progress") opts.onProgress({ step: m.step, done: m.done, total: m.total });
      else if (m.type === "done") end(() => resolve(m.seeded));
      else end(() => reject(new Error(`first-start seed failed: ${m.message}`)));
    };
    worker.onerror = (event) => end(() => reject(new Error(`first-start seed failed: ${event.message}`)));
    worker.postMessage({ config, now: opts.now.toISOString() } satisfies SeedRequest);
  });
}

/**
 * A first start of the embedded database (DATA_DIR holds none) copies the seeded image an earlier first start of the
 * same code and data kept, if there is one (`svc serve`, and `svc import` into a fresh data directory). `imageKey`:
 * the image a seed of this directory should be kept as (null when the database is not embedded or not fresh, or when
 * IMAGE_CACHE_DIR is off).
 */
export async function copySeededImage(config: Config, opts: Omit<PrepareOptions, "now">): Promise<{ fresh: boolean; imageKey: string | null; pgliteDir: string }> {
  const embedded = !config.databaseUrl;
  const pgliteDir = join(config.dataDir, "pglite");
  if (embedded) ensureDataDir(config.dataDir);
  const fresh = embedded && !holdsDatabase(pgliteDir);
  const imageKey = fresh && config.imageCacheDir ? imageFingerprint(SNAPSHOT_VERSION) : null;
  if (imageKey) {
    opts.onProgress({ step: "copying the seeded database image", done: 0, total: 1 });
    const t0 = performance.now();
    if (await restoreImage(config.imageCacheDir!, imageKey, pgliteDir)) {
      opts.logger.info("seeded database image copied", { image: imageKey, ms: Math.round(performance.now() - t0) });
    }
  }
  return { fresh, imageKey, pgliteDir };
}

/** The database, seeded, opened on this thread (see the file comment). */
export async function prepareDatabase(config: Config, opts: PrepareOptions): Promise<Database> {
  const { fresh, imageKey, pgliteDir } = await copySeededImage(config, opts);
  if (!fresh || holdsDatabase(pgliteDir)) {
    opts.onProgress({ step: "opening the database", done: 0, total: 1 });
    const database = await openConfiguredDatabase(config, { logger: opts.logger });
    if (await holdsSeed(database)) {
      await seedPublicBriefings(database.db, { now: opts.now });
      return database;
    }
    await database.close();
  }
  const seeded = await runSeedWorker(config, opts);
  if (seeded && imageKey) {
    const t0 = performance.now();
    opts.onProgress({ step: "keeping the seeded database image", done: 0, total: 1 });
    try {
      await saveImage(config.imageCacheDir!, imageKey, pgliteDir);
      opts.logger.info("seeded database image kept for the next first start", { image: imageKey, dir: config.imageCacheDir, ms: Math.round(performance.now() - t0) });
    } catch (e) {
      opts.logger.warn("could not keep the seeded database image (the next first start seeds again)", { dir: config.imageCacheDir, error: String(e) });
    }
  }
  opts.onProgress({ step: "opening the database", done: 0, total: 1 });
  return openConfiguredDatabase(config, { logger: opts.logger });
}
