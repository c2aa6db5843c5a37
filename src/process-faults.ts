// The last line of defence of a long-running process (svc serve, svc worker). Faults the code can contain are
// contained where they happen (a database outage is a 503: db/pg-faults.ts; the driver's write after close is
// patched: patches/postgres@3.4.9.patch). An error that still reaches the top of the event loop means this process's
// state can no longer be trusted: it is logged as one JSON line, with its stack, and the process exits non-zero so
// that its supervisor (README "Deployment") starts a fresh one. Usage counted so far is safe: the memory-mapped
// journal is replayed by the next start.
import { redactQueryParams, type Logger } from "./logger";

/** The exit status of a process stopped by an error nothing contained (EX_SOFTWARE). */
export const UNCAUGHT_EXIT_CODE = 70;

export function exitOnUncaught(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  const stop = (kind: string) => (e: unknown) => {
    try {
      const stack = e instanceof Error && e.stack ? redactQueryParams(e.stack) : undefined;
      logger.error(`${kind}: the process exits so that its supervisor restarts it`, { error: String(e instanceof Error ? e.message : e), stack });
    } finally {
      exit(UNCAUGHT_EXIT_CODE);
    }
  };
  process.on("uncaughtException", stop("uncaught exception"));
  process.on("unhandledRejection", stop("unhandled rejection"));
}
