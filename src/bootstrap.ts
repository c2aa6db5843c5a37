// Builds the real dependencies from configuration. Used by the CLI commands and server.
import type { Database } from "../db/client";
import { openConfiguredDatabase } from "./configured-database";
import type { Config } from "./config";
import { ensureDataDir, restrictDataDir, warnIfLoosened } from "./data-dir";
import { cryptoRandom, systemClock, type Deps } from "./deps";
import { createLogger, type Logger } from "./logger";
import { SERVICE_VERSION } from "./version";
import { buildRuntimeDeps } from "./runtime-setup";
import { sharePaymentSecrets } from "./services/payment-secrets";
import { buildPayments } from "./payments";
import type { Clock, SeriesFetcher } from "./ports";
import { upstreamFetcher } from "./services/upstream-fetcher";
import { createConnectors, type UpstreamRegistry } from "./upstream";
import { createJobRuntime, type JobDeps } from "./jobs/runtime";
import { createCaches } from "./services/caches";
import { baseUrlOf } from "./contract/base-url";
import type { DataLoading } from "./services/data-loading";
import { jobsOnThread, type JobThreadOptions } from "./startup/job-start";

/**
 * The upstream connectors behind the fetcher port: series are fetched on demand and refreshed on schedule. The server
 * passes the registry it already built (one limiter per process); `svc worker` lets it build one from configuration.
 */
export function buildSeriesFetcher(
  config: Config,
  base: { database: Database; logger: Logger; clock?: Clock; upstream?: UpstreamRegistry },
): SeriesFetcher {
  const clock = base.clock ?? systemClock;
  const upstream = base.upstream ?? createConnectors(config, { clock });
  return upstreamFetcher({ db: base.database.db, upstream, clock, logger: base.logger });
}

/**
 * What a process or thread that runs jobs needs beside its database (`svc worker`, the server's job thread): caches
 * and an upstream fetcher of its own. `crossProcess`: others write this database too (its caches check versions).
 */
export function buildJobDeps(
  config: Config,
  database: Database,
  logger: Logger,
  opts: { crossProcess?: boolean } = {},
): JobDeps {
  const caches = createCaches(database, {
    revalidateMs: config.seriesCacheRevalidateMs,
    crossProcess: opts.crossProcess,
  });
  const fetcher = buildSeriesFetcher(config, { database, logger });
  return { config, database, clock: systemClock, logger, caches, fetcher };
}

/** `database`: already opened by the server's start (src/startup/database-start.ts); else opened here. */
/** `loading`: which families of the first start's data are served yet (the server's first start; all by default). */
/** `jobThread`: with JOBS=on, jobs run on a job thread (src/startup/job-start.ts) reaching the database through it. */
export async function buildDeps(
  config: Config,
  opts: { database?: Database; logger?: Logger; loading?: DataLoading; jobThread?: JobThreadOptions["database"] } = {},
): Promise<Deps> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  // Before anything writes there (the usage journal, payment secrets, the embedded database).
  ensureDataDir(config.dataDir);
  warnIfLoosened(restrictDataDir(config.dataDir), logger, "at start");
  const database = opts.database ?? (await openConfiguredDatabase(config, { logger }));
  const base = { database, clock: systemClock, random: cryptoRandom, logger };
  // Keys first, then the payment rail (x402 / L402) for anonymous requests, with the secrets every node on this
  // database shares.
  const shared =
    config.payments.l402 || config.payments.x402 ? await sharePaymentSecrets(database.db, config, base) : undefined;
  const pay = buildPayments(config, base, {}, shared);
  logger.info("payments", pay.summary);
  void pay.payments?.prepare();
  const access = { keys: true, payments: pay.payments, publicBaseUrl: config.publicBaseUrl };
  const runtime = buildRuntimeDeps(config, base);
  const fetcher = buildSeriesFetcher(config, { ...base, upstream: runtime.upstream });
  // Coverage says which offered regions not held are fetched on request: the fetcher's answer.
  runtime.caches.catalog.useFetchVia(fetcher);
  if (opts.loading) runtime.caches.catalog.useLoading(opts.loading);
  // Started by `svc serve` once the database is seeded (and by `svc worker`); other commands never start it.
  // The billing cycle runs on the job engine of every API node (src/jobs/billing.ts), with the node's mail and meter.
  const billing = { deps: { config, ...base, ...runtime }, baseUrl: baseUrlOf(config) };
  const onThread = config.jobs.inProcess && opts.jobThread;
  const local = createJobRuntime(
    { config, ...base, caches: runtime.caches, fetcher },
    { billing, runsJobs: onThread ? false : undefined },
  );
  const jobs = onThread ? jobsOnThread(local, { config, logger, events: database.events, database: onThread }) : local;
  return { config, ...base, version: SERVICE_VERSION, ...runtime, access, fetcher, jobs };
}
