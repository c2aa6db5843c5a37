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

// Each INCR is atomic in Redis, so counts stay exact across processes; the expiry is set with a window's first hit so
// its counter cleans itself up. One script counts every hit of a batch: KEYS are the counters, ARGV their expiries.
const HIT_SCRIPT =
  "local out = {} for i, k in ipairs(KEYS) do local c = redis.call('INCR', k) if c == 1 then redis.call('PEXPIRE', k, ARGV[i]) end out[i] = c end return out";

type PendingHit = { key: string; ttl: string; resolve(count: number): void; reject(e: unknown): void };

/**
 * Counters in Redis. The hits asked for during one turn of the event loop go to Redis together, as one script call
 * (one write and one read on the connection, however many requests arrived together), at the end of that turn: a
 * busy server pays about one round trip per turn instead of one per request, and every count is still Redis's own.
 */
export function redisRateLimitStore(url: string, prefix = "svc:rl:"): RateLimitStore {
  const client = new RedisClient(url);
  let pending: PendingHit[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    const args = [HIT_SCRIPT, String(batch.length)];
    for (const h of batch) args.push(h.key);
    for (const h of batch) args.push(h.ttl);
    client.send("EVAL", args).then(
      (counts) => {
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(Number((counts as unknown[])[i]));
      },
      (e) => {
        for (const h of batch) h.reject(e);
      },
    );
  };
  return {
    kind: "redis",
    hit(subject, window, ttlMs) {
      return new Promise<number>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ key: `${prefix}${subject}:${window}`, ttl: String(Math.max(1000, Math.ceil(ttlMs))), resolve, reject });
      });
    },
    close() {
      client.close();
    },
  };
}
