// The job engine's queues (src/jobs/runtime.ts runs them), with the policy and retries of each.
//
// Queues:
// - `provision`: policy exclusive, singletonKey = the series, so one job per series waits or runs however many
//   requests and processes ask; retries with exponential backoff (PROVISION_RETRY_*); a job whose worker died is
//   retried after PROVISION_EXPIRE_SECONDS, or PROVISION_HEARTBEAT_SECONDS without a heartbeat. Its dead letter queue
//   `provision-lost` receives jobs that failed without the handler's last word (a worker lost on the last attempt):
//   the series is then marked failed, so requests are told instead of waiting forever.
// - `refresh`: policy exclusive keyed by source (a refresh still running swallows the next tick), fed by one pg-boss
//   cron schedule per source (REFRESH_SCHEDULES, read in REFRESH_TZ). pg-boss keeps schedules in the database and
//   sends each tick once across every instance that runs crons.
// - `briefing`: policy exclusive keyed by briefing (one run of a briefing waits or runs at a time, across processes),
//   fed by one pg-boss cron schedule per briefing (its weekly slot, src/domain/briefings.ts, in UTC) and by a first
//   run when a briefing is saved. Each run is stored (src/services/briefings.ts runBriefing); a failed one is retried
//   twice, 5 and 10 minutes later. A process that runs jobs reconciles the schedules with the briefings table when
//   it starts (a briefing saved while no engine ran gets its schedule, a deleted one loses it) and queues a run of
//   every briefing that has no good run yet (the public ones after the first-start seed).
// - `detect`: signal detection after every write of a series. The database records each changed series in
//   series_changes (triggers on `series`, in the writer's transaction, whichever process wrote: seed, `svc import`,
//   `svc ingest`, provisioning, refresh); one job (policy exclusive, one key) drains it in batches, oldest first.
//   Sent when this process writes a series (the database's write events, db/events.ts), when a process that
//   runs jobs starts (what `svc seed` or `svc import` wrote while no server ran), and by a one-minute cron (other
//   processes' writes on a shared PostgreSQL). Never run on the thread of a request.
// - `billing`: the billing cycle (src/jobs/billing.ts), policy exclusive with one key (one run at a time across every
//   process), fed by a one-minute cron and by a run when a server starts. Worked by the processes that hold the
//   billing dependencies (API nodes: mail, the billing provider, the key meter), whether or not they run other jobs.
import type { PgBoss } from "pg-boss";
import type { JobsConfig } from "../config";

export const PROVISION_QUEUE = "provision";
export const PROVISION_LOST_QUEUE = "provision-lost";
/** pg-boss takes higher priorities first: keyed callers' fetches before strangers'. */
export const KEYED_PRIORITY = 10;
export const REFRESH_QUEUE = "refresh";
export const BRIEFING_QUEUE = "briefing";
export const DETECT_QUEUE = "detect";
export const BILLING_QUEUE = "billing";
export const QUEUES = [
  PROVISION_QUEUE,
  PROVISION_LOST_QUEUE,
  REFRESH_QUEUE,
  BRIEFING_QUEUE,
  DETECT_QUEUE,
  BILLING_QUEUE,
] as const;
export const BILLING_KEY = "billing-cycle";
export const BILLING_CRON = "* * * * *";
/** A billing run may take this long (provider calls with retries) before it is taken to be lost. */
const BILLING_EXPIRE_SECONDS = 900;
export const DETECT_KEY = "changed-series";
/** Other processes' writes (a shared PostgreSQL) are picked up at least this often. */
export const DETECT_CRON = "* * * * *";
/** Briefing schedules are read in UTC (their slots are UTC). */
export const BRIEFING_TZ = "UTC";

/** A refresh may read thousands of series: it may run this long before it is taken to be lost. */
const REFRESH_EXPIRE_SECONDS = 4 * 3600;
/** A briefing run (one deep ask) may run this long before it is taken to be lost. */
const BRIEFING_EXPIRE_SECONDS = 900;
/** Finished jobs are kept a day for inspection (pg-boss deletes them after). */
const KEEP_FINISHED_SECONDS = 86_400;

/** Creates the queues and applies this configuration's options to them. */
export async function setUpQueues(boss: PgBoss, p: JobsConfig["provision"]): Promise<void> {
  await ensureQueue(
    boss,
    PROVISION_LOST_QUEUE,
    { policy: "standard" },
    { retryLimit: 2, retryDelay: 5, retryBackoff: true, deleteAfterSeconds: KEEP_FINISHED_SECONDS },
  );
  await ensureQueue(
    boss,
    PROVISION_QUEUE,
    { policy: "exclusive" },
    {
      retryLimit: p.retryLimit,
      retryDelay: p.retryDelaySeconds,
      retryBackoff: true,
      retryDelayMax: p.retryDelayMaxSeconds,
      expireInSeconds: p.expireSeconds,
      heartbeatSeconds: p.heartbeatSeconds,
      deadLetter: PROVISION_LOST_QUEUE,
      deleteAfterSeconds: KEEP_FINISHED_SECONDS,
      notify: true,
    },
  );
  await ensureQueue(
    boss,
    REFRESH_QUEUE,
    { policy: "exclusive" },
    {
      retryLimit: 2,
      retryDelay: 60,
      retryBackoff: true,
      retryDelayMax: 900,
      expireInSeconds: REFRESH_EXPIRE_SECONDS,
      deleteAfterSeconds: 7 * KEEP_FINISHED_SECONDS,
      notify: true,
    },
  );
  await ensureQueue(
    boss,
    DETECT_QUEUE,
    { policy: "exclusive" },
    {
      retryLimit: 3,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 600,
      expireInSeconds: REFRESH_EXPIRE_SECONDS,
      deleteAfterSeconds: KEEP_FINISHED_SECONDS,
      notify: true,
    },
  );
  await ensureQueue(
    boss,
    BILLING_QUEUE,
    { policy: "exclusive" },
    {
      retryLimit: 0,
      expireInSeconds: BILLING_EXPIRE_SECONDS,
      deleteAfterSeconds: KEEP_FINISHED_SECONDS,
    },
  );
  await ensureQueue(
    boss,
    BRIEFING_QUEUE,
    { policy: "exclusive" },
    {
      retryLimit: 2,
      retryDelay: 300,
      retryBackoff: true,
      retryDelayMax: 900,
      expireInSeconds: BRIEFING_EXPIRE_SECONDS,
      deleteAfterSeconds: 7 * KEEP_FINISHED_SECONDS,
      notify: true,
    },
  );
}

/** Creates the queue if it is new, and applies the options of this configuration to it either way. */
async function ensureQueue(
  boss: PgBoss,
  name: string,
  fixed: { policy: "standard" | "exclusive" },
  options: Record<string, unknown>,
): Promise<void> {
  await boss.createQueue(name, { ...fixed, ...options } as never);
  await boss.updateQueue(name, options as never);
}
