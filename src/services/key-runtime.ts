// The per-process state that keeps key checks and metering off the database on the hot path:
// - KeyCache: keys looked up by secret hash, kept for 1 s of real time (freshness, not business time, so the
//   monotonic timer, not the injected clock). Every change to a key or its subscription, whichever process or command
//   makes it, drops the entry here and in every other process before the change returns (key-invalidation.ts: Redis
//   pub/sub with REDIS_URL, else PostgreSQL LISTEN/NOTIFY, each process acknowledging; the embedded database has
//   one process). A revoked or rotated secret fails everywhere as soon as the change returns.
// - UsageMeter: each metered request is appended to the node-local usage journal (src/services/usage-journal.ts)
//   synchronously, before its response leaves (if the journal cannot be written the request is answered 503 with
//   Retry-After: nothing is served unmetered; it is served again as soon as the journal can be written). Periodically (METER_FLUSH_MS), on start (replaying what a crashed process left),
//   on close and before anything bills usage, the journal's sealed batches move to the main database, each applied
//   exactly once (its id is stored with the usage upsert in one transaction). Readers add what this process has not
//   moved yet. A failed apply keeps the batch for the next flush. Nothing is lost on a crash.
import type { Database } from "../../db/client";
import { applyUsageBatch, type KeyWithSubscription } from "../../db/repos/keys";
import { systemClock, type Clock, type KeyCache, type KeyRuntime, type UsageMeter } from "../ports";

export type { KeyCache, KeyRuntime, UsageMeter };
import { sameDigestBytes } from "../domain/keys";
import { describeError, type Logger } from "../logger";
import { openUsageJournal, type UsageBatch, type UsageJournal } from "./usage-journal";
import { postgresBus, redisBus, type BusConnector } from "./key-invalidation";
import { BoundedCache } from "./bounded-cache";
import { CACHE_BOUNDS } from "./caches";

export const KEY_CACHE_TTL_MS = 1000;
/**
 * How often metered counts move to the main database. PostgreSQL: every second, since other processes read usage
 * there. The embedded database: every 10 s. Only this process can open it, and its reads add the counts not moved yet,
 * so nothing observable waits on the move. On PGlite each move is a transaction costing 5-30 ms of this process's
 * CPU, which is 1-3% of a busy server's time at one move a second.
 */
export const METER_FLUSH_MS = { postgres: 1000, pglite: 10_000 } as const;

export function createKeyCache(opts: { ttlMs?: number; logger: Logger; bus?: BusConnector | null }): KeyCache {
  const ttl = opts.ttlMs ?? KEY_CACHE_TTL_MS;
  // `digest`: the bytes of the row's stored secret hash, for getDigest.
  type Entry = { value: KeyWithSubscription; at: number; digest: Uint8Array };
  const entries = new BoundedCache<string, Entry>(CACHE_BOUNDS.apiKeys);
  const inflight = new Map<string, Promise<KeyWithSubscription | null>>();
  let generation = 0;
  // The entry the previous get() answered with: a busy key's next request needs no lookup. Every change to `entries`
  // forgets it, so it is always an entry the map holds.
  let lastHash: string | null = null;
  let lastEntry: Entry | undefined;
  const forgetLast = () => {
    lastHash = null;
    lastEntry = undefined;
  };
  const dropLocal = (keyId: string) => {
    generation++;
    forgetLast();
    for (const [hash, e] of entries) if (e.value.key.id === keyId) entries.delete(hash);
  };
  // With a bus, keys are cached only while its listener is in place: a change this process cannot hear about must not
  // be served from its cache.
  let caching = !opts.bus;
  const waiters = new Set<() => void>();
  const bus = opts.bus?.({
    drop: dropLocal,
    listening(on) {
      caching = on;
      generation++;
      entries.clear();
      forgetLast();
      if (on) for (const w of waiters) w();
    },
  });
  return {
    get(hash) {
      const e = hash === lastHash ? lastEntry : entries.get(hash);
      if (!e) return undefined;
      if (performance.now() - e.at >= ttl) {
        entries.delete(hash);
        forgetLast();
        return undefined;
      }
      lastHash = hash;
      lastEntry = e;
      return e.value;
    },
    getDigest(digest) {
      if (lastEntry && sameDigestBytes(lastEntry.digest, digest)) return this.get(lastHash!);
      const value = this.get(Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString("hex"));
      // What the presented key must match is the row's own stored hash (get() leaves its entry as lastEntry).
      return value && sameDigestBytes(lastEntry!.digest, digest) ? value : undefined;
    },
    lookup(hash, load) {
      const hit = this.get(hash);
      if (hit) return Promise.resolve(hit);
      let pending = inflight.get(hash);
      if (!pending) {
        const startedAt = generation;
        pending = load()
          .then((value) => {
            if (value && caching && generation === startedAt) {
              entries.set(hash, { value, at: performance.now(), digest: Buffer.from(value.key.secretHash, "hex") });
              forgetLast();
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
      await bus?.publish(keyId);
    },
    ready(timeoutMs) {
      if (caching) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          waiters.delete(onListening);
          resolve(ok);
        };
        const onListening = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        waiters.add(onListening);
      });
    },
    close() {
      entries.clear();
      forgetLast();
      void bus?.close();
    },
  };
}

/**
 * A condition that fails and recovers (the journal, the database): the first failure of a run is logged, the next
 * ones are not (an outage must not write a line per request), and the recovery is logged once.
 */
function faultLog(logger: Logger, failed: string, recovered: string) {
  let down = false;
  return {
    fail(fields: Record<string, unknown>) {
      if (down) return;
      down = true;
      logger.error(failed, fields);
    },
    ok() {
      if (!down) return;
      down = false;
      logger.info(recovered);
    },
  };
}

export function createUsageMeter(opts: {
  database: Database;
  logger: Logger;
  journal: UsageJournal;
  clock?: Clock;
  flushMs?: number;
}): UsageMeter {
  const { journal, logger } = opts;
  const clock = opts.clock ?? systemClock;
  let chain: Promise<unknown> = Promise.resolve();
  let stopping = false;
  let closed = false;
  let closing: Promise<void> | null = null;
  const recording = faultLog(
    logger,
    "usage meter: the usage journal cannot be written; metered requests are refused (503) until it can",
    "usage meter: the usage journal is written again; metered requests are served",
  );
  const sealing = faultLog(
    logger,
    "usage meter: the journal's live file cannot be sealed; counts stay in it (safe) and move to the database once it can",
    "usage meter: the journal is sealed again",
  );
  const reading = faultLog(
    logger,
    "usage meter: the journal's batches cannot be read; retrying at the next flush",
    "usage meter: the journal's batches are read again",
  );
  const writing = faultLog(
    logger,
    "usage meter: the database refused a batch; batches stay in the journal and are retried at each flush",
    "usage meter: batches reach the database again",
  );
  let journalDown = false;
  let counted = 0;
  let lastMovedAt: number | null = null;

  /** Runs `fn` after everything queued before it (flushes and usage reads never interleave). */
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  }

  async function moveToDatabase(): Promise<void> {
    if (closed) return;
    try {
      journal.seal();
      sealing.ok();
    } catch (e) {
      // Nothing changed: the live file keeps its counts, and batches sealed earlier are still applied below.
      sealing.fail({ journal: journal.location, error: describeError(e) });
    }
    let batches: UsageBatch[];
    try {
      batches = journal.batches();
      reading.ok();
    } catch (e) {
      reading.fail({ journal: journal.location, error: describeError(e) });
      return;
    }
    for (const batch of batches) {
      try {
        const out = await applyUsageBatch(opts.database.db, { id: batch.id, rows: batch.rows, at: clock.now() });
        writing.ok();
        if (out.unknownKeys.length)
          logger.warn("usage meter: counts for keys this database does not hold were dropped", {
            batch: batch.id,
            keys: out.unknownKeys.length,
          });
      } catch (e) {
        // Kept in the journal; the next flush tries again (and nothing is lost if this process dies).
        writing.fail({ batch: batch.id, error: describeError(e) });
        return;
      }
      try {
        journal.remove(batch.id);
      } catch (e) {
        // Applied but still in the journal: the next flush finds its id in the database and only removes it.
        logger.error("usage meter: applied batch not removed from the journal", {
          batch: batch.id,
          error: describeError(e),
        });
        return;
      }
    }
    lastMovedAt = clock.now().getTime();
  }

  const flush = () => serial(moveToDatabase);
  const timer = setInterval(() => void flush(), opts.flushMs ?? METER_FLUSH_MS[opts.database.kind]);
  timer.unref?.();
  // Replays what a previous process left in the journal.
  void flush();
  return {
    count(keyId, month) {
      if (stopping) throw new Error("usage meter closed");
      try {
        journal.record(keyId, month);
      } catch (e) {
        journalDown = true;
        recording.fail({ journal: journal.location, error: describeError(e) });
        throw e;
      }
      counted++;
      if (journalDown) {
        journalDown = false;
        recording.ok();
      }
    },
    stats: () => ({ counted, lastMovedAt }),
    pending: (keyId, month) => journal.unflushed(keyId, month),
    usage: (keyId, month, stored) => serial(async () => (await stored()) + journal.unflushed(keyId, month)),
    flush,
    close() {
      // A second close (a second signal during shutdown) waits for the first: the database must outlive the flush.
      closing ??= (async () => {
        clearInterval(timer);
        // Requests answered from now on cannot be counted: they are refused (503) rather than served unmetered.
        stopping = true;
        await flush();
        closed = true;
        journal.close();
      })();
      return closing;
    },
  };
}

/**
 * How key changes reach the other processes (src/services/key-invalidation.ts): Redis when configured, else
 * PostgreSQL's LISTEN/NOTIFY; none on the embedded database, which one process holds at a time.
 */
function invalidationBus(opts: { database: Database; logger: Logger; redisUrl: string | null }): BusConnector | null {
  if (opts.redisUrl) return redisBus(opts.redisUrl, { logger: opts.logger, waitMs: KEY_CACHE_TTL_MS });
  if (opts.database.notifications)
    return postgresBus(opts.database.notifications, { logger: opts.logger, waitMs: KEY_CACHE_TTL_MS });
  return null;
}

/**
 * `journalDir`: the usage journal directory (DATA_DIR/usage-journal in the server); omitted, an in-memory
 * journal, which is not crash-safe (for tools and tests that serve no metered traffic).
 */
export function createKeyRuntime(opts: {
  database: Database;
  logger: Logger;
  redisUrl: string | null;
  journalDir?: string;
  clock?: Clock;
}): KeyRuntime {
  const cache = createKeyCache({ logger: opts.logger, bus: invalidationBus(opts) });
  const meter = createUsageMeter({
    database: opts.database,
    logger: opts.logger,
    clock: opts.clock,
    journal: openUsageJournal(opts.journalDir ?? ":memory:"),
  });
  return {
    cache,
    meter,
    async close() {
      await meter.close();
      cache.close();
    },
  };
}
