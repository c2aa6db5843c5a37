// The one place configuration is read. Only entry points (server.ts, cli.ts) pass the environment to loadConfig();
// everything else receives the parsed Config.
import { z } from "zod";

const logLevels = ["debug", "info", "warn", "error", "silent"] as const;

export const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  // Unset (or not a postgres URL): the embedded PGlite database under DATA_DIR.
  DATABASE_URL: z.string().optional(),
  // PostgreSQL: how long a connection attempt may take, and how long the server lets one statement of the running
  // service take (0: no limit). Maintenance commands (seed, import, derive, migrate) run without the statement limit.
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(logLevels).default("info"),
  // How long a cached series' version is trusted before it is re-read (ms); 0 re-reads it on every request.
  // Default 1000, or 0 when NODE_ENV=test so a test that writes then reads sees its write at once.
  SERIES_CACHE_REVALIDATE_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  // The page memo in front of the paid pipeline (src/http/page-memo.ts): "off" sends every request through it.
  PAGE_MEMO: z.enum(["on", "off"]).default("on"),
  // Keys and access (issue 4). Unset REDIS_URL: per-key rate limits are counted in this process only.
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
  // Payments (issue 5). x402: CAIP-2 networks, comma-separated ("none": rail off). RPC URLs and assets: one value for
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
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | null;
  db: { connectTimeoutMs: number; statementTimeoutMs: number };
  dataDir: string;
  publicBaseUrl: string | null;
  logLevel: (typeof logLevels)[number];
  seriesCacheRevalidateMs: number;
  pageMemo: boolean;
  redisUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  trustedProxies: string[];
  trustProxyHeader: string;
  stripe: { secretKey: string; webhookSecret: string | null; prices: { developer: string | null; professional: string | null } } | null;
  dunningPeriodDays: number;
  payments: PaymentsConfig;
};

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
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL ?? null,
    db: { connectTimeoutMs: c.DB_CONNECT_TIMEOUT_MS, statementTimeoutMs: c.DB_STATEMENT_TIMEOUT_MS },
    dataDir: c.DATA_DIR,
    publicBaseUrl: c.PUBLIC_BASE_URL ? c.PUBLIC_BASE_URL.replace(/\/+$/, "") : null,
    logLevel: c.LOG_LEVEL,
    seriesCacheRevalidateMs: c.SERIES_CACHE_REVALIDATE_MS ?? (c.NODE_ENV === "test" ? 0 : 1000),
    pageMemo: c.PAGE_MEMO === "on",
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
  };
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
