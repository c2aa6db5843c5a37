// Threads that do background work (compute threads, the job thread) run at a lower priority than the threads that
// answer requests and hold the database. On Linux a thread has a nice value of its own (/proc/thread-self names its
// id): lowered, background work gives the CPU to the thread that answers requests whenever both want it. Elsewhere,
// or where refused, it runs as is.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice value of a background thread: below the threads that answer requests and hold the database. */
export const BACKGROUND_NICE = 10;

/** Lowers the calling thread's priority to `nice` (Linux; elsewhere, or not allowed, nothing changes). */
export function lowerThreadPriority(nice = BACKGROUND_NICE): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not allowed: the same work at the same priority.
  }
}
