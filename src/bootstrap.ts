// Builds the real dependencies from configuration. Used by the CLI commands and server.
import { openDatabase, type Database } from "../db/client";
import type { Config } from "./config";
import { cryptoRandom, systemClock, type Deps } from "./deps";
import { createLogger } from "./logger";
import { SERVICE_VERSION } from "./version";
import { buildRuntimeDeps } from "./runtime-setup";
import { buildPayments } from "./payments";

export async function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl ? openDatabase({ url: config.databaseUrl }) : openDatabase({ dataDir: config.dataDir });
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
  return { config, ...base, version: SERVICE_VERSION, ...buildRuntimeDeps(config, base), access };
}
