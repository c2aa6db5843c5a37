// Compute threads for tests (src/services/compute-pool.ts ComputeThread) that run each task with the real task table
// on this thread, but answer only when the test releases them: "a render is under way" is then a state a test sets,
// not a race it hopes to win.
import type { ComputeThread } from "../../src/services/compute-pool";
import { runComputeTask, type ComputeReply, type ComputeRequest } from "../../src/services/compute-tasks";

export type HeldThreads = {
  startThread: () => ComputeThread;
  /** Tasks posted to a thread and not yet answered. */
  held(): number;
  /** Answers every task held so far (each with the task's real output). */
  releaseAll(): Promise<void>;
  /** Resolves once `n` tasks are held. */
  whenHeld(n: number): Promise<void>;
};

export function heldThreads(): HeldThreads {
  const waiting: { request: ComputeRequest; reply: (r: ComputeReply) => void }[] = [];
  const watchers: { n: number; resolve(): void }[] = [];
  const notify = () => {
    for (const w of watchers.splice(0)) {
      if (waiting.length >= w.n) w.resolve();
      else watchers.push(w);
    }
  };
  return {
    startThread() {
      let reply: (r: ComputeReply) => void = () => {};
      return {
        post(request) {
          waiting.push({ request, reply: (r) => reply(r) });
          notify();
        },
        listen(onReply) {
          reply = onReply;
        },
        end() {},
      };
    },
    held: () => waiting.length,
    async releaseAll() {
      for (const { request, reply } of waiting.splice(0)) {
        const output = await runComputeTask(request.name, request.input as never);
        reply({ id: request.id, ok: true, output });
      }
    },
    whenHeld(n) {
      return new Promise((resolve) => {
        watchers.push({ n, resolve });
        notify();
      });
    },
  };
}
