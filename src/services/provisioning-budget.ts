// The bounds on provisioning work that callers start (rules: src/domain/provisioning-budget.ts). Counted with the
// per-key rate-limit store (src/services/rate-limit-stores.ts), in fixed windows: in this process, or in Redis
// (REDIS_URL) so that every node shares one count. The queue length is read from the provisioning table, shared by
// every node. Asked only when a request would start a new provisioning: re-asking for a series already being fetched
// costs nothing and is always answered 202.
import { countProvisioning } from "../../db/repos/provisioning";
import { anonymousAllowance, DAY_MS, fixedWindow, MINUTE_MS, type ProvisioningLimits, type UpstreamAllowance } from "../domain/provisioning-budget";
import { ApiError } from "../errors";
import type { Db } from "../../db/client";
import type { RateLimitStore } from "../ports";
import type { AuthenticatedKey } from "./keys";

/**
 * Who asks: a caller whose key authenticated (`key`: its id, hint and per-minute limit; null where access is open and
 * there are no keys), or anyone else, by client address (null: unknown, counted as one).
 */
export type ProvisioningCaller = { keyed: boolean; client: string | null; key: { id: string; hint: string; perMinute: number } | null };

export type ProvisioningBudget = {
  /** Throws the refusal (429 or 503, with Retry-After) when `caller` may not start a provisioning from `upstream` now. */
  admit(db: Db, caller: ProvisioningCaller, upstream: string, now: Date): Promise<void>;
};

/** A caller nobody identified (a context no request set a caller on). */
export const ANONYMOUS_CALLER: ProvisioningCaller = Object.freeze({ keyed: false, client: null, key: null });
/** Anyone, where access is open (no keys, no payments): no strangers to tell apart. */
export const OPEN_CALLER: ProvisioningCaller = Object.freeze({ keyed: true, client: null, key: null });

export function keyedCaller(key: Pick<AuthenticatedKey, "id" | "hint" | "rateLimitPerMinute">): ProvisioningCaller {
  return { keyed: true, client: null, key: { id: key.id, hint: key.hint, perMinute: key.rateLimitPerMinute } };
}

const SIGNUP = "Send an API key to be served first (free keys: POST /v1/signup).";

export function provisioningBudget(deps: { rateLimits: RateLimitStore; limits: ProvisioningLimits; upstreamAllowance(upstream: string): UpstreamAllowance | null }): ProvisioningBudget {
  const { rateLimits, limits } = deps;
  const count = async (subject: string, t: number, lengthMs: number) => {
    const w = fixedWindow(t, lengthMs);
    return { n: await rateLimits.hit(`provision:${subject}`, w.index, w.msLeft + 1000), after: w.secondsLeft };
  };
  return {
    async admit(db, caller, upstream, now) {
      const t = now.getTime();
      const queued = await countProvisioning(db);
      const queueMax = caller.keyed ? limits.queueMax : limits.anonymousQueueMax;
      if (queued >= queueMax) {
        throw busy(`${queued} series are being fetched; new fetches${caller.keyed ? "" : " for callers without a key"} start once fewer than ${queueMax} are.${caller.keyed ? "" : ` ${SIGNUP}`}`, 30, { queued, queue_max: queueMax });
      }
      if (caller.keyed) {
        // A key starts at most its own per-minute limit of new fetches: the 202s come before its rate window counts.
        if (!caller.key) return;
        const key = await count(`key:${caller.key.id}`, t, MINUTE_MS);
        if (key.n > caller.key.perMinute) {
          throw new ApiError(
            "RATE_LIMIT_EXCEEDED",
            `Key ${caller.key.hint} may start at most ${caller.key.perMinute} fetches of series not held yet per minute; retry in ${key.after} s.`,
            { limit: caller.key.perMinute, retry_after_seconds: key.after },
            { retryAfterSeconds: key.after },
          );
        }
        return;
      }
      const client = await count(`client:${caller.client ?? "unknown"}`, t, MINUTE_MS);
      if (client.n > limits.perClientPerMinute) {
        throw new ApiError(
          "RATE_LIMIT_EXCEEDED",
          `At most ${limits.perClientPerMinute} series not held yet may be requested per minute without a key; retry in ${client.after} s. ${SIGNUP}`,
          { limit: limits.perClientPerMinute, retry_after_seconds: client.after },
          { retryAfterSeconds: client.after },
        );
      }
      const allowance = anonymousAllowance(limits, deps.upstreamAllowance(upstream) ?? undefined);
      const minute = await count(`upstream:${upstream}`, t, MINUTE_MS);
      if (minute.n > allowance.perMinute) {
        throw busy(`Callers without a key may start at most ${allowance.perMinute} fetches from '${upstream}' per minute; retry in ${minute.after} s. ${SIGNUP}`, minute.after, { upstream, limit: allowance.perMinute });
      }
      if (allowance.perDay !== null) {
        const day = await count(`upstream-day:${upstream}`, t, DAY_MS);
        if (day.n > allowance.perDay) {
          throw busy(`Callers without a key may start at most ${allowance.perDay} fetches from '${upstream}' per day (a share of its daily allowance); retry in ${day.after} s. ${SIGNUP}`, day.after, { upstream, limit: allowance.perDay });
        }
      }
    },
  };
}

function busy(message: string, retryAfter: number, details: Record<string, unknown>): ApiError {
  return new ApiError("SERVICE_UNAVAILABLE", message, { ...details, retry_after_seconds: retryAfter }, { retryAfterSeconds: retryAfter });
}
