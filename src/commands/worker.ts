// `svc worker [--concurrency N]`: runs provisioning and refresh jobs in a process of its own. Several workers and API
// nodes (JOBS=off, or on) on one PostgreSQL share the queues: pg-boss hands each job to one worker (SKIP LOCKED),
// keeps one job per series, and retries a job whose worker died. On the embedded database the server already runs
// the jobs and holds the data directory, so a worker there is for a stopped server only.
import { parseArgs } from "node:util";
import { buildJobDeps } from "../bootstrap";
import { openConfiguredDatabase } from "../configured-database";
import { createJobRuntime, type JobDeps, type JobRuntime } from "../jobs/runtime";
import { createLogger } from "../logger";
import { trimWhenIdle } from "../idle-footprint";
import { CliError } from "./cli-error";
import { exitOnUncaught, runStopSteps, startStopWatchdog } from "../process-faults";
import type { Command } from "./command";

/** Starts the jobs of `deps` in this process until SIGINT or SIGTERM, then stops them and closes the database. */
export async function runWorker(deps: JobDeps, opts: { concurrency?: number } = {}): Promise<JobRuntime> {
  const faults = exitOnUncaught(deps.logger);
  const watchdog = await startStopWatchdog(deps.logger);
  const jobs = createJobRuntime(deps, { runsJobs: true, concurrency: opts.concurrency });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    faults.stopping();
    await runStopSteps(
      [
        { name: "job engine", run: () => jobs.stop(), ms: 20_000 },
        { name: "compute threads", run: () => deps.caches.compute.close(), ms: 1_000 },
        { name: "database", run: () => deps.database.close(), ms: 10_000 },
      ],
      deps.logger,
      watchdog,
    ).finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await jobs.start();
  deps.logger.info("worker ready", { pid: process.pid, database: deps.database.kind });
  return jobs;
}

export const workerCommand: Command = {
  usage: "[--concurrency N]",
  serves: true,
  env: [
    "DATABASE_URL (required: the PostgreSQL database the API nodes use)",
    "JOBS_CONCURRENCY (jobs at once, default 2)",
    "FRED_API_KEY, BLS_API_KEY, CENSUS_API_KEY and the *_BASE_URL of the providers (see README)",
    "DATA_DIR (default ./data: this process's files)",
  ],
  async run(args, config) {
    let concurrency: number | undefined;
    try {
      const { values } = parseArgs({ args, options: { concurrency: { type: "string" } } });
      if (values.concurrency !== undefined) {
        concurrency = Number(values.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
          throw new Error("--concurrency must be an integer from 1 to 32");
      }
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    const logger = createLogger(config.logLevel);
    const database = await openConfiguredDatabase(config);
    await runWorker(buildJobDeps(config, database, logger), { concurrency });
    trimWhenIdle();
  },
};
