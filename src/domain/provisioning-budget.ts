// How much upstream work callers without a key may start (issue 28: 6,000 anonymous requests for series not held
// queued 6,000 fetches, nine hours of work, ahead of a real user's request, at a pace that would spend a BLS daily key
// in minutes). A provisioning is one new series fetch; re-asking for a series already being fetched starts nothing.
// Definitions:
// - an anonymous caller is one without a key that authenticates (a payment proof cannot be checked before the free
//   202 without spending it: payers are strangers here too, until they pay for data that is held);
// - per client: at most `perClientPerMinute` new provisionings per client address in each fixed UTC minute;
// - per upstream: at most `perSourcePerMinute` per upstream per minute for all anonymous callers together, and never
//   more than `upstreamShare` of the upstream's own allowance (FRED 120 a minute; BLS 500 a day with a key, 25
//   without; Census 500 a day without a key): floor(share x allowance), at least 1 unless the share is 0;
// - queue: anonymous callers start nothing while `anonymousQueueMax` or more series are being provisioned; keyed
//   callers while `queueMax` or more are (their jobs also run first: a higher job priority), and at most their own
//   per-minute rate limit of new fetches a minute (the free 202 comes before the rate window counts).

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

export function anonymousAllowance(limits: ProvisioningLimits, upstream: UpstreamAllowance | undefined): AnonymousAllowance {
  const share = (n: number) => (n > 0 && limits.upstreamShare > 0 ? Math.max(1, Math.floor(n * limits.upstreamShare)) : 0);
  const perMinute = upstream?.perMinute != null ? Math.min(limits.perSourcePerMinute, share(upstream.perMinute)) : limits.perSourcePerMinute;
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
