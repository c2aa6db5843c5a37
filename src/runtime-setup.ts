// Builds the stateful dependencies from configuration: mail transport (SMTP_URL or the database outbox), rate-limit
// counters (REDIS_URL or this process), the subscription payment provider (Stripe when STRIPE_SECRET_KEY is set),
// the usage journal (DATA_DIR/usage-journal/, a file per running process), the app's caches of its database and the
// upstream connectors with their one shared limiter (on the app's clock), and the compute pool (COMPUTE_THREADS).
// Used by bootstrap (real server, CLI) and by makeTestApp (a temporary DATA_DIR per test app).
import type { Config } from "./config";
import type { Deps } from "./deps";
import { stripeProvider } from "./billing/stripe";
import { memoryRateLimitStore, redisRateLimitStore } from "./services/rate-limit-stores";
import { createMailer } from "./mail/mailer";
import { smtpTransport } from "./mail/transport";
import { createCaches } from "./services/caches";
import { computePool, workerThread } from "./services/compute-pool";
import { workerEntry } from "./startup/worker-entry";
import { createKeyRuntime } from "./services/key-runtime";
import { usageJournalDir } from "./services/usage-journal";
import { createConnectors } from "./upstream";

export type RuntimeDeps = Pick<Deps, "mail" | "rateLimits" | "billing" | "keys" | "caches" | "upstream">;

export function buildRuntimeDeps(
  config: Config,
  base: Pick<Deps, "database" | "clock" | "random" | "logger">,
): RuntimeDeps {
  return {
    mail: createMailer({ ...base, transport: config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : null }),
    rateLimits: config.redisUrl
      ? redisRateLimitStore(config.redisUrl, { logger: base.logger })
      : memoryRateLimitStore(),
    billing: config.stripe
      ? stripeProvider({
          secretKey: config.stripe.secretKey,
          webhookSecret: config.stripe.webhookSecret,
          prices: config.stripe.prices,
        })
      : null,
    keys: createKeyRuntime({
      database: base.database,
      logger: base.logger,
      clock: base.clock,
      redisUrl: config.redisUrl,
      journalDir: usageJournalDir(config.dataDir),
    }),
    caches: createCaches(base.database, {
      revalidateMs: config.seriesCacheRevalidateMs,
      compute: computePool({
        threads: config.compute.threads,
        queueMax: config.compute.queueMax,
        startThread: () => workerThread(workerEntry("compute-thread")),
      }),
      chartRendersPerCaller: config.compute.chartRendersPerCaller,
    }),
    upstream: createConnectors(config, { clock: base.clock }),
  };
}
