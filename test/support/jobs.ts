// A test app with the real job engine (pg-boss over the test database), tuned to react in about a second: workers
// poll every 0.5 s (and are woken by NOTIFY), supervision runs every second, retries wait 1 s. Its SeriesFetcher is
// either the CsvFetcher (makeJobsTestApp: scripted failures, stalls and crashes) or the server's own, the upstream
// connectors over the fake upstream (makeUpstreamJobsTestApp). With `onThread` the jobs run on a real job thread, as
// `svc serve` runs them (this thread stands in for the embedded database's thread).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Database, Db } from "../../db/client";
import { loadConfig } from "../../src/config";
import type { PGlite } from "@electric-sql/pglite";
import { pgliteHost } from "../../db/pglite-host";
import { createJobRuntime, type JobRuntime } from "../../src/jobs/runtime";
import type { DatabaseThread } from "../../src/startup/database-start";
import { jobPorts, type JobPorts } from "../../src/startup/job-port";
import { jobsOnThread } from "../../src/startup/job-start";
import { createLogger } from "../../src/logger";
import type { PaymentGate, SeriesFetcher } from "../../src/ports";
import type { Asker } from "../../src/services/ask";
import type { UpstreamRegistry } from "../../src/upstream";
import { createCaches } from "../../src/services/caches";
import { upstreamFetcher } from "../../src/services/upstream-fetcher";
import { makeTestApp } from "./app";
import { registerCleanup } from "./cleanup";
import { ManualClock } from "./clock";
import { makeTestDatabase } from "./db";
import type { FakeUpstream } from "./fake-upstream";
import { CsvFetcher } from "./fetcher";
import { clearSeries } from "./series";
import { harness } from "./upstream";

export const FAST_JOBS_ENV = {
  JOBS_POLL_SECONDS: "0.5",
  JOBS_SUPERVISE_SECONDS: "1",
  PROVISION_RETRY_DELAY_SECONDS: "1",
  PROVISION_RETRY_DELAY_MAX_SECONDS: "1",
  PROVISION_HEARTBEAT_SECONDS: "0",
};

/** A series by catalog source, code and region. */
export type SeriesAddress = readonly [source: string, code: string, region: string];

/** The US series of FRED codes. */
export const fredUs = (...codes: string[]): SeriesAddress[] => codes.map((code) => ["fred", code, "US"] as const);

export type JobsTestOptions = {
  env?: Record<string, string>;
  database?: Database;
  clock?: ManualClock;
  /** false: this app only enqueues (an API node with JOBS=off). */
  runsJobs?: boolean;
  keyAccess?: boolean;
  payments?: PaymentGate;
  /** Answers briefing runs (default: the ask service). */
  asker?: Asker;
  /**
   * Series the seeded snapshot holds and the test provisions: they are removed before the app starts, so each is
   * what provisioning is for, a series offered but not held.
   */
  unheld?: SeriesAddress[];
  /** Keep the seeded series queued for detection (series_changes) when the engine starts. */
  detectSeed?: boolean;
  /**
   * The jobs run on a job thread (src/startup/job-start.ts), as `svc serve` runs them: the app's own engine only
   * enqueues. The thread builds its fetcher from the configuration (pass the fake upstream's `env()`).
   */
  onThread?: boolean;
};

/**
 * The database's thread as the job thread sees it: on PostgreSQL nothing (the thread opens its own pool); on the
 * embedded database this thread stands in for it, answering the job thread's port on the test's PGlite.
 */
export function databaseThreadPorts(database: Database): Pick<DatabaseThread, "jobPort" | "releaseJobPort"> {
  if (database.connection.kind === "postgres") return { jobPort: () => null, releaseJobPort: () => {} };
  const client = database.connection.client as PGlite;
  const ports: JobPorts = jobPorts((request) => host.handle(request));
  const host = pgliteHost(client, (m) => void ports.route(m));
  return {
    jobPort() {
      const { port1, port2 } = new MessageChannel();
      ports.attach(port1);
      return port2;
    },
    releaseJobPort: () => ports.detach(),
  };
}

/** Removes seeded series (the precondition of provisioning: offered but not held). */
export async function unhold(db: Db, series: readonly SeriesAddress[]): Promise<void> {
  for (const [source, code, region] of series) await clearSeries(db, source, code, region);
}

async function startJobsApp<F extends SeriesFetcher>(
  opts: JobsTestOptions,
  makeFetcher: (database: Database, clock: ManualClock) => F,
  upstream?: UpstreamRegistry,
) {
  const database = opts.database ?? (await makeTestDatabase());
  await unhold(database.db, opts.unheld ?? []);
  // The seeded series wait in the detection outbox as after a first start; the engine would detect all of them first
  // (minutes on PGlite, beside the test's own jobs). Tests of detection-on-write pass `detectSeed` or write their own.
  if (!opts.detectSeed) await database.db.execute(sql`delete from series_changes`);
  const clock = opts.clock ?? new ManualClock();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-jobs-test-"));
  registerCleanup(async () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: dataDir,
    ...FAST_JOBS_ENV,
    // The job thread opens the run's PostgreSQL database itself.
    ...(opts.onThread && database.connection.kind === "postgres" ? { DATABASE_URL: database.connection.url } : {}),
    ...opts.env,
  });
  const logger = createLogger(config.logLevel);
  const caches = createCaches(database, { revalidateMs: 0 });
  const fetcher = makeFetcher(database, clock);
  const jobs: JobRuntime = createJobRuntime(
    { config, database, clock, logger, caches, fetcher },
    { runsJobs: opts.onThread ? false : (opts.runsJobs ?? true), asker: opts.asker },
  );
  const onThread = opts.onThread
    ? jobsOnThread(jobs, { config, logger, events: database.events, database: databaseThreadPorts(database) })
    : null;
  await (onThread ?? jobs).start();
  const t = await makeTestApp({
    database,
    clock,
    caches,
    fetcher,
    jobs: onThread ?? jobs,
    logger,
    upstream,
    config: { dataDir, jobs: config.jobs },
    keyAccess: opts.keyAccess,
    payments: opts.payments,
  });
  return { ...t, fetcher, jobs, onThread, config };
}

export async function makeJobsTestApp(opts: JobsTestOptions = {}) {
  return startJobsApp(opts, (database, clock) => new CsvFetcher(database.db, { now: () => clock.now() }));
}

/**
 * The server's SeriesFetcher (src/services/upstream-fetcher.ts) over connectors pointed at `fake`. The connectors
 * keep a clock of their own, which their waits (limiter spacing, backoff) advance instead of sleeping; the app's
 * manual clock stamps what is written and when provisioning may try again.
 */
export async function makeUpstreamJobsTestApp(fake: FakeUpstream, opts: JobsTestOptions & { timeoutMs?: number } = {}) {
  const clock = opts.clock ?? new ManualClock();
  const h = harness(fake, { at: clock.now().toISOString(), timeoutMs: opts.timeoutMs });
  const t = await startJobsApp(
    { ...opts, clock },
    (database) => upstreamFetcher({ db: database.db, upstream: h.registry, clock, logger: createLogger("silent") }),
    h.registry,
  );
  return { ...t, upstream: h };
}

export type JobsTestApp = Awaited<ReturnType<typeof makeJobsTestApp>>;

/**
 * Another job engine on a jobs test app's database, as a second node runs one: the app's config, clock and fetcher,
 * caches and a logger of its own. Start it, and stop it when done.
 */
export function anotherJobEngine(t: JobsTestApp, opts: Parameters<typeof createJobRuntime>[1] = {}): JobRuntime {
  const deps = {
    config: t.config,
    database: t.database,
    clock: t.clock,
    logger: createLogger("silent"),
    caches: createCaches(t.database),
    fetcher: t.fetcher,
  };
  return createJobRuntime(deps, opts);
}

/** Polls `check` until it returns a value other than undefined/false (a deadline, never an assertion on time). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}
