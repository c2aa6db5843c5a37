// The connector registry: one connector per provider, sharing one limiter and one transport (fetch, clock, sleep,
// timeout, retries), built from configuration. refFor() asks the connector the catalog entry names
// (meta.upstream.api) which upstream series serves an (indicator, region), so callers never pick a provider.
import type { Config } from "../config";
import { systemClock, type Clock } from "../ports";
import { blsConnector } from "./bls";
import { censusConnector } from "./census";
import { fredConnector } from "./fred";
import type { Transport } from "./http";
import { providerLimits, realSleep, UpstreamLimiter, type ProviderLimits, type Sleep } from "./limiter";
import {
  CONNECTOR_IDS,
  type CatalogIndicator,
  type CatalogRegion,
  type Connector,
  type ConnectorId,
  type SeriesRef,
} from "./types";
import { worldBankConnector } from "./worldbank";

export * from "./types";
export { UpstreamLimiter, type ProviderLimits, type Sleep } from "./limiter";

export type UpstreamRegistry = {
  readonly connectors: Readonly<Record<ConnectorId, Connector>>;
  readonly limiter: UpstreamLimiter;
  /** Requests sent per provider and outcome (src/upstream/http.ts upstreamCountKey), for metrics. */
  readonly counts?: ReadonlyMap<string, number>;
  /** The connector a ref belongs to. */
  connector(id: ConnectorId): Connector;
  /** The upstream series that serves this indicator for this region, or null when no connector can fetch it. */
  refFor(indicator: CatalogIndicator, region: CatalogRegion): SeriesRef | null;
};

export type ConnectorOptions = {
  fetch?: typeof fetch;
  clock?: Clock;
  /** How waits are spent (tests advance a manual clock instead of sleeping). */
  sleep?: Sleep;
  /** Tries per request, the first included (default 4). */
  maxAttempts?: number;
  /** Longest a request waits for the limiter or a backoff before failing with a retryable error (default 120 s). */
  maxWaitMs?: number;
  /** Overrides of the published limits (tests). */
  limits?: Partial<Record<ConnectorId, ProviderLimits>>;
  /** Page sizes (tests exercise paging with small pages). */
  pageSize?: { fred?: number; worldbank?: number };
};

export function createConnectors(config: Pick<Config, "upstream">, opts: ConnectorOptions = {}): UpstreamRegistry {
  const up = config.upstream;
  const clock = opts.clock ?? systemClock;
  const sleep = opts.sleep ?? realSleep;
  const limits = { ...providerLimits({ bls: !!up.bls.apiKey, census: !!up.census.apiKey }), ...opts.limits };
  const limiter = new UpstreamLimiter(limits, clock, sleep, opts.maxWaitMs ?? 120_000);
  const transport: Transport = {
    fetch: opts.fetch ?? fetch,
    clock,
    sleep,
    limiter,
    timeoutMs: up.timeoutMs,
    maxAttempts: opts.maxAttempts ?? 4,
    backoffBaseMs: 1000,
    backoffCapMs: 30_000,
    // Bounded: one count per provider and outcome.
    counts: new Map(),
  };
  const connectors: Record<ConnectorId, Connector> = {
    fred: fredConnector(up.fred, transport, { pageSize: opts.pageSize?.fred }),
    bls: blsConnector(up.bls, transport),
    census: censusConnector(up.census, transport),
    worldbank: worldBankConnector(up.worldbank, transport, { pageSize: opts.pageSize?.worldbank }),
  };
  return {
    connectors,
    limiter,
    counts: transport.counts!,
    connector: (id) => connectors[id],
    refFor(indicator, region) {
      const api = (indicator.meta?.upstream as { api?: unknown } | undefined)?.api;
      if (typeof api !== "string" || !(CONNECTOR_IDS as readonly string[]).includes(api)) return null;
      return connectors[api as ConnectorId].seriesRef(indicator, region);
    },
  };
}
