import { createApp } from "../app";
import { buildDeps } from "../bootstrap";
import { SCHEMA_LOCK } from "../../db/client";
import { terminalProgress } from "../progress";
import { seedIfNeeded } from "./seed";
import { createBillingJob, type BillingJob } from "../jobs/billing";
import { baseUrlOf } from "./access-cli";
import type { Command } from "./command";
import { lastResortErrorResponse } from "../http/respond";
import { CliError } from "./cli-error";
import { DATABASE_ENV } from "./help";
import { startAdminInterface, type AdminInterface } from "../admin/server";
import { exitOnUncaught } from "../process-faults";
import { baseUrlRefusal } from "../docs/base-url";
import { SERVE_LIMITS } from "../http/request-guard";

export const serveCommand: Command = {
  summary: "Start the HTTP server (migrates, and seeds an empty database with real sample data).",
  serves: true,
  env: [
    "PORT (default 3000)",
    "HOST (default 127.0.0.1; another interface needs PUBLIC_BASE_URL)",
    ...DATABASE_ENV,
    "PUBLIC_BASE_URL (the address clients use, in links and payment requirements)",
    "REDIS_URL, SMTP_URL, STRIPE_*, X402_*, LIGHTNING_BACKEND, METRICS_TOKEN, ...: every variable is listed in README, Configuration",
  ],
  async run(_args, config, ctx) {
    if (!config.jobs.inProcess && !config.databaseUrl) {
      throw new CliError("JOBS=off needs DATABASE_URL: the embedded database is open to one process only, so no 'svc worker' could run the jobs.");
    }
    const refusal = baseUrlRefusal(config);
    if (refusal) throw new CliError(refusal);
    const deps = await buildDeps(config);
    exitOnUncaught(deps.logger);
    let server: ReturnType<typeof Bun.serve> | null = null;
    let billingJob: BillingJob | null = null;
    let admin: AdminInterface | null = null;
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      try {
        // Requests in flight finish (and are metered) before the meter closes; at most 5 s.
        await admin?.stop();
        if (server) await Promise.race([server.stop(), Bun.sleep(5000)]);
        await billingJob?.stop();
        // Running jobs get a few seconds; one that does not finish is retried by another process (or the next start).
        await deps.jobs.stop();
        // Moves what the usage journal holds to the database (a crash loses nothing either: the next start replays it).
        await deps.keys.close();
        await deps.database.close();
      } finally {
        process.exit(0);
      }
    };
    // Installed before the (possibly long) first-start seed, so a stop request is honoured at any point.
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    // First start: real data with no network (the seed ships in the repo); later starts only check. Under the schema
    // lock: nodes starting together on one empty PostgreSQL database seed once, the others wait and find it seeded.
    await deps.database.exclusive(SCHEMA_LOCK, (locked) => seedIfNeeded(locked, { now: deps.clock.now(), progress: terminalProgress(), logger: deps.logger }));
    // Serve once key changes made by other processes reach this one (keys are not cached until then).
    if (!(await deps.keys.cache.ready(5000))) deps.logger.warn("key changes from other processes are not heard yet: keys are looked up on every request until they are");
    // Provisioning, refresh, briefing and detection jobs: run here with JOBS=on (the default), else only enqueued for
    // `svc worker`. Signals over what the seed (or an earlier `svc seed`/`svc import`) wrote are detected by the
    // detect job the engine queues as it starts.
    await deps.jobs.start();
    const app = createApp(deps);
    // Development mode off, whatever NODE_ENV says: the runtime's development error page shows paths and source lines.
    server = Bun.serve({ port: config.port, hostname: config.host, fetch: app.fetch, development: false, error: lastResortErrorResponse(deps.logger), ...SERVE_LIMITS });
    // Monthly overage at month rollover, unpaid subscriptions ended after dunning (src/jobs/billing.ts).
    billingJob = createBillingJob(deps, { baseUrl: baseUrlOf(config) });
    billingJob.start();
    // The embedded database is open to this process only: the CLI's administrative commands are carried out here.
    if (deps.database.kind === "pglite" && ctx?.dispatch) admin = startAdminInterface({ deps, dataDir: config.dataDir, dispatch: ctx.dispatch });
    deps.logger.info("listening", { url: `http://${config.host}:${server.port}`, database: deps.database.kind, version: deps.version });
  },
};
