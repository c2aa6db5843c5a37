// The per-key rate-limit counters the admission core (src/services/admission.ts) counts requests with, in fixed
// one-minute windows (src/domain/access.ts): in this process by default, or in Redis (REDIS_URL) so several
// processes share one exact count.
import { RedisClient } from "bun";
import type { RateLimitStore } from "../ports";

export type { RateLimitStore };

export function memoryRateLimitStore(): RateLimitStore {
  const counters = new Map<string, { window: number; count: number }>();
  // The counter of the previous hit: a busy key's next hit needs no lookup.
  let lastSubject: string | null = null;
  let lastCounter: { window: number; count: number } | undefined;
  return {
    kind: "memory",
    // Synchronous read-modify-write: concurrent requests in one process cannot interleave here.
    hit(subject, window) {
      let c = subject === lastSubject ? lastCounter : counters.get(subject);
      if (!c || c.window !== window) {
        c = { window, count: 0 };
        counters.set(subject, c);
      }
      lastSubject = subject;
      lastCounter = c;
      c.count += 1;
      return c.count;
    },
    close() {
      counters.clear();
      lastSubject = null;
      lastCounter = undefined;
    },
  };
}

// INCR is atomic in Redis; the expiry is set with the first hit so a window's counter cleans itself up.
const HIT_SCRIPT = "local c = redis.call('INCR', KEYS[1]) if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return c";

export function redisRateLimitStore(url: string, prefix = "svc:rl:"): RateLimitStore {
  const client = new RedisClient(url);
  return {
    kind: "redis",
    async hit(subject, window, ttlMs) {
      const n = await client.send("EVAL", [HIT_SCRIPT, "1", `${prefix}${subject}:${window}`, String(Math.max(1000, Math.ceil(ttlMs)))]);
      return Number(n);
    },
    close() {
      client.close();
    },
  };
}
