// USD -> satoshis. msat = ceil(micro_usd * 1e7 / btc_usd_cents), sats = max(1, ceil(msat / 1000)): always rounded up
// so a price is never undercharged, in whole sats because many wallets work in sats. The rate comes from a fixed
// value or a feed (cached briefly, with a maximum staleness after which it fails closed unless a fallback is set).
import type { Clock, PaymentLogger } from "../types";

export interface RateSource {
  /** US cents per bitcoin. */
  btcUsdCents(): Promise<bigint>;
}

export function satsFor(microUsd: number, btcUsdCents: bigint): bigint {
  if (btcUsdCents <= 0n) throw new Error("BTC/USD rate must be positive");
  const num = BigInt(microUsd) * 10_000_000n;
  const msat = (num + btcUsdCents - 1n) / btcUsdCents;
  const sats = (msat + 999n) / 1000n;
  return sats < 1n ? 1n : sats;
}

/** "97123.45" (USD per BTC) -> cents. */
export function usdToCents(usd: string | number): bigint {
  const s = typeof usd === "number" ? usd.toFixed(2) : usd.trim();
  const m = /^([0-9]{1,12})(?:\.([0-9]+))?$/.exec(s);
  if (!m) throw new Error(`not a USD amount: ${s}`);
  const cents = (m[2] ?? "").padEnd(2, "0").slice(0, 2);
  return BigInt(m[1]) * 100n + BigInt(cents);
}

export function fixedRate(usdPerBtc: string | number): RateSource {
  const cents = usdToCents(usdPerBtc);
  if (cents <= 0n) throw new Error("BTC/USD rate must be positive");
  return { btcUsdCents: async () => cents };
}

/** Reads a USD-per-BTC number from common feed shapes: a bare number, {rate_float}, {rate}, {price}, {USD}, {usd},
 * {data:{amount}} (Coinbase), {bitcoin:{usd}} (CoinGecko), {bpi:{USD:{rate_float}}}. */
export function extractUsdRate(body: unknown): string | null {
  const num = (v: unknown) =>
    typeof v === "number" && Number.isFinite(v) && v > 0
      ? v.toFixed(2)
      : typeof v === "string" && /^[0-9]+(\.[0-9]+)?$/.test(v.trim())
        ? v.trim()
        : null;
  if (num(body)) return num(body);
  if (typeof body !== "object" || body === null) return null;
  const b = body as Record<string, any>;
  const candidates = [
    b.rate_float,
    b.rate,
    b.price,
    b.USD,
    b.usd,
    b.data?.amount,
    b.bitcoin?.usd,
    b.bpi?.USD?.rate_float,
    b.USD?.last,
  ];
  for (const c of candidates) {
    const v = num(c);
    if (v) return v;
  }
  return null;
}

export function feedRate(opts: {
  url: string;
  clock: Clock;
  fetch?: typeof fetch;
  cacheMs?: number;
  maxStaleMs?: number;
  fallback?: RateSource | null;
  logger?: PaymentLogger;
}): RateSource {
  const cacheMs = opts.cacheMs ?? 60_000;
  const maxStaleMs = opts.maxStaleMs ?? 10 * 60_000;
  let cached: { cents: bigint; at: number } | null = null;
  let inflight: Promise<bigint> | null = null;
  const load = async (): Promise<bigint> => {
    const res = await (opts.fetch ?? fetch)(opts.url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`rate feed answered ${res.status}`);
    const usd = extractUsdRate(await res.json());
    if (!usd) throw new Error("rate feed answer has no USD rate");
    const cents = usdToCents(usd);
    if (cents <= 0n) throw new Error("rate feed gave a non-positive rate");
    return cents;
  };
  return {
    async btcUsdCents() {
      const now = opts.clock.now().getTime();
      if (cached && now - cached.at < cacheMs) return cached.cents;
      try {
        inflight ??= load().finally(() => (inflight = null));
        const cents = await inflight;
        cached = { cents, at: now };
        return cents;
      } catch (e) {
        opts.logger?.warn("l402: BTC/USD rate feed failed", { error: String(e) });
        if (cached && now - cached.at < maxStaleMs) return cached.cents;
        if (opts.fallback) return opts.fallback.btcUsdCents();
        throw new Error("no current BTC/USD rate");
      }
    },
  };
}
