// How much upstream work callers without a key may start (unbounded, 6,000 anonymous requests for series not held
// queued 6,000 fetches, nine hours of work, ahead of a real user's request, at a pace that would spend a BLS daily key
// in minutes). A provisioning is one new series fetch; re-asking for a series already being fetched starts nothing.
// Definitions:
// - a stranger is a caller without a key that authenticates (a payment proof cannot be checked before the free
//   202 without spending it: payers are strangers here too, until they pay for data that is held), or with a key of
//   the free plan (six free keys signed up from one address in half a second filled the whole queue: a free key is
//   counted per key and per client address, each at the stranger's per-client limit);
// - a paying caller is a key of a paid plan, or anyone where access is open: it starts fetches up to the whole
//   queue and its jobs run first; what strangers may not take (the queue past `anonymousQueueMax`, the upstream
//   allowance past `upstreamShare`) is that class's reserve, which no flood of strangers can reach;
// - per client: at most `perClientPerMinute` new provisionings per client address in each fixed UTC minute;
// - per upstream: at most `perSourcePerMinute` per upstream per minute for all anonymous callers together, and never
//   more than `upstreamShare` of the upstream's own allowance (FRED 120 a minute; BLS 500 a day with a key, 25
//   without; Census 500 a day without a key): floor(share x allowance), at least 1 unless the share is 0;
// - queue: strangers start nothing while `anonymousQueueMax` or more series are being provisioned; paying
//   callers while `queueMax` or more are (their jobs also run first: a higher job priority), and at most their own
//   per-minute rate limit of new fetches a minute (the free 202 comes before the rate window counts).

/** Who asks, by what the provisioning budget grants: strangers share the bounded part, paying callers the rest. */
export type CallerClass = "stranger" | "paying";

/** The class of a caller with a key of `plan` (null: no key that authenticates). */
export function callerClass(plan: { paid: boolean } | null): CallerClass {
  return plan?.paid ? "paying" : "stranger";
}

/** The share of the queue held back for paying callers: what strangers can never fill. */
export function paidQueueReserve(limits: Pick<ProvisioningLimits, "anonymousQueueMax" | "queueMax">): number {
  return Math.max(0, limits.queueMax - limits.anonymousQueueMax);
}

export type ProvisioningLimits = {
  perClientPerMinute: number;
  perSourcePerMinute: number;
  upstreamShare: number;
  anonymousQueueMax: number;
  queueMax: number;
};

/** What anonymous callers may start against one upstream: per minute and per day (null: no daily bound). */
export type AnonymousAllowance = { perMinute: number; perDay: number | null };

/** An upstream's own allowance (src/upstream/limiter.ts providerLimits); null: none published. */
export type UpstreamAllowance = { perMinute: number | null; perDay: number | null };

export function anonymousAllowance(
  limits: ProvisioningLimits,
  upstream: UpstreamAllowance | undefined,
): AnonymousAllowance {
  const share = (n: number) =>
    n > 0 && limits.upstreamShare > 0 ? Math.max(1, Math.floor(n * limits.upstreamShare)) : 0;
  const perMinute =
    upstream?.perMinute != null
      ? Math.min(limits.perSourcePerMinute, share(upstream.perMinute))
      : limits.perSourcePerMinute;
  return { perMinute, perDay: upstream?.perDay != null ? share(upstream.perDay) : null };
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** The fixed window of `lengthMs` holding `t`, and whole seconds (at least 1) until it ends. */
export function fixedWindow(t: number, lengthMs: number): { index: number; secondsLeft: number; msLeft: number } {
  const index = Math.floor(t / lengthMs);
  const msLeft = (index + 1) * lengthMs - t;
  return { index, msLeft, secondsLeft: Math.max(1, Math.ceil(msLeft / 1000)) };
}
