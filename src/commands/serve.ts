import { createApp } from "../app";
import { buildDeps } from "../bootstrap";
import { SCHEMA_LOCK } from "../../db/client";
import { terminalProgress } from "../progress";
import { seedIfNeeded } from "./seed";
import { createBillingJob, type BillingJob } from "../jobs/billing";
import { baseUrlOf } from "./access-cli";
import type { Command } from "./command";
import { lastResortErrorResponse } from "../http/respond";
import type { Deps } from "../deps";
import { detectSignalsForIndicators } from "../services/signal-detection";
import { CliError } from "./cli-error";
import { exitOnUncaught } from "../process-faults";
import { baseUrlRefusal } from "../docs/base-url";
import { SERVE_LIMITS } from "../http/request-guard";

async function detectSeededSignals(deps: Deps): Promise<void> {
  const t0 = performance.now();
  try {
    const s = await detectSignalsForIndicators({ db: deps.database.db, caches: deps.caches, now: () => deps.clock.now() });
    deps.logger.info("signals detected over the seeded series", { series: s.series, intervals: s.inserted, ms: Math.round(performance.now() - t0) });
  } catch (e) {
    deps.logger.error("signal detection over the seed failed (run `svc signals detect`)", { error: String(e) });
  }
}

export const serveCommand: Command = {
  summary: "Start the HTTP server (migrates, and seeds an empty database with real sample data).",
  async run(_args, config) {
    if (!config.jobs.inProcess && !config.databaseUrl) {
      throw new CliError("JOBS=off needs DATABASE_URL: the embedded database is open to one process only, so no 'svc worker' could run the jobs.");
    }
    const refusal = baseUrlRefusal(config);
    if (refusal) throw new CliError(refusal);
    const deps = await buildDeps(config);
    exitOnUncaught(deps.logger);
    let server: ReturnType<typeof Bun.serve> | null = null;
    let billingJob: BillingJob | null = null;
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      try {
        // Requests in flight finish (and are metered) before the meter closes; at most 5 s.
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
    const seeded = await deps.database.exclusive(SCHEMA_LOCK, (locked) => seedIfNeeded(locked, { now: deps.clock.now(), progress: terminalProgress(), logger: deps.logger }));
    // Serve once key changes made by other processes reach this one (keys are not cached until then).
    if (!(await deps.keys.cache.ready(5000))) deps.logger.warn("key changes from other processes are not heard yet: keys are looked up on every request until they are");
    // Provisioning, refresh and briefing jobs: run here with JOBS=on (the default), else only enqueued for `svc worker`.
    await deps.jobs.start();
    const app = createApp(deps);
    // Development mode off, whatever NODE_ENV says: the runtime's development error page shows paths and source lines.
    server = Bun.serve({ port: config.port, hostname: config.host, fetch: app.fetch, development: false, error: lastResortErrorResponse(deps.logger), ...SERVE_LIMITS });
    // Monthly overage at month rollover, unpaid subscriptions ended after dunning (src/jobs/billing.ts).
    billingJob = createBillingJob(deps, { baseUrl: baseUrlOf(config) });
    billingJob.start();
    deps.logger.info("listening", { url: `http://${config.host}:${server.port}`, database: deps.database.kind, version: deps.version });
    // Signals over what the seed just loaded, while the server already answers (`svc signals detect` does the same).
    if (seeded) void detectSeededSignals(deps);
  },
};
