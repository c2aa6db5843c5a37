// Everything createApp needs from the outside world, injected so tests control time, randomness and I/O. Its types
// come from src/ports.ts and from modules that never import this one, so nothing here depends on what uses it.
import type { Config } from "./config";
import type { Database } from "../db/client";
import type { Logger } from "./logger";
import type { BillingProvider } from "./billing/provider";
import type {
  AccessPolicy,
  Clock,
  JobQueue,
  KeyRuntime,
  Mailer,
  RandomSource,
  RateLimitStore,
  SeriesFetcher,
} from "./ports";
import type { Caches } from "./services/caches";
import type { UpstreamRegistry } from "./upstream";

export { cryptoRandom, systemClock, type Clock, type RandomSource } from "./ports";

export type Deps = {
  config: Config;
  database: Database;
  clock: Clock;
  random: RandomSource;
  logger: Logger;
  version: string;
  /** How paid requests are admitted: keys entitled and metered, payment rails (openAccess in bare development). */
  access: AccessPolicy;
  /** Outbound email: SMTP when SMTP_URL is set, else the database outbox (`svc mail list`). */
  mail: Mailer;
  /** Per-key rate-limit counters: in this process, or in Redis when REDIS_URL is set. */
  rateLimits: RateLimitStore;
  /** Subscription payments (Stripe when configured); null: operators use `svc subscriptions ...`. */
  billing: BillingProvider | null;
  /** Key lookups cache and the usage meter (flushed on close: call deps.keys.close() before closing the database). */
  keys: KeyRuntime;
  /** Every in-memory cache of this app's data (catalog, regions, series, resolutions): one object, made with the deps. */
  caches: Caches;
  /** The upstream connectors (FRED, BLS, Census, World Bank) and their shared rate limiter. */
  upstream: UpstreamRegistry;
  /** Fetches series from their upstream agencies (noFetcher until connectors are wired: nothing is fetched on demand). */
  fetcher: SeriesFetcher;
  /** The job engine (pg-boss): provisioning and refresh jobs, run here or by `svc worker` processes. Stop it before the database closes. */
  jobs: JobQueue;
};
