// The configuration as the rest of the service receives it (src/config/index.ts makes it from the environment).
import type { ProvisioningLimits } from "../domain/provisioning-budget";
import type { logLevels } from "./schema";

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | null;
  db: { connectTimeoutMs: number; statementTimeoutMs: number };
  dataDir: string;
  /** Where seeded embedded-database images are kept; null: none kept, every first start seeds. */
  imageCacheDir: string | null;
  publicBaseUrl: string | null;
  /** The language model that may phrase ask answers; null: the deterministic composer only. */
  askModel: { url: string; model: string; key: string | null; timeoutMs: number } | null;
  logLevel: (typeof logLevels)[number];
  seriesCacheRevalidateMs: number;
  compute: { threads: number; queueMax: number; chartRendersPerCaller: number };
  pageMemo: boolean;
  metricsToken: string | null;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  trustedProxies: string[];
  trustProxyHeader: string;
  stripe: {
    secretKey: string;
    webhookSecret: string | null;
    prices: { developer: string | null; professional: string | null };
  } | null;
  dunningPeriodDays: number;
  payments: PaymentsConfig;
  jobs: JobsConfig;
  upstream: UpstreamConfig;
};

export type UpstreamConfig = {
  fred: { apiKey: string | null; baseUrl: string };
  bls: { apiKey: string | null; baseUrl: string };
  census: { apiKey: string | null; baseUrl: string };
  worldbank: { baseUrl: string };
  irsSoi: { baseUrl: string };
  timeoutMs: number;
};

export type JobsConfig = {
  /** JOBS=on: this server runs jobs (workers and refresh crons) as well as enqueueing them. */
  inProcess: boolean;
  /** null: 1 on the embedded database, 2 on PostgreSQL. */
  concurrency: number | null;
  poolMax: number;
  pollSeconds: number;
  superviseSeconds: number;
  provision: {
    retryLimit: number;
    retryDelaySeconds: number;
    retryDelayMaxSeconds: number;
    expireSeconds: number;
    /** null: no heartbeat. */
    heartbeatSeconds: number | null;
    retryAfterSeconds: number;
    failureCooldownSeconds: number;
    limits: ProvisioningLimits;
  };
  refresh: { timezone: string; schedules: RefreshSchedule[] };
};

export type RefreshSchedule = { source: string; cron: string | null };

export type PaymentsConfig = {
  x402: {
    networks: Array<{ network: string; rpcUrl: string | null; asset: string | null }>;
    payTo: string | null;
    settle: "self" | "facilitator";
    settlerKey: string | null;
    facilitatorUrl: string;
  } | null;
  l402: {
    rootKeys: string[];
    backend: "dev" | "lnd";
    lnd: { url: string | null; macaroonHex: string | null; tlsCert: string | null };
    btcUsdRate: string | null;
    btcUsdRateUrl: string | null;
  } | null;
};
