// The environment variables the service reads, as zod parses and checks them one by one (src/config/index.ts derives
// the Config from them), and the error a bad configuration is.
import { z } from "zod";

export const logLevels = ["debug", "info", "warn", "error", "silent"] as const;

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
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters")
    .max(512)
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
    .optional(),
  // Keys and access. Unset REDIS_URL: per-key rate limits are counted in this process only.
  REDIS_URL: z
    .string()
    .regex(/^(redis|rediss|valkey|valkeys):\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  // Unset SMTP_URL: mail stays in the database outbox, read with `svc mail list`.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Economic Series API <no-reply@localhost>"),
  // Comma-separated proxy addresses whose forwarding header is believed for the client IP.
  TRUSTED_PROXIES: z.string().optional(),
  TRUST_PROXY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/)
    .default("x-forwarded-for"),
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
  X402_PAY_TO: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte address")
    .optional(),
  X402_SETTLE: z.enum(["self", "facilitator"]).default("facilitator"),
  X402_SETTLER_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte private key")
    .optional(),
  X402_FACILITATOR_URL: z.string().url().default("https://x402.org/facilitator"),
  // L402: root secret(s) as hex, at least 32 bytes, comma-separated for rotation (current first); unset outside
  // production: generated once in DATA_DIR. LIGHTNING_BACKEND "none": rail off.
  L402_ROOT_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64,}(,[0-9a-fA-F]{64,})*$/, "must be hex of at least 32 bytes (comma-separated for rotation)")
    .optional(),
  LIGHTNING_BACKEND: z.enum(["dev", "lnd", "none"]).default("dev"),
  LND_REST_URL: z.string().url().optional(),
  LND_MACAROON_HEX: z
    .string()
    .regex(/^[0-9a-fA-F]+$/, "must be hex")
    .optional(),
  // PEM text of lnd's tls.cert, or a path to it.
  LND_TLS_CERT: z.string().optional(),
  BTC_USD_RATE: z
    .string()
    .regex(/^[0-9]{1,12}(\.[0-9]+)?$/, "must be USD per BTC, e.g. 100000")
    .optional(),
  BTC_USD_RATE_URL: z.string().url().optional(),
  // Upstream data providers. Base URLs default to the providers' public addresses; tests and operators
  // may point them at a mirror. BLS: API v2 with BLS_API_KEY, v1 (smaller limits, no annual averages) without.
  FRED_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, "must be the 32-character key from fredaccount.stlouisfed.org")
    .optional(),
  BLS_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, "must be the registration key from data.bls.gov/registrationEngine")
    .optional(),
  CENSUS_API_KEY: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, "must be the key from api.census.gov/data/key_signup.html")
    .optional(),
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
  PROVISION_HEARTBEAT_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .refine((n) => n === 0 || n >= 10, "must be 0 (off) or at least 10")
    .default(30),
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

/** The environment as configSchema parsed it. */
export type Env = z.infer<typeof configSchema>;

export class ConfigError extends Error {}
