// The ports the application is wired through: small interfaces that Deps names and implementations elsewhere satisfy.
// They live here, below every implementation, so that Deps (and anything typed by it) never imports the code that
// implements it: the dependency graph stays one-way.
import type { Decision, PaymentQuote, PaymentRequest } from "payments";
import type { KeyWithSubscription } from "../db/repos/keys";
import type { IndicatorRow } from "../db/repos/catalog";
import type { RegionRow } from "../db/repos/regions";

export type Clock = { now(): Date };
export type RandomSource = { bytes(n: number): Uint8Array };

export const systemClock: Clock = { now: () => new Date() };
export const cryptoRandom: RandomSource = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };

/** Per-key rate-limit counters: in this process, or in Redis so several processes share one exact count. */
export type RateLimitStore = {
  readonly kind: "memory" | "redis";
  /**
   * Counts one hit for `subject` in window `window` and returns the count so far (1 for the first): at once when the
   * counter is in this process, so that a request counted here is answered without waiting a turn of the event loop.
   */
  hit(subject: string, window: number, ttlMs: number): number | Promise<number>;
  /** Whether counts are shared as configured: false while Redis is unreachable and this process counts alone. */
  shared(): boolean;
  close(): void;
};

export type OutgoingMail = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  /** Values in the text never stored once SMTP delivered (or failed to deliver) the message. */
  secrets?: string[];
};

export type SendResult = { delivered: true } | { delivered: false; error: string };

export type Mailer = {
  readonly mode: "smtp" | "outbox";
  send(msg: OutgoingMail): Promise<SendResult>;
  /** Sends without making the caller wait (the recovery answer must not reveal whether mail went out). */
  sendLater(msg: OutgoingMail): void;
  /** Resolves when every sendLater message has been handled. */
  idle(): Promise<void>;
  close(): Promise<void>;
};

export type KeyCache = {
  get(secretHash: string): KeyWithSubscription | undefined;
  /**
   * get() by the 32 bytes of the hash instead of its hex: the entry the previous get answered with is matched by a
   * constant-time comparison of the bytes, with no hex string to build (this runs on every keyed request).
   */
  getDigest(digest: Uint8Array): KeyWithSubscription | undefined;
  /**
   * The cached entry, or `load()`'s answer: concurrent misses of one hash share one lookup, and an answer is cached
   * only if no invalidation happened while it was loading (it may predate the change).
   */
  lookup(secretHash: string, load: () => Promise<KeyWithSubscription | null>): Promise<KeyWithSubscription | null>;
  /**
   * Drops every cached secret of the key, here and in every other process sharing the database (Redis pub/sub or
   * PostgreSQL LISTEN/NOTIFY), and resolves once each has.
   */
  invalidate(keyId: string): Promise<void>;
  /**
   * Resolves true once this process hears about key changes made elsewhere (at once without another process to hear
   * from), false after `timeoutMs`: until then keys are looked up in the database on every request.
   */
  ready(timeoutMs: number): Promise<boolean>;
  close(): void;
};

export type UsageMeter = {
  /** Counts one metered request in the journal (synchronous; throws if the journal cannot be written). */
  count(keyId: string, month: string): void;
  /** Counted by this process but not yet in the main database. */
  pending(keyId: string, month: string): number;
  /**
   * `stored()` (the database's count) plus what is pending, read while no flush runs, so a batch is counted
   * exactly once even if a flush would otherwise land between the two reads.
   */
  usage(keyId: string, month: string, stored: () => Promise<number>): Promise<number>;
  /** Moves everything counted so far to the main database (batches left by a crashed process included). */
  flush(): Promise<void>;
  close(): Promise<void>;
  /** For metrics: requests counted by this process, and when (epoch ms) the journal was last moved to the database whole. */
  stats?(): { counted: number; lastMovedAt: number | null };
};

/** Key lookups cache and the usage meter (flushed on close: close it before closing the database). */
export type KeyRuntime = { cache: KeyCache; meter: UsageMeter; close(): Promise<void> };

/** The per-request payment rails (the payments package's Payments): a decision for one request and its quote. */
export type PaymentGate = { authorize(req: PaymentRequest, quote: PaymentQuote): Promise<Decision> };

/** How paid requests are admitted (src/services/admission.ts). */
export type AccessPolicy = {
  /** Keys are entitled and metered. False only in development without an access layer: every request is served. */
  keys: boolean;
  /** x402 and L402; null: an anonymous paid request is a 401 asking for a key. */
  payments: PaymentGate | null;
  /** The public base URL that payment requirements name (null: the request's own origin). */
  publicBaseUrl: string | null;
};

/** No access layer (development before keys and payments exist): everything is served, nothing metered. */
export const openAccess: AccessPolicy = Object.freeze({ keys: false, payments: null, publicBaseUrl: null });

// ---------------------------------------------------------------------------------------------------------------
// Upstream data and the job engine

/** A series: one indicator in one region. */
export type SeriesKey = { indicatorId: string; regionCode: string };

/**
 * What a fetch that failed upstream throws (any Error carrying these fields): which upstream, whether trying again
 * may help (429, 5xx, timeouts) or not (an unknown series, a refused key), and how long the upstream asked to wait.
 */
export type UpstreamFailure = Error & { provider: string; retryable: boolean; retryAfterSeconds?: number };

/** Fetches series from the agencies that publish them (src/upstream/ connectors behind one interface). */
export interface SeriesFetcher {
  /** The upstream that serves this (indicator, region) (a connector id), or null when none maps it. */
  fetchVia(indicator: IndicatorRow, region: RegionRow): string | null;
  /** Whether an upstream can serve this (indicator, region): the catalog offers it and a connector maps it. */
  canFetch(indicator: IndicatorRow, region: RegionRow): boolean;
  /** Fetches and stores the series (throws an error with { provider, retryable, retryAfterSeconds? } on upstream failure). */
  fetch(indicator: IndicatorRow, region: RegionRow): Promise<void>;
  /** Refreshes held series of one source; returns the series that changed. */
  refresh(source: string): Promise<{ changed: SeriesKey[] }>;
}

/** No connector wired: nothing can be fetched on demand (a series not held is a 404 naming `svc import`). */
export const noFetcher: SeriesFetcher = Object.freeze({
  fetchVia: () => null,
  canFetch: () => false,
  fetch: async (indicator: IndicatorRow) => {
    throw new Error(`no upstream connector is wired to fetch ${indicator.code}`);
  },
  refresh: async () => ({ changed: [] }),
});

/** What a pass of signal detection did (src/services/signal-detection.ts): series and observations read, intervals written. */
export type DetectionSummary = {
  series: number;
  observations: number;
  inserted: number;
  updated: number;
  removed: number;
  unchanged: number;
};

/** Jobs waiting and running in one queue, as the job engine last counted them. */
export type QueueDepth = { queue: string; queued: number; active: number; deferred: number; counted_at: string | null };

/** The job engine as the app uses it: pg-boss over the app's database (src/jobs/runtime.ts). */
export interface JobQueue {
  /** Whether this process runs jobs (workers, refresh and briefing crons), or only enqueues them. */
  readonly runsJobs: boolean;
  /**
   * Queues the fetch of a series not held (`requestRef`: the provisioning it is for): at most one job per series is
   * waiting or running, across every process; a call while one is, changes nothing. `first`: a keyed caller's,
   * taken before the others waiting.
   */
  provision(job: SeriesKey & { requestRef: string }, opts?: { first?: boolean }): Promise<void>;
  /** Keeps the weekly schedule of briefing `id` (one pg-boss schedule per briefing, kept in the database). */
  scheduleBriefing(id: string): Promise<void>;
  /** Removes the schedule of briefing `id`. */
  unscheduleBriefing(id: string): Promise<void>;
  /** Queues one run of briefing `id` now: at most one run per briefing is waiting or running, across every process. */
  runBriefingNow(id: string): Promise<void>;
  /**
   * Detects signals over every held series (or those of `indicatorIds`) where this process runs jobs, off the thread
   * that answers requests (the job thread); absent where jobs run in the calling thread.
   */
  detectSignals?(indicatorIds?: string[]): Promise<DetectionSummary>;
  /** Depth of each queue; null while the engine is not started here. */
  depth(): Promise<QueueDepth[] | null>;
  /** For metrics: jobs per queue and state as pg-boss last counted them (failed: those it still keeps); null while not started. */
  counts?(): Promise<{ queue: string; queued: number; active: number; deferred: number; failed: number }[] | null>;
  start(): Promise<void>;
  /** Stops taking jobs, waits a little for running ones, and lets go of its connections (before the database closes). */
  stop(): Promise<void>;
}

/**
 * No job engine (tests and tools that never provision): enqueueing a fetch is a programming error. Briefing schedules
 * and first runs are left to the next engine that starts on this database: it schedules every briefing the database
 * holds and runs those that never ran (src/jobs/runtime.ts).
 */
export const noJobs: JobQueue = Object.freeze({
  runsJobs: false,
  provision: async () => {
    throw new Error("no job engine in this process: provisioning cannot be queued");
  },
  scheduleBriefing: async () => {},
  unscheduleBriefing: async () => {},
  runBriefingNow: async () => {},
  depth: async () => null,
  start: async () => {},
  stop: async () => {},
});
