// Service health: the database answers a `select 1` within a bounded time, or the service is unavailable; while Redis
// does not answer, rate limits are counted per process and the service is degraded (still 200).
import type { Database } from "../../db/client";
import type { RateLimitStore } from "../ports";
import type { HealthReport } from "../schemas/discovery";
import { CONTRACT_VERSION } from "../version";

/** A probe that hangs (unreachable host, exhausted pool) counts as down after this long. */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;

export type HealthOptions = {
  version: string;
  timeoutMs?: number;
  /** Monotonic milliseconds; injected so tests can fix the measured latency. */
  now?: () => number;
};

export async function checkHealth(database: Pick<Database, "kind" | "ping">, rateLimits: Pick<RateLimitStore, "kind" | "shared">, opts: HealthOptions): Promise<HealthReport> {
  const now = opts.now ?? (() => performance.now());
  const started = now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), opts.timeoutMs ?? HEALTH_PROBE_TIMEOUT_MS);
  });
  const ok = await Promise.race([database.ping().catch(() => false), timedOut]);
  clearTimeout(timer);
  const latency = Math.max(0, now() - started);
  const shared = rateLimits.shared();
  return {
    status: !ok ? "unavailable" : shared ? "ok" : "degraded",
    version: opts.version,
    contract_version: CONTRACT_VERSION,
    database: { kind: database.kind, ok, latency_ms: Math.round(latency * 100) / 100 },
    rate_limits: { store: rateLimits.kind, shared },
  };
}
