// Builds the real dependencies from configuration. Used by the CLI commands and server.
import { openDatabase, type Database } from "../db/client";
import type { Config } from "./config";
import { cryptoRandom, systemClock, type Deps } from "./deps";
import { createLogger } from "./logger";
import { SERVICE_VERSION } from "./version";
import { buildRuntimeDeps } from "./runtime-setup";
import { buildPayments } from "./payments";
import { noFetcher, type SeriesFetcher } from "./ports";
import { createJobRuntime } from "./jobs/runtime";
import type { Logger } from "./logger";

export async function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl ? openDatabase({ url: config.databaseUrl }) : openDatabase({ dataDir: config.dataDir });
}

/**
 * The upstream connectors that fetch series on demand and refresh them (src/upstream/). None yet: nothing is
 * fetched, a series not held is a 404 naming `svc import`, and refreshes change nothing.
 */
export function buildSeriesFetcher(_config: Config, _base: { database: Database; logger: Logger }): SeriesFetcher {
  return noFetcher;
}

export async function buildDeps(config: Config): Promise<Deps> {
  const logger = createLogger(config.logLevel);
  const database = await openConfiguredDatabase(config);
  const base = { database, clock: systemClock, random: cryptoRandom, logger };
  // Keys first, then the payment rail (x402 / L402) for anonymous requests.
  const pay = buildPayments(config, base);
  logger.info("payments", pay.summary);
  void pay.payments?.prepare();
  const access = { keys: true, payments: pay.payments, publicBaseUrl: config.publicBaseUrl };
  const runtime = buildRuntimeDeps(config, base);
  const fetcher = buildSeriesFetcher(config, base);
  // Started by `svc serve` once the database is seeded (and by `svc worker`); other commands never start it.
  const jobs = createJobRuntime({ config, ...base, caches: runtime.caches, fetcher });
  return { config, ...base, version: SERVICE_VERSION, ...runtime, access, fetcher, jobs };
}
