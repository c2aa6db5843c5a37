// A compute thread (a Bun Worker of the compute pool, src/services/compute-pool.ts): runs the tasks posted to it
// (src/services/compute-tasks.ts), one at a time, at a lower priority than the server's other threads, and answers each
// with its output or its error's message.
import { runComputeTask, type ComputeReply, type ComputeRequest } from "../services/compute-tasks";
import { lowerThreadPriority } from "./thread-priority";

declare const self: Worker;

// A render or a detection batch gives the CPU to the thread that answers requests whenever both want it.
lowerThreadPriority();

const post = (m: ComputeReply) => self.postMessage(m);

self.onmessage = (event: MessageEvent<ComputeRequest>) => {
  const { id, name, input } = event.data;
  runComputeTask(name, input as never).then(
    (output) => post({ id, ok: true, output }),
    (e: unknown) => post({ id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
};
