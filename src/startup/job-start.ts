// The server's side of the job thread (src/startup/job-thread.ts). With JOBS=on the server's own engine only enqueues
// and works the billing queue (it needs this node's key meter and mail: src/jobs/runtime.ts); the workers and crons of
// every other queue run on the job thread. To the app this is one JobQueue: jobs run in this process (`runs_here`),
// enqueued through the server's engine.
// A job thread that fails (an error nothing caught, a start that did not succeed) is logged and started again, 1 s,
// 2 s ... 30 s apart; meanwhile `runsJobs` is false, so /api/health says jobs are not running here. On the embedded
// database its port to the database's thread is let go of first: what it left open there is rolled back.
import type { WriteEvents } from "../../db/events";
import type { Config } from "../config";
import type { JobRuntime } from "../jobs/runtime";
import { errorText, type Logger } from "../logger";
import type { DetectionSummary, JobQueue } from "../ports";
import type { DatabaseThread } from "./database-start";
import type { FromJobThread, ToJobThread } from "./messages";
import { workerEntry } from "./worker-entry";

/** How long the job thread may take to stop (its engine gives running jobs 10 s) before it is ended. */
export const JOB_THREAD_STOP_MS = 15_000;
const RESTART_MAX_MS = 30_000;
/** How long a detection asked before the job thread first started waits for it. */
const DETECTION_START_WAIT_MS = 60_000;

/** The job thread as the server drives it (a Bun Worker: jobWorker; tests may pass their own). */
export type JobThreadHandle = {
  post(message: ToJobThread, transfer?: MessagePort[]): void;
  /** `onExit`: the thread ended (its error, or null when it ended cleanly). */
  listen(onMessage: (m: FromJobThread) => void, onExit: (why: string | null) => void): void;
  end(): void;
};

export type JobThreadOptions = {
  config: Config;
  logger: Logger;
  /** The server's database events: the job thread's writes are told there (its caches listen). */
  events: WriteEvents;
  /** The database's thread: the job thread's port to the embedded database (null on PostgreSQL). */
  database: Pick<DatabaseThread, "jobPort" | "releaseJobPort">;
  startThread?: () => JobThreadHandle;
};

export function jobWorker(): JobThreadHandle {
  // smol: a smaller heap, collected more often (background work; the node's memory budget holds one more thread).
  const worker = new Worker(workerEntry("job-thread"), { smol: true });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    listen(onMessage, onExit) {
      worker.onmessage = (event: MessageEvent<FromJobThread>) => onMessage(event.data);
      worker.onerror = (event) => onExit(event.message || "an error nothing caught");
      worker.addEventListener("close", () => onExit(null));
    },
    end: () => worker.terminate(),
  };
}

/** The server's jobs: `local` (the server's own engine, which runs no jobs but billing) and the job thread. */
export function jobsOnThread(local: JobRuntime, opts: JobThreadOptions): JobQueue {
  const { config, logger } = opts;
  const startThread = opts.startThread ?? jobWorker;
  let thread: { handle: JobThreadHandle; stopped: Promise<void>; kill(why: string): void } | null = null;
  let down = false;
  let stopping = false;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;
  let failures = 0;
  // Bounded: the administrators' detections asked of the thread and not yet answered (each removed as it is).
  const detections = new Map<number, { resolve(s: DetectionSummary): void; reject(e: Error): void }>();
  let nextDetection = 1;
  // The thread's first start (the server starts its job engine once it is ready): a detection asked sooner waits for it.
  let firstStarted!: () => void;
  const everStarted = new Promise<void>((resolve) => (firstStarted = resolve));
  const abandonDetections = (why: string) => {
    for (const d of detections.values()) d.reject(new Error(`the job thread ended before the detection did: ${why}`));
    detections.clear();
  };

  /** Starts the job thread and resolves once its engine runs (rejects when it does not start). */
  function launch(): Promise<void> {
    const port = config.databaseUrl ? null : opts.database.jobPort();
    if (!config.databaseUrl && !port) return Promise.reject(new Error("the database is stopping"));
    const handle = startThread();
    let started = false;
    let ended = false;
    let exited!: () => void;
    const stopped = new Promise<void>((resolve) => (exited = resolve));
    const current = { handle, stopped, kill: (_why: string) => {} };
    thread = current;
    return new Promise<void>((resolve, reject) => {
      const gone = (current.kill = (why: string) => {
        if (ended) return;
        ended = true;
        handle.end();
        if (port) opts.database.releaseJobPort();
        exited();
        abandonDetections(why);
        if (thread === current) thread = null;
        if (!started) reject(new Error(`the job thread did not start: ${why}`));
        else if (!stopping) crashed(why);
      });
      handle.listen(
        (m) => {
          if ("detected" in m) {
            const d = detections.get(m.detected.id);
            detections.delete(m.detected.id);
            if ("error" in m.detected) d?.reject(new Error(m.detected.error));
            else d?.resolve(m.detected.summary);
          } else if ("events" in m) {
            if (m.events.catalog) opts.events.catalogWritten();
            if (m.events.series) opts.events.seriesWritten(m.events.series);
          } else if ("started" in m) {
            started = true;
            firstStarted();
            down = false;
            failures = 0;
            resolve();
          } else if ("failed" in m) gone(m.failed);
          else gone("stopped");
        },
        (why) => gone(why ?? "it ended"),
      );
      handle.post({ start: { config, port } }, port ? [port] : []);
    });
  }

  function crashed(why: string) {
    down = true;
    if (stopping) return;
    failures++;
    const retryMs = Math.min(RESTART_MAX_MS, 1_000 * 2 ** (failures - 1));
    logger.error("the job thread failed; starting it again", { error: why, attempt: failures, retry_in_ms: retryMs });
    restartTimer = setTimeout(() => {
      restartTimer = null;
      if (stopping) return;
      const attempt = failures;
      launch().then(
        () => logger.info("the job thread runs again", { attempt }),
        (e) => crashed(errorText(e)),
      );
    }, retryMs);
  }

  /** Asks the thread to stop, and ends it when it has not within JOB_THREAD_STOP_MS. */
  async function stopThread(): Promise<void> {
    const t = thread;
    if (!t) return;
    t.handle.post({ stop: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, JOB_THREAD_STOP_MS)));
    await Promise.race([t.stopped, late]);
    clearTimeout(timer);
    t.kill(`it did not stop within ${JOB_THREAD_STOP_MS} ms`);
  }

  return {
    get runsJobs() {
      return !down;
    },
    provision: (job, o) => local.provision(job, o),
    scheduleBriefing: (id) => local.scheduleBriefing(id),
    unscheduleBriefing: (id) => local.unscheduleBriefing(id),
    runBriefingNow: (id) => local.runBriefingNow(id),
    depth: () => local.depth(),
    async detectSignals(indicatorIds) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, DETECTION_START_WAIT_MS)));
      await Promise.race([everStarted, late]);
      clearTimeout(timer);
      const t = thread;
      if (!t || down) throw new Error("the job thread is not running (it is starting: see the server's log)");
      const id = nextDetection++;
      return new Promise<DetectionSummary>((resolve, reject) => {
        detections.set(id, { resolve, reject });
        t.handle.post({ detect: { id, indicatorIds: indicatorIds ?? null } });
      });
    },
    counts: () => local.counts?.() ?? Promise.resolve(null),
    async start() {
      stopping = false;
      await local.start();
      try {
        await launch();
      } catch (e) {
        down = true;
        throw e;
      }
    },
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      restartTimer = null;
      await Promise.all([
        stopThread().catch((e) => logger.warn("the job thread did not stop cleanly", { error: errorText(e) })),
        local.stop(),
      ]);
    },
  };
}
