// The per-key rate-limit counters the admission core (src/services/admission.ts) counts requests with, in fixed
// one-minute windows (src/domain/access.ts): in this process by default, or in Redis (REDIS_URL) so several
// processes share one exact count.
import { RedisClient } from "bun";
import type { Logger } from "../logger";
import type { RateLimitStore } from "../ports";
import type { CacheBounds } from "./bounded-cache";
import { CACHE_BOUNDS } from "./caches";

export type { RateLimitStore };

type Counter = { window: number; count: number; expiresAt: number };

/**
 * Counters in this process, at most `bounds.maxEntries` (CACHE_BOUNDS.rateLimitCounters): one per subject, each
 * useless once its window ended. Reaching the bound sweeps down to nine tenths of it: ended windows first, then counters
 * hit once in their window (a flood from rotating client addresses makes those), then the oldest windows; an evicted
 * counter starts again from zero. `now` (monotonic ms) only dates the windows' ends.
 */
export function memoryRateLimitStore(
  bounds: CacheBounds = CACHE_BOUNDS.rateLimitCounters,
  now: () => number = () => performance.now(),
): RateLimitStore & { size(): number } {
  const counters = new Map<string, Counter>();
  const max = bounds.maxEntries ?? Infinity;
  // The counter of the previous hit: a busy key's next hit needs no lookup.
  let lastSubject: string | null = null;
  let lastCounter: Counter | undefined;
  const sweep = (t: number) => {
    const target = Math.floor(max * 0.9);
    for (const [k, c] of counters) if (c.expiresAt <= t) counters.delete(k);
    for (const [k, c] of counters) if (counters.size > target && c.count <= 1) counters.delete(k);
    for (const k of counters.keys()) if (counters.size > target) counters.delete(k);
    lastSubject = null;
  };
  return {
    kind: "memory",
    shared: () => true,
    // Synchronous read-modify-write: concurrent requests in one process cannot interleave here.
    hit(subject, window, ttlMs) {
      let c = subject === lastSubject ? lastCounter : counters.get(subject);
      if (!c || c.window !== window) {
        const t = now();
        if (counters.size >= max) sweep(t);
        c = { window, count: 0, expiresAt: t + ttlMs };
        // Deleted first, so the map stays in the order the windows began.
        counters.delete(subject);
        counters.set(subject, c);
      }
      lastSubject = subject;
      lastCounter = c;
      c.count += 1;
      return c.count;
    },
    size: () => counters.size,
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

type PendingHit = { key: string; subject: string; window: number; ttlMs: number; resolve(count: number): void };

export type RedisStoreOptions = {
  prefix?: string;
  /** How long a batch may wait for Redis before its hits are counted in this process. */
  timeoutMs?: number;
  /** How long the store counts in this process after Redis failed, before it asks Redis again. */
  retryAfterMs?: number;
  logger?: Pick<Logger, "warn" | "info">;
  /** Monotonic milliseconds (tests). */
  now?: () => number;
};

/**
 * Counters in Redis. The hits asked for during one turn of the event loop go to Redis together, as one script call
 * (one write and one read on the connection, however many requests arrived together), at the end of that turn: a
 * busy server pays about one round trip per turn instead of one per request, and every count is still Redis's own.
 *
 * When Redis does not answer a batch within `timeoutMs` (or refuses it, or the connection is down), the breaker
 * opens: that batch and every hit for the next `retryAfterMs` are counted in this process (exact per process, no
 * longer shared), and the log says so once. The first batch after that asks Redis again; when it answers, shared
 * counting resumes and the log says so. A request never waits for Redis longer than `timeoutMs`.
 */
export function redisRateLimitStore(url: string, opts: RedisStoreOptions = {}): RateLimitStore {
  const prefix = opts.prefix ?? "svc:rl:";
  const timeoutMs = opts.timeoutMs ?? 250;
  const retryAfterMs = opts.retryAfterMs ?? 1000;
  const now = opts.now ?? (() => performance.now());
  // No offline queue: while disconnected a command fails at once instead of waiting for the reconnection. Reconnected
  // here, every `retryAfterMs`, rather than by the client's own backoff (with it, health still said degraded 10-12 s
  // after Redis was back); a lost connection marks the store degraded at once, not at the next request's failure.
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    connectionTimeout: timeoutMs * 4,
    autoReconnect: false,
  });
  const local = memoryRateLimitStore();
  let pending: PendingHit[] = [];
  let downUntil = -Infinity;
  let degraded = false;
  let closed = false;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  const lost = (e: unknown) => {
    if (closed) return;
    downUntil = now() + retryAfterMs;
    if (!degraded)
      opts.logger?.warn("rate limiter: Redis unreachable; counting in this process until it answers again", {
        error: String(e),
      });
    degraded = true;
    // One attempt at a time, whatever fails meanwhile (requests failing at once must not keep pushing it back).
    if (reconnect !== undefined) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      void connectOnce();
    }, retryAfterMs);
    reconnect.unref?.();
  };
  client.onclose = (e) => lost(e);
  client.onconnect = () => {
    if (degraded) opts.logger?.info("rate limiter: Redis answers again; counts are shared again");
    degraded = false;
    downUntil = -Infinity;
  };
  // Without the offline queue a command sent before the first connection would fail: the first batches wait for it
  // (within the same timeout as any batch).
  let connecting: Promise<unknown> | null = null;
  const connectOnce = () =>
    (connecting = client.connect().then(
      () => (connecting = null),
      (e) => {
        connecting = null;
        lost(e);
      },
    ));
  connectOnce();

  const countLocally = (batch: PendingHit[]) => {
    for (const h of batch) h.resolve(local.hit(h.subject, h.window, h.ttlMs) as number);
  };
  const fail = (batch: PendingHit[], e: unknown) => {
    downUntil = now() + retryAfterMs;
    if (!degraded)
      opts.logger?.warn("rate limiter: Redis unreachable; counting in this process until it answers again", {
        error: String(e),
      });
    degraded = true;
    countLocally(batch);
    // A connection that failed without closing (no answer in time) is not told apart here: the next batch asks again.
    if (!client.connected && !connecting) lost(e);
  };
  const flush = () => {
    const batch = pending;
    pending = [];
    const args = [HIT_SCRIPT, String(batch.length)];
    for (const h of batch) args.push(h.key);
    for (const h of batch) args.push(String(Math.max(1000, Math.ceil(h.ttlMs))));
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      fail(batch, new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const send = () => client.send("EVAL", args);
    const sent = connecting ? connecting.then(send) : Promise.resolve().then(send);
    sent.then(
      (counts) => {
        clearTimeout(timer);
        if (settled) return;
        if (degraded) opts.logger?.info("rate limiter: Redis answers again; counts are shared again");
        degraded = false;
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(Number((counts as unknown[])[i]));
      },
      (e) => {
        clearTimeout(timer);
        if (!settled) fail(batch, e);
      },
    );
  };
  return {
    kind: "redis",
    hit(subject, window, ttlMs) {
      // Breaker open: counted here at once, without a turn of the event loop.
      if (now() < downUntil) return local.hit(subject, window, ttlMs);
      return new Promise<number>((resolve) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ key: `${prefix}${subject}:${window}`, subject, window, ttlMs, resolve });
      });
    },
    shared: () => !degraded,
    close() {
      closed = true;
      clearTimeout(reconnect);
      client.close();
      local.close();
    },
  };
}
