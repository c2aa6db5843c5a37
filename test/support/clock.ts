import type { Clock, RandomSource } from "../../src/deps";

/** A clock that only moves when the test says so. */
export class ManualClock implements Clock {
  private t: number;
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
