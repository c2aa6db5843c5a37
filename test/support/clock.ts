import type { Clock, RandomSource } from "../../src/deps";

/** A clock that only moves when the test says so. */
export class ManualClock implements Clock {
  protected t: number;
  constructor(start: string | Date = "2026-11-22T12:00:00Z") {
    this.t = new Date(start).getTime();
  }
  now() {
    return new Date(this.t);
  }
  advance(ms: number) {
    this.t += ms;
  }
  set(at: string | Date) {
    this.t = new Date(at).getTime();
  }
}

/**
 * A clock that starts where the test says and then moves with real time, for runs checked against something that
 * follows the wall clock too (a local chain's block time, an x402 client's validAfter/validBefore): a frozen clock
 * drifts out of their window when a file runs for minutes on a busy machine. `advance` and `set` still move it, and
 * `hold` stops it (until `follow`) where a test steps to an exact instant.
 */
export class FollowingClock extends ManualClock {
  private origin: number | null = performance.now();
  override now() {
    return new Date(this.t + (this.origin === null ? 0 : performance.now() - this.origin));
  }
  override set(at: string | Date) {
    super.set(at);
    if (this.origin !== null) this.origin = performance.now();
  }
  /** Stops the clock, on its next whole second (what tokens and authorizations count in). */
  hold() {
    this.t = Math.ceil(this.now().getTime() / 1000) * 1000;
    this.origin = null;
  }
  follow() {
    if (this.origin === null) this.origin = performance.now();
  }
}

/** Deterministic bytes (xorshift32) so tests that mint keys or tokens repeat exactly. */
export function seededRandom(seed = 42): RandomSource {
  let s = seed >>> 0 || 1;
  return {
    bytes(n) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        s ^= s << 13;
        s >>>= 0;
        s ^= s >>> 17;
        s ^= s << 5;
        s >>>= 0;
        out[i] = s & 0xff;
      }
      return out;
    },
  };
}
