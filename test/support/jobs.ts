// A test app with the real job engine (pg-boss over the test database) and a CsvFetcher, tuned to react in about a
// second: workers poll every 0.5 s (and are woken by NOTIFY), supervision runs every second, retries wait 1 s.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database, Db } from "../../db/client";
import { loadConfig } from "../../src/config";
import { createJobRuntime, type JobRuntime } from "../../src/jobs/runtime";
import { createLogger } from "../../src/logger";
import type { PaymentGate } from "../../src/ports";
import { createCaches } from "../../src/services/caches";
import { makeTestApp } from "./app";
import { registerCleanup } from "./cleanup";
import { ManualClock } from "./clock";
import { makeTestDatabase } from "./db";
import { CsvFetcher } from "./fetcher";
import { clearSeries } from "./series";

export const FAST_JOBS_ENV = {
  JOBS_POLL_SECONDS: "0.5",
  JOBS_SUPERVISE_SECONDS: "1",
  PROVISION_RETRY_DELAY_SECONDS: "1",
  PROVISION_RETRY_DELAY_MAX_SECONDS: "1",
  PROVISION_HEARTBEAT_SECONDS: "0",
};

export type JobsTestOptions = {
  env?: Record<string, string>;
  database?: Database;
  clock?: ManualClock;
  /** false: this app only enqueues (an API node with JOBS=off). */
  runsJobs?: boolean;
  keyAccess?: boolean;
  payments?: PaymentGate;
  /**
   * FRED codes whose US series the seeded snapshot holds and the test provisions: they are removed before the app
   * starts, so each is what provisioning is for, a series offered but not held.
   */
  unheld?: string[];
};

/** Removes the seeded US series of these FRED codes (the precondition of provisioning: offered but not held). */
export async function unholdFred(db: Db, codes: readonly string[]): Promise<void> {
  for (const code of codes) await clearSeries(db, "fred", code, "US");
}

export async function makeJobsTestApp(opts: JobsTestOptions = {}) {
  const database = opts.database ?? (await makeTestDatabase());
  await unholdFred(database.db, opts.unheld ?? []);
  const clock = opts.clock ?? new ManualClock();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-jobs-test-"));
  registerCleanup(async () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, ...FAST_JOBS_ENV, ...opts.env });
  const logger = createLogger(config.logLevel);
  const caches = createCaches(database, { revalidateMs: 0 });
  const fetcher = new CsvFetcher(database.db, { now: () => clock.now() });
  const jobs: JobRuntime = createJobRuntime({ config, database, clock, logger, caches, fetcher }, { runsJobs: opts.runsJobs ?? true });
  await jobs.start();
  const t = await makeTestApp({ database, clock, caches, fetcher, jobs, logger, config: { dataDir, jobs: config.jobs }, keyAccess: opts.keyAccess, payments: opts.payments });
  return { ...t, fetcher, jobs, config };
}

/** Polls `check` until it returns a value other than undefined/false (a deadline, never an assertion on time). */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}
