// Everything createApp needs from the outside world, injected so tests control time, randomness and I/O.
import type { Config } from "./config";
import type { Database } from "../db/client";
import type { Logger } from "./logger";
import type { AccessGate } from "./http/paid";
import type { Mailer } from "./mail/mailer";
import type { RateLimitStore } from "./http/rate-limit";
import type { BillingProvider } from "./billing/provider";
import type { KeyRuntime } from "./services/key-runtime";

export type Clock = { now(): Date };
export type RandomSource = { bytes(n: number): Uint8Array };

export const systemClock: Clock = { now: () => new Date() };
export const cryptoRandom: RandomSource = { bytes: (n) => crypto.getRandomValues(new Uint8Array(n)) };

export type Deps = {
  config: Config;
  database: Database;
  clock: Clock;
  random: RandomSource;
  logger: Logger;
  version: string;
  /** Key entitlement/allowance and per-request payment; openAccess until those layers are configured. */
  access: AccessGate;
  /** Outbound email: SMTP when SMTP_URL is set, else the database outbox (`svc mail list`). */
  mail: Mailer;
  /** Per-key rate-limit counters: in this process, or in Redis when REDIS_URL is set. */
  rateLimits: RateLimitStore;
  /** Subscription payments (Stripe when configured); null: operators use `svc subscriptions ...`. */
  billing: BillingProvider | null;
  /** Key lookups cache and the usage meter (flushed on close: call deps.keys.close() before closing the database). */
  keys: KeyRuntime;
};
