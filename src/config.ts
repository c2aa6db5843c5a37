// The one place configuration is read. Only entry points (server.ts, cli.ts) pass the environment to loadConfig();
// everything else receives the parsed Config.
import { availableParallelism } from "node:os";
import { z } from "zod";
import type { ProvisioningLimits } from "./domain/provisioning-budget";

const logLevels = ["debug", "info", "warn", "error", "silent"] as const;

export const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Default: every interface with PUBLIC_BASE_URL, loopback only without it (links never come from the request).
  HOST: z.string().min(1).optional(),
  // Unset (or not a postgres URL): the embedded PGlite database under DATA_DIR.
  DATABASE_URL: z.string().optional(),
  // PostgreSQL: how long a connection attempt may take, and how long the server lets one statement of the running
  // service take (0: no limit). Maintenance commands (seed, import, derive, migrate) run without the statement limit.
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  DATA_DIR: z.string().min(1).default("./data"),
  // Where the seeded embedded database is kept as an image for the next first start (src/startup/image.ts); `off`:
  // every first start seeds. Default: $XDG_CACHE_HOME/econ-series-svc, else ~/.cache/econ-series-svc.
  IMAGE_CACHE_DIR: z.string().min(1).optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(logLevels).default("info"),
  // How long a cached series' version is trusted before it is re-read (ms); 0 re-reads it on every request.
  // Default 1000, or 0 when NODE_ENV=test so a test that writes then reads sees its write at once.
  SERIES_CACHE_REVALIDATE_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  // CPU-heavy work (chart SVGs, signal detection) runs on this many worker threads, never on the thread that answers
  // requests; 0 runs it on the calling thread. Default: one fewer than the machine's cores, 1 to 4.
  COMPUTE_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  // Tasks that may wait for a compute thread before an uncached chart is refused (503 with Retry-After).
  COMPUTE_QUEUE_MAX: z.coerce.number().int().min(0).max(10_000).default(16),
  // Uncached charts one key (or, without one, one client address) may have drawn at once; one more is a 429.
  CHART_RENDERS_PER_CALLER: z.coerce.number().int().min(1).max(1000).default(2),
  // The page memo of the paid routes (src/services/page-memo.ts): "off" sends every request through the full route.
  PAGE_MEMO: z.enum(["on", "off"]).default("on"),
  // GET /metrics (Prometheus text) answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset: 404.
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(512).regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces").optional(),
  // Keys and access. Unset REDIS_URL: per-key rate limits are counted in this process only.
  REDIS_URL: z.string().regex(/^(redis|rediss|valkey|valkeys):\/\//, "must be a redis:// or rediss:// URL").optional(),
  // Unset SMTP_URL: mail stays in the database outbox, read with `svc mail list`.
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().min(3).default("Economic Series API <no-reply@localhost>"),
  // Comma-separated proxy addresses whose forwarding header is believed for the client IP.
  TRUSTED_PROXIES: z.string().optional(),
  TRUST_PROXY_HEADER: z.string().regex(/^[A-Za-z0-9-]+$/).default("x-forwarded-for"),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_DEVELOPER: z.string().optional(),
  STRIPE_PRICE_PROFESSIONAL: z.string().optional(),
  // Days after the 7-day grace a subscription may stay past due before the billing job ends it and revokes its key.
  DUNNING_PERIOD_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  // Payments. x402: CAIP-2 networks, comma-separated ("none": rail off). RPC URLs and assets: one value for
  // every network, or `network=value` pairs. Unset X402_PAY_TO outside production: generated once in DATA_DIR.
  X402_NETWORKS: z.string().default("eip155:84532"),
  X402_RPC_URL: z.string().optional(),
  X402_ASSET: z.string().optional(),
  X402_PAY_TO: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address").optional(),
  X402_SETTLE: z.enum(["self", "facilitator"]).default("facilitator"),
  X402_SETTLER_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte private key").optional(),
  X402_FACILITATOR_URL: z.string().url().default("https://x402.org/facilitator"),
  // L402: root secret(s) as hex, at least 32 bytes, comma-separated for rotation (current first); unset outside
  // production: generated once in DATA_DIR. LIGHTNING_BACKEND "none": rail off.
  L402_ROOT_KEY: z.string().regex(/^[0-9a-fA-F]{64,}(,[0-9a-fA-F]{64,})*$/, "must be hex of at least 32 bytes (comma-separated for rotation)").optional(),
  LIGHTNING_BACKEND: z.enum(["dev", "lnd", "none"]).default("dev"),
  LND_REST_URL: z.string().url().optional(),
  LND_MACAROON_HEX: z.string().regex(/^[0-9a-fA-F]+$/, "must be hex").optional(),
  // PEM text of lnd's tls.cert, or a path to it.
  LND_TLS_CERT: z.string().optional(),
  BTC_USD_RATE: z.string().regex(/^[0-9]{1,12}(\.[0-9]+)?$/, "must be USD per BTC, e.g. 100000").optional(),
  BTC_USD_RATE_URL: z.string().url().optional(),
  // Upstream data providers. Base URLs default to the providers' public addresses; tests and operators
  // may point them at a mirror. BLS: API v2 with BLS_API_KEY, v1 (smaller limits, no annual averages) without.
  FRED_API_KEY: z.string().regex(/^[A-Za-z0-9]{8,64}$/, "must be the 32-character key from fredaccount.stlouisfed.org").optional(),
  BLS_API_KEY: z.string().regex(/^[A-Za-z0-9]{8,64}$/, "must be the registration key from data.bls.gov/registrationEngine").optional(),
  CENSUS_API_KEY: z.string().regex(/^[A-Za-z0-9]{8,64}$/, "must be the key from api.census.gov/data/key_signup.html").optional(),
  FRED_BASE_URL: z.string().url().default("https://api.stlouisfed.org/fred"),
  BLS_BASE_URL: z.string().url().default("https://api.bls.gov/publicAPI"),
  CENSUS_BASE_URL: z.string().url().default("https://api.census.gov/data"),
  WORLDBANK_BASE_URL: z.string().url().default("https://api.worldbank.org/v2"),
  // How long one upstream request may take before it is abandoned (and retried).
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  // Ask: an optional OpenAI-compatible chat-completions API that phrases answers (base URL, e.g.
  // https://api.openai.com/v1). Unset: the deterministic composer alone, with no network.
  ASK_LLM_URL: z.string().url().optional(),
  ASK_LLM_MODEL: z.string().min(1).max(200).optional(),
  ASK_LLM_KEY: z.string().min(1).optional(),
  ASK_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
  // Where the IRS SOI county migration files countyinflowYYZZ.csv / countyoutflowYYZZ.csv live.
  IRS_SOI_BASE_URL: z.string().url().default("https://www.irs.gov/pub/irs-soi/"),
  // Jobs: pg-boss over this database. JOBS=off: this server only enqueues; `svc worker` processes run them.
  JOBS: z.enum(["on", "off"]).default("on"),
  // Jobs one process runs at once (unset: 1 on the embedded database, whose one connection serialises them; 2 on PostgreSQL).
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(32).optional(),
  // Connections pg-boss may open to PostgreSQL per process (its own small pool, besides one for LISTEN).
  JOBS_POOL_MAX: z.coerce.number().int().min(1).max(20).default(3),
  // How often an idle worker looks for jobs (a new job also wakes it at once through LISTEN/NOTIFY).
  JOBS_POLL_SECONDS: z.coerce.number().min(0.5).max(600).default(2),
  // How often jobs whose worker died (expired, or no heartbeat) are failed and retried, and (at most every 45 s) due
  // cron schedules are looked for.
  JOBS_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Provisioning a series on demand: attempts after the first, exponential backoff between them.
  PROVISION_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(4),
  PROVISION_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  PROVISION_RETRY_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  // A fetch still running after this long is taken to be lost and tried again.
  PROVISION_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  // A running fetch proves it is alive this often (0: off; pg-boss needs at least 10), so a dead worker's job is retried sooner.
  PROVISION_HEARTBEAT_SECONDS: z.coerce.number().int().min(0).max(3600).refine((n) => n === 0 || n >= 10, "must be 0 (off) or at least 10").default(30),
  // The Retry-After of a 202: when a client should ask again.
  PROVISION_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(5),
  // After the upstream gave up, how long requests are told so before one may try again (longer if the upstream asked).
  PROVISION_FAILURE_COOLDOWN_SECONDS: z.coerce.number().int().min(1).max(604_800).default(900),
  // Bounds on the fetches callers start (src/domain/provisioning-budget.ts). Without a key: new fetches per
  // client address a minute, per upstream a minute, the share of an upstream's own allowance, and the queue length
  // at which they wait; with one: the queue length alone (and their jobs run first).
  PROVISION_ANON_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(5),
  PROVISION_ANON_PER_SOURCE_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(10),
  PROVISION_ANON_UPSTREAM_SHARE: z.coerce.number().min(0).max(1).default(0.25),
  PROVISION_ANON_QUEUE_MAX: z.coerce.number().int().min(0).max(100_000).default(50),
  PROVISION_QUEUE_MAX: z.coerce.number().int().min(1).max(100_000).default(500),
  // Refresh schedules: `source=cron` pairs separated by ';' overriding the defaults (`source=off` disables one).
  REFRESH_SCHEDULES: z.string().optional(),
  // The time zone the refresh crons are read in (US agencies publish on Eastern time).
  REFRESH_TZ: z.string().default("America/New_York"),
});

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
  stripe: { secretKey: string; webhookSecret: string | null; prices: { developer: string | null; professional: string | null } } | null;
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

/**
 * Default refresh crons per source (read in REFRESH_TZ, US Eastern by default), after each agency's usual release times:
 * - fred: weekdays 09:30 (after the 08:30 releases it re-publishes) and 17:30 (daily rates and prices of the day);
 * - bls: weekdays 08:45 (BLS releases at 08:30: the jobs report, CPI, state and county LAUS);
 * - census: Mondays 06:00 (ACS and population estimates come out a few times a year, on no fixed weekday);
 * - worldbank: Sundays 05:00 (the World Development Indicators are updated a few times a year).
 */
export const DEFAULT_REFRESH_SCHEDULES: Readonly<Record<string, string>> = Object.freeze({
  fred: "30 9,17 * * 1-5",
  bls: "45 8 * * 1-5",
  census: "0 6 * * 1",
  worldbank: "0 5 * * 0",
});

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

export function isPostgresUrl(url: string | undefined | null): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

export class ConfigError extends Error {}

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
    throw new ConfigError(`invalid configuration:\n  DATABASE_URL: must be a postgres:// or postgresql:// URL, or unset for the embedded database`);
  }
  if (c.ASK_LLM_URL && !c.ASK_LLM_MODEL) {
    throw new ConfigError(`invalid configuration:\n  ASK_LLM_MODEL: required with ASK_LLM_URL (the model name the endpoint serves)`);
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
    askModel: c.ASK_LLM_URL ? { url: c.ASK_LLM_URL, model: c.ASK_LLM_MODEL!, key: c.ASK_LLM_KEY ?? null, timeoutMs: c.ASK_LLM_TIMEOUT_MS } : null,
    logLevel: c.LOG_LEVEL,
    seriesCacheRevalidateMs: c.SERIES_CACHE_REVALIDATE_MS ?? (c.NODE_ENV === "test" ? 0 : 1000),
    compute: { threads: c.COMPUTE_THREADS ?? Math.min(4, Math.max(1, availableParallelism() - 1)), queueMax: c.COMPUTE_QUEUE_MAX, chartRendersPerCaller: c.CHART_RENDERS_PER_CALLER },
    pageMemo: c.PAGE_MEMO === "on",
    metricsToken: c.METRICS_TOKEN ?? null,
    redisUrl: c.REDIS_URL ?? null,
    smtpUrl: c.SMTP_URL ?? null,
    mailFrom: c.MAIL_FROM,
    trustedProxies: (c.TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter(Boolean),
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

// Five cron fields (minute hour day-of-month month day-of-week), as pg-boss schedules them; pg-boss checks the values.
const CRON = /^\s*[0-9A-Za-z*,/?#LW-]+(\s+[0-9A-Za-z*,/?#LW-]+){4}\s*$/;
const SOURCE = /^[a-z0-9][a-z0-9_-]*$/;

/** REFRESH_SCHEDULES: `source=cron` pairs separated by ';' (a cron may contain commas), over the defaults. */
export function parseRefreshSchedules(raw: string | undefined): RefreshSchedule[] {
  const out = new Map<string, string | null>(Object.entries(DEFAULT_REFRESH_SCHEDULES));
  for (const part of (raw ?? "").split(";").map((s) => s.trim()).filter(Boolean)) {
    const i = part.indexOf("=");
    const source = part.slice(0, i).trim();
    const cron = part.slice(i + 1).trim();
    if (i <= 0 || !SOURCE.test(source)) throw new ConfigError(`invalid configuration:\n  REFRESH_SCHEDULES: '${part}' is not source=cron (e.g. fred=30 9 * * 1-5) or source=off`);
    if (cron === "off") out.set(source, null);
    else if (CRON.test(cron)) out.set(source, cron.replace(/\s+/g, " "));
    else throw new ConfigError(`invalid configuration:\n  REFRESH_SCHEDULES: '${cron}' (for ${source}) is not a cron of five fields (minute hour day month weekday)`);
  }
  return [...out].map(([source, cron]) => ({ source, cron })).sort((a, b) => a.source.localeCompare(b.source));
}

function jobsConfig(c: z.infer<typeof configSchema>): JobsConfig {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: c.REFRESH_TZ });
  } catch {
    throw new ConfigError(`invalid configuration:\n  REFRESH_TZ: '${c.REFRESH_TZ}' is not an IANA time zone (e.g. America/New_York, UTC)`);
  }
  return {
    inProcess: c.JOBS === "on",
    concurrency: c.JOBS_CONCURRENCY ?? null,
    poolMax: c.JOBS_POOL_MAX,
    pollSeconds: c.JOBS_POLL_SECONDS,
    superviseSeconds: c.JOBS_SUPERVISE_SECONDS,
    provision: {
      retryLimit: c.PROVISION_RETRY_LIMIT,
      retryDelaySeconds: c.PROVISION_RETRY_DELAY_SECONDS,
      retryDelayMaxSeconds: Math.max(c.PROVISION_RETRY_DELAY_MAX_SECONDS, c.PROVISION_RETRY_DELAY_SECONDS),
      expireSeconds: c.PROVISION_EXPIRE_SECONDS,
      heartbeatSeconds: c.PROVISION_HEARTBEAT_SECONDS === 0 ? null : c.PROVISION_HEARTBEAT_SECONDS,
      retryAfterSeconds: c.PROVISION_RETRY_AFTER_SECONDS,
      failureCooldownSeconds: c.PROVISION_FAILURE_COOLDOWN_SECONDS,
      limits: {
        perClientPerMinute: c.PROVISION_ANON_PER_CLIENT_PER_MINUTE,
        perSourcePerMinute: c.PROVISION_ANON_PER_SOURCE_PER_MINUTE,
        upstreamShare: c.PROVISION_ANON_UPSTREAM_SHARE,
        anonymousQueueMax: c.PROVISION_ANON_QUEUE_MAX,
        queueMax: c.PROVISION_QUEUE_MAX,
      },
    },
    refresh: { timezone: c.REFRESH_TZ, schedules: parseRefreshSchedules(c.REFRESH_SCHEDULES) },
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** `value` for every network, or `network=value` pairs (a CAIP-2 id contains no `=`). */
function perNetwork(raw: string | undefined, networks: string[], name: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!raw) return out;
  const parts = raw.split(",").map((s) => s.trim()).filter(Boolean);
  if (parts.length === 1 && !parts[0]!.includes("=")) {
    for (const n of networks) out.set(n, parts[0]!);
    return out;
  }
  for (const p of parts) {
    const i = p.indexOf("=");
    const n = p.slice(0, i);
    if (i <= 0 || !networks.includes(n)) throw new ConfigError(`invalid configuration:\n  ${name}: expected one value or network=value pairs for X402_NETWORKS (${networks.join(", ")})`);
    out.set(n, p.slice(i + 1));
  }
  return out;
}

function paymentsConfig(c: z.infer<typeof configSchema>): PaymentsConfig {
  const networks = c.X402_NETWORKS.trim() === "none" ? [] : c.X402_NETWORKS.split(",").map((s) => s.trim()).filter(Boolean);
  for (const n of networks) {
    if (!/^eip155:[1-9][0-9]*$/.test(n)) throw new ConfigError(`invalid configuration:\n  X402_NETWORKS: '${n}' is not an EVM CAIP-2 id such as eip155:84532`);
  }
  const rpc = perNetwork(c.X402_RPC_URL, networks, "X402_RPC_URL");
  const assets = perNetwork(c.X402_ASSET, networks, "X402_ASSET");
  for (const a of assets.values()) if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new ConfigError(`invalid configuration:\n  X402_ASSET: '${a}' is not a token address`);
  return {
    x402: networks.length
      ? {
          networks: networks.map((network) => ({ network, rpcUrl: rpc.get(network) ?? null, asset: assets.get(network) ?? null })),
          payTo: c.X402_PAY_TO ?? null,
          settle: c.X402_SETTLE,
          settlerKey: c.X402_SETTLER_KEY ?? null,
          facilitatorUrl: c.X402_FACILITATOR_URL.replace(/\/+$/, ""),
        }
      : null,
    l402:
      c.LIGHTNING_BACKEND === "none"
        ? null
        : {
            rootKeys: c.L402_ROOT_KEY ? c.L402_ROOT_KEY.split(",") : [],
            backend: c.LIGHTNING_BACKEND,
            lnd: { url: c.LND_REST_URL ?? null, macaroonHex: c.LND_MACAROON_HEX ?? null, tlsCert: c.LND_TLS_CERT ?? null },
            btcUsdRate: c.BTC_USD_RATE ?? null,
            btcUsdRateUrl: c.BTC_USD_RATE_URL ?? null,
          },
  };
}
