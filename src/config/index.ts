// The one place configuration is read. Only entry points (server.ts, cli.ts) pass the environment to loadConfig();
// everything else receives the parsed Config. The variables' schema is schema.ts, the Config's shape types.ts, and its
// jobs and payments sections are derived in sections.ts.
import { availableParallelism } from "node:os";
import { ConfigError, configSchema } from "./schema";
import { jobsConfig, paymentsConfig } from "./sections";
import type { Config } from "./types";

export { ConfigError, configSchema } from "./schema";
export { DEFAULT_REFRESH_SCHEDULES, parseRefreshSchedules } from "./sections";
export type { Config, JobsConfig, PaymentsConfig, RefreshSchedule, UpstreamConfig } from "./types";

export function isPostgresUrl(url: string | undefined | null): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

function imageCacheDir(value: string | undefined, env: Record<string, string | undefined>): string | null {
  if (value === "off") return null;
  if (value) return value;
  if (env.XDG_CACHE_HOME) return `${env.XDG_CACHE_HOME}/econ-series-svc`;
  return env.HOME ? `${env.HOME}/.cache/econ-series-svc` : null;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  if (c.DATABASE_URL && !isPostgresUrl(c.DATABASE_URL)) {
    throw new ConfigError(
      `invalid configuration:\n  DATABASE_URL: must be a postgres:// or postgresql:// URL, or unset for the embedded database`,
    );
  }
  if (c.ASK_LLM_URL && !c.ASK_LLM_MODEL) {
    throw new ConfigError(
      `invalid configuration:\n  ASK_LLM_MODEL: required with ASK_LLM_URL (the model name the endpoint serves)`,
    );
  }
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST ?? (c.PUBLIC_BASE_URL ? "0.0.0.0" : "127.0.0.1"),
    databaseUrl: c.DATABASE_URL ?? null,
    db: { connectTimeoutMs: c.DB_CONNECT_TIMEOUT_MS, statementTimeoutMs: c.DB_STATEMENT_TIMEOUT_MS },
    dataDir: c.DATA_DIR,
    imageCacheDir: imageCacheDir(c.IMAGE_CACHE_DIR, env),
    publicBaseUrl: c.PUBLIC_BASE_URL ? c.PUBLIC_BASE_URL.replace(/\/+$/, "") : null,
    askModel: c.ASK_LLM_URL
      ? { url: c.ASK_LLM_URL, model: c.ASK_LLM_MODEL!, key: c.ASK_LLM_KEY ?? null, timeoutMs: c.ASK_LLM_TIMEOUT_MS }
      : null,
    logLevel: c.LOG_LEVEL,
    seriesCacheRevalidateMs: c.SERIES_CACHE_REVALIDATE_MS ?? (c.NODE_ENV === "test" ? 0 : 1000),
    compute: {
      threads: c.COMPUTE_THREADS ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
      queueMax: c.COMPUTE_QUEUE_MAX,
      chartRendersPerCaller: c.CHART_RENDERS_PER_CALLER,
    },
    pageMemo: c.PAGE_MEMO === "on",
    metricsToken: c.METRICS_TOKEN ?? null,
    redisUrl: c.REDIS_URL ?? null,
    smtpUrl: c.SMTP_URL ?? null,
    mailFrom: c.MAIL_FROM,
    trustedProxies: (c.TRUSTED_PROXIES ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    trustProxyHeader: c.TRUST_PROXY_HEADER.toLowerCase(),
    stripe: c.STRIPE_SECRET_KEY
      ? {
          secretKey: c.STRIPE_SECRET_KEY,
          webhookSecret: c.STRIPE_WEBHOOK_SECRET ?? null,
          prices: { developer: c.STRIPE_PRICE_DEVELOPER ?? null, professional: c.STRIPE_PRICE_PROFESSIONAL ?? null },
        }
      : null,
    dunningPeriodDays: c.DUNNING_PERIOD_DAYS,
    payments: paymentsConfig(c),
    upstream: {
      fred: { apiKey: c.FRED_API_KEY ?? null, baseUrl: trimSlash(c.FRED_BASE_URL) },
      bls: { apiKey: c.BLS_API_KEY ?? null, baseUrl: trimSlash(c.BLS_BASE_URL) },
      census: { apiKey: c.CENSUS_API_KEY ?? null, baseUrl: trimSlash(c.CENSUS_BASE_URL) },
      worldbank: { baseUrl: trimSlash(c.WORLDBANK_BASE_URL) },
      // Always a folder: file names are resolved against it.
      irsSoi: { baseUrl: c.IRS_SOI_BASE_URL.endsWith("/") ? c.IRS_SOI_BASE_URL : `${c.IRS_SOI_BASE_URL}/` },
      timeoutMs: c.UPSTREAM_TIMEOUT_MS,
    },
    jobs: jobsConfig(c),
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
