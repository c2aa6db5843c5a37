// The last line of defence of a long-running process (svc serve, svc worker). Faults the code can contain are
// contained where they happen (a database outage is a 503: db/pg-faults.ts; the driver's write after close is
// patched: patches/postgres@3.4.9.patch). An error that still reaches the top of the event loop means this process's
// state can no longer be trusted: it is logged as one JSON line, with its stack, and the process exits non-zero so
// that its supervisor (README "Deployment") starts a fresh one. Usage counted so far is safe: the memory-mapped
// journal is replayed by the next start.
import { isDatabaseUnavailable } from "../db/pg-faults";
import { redactQueryParams, type Logger } from "./logger";

/** The exit status of a process stopped by an error nothing contained (EX_SOFTWARE). */
export const UNCAUGHT_EXIT_CODE = 70;

export type UncaughtGuard = {
  /**
   * The process is stopping on request: from now on a query cut short by closing its database connections is the
   * stop's doing (its work is retried or replayed by the next start), logged and not turned into a failed exit.
   */
  stopping(): void;
};

export function exitOnUncaught(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): UncaughtGuard {
  let stopping = false;
  const stop = (kind: string) => (e: unknown) => {
    if (stopping && isDatabaseUnavailable(e)) {
      logger.warn(`${kind} while stopping: a query cut short by the stop`, { error: String(e instanceof Error ? e.message : e) });
      return;
    }
    try {
      const stack = e instanceof Error && e.stack ? redactQueryParams(e.stack) : undefined;
      logger.error(`${kind}: the process exits so that its supervisor restarts it`, { error: String(e instanceof Error ? e.message : e), stack });
    } finally {
      exit(UNCAUGHT_EXIT_CODE);
    }
  };
  process.on("uncaughtException", stop("uncaught exception"));
  process.on("unhandledRejection", stop("unhandled rejection"));
  return { stopping: () => void (stopping = true) };
}
