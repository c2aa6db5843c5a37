// The jobs and payments sections of the Config, derived from the environment: refresh schedules over their defaults,
// and x402 values given once or per network, each checked beyond what a single variable's schema can say.
import { ConfigError, type Env } from "./schema";
import type { JobsConfig, PaymentsConfig, RefreshSchedule } from "./types";

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

// Five cron fields (minute hour day-of-month month day-of-week), as pg-boss schedules them; pg-boss checks the values.
const CRON = /^\s*[0-9A-Za-z*,/?#LW-]+(\s+[0-9A-Za-z*,/?#LW-]+){4}\s*$/;
const SOURCE = /^[a-z0-9][a-z0-9_-]*$/;

/** REFRESH_SCHEDULES: `source=cron` pairs separated by ';' (a cron may contain commas), over the defaults. */
export function parseRefreshSchedules(raw: string | undefined): RefreshSchedule[] {
  const out = new Map<string, string | null>(Object.entries(DEFAULT_REFRESH_SCHEDULES));
  for (const part of (raw ?? "")
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const i = part.indexOf("=");
    const source = part.slice(0, i).trim();
    const cron = part.slice(i + 1).trim();
    if (i <= 0 || !SOURCE.test(source))
      throw new ConfigError(
        `invalid configuration:\n  REFRESH_SCHEDULES: '${part}' is not source=cron (e.g. fred=30 9 * * 1-5) or source=off`,
      );
    if (cron === "off") out.set(source, null);
    else if (CRON.test(cron)) out.set(source, cron.replace(/\s+/g, " "));
    else
      throw new ConfigError(
        `invalid configuration:\n  REFRESH_SCHEDULES: '${cron}' (for ${source}) is not a cron of five fields (minute hour day month weekday)`,
      );
  }
  return [...out].map(([source, cron]) => ({ source, cron })).sort((a, b) => a.source.localeCompare(b.source));
}

export function jobsConfig(c: Env): JobsConfig {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: c.REFRESH_TZ });
  } catch {
    throw new ConfigError(
      `invalid configuration:\n  REFRESH_TZ: '${c.REFRESH_TZ}' is not an IANA time zone (e.g. America/New_York, UTC)`,
    );
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

/** `value` for every network, or `network=value` pairs (a CAIP-2 id contains no `=`). */
function perNetwork(raw: string | undefined, networks: string[], name: string): Map<string, string> {
  const out = new Map<string, string>();
  if (!raw) return out;
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 1 && !parts[0]!.includes("=")) {
    for (const n of networks) out.set(n, parts[0]!);
    return out;
  }
  for (const p of parts) {
    const i = p.indexOf("=");
    const n = p.slice(0, i);
    if (i <= 0 || !networks.includes(n))
      throw new ConfigError(
        `invalid configuration:\n  ${name}: expected one value or network=value pairs for X402_NETWORKS (${networks.join(", ")})`,
      );
    out.set(n, p.slice(i + 1));
  }
  return out;
}

export function paymentsConfig(c: Env): PaymentsConfig {
  const networks =
    c.X402_NETWORKS.trim() === "none"
      ? []
      : c.X402_NETWORKS.split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  for (const n of networks) {
    if (!/^eip155:[1-9][0-9]*$/.test(n))
      throw new ConfigError(
        `invalid configuration:\n  X402_NETWORKS: '${n}' is not an EVM CAIP-2 id such as eip155:84532`,
      );
  }
  const rpc = perNetwork(c.X402_RPC_URL, networks, "X402_RPC_URL");
  const assets = perNetwork(c.X402_ASSET, networks, "X402_ASSET");
  for (const a of assets.values())
    if (!/^0x[0-9a-fA-F]{40}$/.test(a))
      throw new ConfigError(`invalid configuration:\n  X402_ASSET: '${a}' is not a token address`);
  return {
    x402: networks.length
      ? {
          networks: networks.map((network) => ({
            network,
            rpcUrl: rpc.get(network) ?? null,
            asset: assets.get(network) ?? null,
          })),
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
            lnd: {
              url: c.LND_REST_URL ?? null,
              macaroonHex: c.LND_MACAROON_HEX ?? null,
              tlsCert: c.LND_TLS_CERT ?? null,
            },
            btcUsdRate: c.BTC_USD_RATE ?? null,
            btcUsdRateUrl: c.BTC_USD_RATE_URL ?? null,
          },
  };
}
