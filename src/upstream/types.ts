// The one interface every upstream connector implements (src/upstream/<provider>.ts), the shapes it exchanges and
// the one error it throws. A connector knows its provider's wire format, ids and limits; it does not know the
// database: services/ingest.ts writes what it fetches through db/repos/observations.ts.

export type ConnectorId = "fred" | "bls" | "census" | "worldbank";
export const CONNECTOR_IDS: readonly ConnectorId[] = ["fred", "bls", "census", "worldbank"];

export type UpstreamObservation = {
  /** First day of the period the value covers (YYYY-MM-DD); FRED's own dates are kept as FRED publishes them. */
  date: string;
  /** null: the provider lists the date with no value (FRED ".", BLS "-", Census suppressed, World Bank null). */
  value: number | null;
  /** BLS footnote P. The other providers publish no such flag. */
  isPreliminary: boolean;
};

type RefBase = { upstreamId: string };

/** What one fetch needs to find one series at its provider. `upstreamId` is unique per connector. */
export type SeriesRef =
  | (RefBase & { connector: "fred"; seriesId: string })
  | (RefBase & {
      connector: "bls";
      seriesId: string /** request annual averages and keep only them (period M13) */;
      annualAverage: boolean;
    })
  | (RefBase & {
      connector: "census";
      /** e.g. "acs/acs5" */
      dataset: string;
      variable: string;
      geo: { state: string; county: string | null };
    })
  | (RefBase & {
      connector: "worldbank";
      indicator: string;
      iso2: string;
      /** Every ISO alpha-3 code the country is known by (the World Bank's own may be a user-assigned one: XKX). */
      iso3: string[];
    });

export type FetchedSeries = {
  ref: SeriesRef;
  /** Sorted by date, one per date. */
  observations: UpstreamObservation[];
  /** The provider's last update of the series (ISO instant), when it says. */
  sourceUpdatedAt: string | null;
  /** Set when the provider answered the batch but not this series (BLS "Series does not exist"): nothing to write. */
  error?: UpstreamError;
};

/** The catalog entry a connector reads (an indicators row fits). */
export type CatalogIndicator = {
  code: string;
  sourceSlug: string | null;
  frequency: string | null;
  meta: Record<string, unknown>;
  /** Kinds of region the indicator is offered for; a region of another kind gets no ref. */
  regionKinds?: readonly string[];
  /** The one region a national (not per-region) series is offered for. */
  defaultRegionCode?: string | null;
};

/** The region a connector reads (a regions row fits). */
export type CatalogRegion = {
  code: string;
  type: string;
  fipsState: string | null;
  fipsCounty: string | null;
  aliases: readonly string[];
};

export type DateRange = { start?: string; end?: string };

export interface Connector {
  readonly id: ConnectorId;
  /** How many refs a caller should hand one fetch() so it can batch them (BLS: series per query; Census and the
   * World Bank answer every region of a variable in one request, so as many as there are). */
  readonly batchSize: number;
  /** Which upstream series serves this catalog indicator for this region, or null when this connector cannot. Pure. */
  seriesRef(indicator: CatalogIndicator, region: CatalogRegion): SeriesRef | null;
  /** Fetches one or many series (batched up to the provider's limits), mapped to observations, one result per ref
   * in input order. Throws UpstreamError when a request fails (after retries): then nothing of the call is usable. */
  fetch(refs: SeriesRef[], range?: DateRange): Promise<FetchedSeries[]>;
}

export type UpstreamErrorKind =
  | "rate_limited" // 429 or the provider's throttle answer
  | "over_capacity" // BLS REQUEST_NOT_PROCESSED / over capacity, 503
  | "quota" // a daily allowance is used up (ours or the provider's)
  | "timeout"
  | "network"
  | "server" // 5xx
  | "not_found" // unknown series, variable or country
  | "bad_request"
  | "auth" // missing or refused key
  | "protocol"; // an answer we cannot read

export type UpstreamErrorInit = {
  provider: ConnectorId;
  kind: UpstreamErrorKind;
  message: string;
  status?: number | null;
  retryable: boolean;
  retryAfterSeconds?: number;
};

/** A provider failed or refused. `retryable`: the same request may succeed later (after retryAfterSeconds when set). */
export class UpstreamError extends Error {
  readonly provider: ConnectorId;
  readonly kind: UpstreamErrorKind;
  /** The HTTP status, or null when there was none (timeout, network) or the failure came in a 200 body. */
  readonly status: number | null;
  readonly retryable: boolean;
  readonly retryAfterSeconds?: number;

  constructor(init: UpstreamErrorInit) {
    super(`${init.provider}: ${init.message}`);
    this.name = "UpstreamError";
    this.provider = init.provider;
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.retryable = init.retryable;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
  }
}
