// The last line of defence of a long-running process (svc serve, svc worker). Faults the code can contain are
// contained where they happen (a database outage is a 503: db/pg-faults.ts; the driver's write after close and its
// unawaited type fetch on a connection an outage closes are patched: patches/postgres@3.4.9.patch). An error that still reaches the top of the event loop means this process's
// state can no longer be trusted: it is logged as one JSON line, with its stack, and the process exits non-zero so
// that its supervisor (README "Deployment") starts a fresh one. Usage counted so far is safe: the memory-mapped
// journal is replayed by the next start.
import { isDatabaseUnavailable } from "../db/pg-faults";
import { errorText, redactQueryParams, type Logger } from "./logger";

/** The exit status of a process stopped by an error nothing contained (EX_SOFTWARE). */
export const UNCAUGHT_EXIT_CODE = 70;

export type UncaughtGuard = {
  /**
   * The process is stopping on request: from now on a query cut short by closing its database connections is the
   * stop's doing (its work is retried or replayed by the next start), logged and not turned into a failed exit.
   */
  stopping(): void;
};

export function exitOnUncaught(
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): UncaughtGuard {
  let stopping = false;
  const stop = (kind: string) => (e: unknown) => {
    if (stopping && isDatabaseUnavailable(e)) {
      logger.warn(`${kind} while stopping: a query cut short by the stop`, {
        error: String(e instanceof Error ? e.message : e),
      });
      return;
    }
    try {
      const stack = e instanceof Error && e.stack ? redactQueryParams(e.stack) : undefined;
      // A database driver's error names the statement it failed (postgres.js `query`): the stack of a connection
      // closed under a query shows only the socket's close, not who sent it.
      const query =
        typeof (e as { query?: unknown } | null)?.query === "string"
          ? redactQueryParams((e as { query: string }).query.slice(0, 300))
          : undefined;
      logger.error(`${kind}: the process exits so that its supervisor restarts it`, {
        error: String(e instanceof Error ? e.message : e),
        stack,
        ...(query ? { query } : {}),
      });
    } finally {
      exit(UNCAUGHT_EXIT_CODE);
    }
  };
  process.on("uncaughtException", stop("uncaught exception"));
  process.on("unhandledRejection", stop("unhandled rejection"));
  return { stopping: () => void (stopping = true) };
}

/** How long past the sum of its steps' bounds a stop may take before the watchdog ends the process. */
export const STOP_GRACE_MS = 5_000;

/** A step of a requested stop: its name, its work, and how long it may take. */
export type StopStep = { name: string; run: () => Promise<unknown>; ms: number };

/**
 * Runs a requested stop's steps in order, each for at most its `ms` (and all of them for at most their sum and
 * STOP_GRACE_MS when a watchdog is given, whatever holds this thread): a step that overruns (a library waiting on a
 * connection an outage broke) is logged by name and left behind, so a stop always ends and the steps after it still
 * run (the usage journal is flushed, the pool closed). What an abandoned step held is safe: running jobs expire and
 * are retried, the journal is replayed by the next start. A step that throws is logged and the stop goes on.
 * Answers the names of the steps that did not finish.
 */
export async function runStopSteps(
  steps: readonly StopStep[],
  logger: Logger,
  watchdog: StopWatchdog | null = null,
): Promise<string[]> {
  // The steps' bounds hold while this thread is free; the watchdog's thread ends the process if it is not.
  watchdog?.arm(steps.reduce((a, st) => a + st.ms, 0) + STOP_GRACE_MS);
  const unfinished: string[] = [];
  for (const { name, run, ms } of steps) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const overran = new Promise<"overran">((resolve) => (timer = setTimeout(() => resolve("overran"), ms)));
    try {
      if ((await Promise.race([run().then(() => "done" as const), overran])) === "overran") {
        unfinished.push(name);
        logger.warn("stop: a step did not finish in time and was left behind", { step: name, ms });
      }
    } catch (e) {
      unfinished.push(name);
      logger.warn("stop: a step failed", { step: name, error: errorText(e) });
    } finally {
      clearTimeout(timer);
    }
  }
  return unfinished;
}

/** The exit of a stop that overran its whole bound: the watchdog's SIGKILL (128 + 9), what a supervisor sees. */
export const STOP_WATCHDOG_SIGNAL = "SIGKILL";

// The watchdog's own thread: a stop's step may hold this process's thread (a computation that never yields, a
// database engine spinning on a data directory removed under it: 93 % CPU 70 s after SIGTERM), and then no timer of
// this thread fires. Armed with a deadline, it writes one JSON line and kills the process when the deadline passes.
const WATCHDOG_SOURCE = `
self.onmessage = (e) => {
  const { ms, msg } = e.data;
  setTimeout(() => {
    const line = JSON.stringify({ time: new Date().toISOString(), level: "error", msg, ms });
    try { require("node:fs").writeSync(2, line + "\\n"); } catch {}
    process.kill(process.pid, "SIGKILL");
  }, ms);
};
postMessage("ready");
`;

export type StopWatchdog = {
  /** From now on, the process ends within `ms` whatever its thread is doing. */
  arm(ms: number): void;
};

/**
 * Starts the watchdog thread (at start, while this thread is free: a thread is not started while this one is busy).
 * Null when a thread cannot be started here; the stop's own bounds then are all there is.
 */
export async function startStopWatchdog(logger: Logger): Promise<StopWatchdog | null> {
  try {
    const worker = new Worker(URL.createObjectURL(new Blob([WATCHDOG_SOURCE], { type: "application/javascript" })));
    await new Promise<void>((resolve, reject) => {
      const late = setTimeout(() => reject(new Error("the watchdog thread did not start within 5 s")), 5_000);
      worker.onmessage = () => (clearTimeout(late), resolve());
      worker.onerror = (e) => (clearTimeout(late), reject(e));
    }).catch((e) => {
      worker.terminate();
      throw e;
    });
    worker.unref();
    return {
      arm(ms) {
        worker.postMessage({ ms, msg: "stop: the whole stop overran its bound; the process is ended" });
      },
    };
  } catch (e) {
    logger.warn("stop watchdog unavailable: a stop is bounded by its steps' own limits only", { error: errorText(e) });
    return null;
  }
}
