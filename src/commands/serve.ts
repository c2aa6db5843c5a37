import { createApp } from "../app";
import { buildDeps } from "../bootstrap";
import { SCHEMA_LOCK } from "../../db/client";
import { terminalProgress } from "../progress";
import { seedIfEmpty } from "./seed";
import { createBillingJob, type BillingJob } from "../jobs/billing";
import { baseUrlOf } from "./access-cli";
import type { Command } from "./command";
import { lastResortErrorResponse } from "../http/respond";

export const serveCommand: Command = {
  summary: "Start the HTTP server (migrates, and seeds an empty database with real sample data).",
  async run(_args, config) {
    const deps = await buildDeps(config);
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
    await deps.database.exclusive(SCHEMA_LOCK, (locked) => seedIfEmpty(locked, { now: deps.clock.now(), progress: terminalProgress(), logger: deps.logger }));
    // Serve once key changes made by other processes reach this one (keys are not cached until then).
    if (!(await deps.keys.cache.ready(5000))) deps.logger.warn("key changes from other processes are not heard yet: keys are looked up on every request until they are");
    const app = createApp(deps);
    // Development mode off, whatever NODE_ENV says: the runtime's development error page shows paths and source lines.
    server = Bun.serve({ port: config.port, hostname: config.host, fetch: app.fetch, development: false, error: lastResortErrorResponse(deps.logger) });
    // Monthly overage at month rollover, unpaid subscriptions ended after dunning (src/jobs/billing.ts).
    billingJob = createBillingJob(deps, { baseUrl: baseUrlOf(config) });
    billingJob.start();
    deps.logger.info("listening", { url: `http://${config.host}:${server.port}`, database: deps.database.kind, version: deps.version });
  },
};
