// One request limiter shared by every connector of a process: each provider's requests take turns (one queue per
// provider) and are spaced to its published limits:
//   FRED        120 requests a minute per key, and bursts above about 2 a second are refused (429);
//   BLS         500 queries a day with a key (v2), 25 without (v1); no per-second limit is published;
//   Census      about 500 a day without a key (third-party reports), none published with one;
//   World Bank  none published.
// After a 429 or an over-capacity answer the provider is paused (Retry-After when given) for every caller, not
// only the one that was refused. A wait longer than `maxWaitMs` is not slept through: the caller gets a retryable
// UpstreamError saying when to come back (a job is rescheduled instead of holding a worker). Counts live in this
// process; the provider's own refusal remains the authority when several processes share a key.
// Time comes from the injected clock and waits go through the injected sleep, so tests run on a manual clock.
import type { Clock } from "../ports";
import { UpstreamError, type ConnectorId } from "./types";

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export type ProviderLimits = {
  /** Least time between two requests' starts. */
  minIntervalMs: number;
  perMinute: number | null;
  /** Requests in any 24 hours. */
  perDay: number | null;
};

const MINUTE = 60_000;
const DAY = 86_400_000;

type State = { tail: Promise<void>; last: number | null; minute: number[]; day: number[]; pausedUntil: number };

export class UpstreamLimiter {
  // Bounded: one state per connector.
  private readonly states = new Map<ConnectorId, State>();

  constructor(
    private readonly limits: Record<ConnectorId, ProviderLimits>,
    private readonly clock: Clock,
    private readonly sleep: Sleep = realSleep,
    readonly maxWaitMs = 120_000,
  ) {}

  /** Resolves when `provider` may be sent one request (and counts it); throws a retryable UpstreamError instead of
   * waiting longer than maxWaitMs or past a daily allowance. */
  acquire(provider: ConnectorId): Promise<void> {
    const s = this.state(provider);
    const turn = s.tail.then(() => this.take(provider, s));
    s.tail = turn.catch(() => {});
    return turn;
  }

  /** The published limits `provider`'s requests are spaced to (null: not a connector of this registry). */
  limitsOf(provider: string): ProviderLimits | null {
    return (this.limits as Record<string, ProviderLimits>)[provider] ?? null;
  }

  /** Holds every request to `provider` until `untilMs` (epoch ms). */
  pause(provider: ConnectorId, untilMs: number): void {
    const s = this.state(provider);
    s.pausedUntil = Math.max(s.pausedUntil, untilMs);
  }

  /** Requests counted for `provider` in the last 24 hours. */
  usedToday(provider: ConnectorId): number {
    const s = this.state(provider);
    const now = this.clock.now().getTime();
    return s.day.filter((t) => t > now - DAY).length;
  }

  private state(provider: ConnectorId): State {
    let s = this.states.get(provider);
    if (!s)
      this.states.set(provider, (s = { tail: Promise.resolve(), last: null, minute: [], day: [], pausedUntil: 0 }));
    return s;
  }

  private async take(provider: ConnectorId, s: State): Promise<void> {
    const lim = this.limits[provider];
    for (;;) {
      const now = this.clock.now().getTime();
      while (s.minute.length && s.minute[0] <= now - MINUTE) s.minute.shift();
      while (s.day.length && s.day[0] <= now - DAY) s.day.shift();
      if (lim.perDay !== null && s.day.length >= lim.perDay) {
        throw new UpstreamError({
          provider,
          kind: "quota",
          retryable: true,
          retryAfterSeconds: Math.ceil((s.day[0] + DAY - now) / 1000),
          message: `the daily allowance of ${lim.perDay} requests is used up`,
        });
      }
      let at = s.pausedUntil;
      if (s.last !== null) at = Math.max(at, s.last + lim.minIntervalMs);
      if (lim.perMinute !== null && s.minute.length >= lim.perMinute) at = Math.max(at, s.minute[0] + MINUTE);
      if (at <= now) {
        s.last = now;
        s.minute.push(now);
        s.day.push(now);
        return;
      }
      if (at - now > this.maxWaitMs) {
        throw new UpstreamError({
          provider,
          kind: "rate_limited",
          retryable: true,
          retryAfterSeconds: Math.ceil((at - now) / 1000),
          message: `requests are held for ${Math.ceil((at - now) / 1000)} s by the rate limit`,
        });
      }
      await this.sleep(at - now);
    }
  }
}

/** The published limits (see the file comment); BLS and Census depend on whether a key is configured. */
export function providerLimits(keys: { bls: boolean; census: boolean }): Record<ConnectorId, ProviderLimits> {
  return {
    fred: { minIntervalMs: 500, perMinute: 120, perDay: null },
    bls: { minIntervalMs: 0, perMinute: null, perDay: keys.bls ? 500 : 25 },
    census: { minIntervalMs: 0, perMinute: null, perDay: keys.census ? null : 500 },
    worldbank: { minIntervalMs: 0, perMinute: null, perDay: null },
  };
}
