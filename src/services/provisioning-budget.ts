// The bounds on provisioning work that callers start (rules: src/domain/provisioning-budget.ts). Counted with the
// per-key rate-limit store (src/services/rate-limit-stores.ts), in fixed windows: in this process, or in Redis
// (REDIS_URL) so that every node shares one count. The queue length is read from the provisioning table, shared by
// every node. Asked only when a request would start a new provisioning: re-asking for a series already being fetched
// costs nothing and is always answered 202.
import { countProvisioning } from "../../db/repos/provisioning";
import {
  anonymousAllowance,
  callerClass,
  DAY_MS,
  fixedWindow,
  MINUTE_MS,
  paidQueueReserve,
  type CallerClass,
  type ProvisioningLimits,
  type UpstreamAllowance,
} from "../domain/provisioning-budget";
import { isPaidPlan } from "../plans";
import { addressGroup } from "../domain/access";
import { ApiError } from "../errors";
import type { Db } from "../../db/client";
import type { RateLimitStore } from "../ports";
import type { AuthenticatedKey } from "./key-auth";
import { waitText } from "../domain/wait";

/**
 * Who asks: its class (src/domain/provisioning-budget.ts: a paid plan's key, or anyone where access is open, is
 * paying; a free key or no key is a stranger), its client address (null: unknown, counted as one) and its key (id,
 * hint, per-minute limit; null without one).
 */
export type ProvisioningCaller = {
  class: CallerClass;
  client: string | null;
  key: { id: string; hint: string; perMinute: number } | null;
};

export type ProvisioningBudget = {
  /** Throws the refusal (429 or 503, with Retry-After) when `caller` may not start a provisioning from `upstream` now. */
  admit(db: Db, caller: ProvisioningCaller, upstream: string, now: Date): Promise<void>;
};

/** A caller nobody identified (a context no request set a caller on). */
export const ANONYMOUS_CALLER: ProvisioningCaller = Object.freeze({ class: "stranger", client: null, key: null });
/** Anyone, where access is open (no keys, no payments): no strangers to tell apart. */
export const OPEN_CALLER: ProvisioningCaller = Object.freeze({ class: "paying", client: null, key: null });

/** A caller whose key authenticated, from `client`: paying on a paid plan, a stranger with a key on the free plan. */
export function keyedCaller(
  key: Pick<AuthenticatedKey, "id" | "hint" | "rateLimitPerMinute" | "plan">,
  client: string | null,
): ProvisioningCaller {
  return {
    class: callerClass({ paid: isPaidPlan(key.plan) }),
    client,
    key: { id: key.id, hint: key.hint, perMinute: key.rateLimitPerMinute },
  };
}

const SIGNUP = "Send an API key to be served first (free keys: POST /v1/signup).";
const UPGRADE = "Keys of a paid plan are served first (plans: GET /checkout).";

export function provisioningBudget(deps: {
  rateLimits: RateLimitStore;
  limits: ProvisioningLimits;
  upstreamAllowance(upstream: string): UpstreamAllowance | null;
}): ProvisioningBudget {
  const { rateLimits, limits } = deps;
  const count = async (subject: string, t: number, lengthMs: number) => {
    const w = fixedWindow(t, lengthMs);
    return { n: await rateLimits.hit(`provision:${subject}`, w.index, w.msLeft + 1000), after: w.secondsLeft };
  };
  const perMinuteRefusal = (who: string, limit: number, after: number, hint: string) =>
    new ApiError(
      "RATE_LIMIT_EXCEEDED",
      `${who} may start at most ${limit} fetches of series not held yet per minute; retry in ${waitText(after)}.${hint ? ` ${hint}` : ""}`,
      { limit, retry_after_seconds: after },
      { retryAfterSeconds: after },
    );
  return {
    async admit(db, caller, upstream, now) {
      const t = now.getTime();
      const paying = caller.class === "paying";
      const hint = paying ? "" : caller.key ? UPGRADE : SIGNUP;
      const queued = await countProvisioning(db);
      const queueMax = paying ? limits.queueMax : Math.min(limits.anonymousQueueMax, limits.queueMax);
      if (queued >= queueMax) {
        const reserve = paying ? {} : { reserved_for_paid_plans: paidQueueReserve(limits) };
        throw busy(
          `${queued} series are being fetched; new fetches${paying ? "" : " for callers without a paid plan"} start once fewer than ${queueMax} are.${hint ? ` ${hint}` : ""}`,
          30,
          { queued, queue_max: queueMax, ...reserve },
        );
      }
      if (paying) {
        // A key starts at most its own per-minute limit of new fetches: the 202s come before its rate window counts.
        if (!caller.key) return;
        const key = await count(`key:${caller.key.id}`, t, MINUTE_MS);
        if (key.n > caller.key.perMinute)
          throw perMinuteRefusal(`Key ${caller.key.hint}`, caller.key.perMinute, key.after, "");
        return;
      }
      // A free key is counted twice, as itself and as its client address: many free keys from one address share one count.
      if (caller.key) {
        const key = await count(`key:${caller.key.id}`, t, MINUTE_MS);
        const limit = Math.min(caller.key.perMinute, limits.perClientPerMinute);
        if (key.n > limit) throw perMinuteRefusal(`Key ${caller.key.hint} (free plan)`, limit, key.after, hint);
      }
      const client = await count(
        `client:${caller.client === null ? "unknown" : addressGroup(caller.client)}`,
        t,
        MINUTE_MS,
      );
      if (client.n > limits.perClientPerMinute) {
        if (caller.key)
          throw perMinuteRefusal("Free keys from one address together", limits.perClientPerMinute, client.after, hint);
        throw new ApiError(
          "RATE_LIMIT_EXCEEDED",
          `At most ${limits.perClientPerMinute} series not held yet may be requested per minute without a key; retry in ${waitText(client.after)}. ${SIGNUP}`,
          { limit: limits.perClientPerMinute, retry_after_seconds: client.after },
          { retryAfterSeconds: client.after },
        );
      }
      const allowance = anonymousAllowance(limits, deps.upstreamAllowance(upstream) ?? undefined);
      const minute = await count(`upstream:${upstream}`, t, MINUTE_MS);
      if (minute.n > allowance.perMinute) {
        throw busy(
          `Callers without a paid plan may start at most ${allowance.perMinute} fetches from '${upstream}' per minute; retry in ${waitText(minute.after)}. ${hint}`,
          minute.after,
          { upstream, limit: allowance.perMinute },
        );
      }
      if (allowance.perDay !== null) {
        const day = await count(`upstream-day:${upstream}`, t, DAY_MS);
        if (day.n > allowance.perDay) {
          throw busy(
            `Callers without a paid plan may start at most ${allowance.perDay} fetches from '${upstream}' per day (a share of its daily allowance; the rest is kept for paid plans); retry in ${waitText(day.after)}. ${hint}`,
            day.after,
            { upstream, limit: allowance.perDay },
          );
        }
      }
    },
  };
}

function busy(message: string, retryAfter: number, details: Record<string, unknown>): ApiError {
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    message,
    { ...details, retry_after_seconds: retryAfter },
    { retryAfterSeconds: retryAfter },
  );
}
