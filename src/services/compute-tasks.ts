// The CPU-heavy pure work the service does, by name: each task is a function of plain data to plain data (structured
// clone both ways), run by the compute pool (src/services/compute-pool.ts) on a worker thread
// (src/startup/compute-thread.ts), or on the calling thread when the pool has no threads. One table, read by both:
// a task's code exists once, whichever thread runs it.
import { detectSeriesChanges } from "../domain/signals";
import { drawSvg } from "./chart-svg";

export const COMPUTE_TASKS = {
  /** A chart's SVG from its input (src/services/chart.ts). */
  chartSvg: drawSvg,
  /** Signal detection and reconciliation over a batch of series (src/services/signal-detection.ts). */
  detectSignals: detectSeriesChanges,
} as const;

export type ComputeTasks = typeof COMPUTE_TASKS;
export type ComputeTaskName = keyof ComputeTasks;
export type ComputeInput<N extends ComputeTaskName> = Parameters<ComputeTasks[N]>[0];
export type ComputeOutput<N extends ComputeTaskName> = Awaited<ReturnType<ComputeTasks[N]>>;

/** A task posted to a compute thread, and its answer. */
export type ComputeRequest = { id: number; name: ComputeTaskName; input: unknown };
export type ComputeReply = { id: number; ok: true; output: unknown } | { id: number; ok: false; error: string };

/** Runs task `name` on `input` on this thread. */
export async function runComputeTask<N extends ComputeTaskName>(
  name: N,
  input: ComputeInput<N>,
): Promise<ComputeOutput<N>> {
  const task = COMPUTE_TASKS[name] as (input: ComputeInput<N>) => ComputeOutput<N> | Promise<ComputeOutput<N>>;
  return task(input);
}
