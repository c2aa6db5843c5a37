// The configured database, in a module of its own: the commands that only open the database (migrate, seed, derive,
// import, keys, ...) need not load what the server builds (payments, job engine, connectors).
import { openDatabase, type Database } from "../db/client";
import type { Config } from "./config";
import { ensureDataDir, restrictDataDir, warnIfLoosened } from "./data-dir";
import type { Logger } from "./logger";

/**
 * The configured database. `maintenance`: a command that may run long statements (seed, import, derive, migrate)
 * runs without the server's statement timeout. `logger`: told when PostgreSQL stops and starts answering.
 */
export async function openConfiguredDatabase(
  config: Config,
  opts: { maintenance?: boolean; logger?: Logger } = {},
): Promise<Database> {
  if (!config.databaseUrl) {
    ensureDataDir(config.dataDir);
    // What someone loosened since the last run is named before the engine adds its own (0666 whatever the umask).
    warnIfLoosened(restrictDataDir(config.dataDir), opts.logger, "at start");
    const database = await openDatabase({ dataDir: config.dataDir });
    restrictDataDir(config.dataDir);
    return database;
  }
  return openDatabase({
    url: config.databaseUrl,
    connectTimeoutMs: config.db.connectTimeoutMs,
    statementTimeoutMs: opts.maintenance ? 0 : config.db.statementTimeoutMs,
    log: opts.logger,
  });
}
