// The job engine of one process: pg-boss over the app's database (src/jobs/boss.ts), its queues, and — when this
// process runs jobs (the server with JOBS=on, every `svc worker`) — the workers and the refresh crons.
//
// Its queues, their policies and why: src/jobs/queues.ts.
// Every process may enqueue and schedule; only a process that runs jobs maintains the queues and sends cron ticks.
import { detectChangedSeries } from "../services/signal-detection";
import { createAsker, type Asker } from "../services/ask";
import { briefingIdsAwaitingRun, runBriefing, scheduledBriefingIds } from "../services/briefings";
import { slotCron, weeklySlot } from "../domain/briefings";
import type { PgBoss, JobWithMetadata } from "pg-boss";
import type { Deps } from "../deps";
import { seriesJobKey } from "../domain/provisioning";
import type { JobQueue, QueueDepth, SeriesKey } from "../ports";
import { provisionSeries, provisioningLost, type ProvisionDeps } from "../services/provisioning";
import { refreshSource } from "../services/refresh";
import type { BillingDeps } from "../services/billing";
import { runBillingCycle } from "./billing";
import {
  BILLING_CRON,
  BILLING_KEY,
  BILLING_QUEUE,
  BRIEFING_QUEUE,
  BRIEFING_TZ,
  DETECT_CRON,
  DETECT_KEY,
  DETECT_QUEUE,
  KEYED_PRIORITY,
  PROVISION_LOST_QUEUE,
  PROVISION_QUEUE,
  QUEUES,
  REFRESH_QUEUE,
  setUpQueues,
} from "./queues";
import { openBoss, type OpenBoss } from "./boss";
import { inBackground } from "../../db/pglite-remote";

/** How long stop() waits for running jobs before letting them expire and be retried elsewhere. */
const STOP_GRACE_MS = 10_000;

export type JobDeps = Pick<Deps, "config" | "database" | "clock" | "logger" | "caches" | "fetcher">;

type ProvisionData = SeriesKey & { requestRef: string };
type RefreshData = { source: string };
type BriefingData = { briefingId: string };

export type JobRuntime = JobQueue & {
  /** The pg-boss instance once started (tests inspect jobs through it). */
  readonly boss: PgBoss | null;
  /** Runs one refresh of `source` now, through the queue (deduplicated with a scheduled one). */
  refreshNow(source: string): Promise<string | null>;
  /** Queues a billing run now (null when one is already queued). */
  billingNow(): Promise<string | null>;
};

/** What this process needs to work the billing queue (API nodes have it; `svc worker` does not). */
export type BillingWork = { deps: BillingDeps; baseUrl: string };

/**
 * `asker`: answers briefing runs (default: the ask service over these deps; tests pass one that fails). `billing`:
 * this process works the billing queue with these.
 */
export function createJobRuntime(
  deps: JobDeps,
  opts: { runsJobs?: boolean; concurrency?: number; asker?: Asker; billing?: BillingWork } = {},
): JobRuntime {
  const cfg = deps.config.jobs;
  const runsJobs = opts.runsJobs ?? cfg.inProcess;
  // The embedded database has one connection: more than one job at a time only queues up behind it.
  const concurrency = opts.concurrency ?? cfg.concurrency ?? (deps.database.kind === "pglite" ? 1 : 2);
  const store = { db: deps.database.db, caches: deps.caches };
  const now = () => deps.clock.now();
  const provisionDeps: ProvisionDeps = {
    store,
    fetcher: deps.fetcher,
    now,
    logger: deps.logger,
    settings: cfg.provision,
  };
  const asker = opts.asker ?? createAsker(deps);
  const runDeps = { db: deps.database.db, clock: deps.clock, logger: deps.logger };
  let opened: OpenBoss | null = null;
  let stopListening = () => {};
  let started: Promise<PgBoss> | null = null;
  /** Whether start() has finished (and stop() not begun). */
  let startedUp = false;

  const scheduleBriefing = (boss: PgBoss, id: string) =>
    boss.schedule(BRIEFING_QUEUE, slotCron(weeklySlot(id)), { briefingId: id } satisfies BriefingData, {
      key: id,
      tz: BRIEFING_TZ,
      singletonKey: id,
    });
  const sendBriefingRun = (boss: PgBoss, id: string) =>
    boss.send(BRIEFING_QUEUE, { briefingId: id } satisfies BriefingData, { singletonKey: id });

  /**
   * The briefings table is the source of truth: every runnable briefing has its schedule (written only where missing
   * or different), no schedule outlives its briefing, and a briefing with no good run yet is queued for one. The
   * schedules are read before the briefings, so a briefing saved meanwhile by another process (row first, then its
   * schedule) is never taken for an orphan.
   */
  async function reconcileBriefings(boss: PgBoss): Promise<void> {
    const schedules = new Map<string, string>();
    for (let page = await boss.getSchedules(BRIEFING_QUEUE); ; ) {
      for (const s of page) schedules.set(s.key, s.cron);
      if (page.length < 1000) break;
      page = await boss.getSchedules(BRIEFING_QUEUE, undefined, { after: page[page.length - 1]! });
    }
    const ids = await scheduledBriefingIds(store.db);
    const wanted = new Set(ids);
    for (const key of schedules.keys()) if (!wanted.has(key)) await boss.unschedule(BRIEFING_QUEUE, key);
    for (const id of ids) if (schedules.get(id) !== slotCron(weeklySlot(id))) await scheduleBriefing(boss, id);
    const awaiting = await briefingIdsAwaitingRun(store.db);
    for (const id of awaiting) await sendBriefingRun(boss, id);
    deps.logger.info("briefing schedules reconciled", { briefings: ids.length, queued_first_runs: awaiting.length });
  }

  const sendDetect = (boss: PgBoss) => boss.send(DETECT_QUEUE, {}, { singletonKey: DETECT_KEY });

  async function startWorkers(boss: PgBoss): Promise<void> {
    // NOTIFY wakes a worker for a new job only: a retry coming due after its backoff is found by polling, so the poll
    // keeps its pace while NOTIFY is active (pg-boss would otherwise slow it to 30 s).
    const polling = {
      pollingIntervalSeconds: cfg.pollSeconds,
      notifyPollingIntervalSeconds: cfg.pollSeconds,
      includeMetadata: true as const,
      batchSize: 1,
      localConcurrency: concurrency,
    };
    await boss.work<ProvisionData>(PROVISION_QUEUE, polling, async ([job]) => {
      const j = job as JobWithMetadata<ProvisionData>;
      const k = { indicatorId: j.data.indicatorId, regionCode: j.data.regionCode };
      return provisionSeries(provisionDeps, k, {
        retryCount: j.retryCount,
        retryLimit: j.retryLimit,
        requestRef: j.data.requestRef,
      });
    });
    await boss.work<ProvisionData>(PROVISION_LOST_QUEUE, { ...polling, localConcurrency: 1 }, async ([job]) => {
      const k = { indicatorId: job.data.indicatorId, regionCode: job.data.regionCode };
      return provisioningLost(provisionDeps, k, job.data.requestRef);
    });
    await boss.work<RefreshData>(REFRESH_QUEUE, { ...polling, localConcurrency: 1 }, async ([job]) => {
      const { changed } = await refreshSource(
        { store, fetcher: deps.fetcher, now, logger: deps.logger },
        job.data.source,
      );
      return { changed_series: changed.length };
    });
    await boss.work(DETECT_QUEUE, { ...polling, localConcurrency: 1 }, async () => {
      const t0 = performance.now();
      // Drains the outbox, including what is written while it runs (a write then cannot queue another job: one per key).
      const s = await detectChangedSeries({ db: store.db, caches: store.caches, now });
      if (s.series > 0)
        deps.logger.info("signals detected over changed series", {
          series: s.series,
          inserted: s.inserted,
          updated: s.updated,
          removed: s.removed,
          ms: Math.round(performance.now() - t0),
        });
      return { series: s.series, inserted: s.inserted, updated: s.updated, removed: s.removed };
    });
    await boss.work<BriefingData>(BRIEFING_QUEUE, { ...polling, localConcurrency: 1 }, async ([job]) => {
      const out = await runBriefing(runDeps, asker, job.data.briefingId);
      // Stored as failed: the queue tries again later (each attempt is a run of its own).
      if (out.kind === "stored" && out.run.status === "failed") throw new Error(out.run.error ?? "briefing run failed");
      return out.kind === "stored" ? { run: out.run.id, status: out.run.status } : { outcome: out.kind };
    });
    // Config is the source of truth: a source turned off loses its schedule, a changed cron replaces the old one.
    for (const s of cfg.refresh.schedules) {
      if (s.cron)
        await boss.schedule(
          REFRESH_QUEUE,
          s.cron,
          { source: s.source },
          { key: s.source, tz: cfg.refresh.timezone, singletonKey: s.source },
        );
      else await boss.unschedule(REFRESH_QUEUE, s.source);
    }
    await reconcileBriefings(boss);
    await boss.schedule(DETECT_QUEUE, DETECT_CRON, {}, { key: DETECT_KEY, singletonKey: DETECT_KEY });
    await boss.schedule(BILLING_QUEUE, BILLING_CRON, {}, { key: BILLING_KEY, singletonKey: BILLING_KEY });
    // What was written while no process ran jobs (`svc seed`, `svc import` on the embedded database).
    await sendDetect(boss);
  }

  /** Works the billing queue here, and runs the cycle once now (a run missed while no server ran is done at once). */
  async function workBilling(boss: PgBoss, billing: BillingWork): Promise<void> {
    const polling = { pollingIntervalSeconds: cfg.pollSeconds, batchSize: 1, localConcurrency: 1 };
    await boss.work(BILLING_QUEUE, polling, async () => {
      const tick = await runBillingCycle(billing.deps, { baseUrl: billing.baseUrl });
      return {
        month: tick.month,
        invoiced: tick.invoiced.length,
        retried: tick.retried.length,
        ended: tick.ended.length,
        errors: tick.errors,
      };
    });
    await sendBilling(boss);
  }

  /** Queues a billing run (one waits at a time: a run already queued swallows this one). */
  const sendBilling = (boss: PgBoss) => boss.send(BILLING_QUEUE, {}, { singletonKey: BILLING_KEY });

  async function boot(): Promise<PgBoss> {
    opened = openBoss(
      deps.database,
      { runsJobs, poolMax: cfg.poolMax, superviseSeconds: cfg.superviseSeconds, pollSeconds: cfg.pollSeconds },
      deps.logger,
    );
    const boss = opened.boss;
    await boss.start();
    await setUpQueues(boss, cfg.provision);
    // Workers started in the background context carry it into every job they run: on the embedded database their
    // statements give way to requests' (db/pglite-host.ts).
    if (runsJobs) await inBackground(deps.database, () => startWorkers(boss));
    const billing = opts.billing;
    if (billing) await inBackground(deps.database, () => workBilling(boss, billing));
    // This process's own writes queue detection at once (the cron and the start catch everyone else's).
    stopListening = deps.database.events.onSeriesWritten(
      () =>
        void sendDetect(boss).catch((e) => deps.logger.warn("could not queue signal detection", { error: String(e) })),
    );
    deps.logger.info("job engine started", {
      runs_jobs: runsJobs,
      concurrency: runsJobs ? concurrency : 0,
      database: deps.database.kind,
    });
    return boss;
  }

  function running(): Promise<PgBoss> {
    if (!started) throw new Error("the job engine is not started");
    return started;
  }

  return {
    runsJobs,
    get boss() {
      return opened?.boss ?? null;
    },
    async start() {
      started ??= boot();
      await started;
      startedUp = true;
    },
    async provision(job, opts) {
      const boss = await running();
      await boss.send(PROVISION_QUEUE, job, {
        singletonKey: seriesJobKey(job.indicatorId, job.regionCode),
        priority: opts?.first ? KEYED_PRIORITY : 0,
      });
    },
    async scheduleBriefing(id) {
      await scheduleBriefing(await running(), id);
    },
    async unscheduleBriefing(id) {
      const boss = await running();
      await boss.unschedule(BRIEFING_QUEUE, id);
    },
    async runBriefingNow(id) {
      await sendBriefingRun(await running(), id);
    },
    async refreshNow(source) {
      const boss = await running();
      return boss.send(REFRESH_QUEUE, { source }, { singletonKey: source });
    },
    async billingNow() {
      return sendBilling(await running());
    },
    async depth() {
      // Health asks: an engine still starting has nothing to count yet, and health must not wait for it.
      if (!started || !startedUp) return null;
      const boss = await started;
      // Asked together: on the embedded database the statements then run back to back on its thread, instead of one
      // crossing between the threads per queue while a health request waits.
      return Promise.all(
        QUEUES.map(async (queue): Promise<QueueDepth> => {
          // Counted by pg-boss's monitor (every JOBS_SUPERVISE_SECONDS) or afresh when the count is older than a minute.
          const [s] = await boss.getQueueStats(queue, { force: true });
          return {
            queue,
            queued: s?.queuedCount ?? 0,
            active: s?.activeCount ?? 0,
            deferred: s?.deferredCount ?? 0,
            counted_at: s?.capturedOn ? new Date(s.capturedOn).toISOString() : null,
          };
        }),
      );
    },
    async counts() {
      if (!started) return null;
      const boss = await started;
      return (await boss.getQueues([...QUEUES])).map((q) => ({
        queue: q.name,
        queued: q.queuedCount,
        active: q.activeCount,
        deferred: q.deferredCount,
        failed: q.failedCount,
      }));
    },
    async stop() {
      if (!started) return;
      const s = started;
      started = null;
      startedUp = false;
      stopListening();
      try {
        const boss = await s;
        await boss.stop({ graceful: true, timeout: STOP_GRACE_MS, close: true });
      } catch (e) {
        deps.logger.warn("job engine did not stop cleanly", { error: e instanceof Error ? e.message : String(e) });
      } finally {
        await opened?.release();
        opened = null;
      }
    },
  };
}
