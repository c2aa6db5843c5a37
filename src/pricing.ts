// The one price table (spec "Per-request prices"), in integer micro-USD so no float ever
// touches money, and the one rule of what is premium (spec "Authentication" rule 3), which decides both a price and
// an entitlement. The admission core, MCP, the `/` index, llms.txt and OpenAPI's x-price-usd read it.
export const MICRO_USD_PER_USD = 1_000_000;

export const PRICES_MICRO_USD = {
  observations: 10_000,
  latest: 10_000,
  insights: 10_000,
  derived_series: 50_000, // svc:* observations, latest, insights
  latest_batch: 10_000, // flat, up to 20 codes
  flows: 10_000,
  panel: 50_000,
  signals: 50_000,
  ask: 250_000,
  ask_briefing: 1_500_000,
  briefing_read: 100_000,
} as const;

export type Surface =
  | "observations"
  | "latest"
  | "insights"
  | "latest_batch"
  | "flows"
  | "panel"
  | "signals"
  | "ask"
  | "ask_briefing"
  | "briefing_read";

/**
 * One thing a paid request reads: a series (its indicator code), a region, whether it is premium data, and the surface
 * it is read through. Entitlement is decided per read (src/services/admission.ts entitleReads).
 */
export type Read = { indicator: string | null; region: string | null; premium: boolean; surface: Surface };

/**
 * What a paid route resolved before asking for money: what binds and describes a payment (the indicator, else the
 * resource) and every read the answer will make, so the admission core can entitle all of them.
 */
export type Serving = {
  /** The resolved indicator code (a concept's resolved series), or null for routes without one. */
  indicator: string | null;
  region: string | null;
  /** Route resource path without query, e.g. "/v1/observations". */
  resource: string;
  reads: readonly Read[];
};

export type Quote = {
  surface: Surface;
  microUsd: number;
  usd: string;
  /** What a payment proof is bound to: the resolved indicator, or the route's resource. */
  binding: string;
  resource: string;
  description: string;
};

export function isDerivedSeries(code: string | null): boolean {
  return !!code && code.startsWith("svc:");
}

export function formatUsd(microUsd: number): string {
  const whole = Math.floor(microUsd / MICRO_USD_PER_USD);
  const frac = String(microUsd % MICRO_USD_PER_USD)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return frac.length < 2 ? `${whole}.${frac.padEnd(2, "0")}` : `${whole}.${frac}`;
}

/** Premium data: an indicator whose access_tier is premium, and every `svc:` derived series. */
export function isPremiumIndicator(i: { code: string; accessTier: string }): boolean {
  return i.accessTier === "premium" || isDerivedSeries(i.code);
}

const perSeriesSurfaces = new Set<Surface>(["observations", "latest", "insights"]);

/**
 * Whether a key needs premium access (an unrestricted plan or the `svc-premium` scope) for a read: premium data
 * (isPremiumIndicator, a `svc:` series), and signals, which are premium whatever they read.
 */
export function isPremiumRead(read: Read): boolean {
  return read.premium || read.surface === "signals" || isDerivedSeries(read.indicator);
}

export function quote(surface: Surface, serving: Serving): Quote {
  const microUsd =
    perSeriesSurfaces.has(surface) && isDerivedSeries(serving.indicator)
      ? PRICES_MICRO_USD.derived_series
      : PRICES_MICRO_USD[surface];
  const binding = serving.indicator ?? serving.resource;
  const what = serving.indicator
    ? `${serving.indicator}${serving.region ? ` for ${serving.region}` : ""}`
    : serving.resource;
  return {
    surface,
    microUsd,
    usd: formatUsd(microUsd),
    binding,
    resource: serving.resource,
    description: `${surface.replace("_", " ")}: ${what}`,
  };
}

/** A key of the price list: a surface, the `svc:` series price of the per-series surfaces, or the free catalog. */
export type PriceKey = keyof typeof PRICES_MICRO_USD | "catalog";
export type PriceList = Partial<Record<PriceKey, string>>;

/** The whole table of the spec, including surfaces whose routes this build does not serve. */
export function priceList(): Record<PriceKey, string> {
  const out = Object.fromEntries(Object.entries(PRICES_MICRO_USD).map(([k, v]) => [k, formatUsd(v)]));
  return { ...(out as Record<keyof typeof PRICES_MICRO_USD, string>), catalog: "0.00" };
}

/**
 * The price list as published in `/`, llms.txt, OpenAPI and the README: only the surfaces some registered paid route
 * uses (a price for a route that does not exist would be an offer nobody can take), the `svc:` series price when a
 * per-series surface is among them, and the free catalog. Keys keep the table's order.
 */
export function publishedPriceList(inUse: Iterable<Surface>): PriceList {
  const used = new Set<string>(inUse);
  if ([...perSeriesSurfaces].some((s) => used.has(s))) used.add("derived_series");
  used.add("catalog");
  return Object.fromEntries(Object.entries(priceList()).filter(([k]) => used.has(k))) as PriceList;
}
