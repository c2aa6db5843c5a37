// Charts being drawn (uncached: src/services/chart.ts looks in the series cache first), on the compute pool:
// - one render per chart: a request for a chart already being drawn waits for that render instead of starting its own;
// - at most `perCaller` renders started by one caller (a key, or else a client address) at a time: one more is a 429
//   RATE_LIMIT_EXCEEDED with Retry-After, so one caller cannot hold every compute thread with charts that differ only
//   in their dates;
// - a full pool queue is its 503 (src/services/compute-pool.ts); the service's own charts (no caller) wait instead.
// Both maps hold renders under way only (an entry goes when its render ends): they are bounded by the pool's threads
// and queue.
import type { ChartInput } from "../domain/chart-spec";
import { ApiError } from "../errors";
import type { ComputePool } from "./compute-pool";

export type ChartRenders = {
  /**
   * The SVG of `input`, kept under `key`. `client`: drawn for a client's request (null: one of the service's own
   * charts, which waits for its turn); its `caller` (null: open access) is limited in the renders it has under way.
   */
  draw(key: string, input: ChartInput, client: { caller: string | null } | null): Promise<string>;
  /** Renders under way (distinct charts). */
  underWay(): number;
};

/** A refused caller's Retry-After: one of its renders ends within about a second. */
export const CHART_RENDER_RETRY_AFTER_SECONDS = 1;

export function chartRenders(compute: ComputePool, opts: { perCaller: number }): ChartRenders {
  const renders = new Map<string, Promise<string>>();
  const byCaller = new Map<string, number>();

  const release = (caller: string | null) => {
    if (caller === null) return;
    const n = (byCaller.get(caller) ?? 1) - 1;
    if (n <= 0) byCaller.delete(caller);
    else byCaller.set(caller, n);
  };

  return {
    draw(key, input, client) {
      const caller = client?.caller ?? null;
      const running = renders.get(key);
      if (running) return running;
      if (caller !== null) {
        const n = byCaller.get(caller) ?? 0;
        if (n >= opts.perCaller) {
          const message = `${n} charts not drawn before are being drawn for you; at most ${opts.perCaller} at a time: try again in a moment (charts drawn once are served at once).`;
          return Promise.reject(
            new ApiError(
              "RATE_LIMIT_EXCEEDED",
              message,
              { renders_under_way: n, limit: opts.perCaller },
              { retryAfterSeconds: CHART_RENDER_RETRY_AFTER_SECONDS, noStore: true },
            ),
          );
        }
        byCaller.set(caller, n + 1);
      }
      // The service's own charts (landing cards, briefing pages: a fixed set, kept once drawn) wait for their turn.
      const render = compute.run("chartSvg", input, { refuseWhenBusy: client !== null }).finally(() => {
        renders.delete(key);
        release(caller);
      });
      renders.set(key, render);
      return render;
    },
    underWay: () => renders.size,
  };
}

/**
 * Who a render is counted against (a ProvisioningCaller, src/services/provisioning-budget.ts, by its shape): the key,
 * else the client address (null: open access, where no one is limited).
 */
export function renderCaller(caller: {
  class: string;
  client: string | null;
  key: { id: string } | null;
}): string | null {
  if (caller.key) return `key:${caller.key.id}`;
  if (caller.client) return `client:${caller.client}`;
  return caller.class === "stranger" ? "stranger" : null;
}
