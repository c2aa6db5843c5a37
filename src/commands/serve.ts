import { createApp } from "../app";
import { buildDeps } from "../bootstrap";
import type { Command } from "./command";
import { lastResortErrorResponse } from "../http/respond";
import type { Deps } from "../deps";
import { ensureDataDir, watchDataDirModes } from "../data-dir";
import { createLogger } from "../logger";
import { prepareDatabase } from "../startup/prepare";
import { startStartingServer, type StartupState } from "../startup/starting";
import { SERVICE_VERSION } from "../version";
import { CliError } from "./cli-error";
import { DATABASE_ENV } from "./help";
import { startAdminInterface, type AdminInterface } from "../admin/server";
import { exitOnUncaught, runStopSteps, startStopWatchdog, type StopStep } from "../process-faults";
import { serveRefusal, takeEarlyListener } from "../startup/early";
import { trimWhenIdle } from "../idle-footprint";
import { SERVE_LIMITS } from "../http/request-guard";

export const serveCommand: Command = {
  serves: true,
  env: [
    "PORT (default 3000)",
    "HOST (default 127.0.0.1; another interface needs PUBLIC_BASE_URL)",
    ...DATABASE_ENV,
    "PUBLIC_BASE_URL (the address clients use, in links and payment requirements)",
    "REDIS_URL, SMTP_URL, STRIPE_*, X402_*, LIGHTNING_BACKEND, METRICS_TOKEN, ...: every variable is listed in README, Configuration",
  ],
  async run(_args, config, ctx) {
    const refusal = serveRefusal(config);
    if (refusal) throw new CliError(refusal);
    const t0 = performance.now();
    // A DATA_DIR this process cannot use stops it with one line, before it listens.
    ensureDataDir(config.dataDir);
    const logger = createLogger(config.logLevel);
    const faults = exitOnUncaught(logger);
    const watchdog = await startStopWatchdog(logger);
    let deps: Deps | null = null;
    let admin: AdminInterface | null = null;
    let stopping = false;
    // Listening first: /api/health answers (with the start's progress) and data routes answer 503 with Retry-After
    // while the database is opened, or seeded on a worker thread (src/startup/prepare.ts), then the app takes over.
    // The starting answers come from a thread of their own: opening the embedded database blocks this one. The
    // entry point may have started it already, before this code was loaded (src/startup/early.ts).
    const early = takeEarlyListener();
    const state: StartupState = early?.state ?? { step: "starting", done: 0, total: 0, started_at: new Date().toISOString() };
    const database = config.databaseUrl ? "postgres" : "pglite";
    const starting = await (early?.starting ?? startStartingServer({ port: config.port, hostname: config.host, version: SERVICE_VERSION, database, state }));
    let server: ReturnType<typeof Bun.serve> | null = null;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      faults.stopping();
      const d = deps;
      const steps: StopStep[] = [
        { name: "admin interface", run: async () => admin?.stop(), ms: 5_000 },
        // Requests in flight finish (and are metered) before the meter closes.
        { name: "listener", run: async () => (server ? server.stop() : starting.stop()), ms: 5_000 },
        ...(d
          ? [
              // Running jobs get 10 s (src/jobs/runtime.ts); one that does not finish is retried by another process (or
              // the next start).
              { name: "job engine", run: () => d.jobs.stop(), ms: 20_000 },
              // Moves what the usage journal holds to the database (a crash loses nothing either: the next start replays it).
              { name: "usage journal", run: () => d.keys.close(), ms: 10_000 },
              { name: "database", run: () => d.database.close(), ms: 10_000 },
            ]
          : []),
      ];
      await runStopSteps(steps, logger, watchdog).finally(() => process.exit(0));
    };
    // Installed before the (possibly long) first-start seed, so a stop request is honoured at any point.
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    logger.info("listening", { url: `http://${config.host}:${starting.port}`, database, version: SERVICE_VERSION, serving: "health only until ready" });
    // First start: real data with no network (the seed ships in the repo), loaded on a worker thread (nodes starting
    // together on one empty PostgreSQL database seed once); later starts only check.
    const opened = await prepareDatabase(config, { logger, now: new Date(), onProgress: (p) => starting.update(Object.assign(state, p)) });
    if (stopping) return;
    deps = await buildDeps(config, { database: opened, logger });
    // Serve once key changes made by other processes reach this one (keys are not cached until then).
    if (!(await deps.keys.cache.ready(5000))) logger.warn("key changes from other processes are not heard yet: keys are looked up on every request until they are");
    // Provisioning, refresh, briefing and detection jobs, and the billing cycle (every minute, and once now): run here with JOBS=on (the default), else only enqueued for
    // `svc worker`. Signals over what an earlier `svc seed`/`svc import` wrote are detected by the detect job the engine
    // queues as it starts (the first-start seed detects its own, on its thread). Started before the app listens: the
    // engine's first statements on the embedded database hold this thread, and the starting listener answers meanwhile.
    await deps.jobs.start();
    const app = createApp(deps);
    // One request through the app before it listens: the first one through a route is the slow one.
    await app.request("/api/health");
    // Same port (SO_REUSEPORT): the app listens before the starting listener stops, so no request finds none.
    // Development mode off, whatever NODE_ENV says: the runtime's development error page shows paths and source lines.
    server = Bun.serve({ port: starting.port, hostname: config.host, reusePort: true, fetch: app.fetch, development: false, error: lastResortErrorResponse(logger), ...SERVE_LIMITS });
    await starting.stop();
    // The embedded database is open to this process only: the CLI's administrative commands are carried out here.
    if (deps.database.kind === "pglite" && ctx?.dispatch) admin = startAdminInterface({ deps, dataDir: config.dataDir, dispatch: ctx.dispatch });
    logger.info("ready", { url: `http://${config.host}:${server.port}`, database: deps.database.kind, version: deps.version, ms: Math.round(performance.now() - t0) });
    // Once quiet (the first start's work done, or traffic gone), the node gives back what its busy time left behind.
    trimWhenIdle();
    // A chmod of DATA_DIR while the server runs is noticed and undone within a minute.
    watchDataDirModes(config.dataDir, logger);
  },
};
