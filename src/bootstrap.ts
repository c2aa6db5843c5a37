// Builds the real dependencies from configuration. Used by the CLI commands and server.
import { openDatabase, type Database } from "../db/client";
import type { Config } from "./config";
import { ensureDataDir } from "./data-dir";
import { cryptoRandom, systemClock, type Deps } from "./deps";
import { createLogger, type Logger } from "./logger";
import { SERVICE_VERSION } from "./version";
import { buildRuntimeDeps } from "./runtime-setup";
import { buildPayments } from "./payments";

/**
 * The configured database. `maintenance`: a command that may run long statements (seed, import, derive, migrate)
 * runs without the server's statement timeout. `logger`: told when PostgreSQL stops and starts answering.
 */
export async function openConfiguredDatabase(config: Config, opts: { maintenance?: boolean; logger?: Logger } = {}): Promise<Database> {
  if (!config.databaseUrl) {
    ensureDataDir(config.dataDir);
    return openDatabase({ dataDir: config.dataDir });
  }
  return openDatabase({
    url: config.databaseUrl,
    connectTimeoutMs: config.db.connectTimeoutMs,
    statementTimeoutMs: opts.maintenance ? 0 : config.db.statementTimeoutMs,
    log: opts.logger,
  });
}

export async function buildDeps(config: Config): Promise<Deps> {
  const logger = createLogger(config.logLevel);
  // Before anything writes there (the usage journal, payment secrets, the embedded database).
  ensureDataDir(config.dataDir);
  const database = await openConfiguredDatabase(config, { logger });
  const base = { database, clock: systemClock, random: cryptoRandom, logger };
  // Keys first, then the payment rail (x402 / L402) for anonymous requests.
  const pay = buildPayments(config, base);
  logger.info("payments", pay.summary);
  void pay.payments?.prepare();
  const access = { keys: true, payments: pay.payments, publicBaseUrl: config.publicBaseUrl };
  return { config, ...base, version: SERVICE_VERSION, ...buildRuntimeDeps(config, base), access };
}
