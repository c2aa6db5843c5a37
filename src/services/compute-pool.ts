// The compute pool: CPU-heavy pure work (src/services/compute-tasks.ts: chart SVGs, signal detection) run on a bounded
// set of worker threads (src/startup/compute-thread.ts), so the thread that answers requests only posts plain data
// and waits. Tasks wait in one first-in first-out queue for the first idle thread; a thread is started when a task
// first needs it and does not keep the process alive. A caller that a client is waiting on asks to be refused when
// the queue is full (503 SERVICE_UNAVAILABLE with Retry-After: the client comes back, no one waits forever); work of
// the job engine queues whatever the length (a job runs one batch at a time, so it adds one task at most).
// With no threads (COMPUTE_THREADS=0) every task runs on the calling thread: the same function, no queue.
import { ApiError } from "../errors";
import {
  runComputeTask,
  type ComputeInput,
  type ComputeOutput,
  type ComputeReply,
  type ComputeRequest,
  type ComputeTaskName,
} from "./compute-tasks";

export type ComputePool = {
  /** Worker threads (0: tasks run on the calling thread). */
  readonly threads: number;
  /** Runs task `name`; `refuseWhenBusy`: a 503 instead of a place in a full queue. */
  run<N extends ComputeTaskName>(
    name: N,
    input: ComputeInput<N>,
    opts?: { refuseWhenBusy?: boolean },
  ): Promise<ComputeOutput<N>>;
  /** Tasks waiting for a thread. */
  queued(): number;
  /** Ends the threads with no task (the server went quiet: what they loaded, Vega first, is given back); started again on demand. */
  trim(): void;
  /** Ends the threads; tasks waiting or running fail. */
  close(): Promise<void>;
};

/** One compute thread, as the pool drives it (a Bun Worker: workerThread; tests may hold replies back). */
export type ComputeThread = {
  post(request: ComputeRequest): void;
  /** Called with each reply, and with the reason when the thread fails (its task is then lost). */
  listen(onReply: (reply: ComputeReply) => void, onFailure: (why: string) => void): void;
  end(): void;
};

export type ComputePoolOptions = {
  threads: number;
  /** Tasks that may wait for a thread before a caller asking `refuseWhenBusy` is refused. */
  queueMax: number;
  /** Starts a thread (workerThread of the compute thread's entry point, src/startup/worker-entry.ts). */
  startThread: () => ComputeThread;
};

/** A Bun Worker running `entry` (src/startup/compute-thread.ts); it does not keep the process alive. */
export function workerThread(entry: string): ComputeThread {
  const worker = new Worker(entry);
  worker.unref();
  return {
    post: (request) => worker.postMessage(request),
    listen(onReply, onFailure) {
      worker.onmessage = (event: MessageEvent<ComputeReply>) => onReply(event.data);
      worker.onerror = (event) => onFailure(event.message);
    },
    end: () => worker.terminate(),
  };
}

/** A refused task's Retry-After: a render takes well under a second, so a second frees a place in a queue that moves. */
export const COMPUTE_BUSY_RETRY_AFTER_SECONDS = 1;

type Task = { request: ComputeRequest; resolve(output: unknown): void; reject(e: Error): void };
type Slot = { thread: ComputeThread | null; task: Task | null };

/** Every task on the calling thread (no threads, no queue). */
export function inProcessCompute(): ComputePool {
  return {
    threads: 0,
    run: (name, input) => runComputeTask(name, input),
    queued: () => 0,
    trim: () => {},
    close: async () => {},
  };
}

export function computePool(opts: ComputePoolOptions): ComputePool {
  if (opts.threads === 0) return inProcessCompute();
  const slots: Slot[] = Array.from({ length: opts.threads }, () => ({ thread: null, task: null }));
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  const lose = (slot: Slot, why: string) => {
    const task = slot.task;
    slot.thread?.end();
    slot.thread = null;
    slot.task = null;
    task?.reject(new Error(`a compute thread failed: ${why}`));
    dispatch();
  };

  const start = (slot: Slot): ComputeThread => {
    const thread = opts.startThread();
    thread.listen(
      (m) => {
        const task = slot.task;
        if (!task || task.request.id !== m.id) return;
        slot.task = null;
        if (m.ok) task.resolve(m.output);
        else task.reject(new Error(m.error));
        dispatch();
      },
      (why) => lose(slot, why),
    );
    return thread;
  };

  function dispatch(): void {
    for (const slot of slots) {
      if (closed || queue.length === 0) return;
      if (slot.task) continue;
      const task = queue.shift()!;
      slot.task = task;
      (slot.thread ??= start(slot)).post(task.request);
    }
  }

  return {
    threads: opts.threads,
    run(name, input, runOpts) {
      if (closed) return Promise.reject(new Error("the compute pool is closed"));
      const idle = slots.some((s) => !s.task);
      if (runOpts?.refuseWhenBusy && !idle && queue.length >= opts.queueMax) {
        const message = `The server's compute threads are busy (${queue.length} tasks waiting): try again in a moment.`;
        return Promise.reject(
          new ApiError(
            "SERVICE_UNAVAILABLE",
            message,
            { queued: queue.length },
            { retryAfterSeconds: COMPUTE_BUSY_RETRY_AFTER_SECONDS, noStore: true },
          ),
        );
      }
      return new Promise((resolve, reject) => {
        queue.push({ request: { id: nextId++, name, input }, resolve: resolve as (output: unknown) => void, reject });
        dispatch();
      });
    },
    queued: () => queue.length,
    trim() {
      for (const slot of slots) {
        if (slot.task || !slot.thread) continue;
        slot.thread.end();
        slot.thread = null;
      }
    },
    async close() {
      closed = true;
      const gone = new Error("the compute pool is closed");
      for (const t of queue.splice(0)) t.reject(gone);
      for (const slot of slots) {
        slot.task?.reject(gone);
        slot.task = null;
        slot.thread?.end();
        slot.thread = null;
      }
    },
  };
}
