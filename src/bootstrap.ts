// Builds the real dependencies from configuration. Used by the CLI commands and server.
import { openDatabase, type Database } from "../db/client";
import type { Config } from "./config";
import { cryptoRandom, systemClock, type Deps } from "./deps";
import { createLogger } from "./logger";
import { SERVICE_VERSION } from "./version";
import { openAccess } from "./http/paid";

export async function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl ? openDatabase({ url: config.databaseUrl }) : openDatabase({ dataDir: config.dataDir });
}

export async function buildDeps(config: Config): Promise<Deps> {
  const logger = createLogger(config.logLevel);
  const database = await openConfiguredDatabase(config);
  return { config, database, clock: systemClock, random: cryptoRandom, logger, version: SERVICE_VERSION, access: openAccess };
}
