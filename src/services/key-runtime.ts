// The per-process state that keeps key checks off the database on the hot path:
// - KeyCache: keys looked up by secret hash, kept for 1 s of real time (freshness, not business time, so the
//   monotonic timer, not the injected clock). Every change this process makes to a key or its subscription drops
//   the entry at once; with REDIS_URL the drop is published so every process drops it too (a revoked or rotated
//   secret fails everywhere immediately); without Redis another process sees it within the TTL.
// - UsageMeter: metered requests counted in memory (synchronously, so concurrent requests are exact) and written
//   once a second as one additive upsert per key and month (`requests = requests + n`), on close and before
//   anything reads usage for billing. Readers add what is still pending. A failed write keeps its counts for the
//   next flush. Only a crash loses counts (at most the last second).
import { RedisClient } from "bun";
import type { Database } from "../../db/client";
import { addUsage, type KeyWithSubscription } from "../../db/repos/keys";
import type { Logger } from "../logger";

export const KEY_CACHE_TTL_MS = 1000;
export const METER_FLUSH_MS = 1000;
const INVALIDATE_CHANNEL = "svc:keys:invalidate";

export type KeyCache = {
  get(secretHash: string): KeyWithSubscription | undefined;
  /**
   * The cached entry, or `load()`'s answer: concurrent misses of one hash share one lookup, and an answer is cached
   * only if no invalidation happened while it was loading (it may predate the change).
   */
  lookup(secretHash: string, load: () => Promise<KeyWithSubscription | null>): Promise<KeyWithSubscription | null>;
  /** Drops every cached secret of the key, here and (with Redis) in every other process. */
  invalidate(keyId: string): Promise<void>;
  close(): void;
};

export function createKeyCache(opts: { ttlMs?: number; redisUrl?: string | null; logger: Logger }): KeyCache {
  const ttl = opts.ttlMs ?? KEY_CACHE_TTL_MS;
  const entries = new Map<string, { value: KeyWithSubscription; at: number }>();
  const inflight = new Map<string, Promise<KeyWithSubscription | null>>();
  let generation = 0;
  const dropLocal = (keyId: string) => {
    generation++;
    for (const [hash, e] of entries) if (e.value.key.id === keyId) entries.delete(hash);
  };
  let publisher: RedisClient | null = null;
  let subscriber: RedisClient | null = null;
  if (opts.redisUrl) {
    publisher = new RedisClient(opts.redisUrl);
    subscriber = new RedisClient(opts.redisUrl);
    subscriber.subscribe(INVALIDATE_CHANNEL, (keyId) => dropLocal(keyId)).catch((e) => opts.logger.error("key cache: Redis subscribe failed", { error: String(e) }));
  }
  return {
    get(hash) {
      const e = entries.get(hash);
      if (!e) return undefined;
      if (performance.now() - e.at >= ttl) {
        entries.delete(hash);
        return undefined;
      }
      return e.value;
    },
    lookup(hash, load) {
      const hit = this.get(hash);
      if (hit) return Promise.resolve(hit);
      let pending = inflight.get(hash);
      if (!pending) {
        const startedAt = generation;
        pending = load()
          .then((value) => {
            if (value && generation === startedAt) {
              // Bounded: a flood of distinct keys cannot grow the map without limit.
              if (entries.size >= 10_000) entries.clear();
              entries.set(hash, { value, at: performance.now() });
            }
            return value;
          })
          .finally(() => inflight.delete(hash));
        inflight.set(hash, pending);
      }
      return pending;
    },
    async invalidate(keyId) {
      dropLocal(keyId);
      if (publisher) {
        try {
          await publisher.publish(INVALIDATE_CHANNEL, keyId);
        } catch (e) {
          opts.logger.error("key cache: Redis publish failed; other processes see the change within the cache TTL", { error: String(e) });
        }
      }
    },
    close() {
      entries.clear();
      publisher?.close();
      subscriber?.close();
    },
  };
}

export type UsageMeter = {
  /** Counts one metered request (synchronous). */
  count(keyId: string, month: string): void;
  /** Counted here but not yet written. */
  pending(keyId: string, month: string): number;
  flush(): Promise<void>;
  close(): Promise<void>;
};

export function createUsageMeter(opts: { database: Database; logger: Logger; flushMs?: number }): UsageMeter {
  let counts = new Map<string, { keyId: string; month: string; n: number }>();
  let writing: Promise<void> = Promise.resolve();
  const slot = (keyId: string, month: string) => `${keyId}|${month}`;

  async function write(batch: Map<string, { keyId: string; month: string; n: number }>) {
    if (batch.size === 0) return;
    try {
      await addUsage(opts.database.db, [...batch.values()].map(({ keyId, month, n }) => ({ keyId, month, requests: n })));
    } catch (e) {
      // Keep the counts for the next flush: nothing is lost while the process lives.
      for (const [k, v] of batch) {
        const cur = counts.get(k);
        if (cur) cur.n += v.n;
        else counts.set(k, { ...v });
      }
      opts.logger.error("usage meter: write failed; counts kept for the next flush", { error: String(e), entries: batch.size });
    }
  }

  function flush(): Promise<void> {
    // Serialised, and the batch is taken synchronously, so a request counted during a write goes to the next one.
    writing = writing.then(() => {
      const batch = counts;
      counts = new Map();
      return write(batch);
    });
    return writing;
  }

  const timer = setInterval(() => void flush(), opts.flushMs ?? METER_FLUSH_MS);
  timer.unref?.();
  return {
    count(keyId, month) {
      const k = slot(keyId, month);
      const cur = counts.get(k);
      if (cur) cur.n += 1;
      else counts.set(k, { keyId, month, n: 1 });
    },
    pending(keyId, month) {
      return counts.get(slot(keyId, month))?.n ?? 0;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

export type KeyRuntime = { cache: KeyCache; meter: UsageMeter; close(): Promise<void> };

export function createKeyRuntime(opts: { database: Database; logger: Logger; redisUrl: string | null }): KeyRuntime {
  const cache = createKeyCache({ redisUrl: opts.redisUrl, logger: opts.logger });
  const meter = createUsageMeter({ database: opts.database, logger: opts.logger });
  return {
    cache,
    meter,
    async close() {
      await meter.close();
      cache.close();
    },
  };
}
