// A compute thread (a Bun Worker of the compute pool, src/services/compute-pool.ts): runs the tasks posted to it
// (src/services/compute-tasks.ts), one at a time, at a lower priority than the server's other threads, and answers each
// with its output or its error's message.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { runComputeTask, type ComputeReply, type ComputeRequest } from "../services/compute-tasks";

declare const self: Worker;

/** The nice value of a compute thread: below the threads that answer requests and hold the database. */
const COMPUTE_NICE = 10;

// On Linux a thread has a nice value of its own (/proc/thread-self names its id): lowered, a render or a detection batch
// gives the CPU to the thread that answers requests whenever both want it. Elsewhere, or where refused, it runs as is.
try {
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (tid > 0) setPriority(tid, COMPUTE_NICE);
} catch {
  // Not Linux, or not allowed: the same work at the same priority.
}

const post = (m: ComputeReply) => self.postMessage(m);

self.onmessage = (event: MessageEvent<ComputeRequest>) => {
  const { id, name, input } = event.data;
  runComputeTask(name, input as never).then(
    (output) => post({ id, ok: true, output }),
    (e: unknown) => post({ id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
};
