import { createApp } from "../app";
import { buildDeps } from "../bootstrap";
import type { Command } from "./command";
import { lastResortErrorResponse } from "../http/respond";
import type { Deps } from "../deps";
import { ensureDataDir, watchDataDirModes } from "../data-dir";
import { createLogger } from "../logger";
import { startDatabaseThread } from "../startup/database-start";
import { warmUp } from "../startup/warm-up";
import { startStartingServer, type StartupState } from "../startup/starting";
import { SERVICE_VERSION } from "../version";
import { CliError } from "./cli-error";
import { DATABASE_ENV } from "./help";
import { startAdminInterface, type AdminInterface } from "../admin/server";
import { exitOnUncaught, runStopSteps, startStopWatchdog, type StopStep } from "../process-faults";
import { serveRefusal } from "../startup/early";
import { releaseMemory, trimWhenIdle } from "../idle-footprint";
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
    const early = ctx?.early ?? null;
    const state: StartupState = early?.state ?? {
      step: "starting",
      done: 0,
      total: 0,
      started_at: new Date().toISOString(),
    };
    const database = config.databaseUrl ? "postgres" : "pglite";
    const starting = await (early?.starting ??
      startStartingServer({ port: config.port, hostname: config.host, version: SERVICE_VERSION, database, state }));
    // The database opens on a thread of its own (the entry point started it, or now): src/startup/database-start.ts.
    const thread = await (early?.database ?? startDatabaseThread(config, new Date()));
    thread.onProgress((p) => starting.update(Object.assign(state, p)));
    let server: ReturnType<typeof Bun.serve> | null = null;
    let jobsStarted = false;
    const stop = async (exitCode = 0) => {
      if (stopping) return;
      stopping = true;
      faults.stopping();
      const d = deps;
      await runStopSteps(
        [
          { name: "admin interface", run: async () => admin?.stop(), ms: 5_000 },
          // Requests in flight finish (and are metered) before the meter closes.
          { name: "listener", run: async () => (server ? server.stop() : starting.stop()), ms: 5_000 },
          ...(d
            ? [
                // Running jobs get 10 s (src/jobs/runtime.ts); one that does not finish is retried by another process (or
                // the next start).
                ...(jobsStarted ? [{ name: "job engine", run: () => d.jobs.stop(), ms: 20_000 }] : []),
                // After the jobs (a detection waits on them); a chart still drawing fails, its listener closed already.
                { name: "compute threads", run: () => d.caches.compute.close(), ms: 1_000 },
                // Moves what the usage journal holds to the database (a crash loses nothing either: the next start replays it).
                { name: "usage journal", run: () => d.keys.close(), ms: 10_000 },
                { name: "database", run: () => d.database.close(), ms: 10_000 },
              ]
            : [{ name: "database", run: () => thread.stop(), ms: 10_000 }]),
        ],
        logger,
        watchdog,
      ).finally(() => process.exit(exitCode));
    };
    // Installed before the (possibly long) first-start seed, so a stop request is honoured at any point.
    process.on("SIGINT", () => stop());
    process.on("SIGTERM", () => stop());
    logger.info("listening", {
      url: `http://${config.host}:${starting.port}`,
      database,
      version: SERVICE_VERSION,
      serving: "health only until ready",
    });
    const opened = await thread.opened;
    // A first start serves once the regions and the catalog are stored (its data follows, part by part).
    await Promise.race([thread.loading.whenStored("catalog"), thread.done]);
    if (stopping) return;
    deps = await buildDeps(config, { database: opened, logger, loading: thread.loading, jobThread: thread });
    const d = deps;
    // Serve once key changes made by other processes reach this one (keys are not cached until then).
    if (!(await d.keys.cache.ready(5000)))
      logger.warn(
        "key changes from other processes are not heard yet: keys are looked up on every request until they are",
      );
    const app = createApp(d);
    const everything = thread.loading.complete;
    // What the first requests need, done before the app listens: they are then as fast as the next ones.
    await warmUp(app, d);
    // Same port (SO_REUSEPORT): the app listens before the starting listener stops, so no request finds none.
    // Development mode off, whatever NODE_ENV says: the runtime's development error page shows paths and source lines.
    server = Bun.serve({
      port: starting.port,
      hostname: config.host,
      reusePort: true,
      fetch: app.fetch,
      development: false,
      error: lastResortErrorResponse(logger),
      ...SERVE_LIMITS,
    });
    // Provisioning, refresh, briefing and detection jobs, and the billing cycle (every minute, and once now): run here
    // with JOBS=on (the default: on the job thread, src/startup/job-start.ts; billing on this one), else only enqueued
    // for `svc worker`. Started once the start's work is done (its
    // detection drains what a seed wrote; the engine's own detect job drains what an earlier `svc import` wrote) and
    // the app listens: its start, some hundred statements, would otherwise queue on the database's thread beside the
    // warm-up's reads and hold "ready" back. Asked for before this thread waits again, so no request that queues a
    // fetch finds the engine not yet asked to start.
    // A database that goes away while the engine starts (an outage, a restart) is waited for, never a reason to stop a
    // server that already answers: the start is tried again, 1 s, 2 s ... 30 s apart, until it succeeds or the server stops.
    const jobs = thread.done.then(async () => {
      for (let attempt = 1; !stopping; attempt++) {
        try {
          await d.jobs.start();
          jobsStarted = true;
          return;
        } catch (e) {
          await d.jobs.stop();
          const retryMs = Math.min(30_000, 1_000 * 2 ** (attempt - 1));
          logger.warn("the job engine could not start; trying again", {
            error: String(e),
            attempt,
            retry_in_ms: retryMs,
          });
          await Bun.sleep(retryMs);
        }
      }
    });
    await starting.stop();
    // The embedded database is open to this process only: the CLI's administrative commands are carried out here.
    if (d.database.kind === "pglite" && ctx?.dispatch)
      admin = startAdminInterface({ deps: d, dataDir: config.dataDir, dispatch: ctx.dispatch });
    const url = `http://${config.host}:${server.port}`;
    const ready = () =>
      logger.info("ready", {
        url,
        database: d.database.kind,
        version: d.version,
        ms: Math.round(performance.now() - t0),
      });
    if (everything) {
      ready();
      // The job engine's first statements run on the database's thread, beside the first requests.
      jobs.catch((e) => {
        logger.error("the job engine did not start; stopping", { error: String(e) });
        void stop(1);
      });
    } else {
      // A first start: what is stored is served now, the rest part by part; "ready" once every part is.
      logger.info("serving what is stored", {
        url,
        database: d.database.kind,
        version: d.version,
        ms: Math.round(performance.now() - t0),
        loading: thread.loading.report().loading,
      });
      jobs.then(ready, (e) => {
        logger.error("the start could not store its data; stopping (the next start goes on from what is stored)", {
          error: String(e),
        });
        void stop(1);
      });
    }
    // Once quiet (the first start's work done, or traffic gone), the node gives back what its busy time left behind.
    trimWhenIdle({
      trim: () => {
        releaseMemory();
        thread.trim();
        d.caches.compute.trim();
      },
    });
    // A chmod of DATA_DIR while the server runs is noticed and undone within a minute.
    watchDataDirModes(config.dataDir, logger);
  },
};
