// Service health: the database answers a `select 1` within a bounded time, or the service is unavailable; while Redis
// does not answer, rate limits are counted per process and the service is degraded (still 200). With the job engine
// given, the report adds queue depth and the last refresh of each source (read within the same time bound), read at
// most once a second: the queues' counts are pg-boss's monitor's anyway (each carries when it was counted), and a
// health check is then one statement, which on the embedded database waits for one statement of background work at
// most, where eight (six queues, the refreshes, the ping) took the database thread some 8 ms each time.
import type { Database } from "../../db/client";
import { listSourceRefreshes } from "../../db/repos/provisioning";
import type { JobsConfig } from "../config";
import type { BoundedCache } from "./bounded-cache";
import type { JobQueue, RateLimitStore } from "../ports";
import type { HealthReport } from "../schemas/discovery";
import { CONTRACT_VERSION } from "../version";

/** A probe that hangs (unreachable host, exhausted pool) counts as down after this long. */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;

export type HealthOptions = {
  version: string;
  timeoutMs?: number;
  /** Monotonic milliseconds; injected so tests can fix the measured latency. */
  now?: () => number;
  /**
   * The job engine and where refreshes are recorded; `memo` (the caches' "health.jobs" memo) keeps the section read
   * for JOBS_SECTION_FRESH_MS.
   */
  jobs?: {
    queue: Pick<JobQueue, "runsJobs" | "depth">;
    database: Pick<Database, "db">;
    config: Pick<JobsConfig, "refresh">;
    memo?: BoundedCache<string, JobsSection>;
  };
};

type JobsReport = NonNullable<HealthReport["jobs"]>;
/** A jobs section as read (null: the read failed) and when (HealthOptions.now). */
export type JobsSection = { at: number; report: Promise<JobsReport | null> };
export const JOBS_SECTION_FRESH_MS = 1_000;

function jobsSection(jobs: NonNullable<HealthOptions["jobs"]>, now: number): Promise<JobsReport | null> {
  const kept = jobs.memo?.get("jobs");
  if (kept && now - kept.at >= 0 && now - kept.at < JOBS_SECTION_FRESH_MS) return kept.report;
  const report = jobsReport(jobs).catch(() => null);
  jobs.memo?.set("jobs", { at: now, report });
  return report;
}

async function jobsReport(jobs: NonNullable<HealthOptions["jobs"]>): Promise<JobsReport> {
  const [queues, runs] = await Promise.all([
    jobs.queue.depth().catch(() => null),
    listSourceRefreshes(jobs.database.db),
  ]);
  const bySource = new Map(runs.map((r) => [r.source, r]));
  const schedules = new Map(jobs.config.refresh.schedules.map((s) => [s.source, s.cron]));
  const sources = [...new Set([...schedules.keys(), ...bySource.keys()])].sort();
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    runs_here: jobs.queue.runsJobs,
    queues,
    refresh: sources.map((source) => {
      const r = bySource.get(source);
      return {
        source,
        schedule: schedules.get(source) ?? null,
        timezone: jobs.config.refresh.timezone,
        status: r?.status ?? "never",
        last_started_at: iso(r?.lastStartedAt),
        last_finished_at: iso(r?.lastFinishedAt),
        last_success_at: iso(r?.lastSuccessAt),
        changed_series: r?.changedSeries ?? null,
        error: r?.lastError ?? null,
      };
    }),
  };
}

export async function checkHealth(
  database: Pick<Database, "kind" | "ping">,
  rateLimits: Pick<RateLimitStore, "kind" | "shared">,
  opts: HealthOptions,
): Promise<HealthReport> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), opts.timeoutMs ?? HEALTH_PROBE_TIMEOUT_MS);
  });
  // The jobs section is read beside the ping, not after it: on the embedded database every statement waits its turn
  // behind whatever runs there (a detection's reads), and one wait is shorter than two. It is shown only when the
  // database answered the ping, within the same bound.
  const jobsRead = opts.jobs ? jobsSection(opts.jobs, started) : null;
  const ok = await Promise.race([database.ping().catch(() => false), timedOut]);
  const latency = Math.max(0, now() - started);
  const jobs = ok && jobsRead ? await Promise.race([jobsRead, timedOut.then(() => null)]) : null;
  clearTimeout(timer);
  const shared = rateLimits.shared();
  return {
    status: !ok ? "unavailable" : shared ? "ok" : "degraded",
    version: opts.version,
    contract_version: CONTRACT_VERSION,
    database: { kind: database.kind, ok, latency_ms: Math.round(latency * 100) / 100 },
    rate_limits: { store: rateLimits.kind, shared },
    ...(jobs ? { jobs } : {}),
  };
}
