// Listening before the server is loaded: the entry points (src/server.ts, src/bin.ts) call listenEarly before they
// import the CLI, whose modules (every command, the app, its routes) take a second or more of CPU to load, several
// on a busy machine. The starting listener (src/startup/starting.ts) needs only the configuration, so /api/health
// answers `starting` meanwhile, and `svc serve` (src/commands/serve.ts) takes this listener over instead of making
// its own; and the database's thread (src/startup/database-start.ts) starts opening the database. A start the serve command would refuse (bad configuration, an unusable DATA_DIR) never listens here: the
// command then refuses as it always did.
import { loadConfig, type Config } from "../config";
import { baseUrlRefusal } from "../contract/base-url";
import { ensureDataDir } from "../data-dir";
import { SERVICE_VERSION } from "../version";
import type { DatabaseThread } from "./database-start";
import { startStartingServer, type StartingServer, type StartupState } from "./starting";

export type EarlyListener = {
  starting: Promise<StartingServer>;
  state: StartupState;
  database: Promise<DatabaseThread>;
};

/** Why `svc serve` would not start with this configuration, or null. */
export function serveRefusal(config: Config): string | null {
  if (!config.jobs.inProcess && !config.databaseUrl) {
    return "JOBS=off needs DATABASE_URL: the embedded database is open to one process only, so no 'svc worker' could run the jobs.";
  }
  return baseUrlRefusal(config);
}

/**
 * Starts the starting listener when `argv` is a plain `serve` (no --help) whose configuration serve would accept, and
 * returns it for the entry point to hand to the CLI (serve takes it over); else null.
 */
export function listenEarly(argv: string[], env: Record<string, string | undefined>): EarlyListener | null {
  const [name, ...rest] = argv.filter((a) => a !== "--verbose");
  if (name !== "serve" || rest.length > 0) return null;
  let config: Config;
  try {
    config = loadConfig(env);
    if (serveRefusal(config)) return null;
    ensureDataDir(config.dataDir);
  } catch {
    return null;
  }
  const state: StartupState = { step: "starting", done: 0, total: 0, started_at: new Date().toISOString() };
  const database = config.databaseUrl ? "postgres" : "pglite";
  const starting = startStartingServer({
    port: config.port,
    hostname: config.host,
    version: SERVICE_VERSION,
    database,
    state,
  });
  // A failure (the port taken) is serve's to report, when it takes the listener over.
  starting.catch(() => {});
  // The database opens on its thread while this one loads the server's modules.
  const thread = import("./database-start").then((m) => m.startDatabaseThread(config, new Date()));
  return { starting, state, database: thread };
}
