// Every in-memory cache of one app's data, in one object made with its dependencies (bootstrap, makeTestApp, the
// CLI) and handed around in Deps: two apps in one process (tests, a bench) never share state by accident, and what
// a cache holds is visible from where it is made.
// - catalog: the one catalog in memory (sources, indicators, coverage) with its generation, which every reader
//   checks: resolution, concepts, derived series and catalog endpoints;
// - regions: the region lookup index, rebuilt when the catalog generation moves;
// - series: whole series by version, rendered pages, series heads;
// - memos: small bounded maps of values computed from the above (computed concepts, rendered latest observations),
//   each keyed by the versions it was computed from;
// - pages: the page memo in front of the paid pipeline's handlers (page-memo.ts), valid while the epoch that every
//   invalidation of the catalog or a series moves has not moved;
// - passedTargets: the request targets the query guard passed (a verdict on the URL alone).
// Every one of them is a BoundedCache (bounded-cache.ts) with its bounds in CACHE_BOUNDS below, and
// hears of this process's writes through the database's write events (db/events.ts), not through module state.
// Beside them, what computes the values kept there, for every reader that has the caches: the compute pool (chart
// SVGs and signal detection on worker threads, compute-pool.ts) and the charts being drawn on it (chart-renders.ts,
// bounded by the pool's threads and queue).
import type { Database, Db } from "../../db/client";
import type { RegionRow } from "../../db/repos/regions";
import type { FuzzyName } from "../domain/ask/parse";
import type { RegionIndex } from "../domain/regions";
import { BoundedCache, type CacheBounds } from "./bounded-cache";
import { chartRenders, type ChartRenders } from "./chart-renders";
import { inProcessCompute, type ComputePool } from "./compute-pool";
import { CatalogIndex, RenderedCache } from "./catalog-index";
import { PageMemo } from "./page-memo";
import { SeriesCache } from "./series-cache";

/**
 * The region index of one catalog generation, the region lists rendered from it, the search text of each of its
 * regions (built on the first search) and the names ask reads misspellings against (built on the first question).
 */
export type RegionIndexEntry = {
  generation: number;
  index: Promise<RegionIndex<RegionRow>>;
  bodies: RenderedCache;
  searchTexts: Map<string, string> | null;
  fuzzyNames: FuzzyName[] | null;
};

/**
 * The bounds of every cache of the app, in one table (src/services/bounded-cache.ts is what they bound). Weights are
 * rows for series and bytes for rendered bodies; the rest count entries.
 */
export const CACHE_BOUNDS = {
  // SeriesCache (series-cache.ts): whole series by id, least recently read out once their rows pass the budget.
  seriesRows: { maxWeight: 2_000_000 },
  // Rendered response pages by (series versions, normalised query); one page at most an eighth of the budget.
  seriesPages: { maxWeight: 32_000_000, maxEntryWeight: 4_000_000 },
  // The newest valued row per series version, for batch latest reads (one small entry per series asked about).
  seriesLatest: { maxEntries: 100_000 },
  // Views (resampled, transformed, rendered rows) of one series version: a few frequencies and transforms each.
  seriesViews: { maxEntries: 32 },
  // Rendered catalog lists of one catalog generation (the whole indicator list is about 140 KB).
  catalogBodies: { maxWeight: 8_000_000, maxEntryWeight: 8_000_000 },
  // Rendered region lists of one region index: every (type, parent) list together is a few MB at most.
  regionBodies: { maxWeight: 16_000_000, maxEntryWeight: 16_000_000 },
  // Code-or-concept + region resolutions of one catalog generation.
  resolutions: { maxEntries: 4096 },
  // Discovery documents (OpenAPI, llms.txt) per base URL the service was reached by.
  discoveryBaseUrls: { maxEntries: 16 },
  // Request targets (method, path, query) that passed the query guard (http/request-guard.ts).
  passedTargets: { maxEntries: 8192 },
  // API keys by secret hash with their subscription (key-runtime.ts): a flood of distinct keys cannot grow it.
  apiKeys: { maxEntries: 10_000 },
  // Series heads (or their absence) by (indicator, region) (series-cache.ts): any pair a client names, held or not.
  seriesHeads: { maxEntries: 100_000 },
  // Coverage of one indicator (catalog-index.ts coverageOf), by indicator id.
  coverage: { maxEntries: 4096 },
  // Whole answers by request target in front of the paid pipeline (page-memo.ts); one at most a sixteenth.
  pageMemo: { maxEntries: 4096, maxWeight: 64_000_000, maxEntryWeight: 4_000_000 },
  // In-memory rate-limit counters (rate-limit-stores.ts: per key, per client address, per upstream), each kept until
  // its window ends; past the bound, ended windows go first, then counters hit once (a flood of rotating addresses),
  // then the oldest. Redis (REDIS_URL) keeps them instead, each expiring with its window.
  rateLimitCounters: { maxEntries: 100_000 },
  // Memos: values computed from cached data, keyed by the versions they came from (Memos below).
  // LatestObservation per stored series version, rendered once and shared (services/latest.ts).
  "latest.rendered": { maxEntries: 20_000 },
  // Computed concepts' data per input versions (services/series-read.ts).
  "observations.computed-concepts": { maxEntries: 256 },
  // Every place's value of one indicator at one date (all counties: 3,144 numbers), per catalog series token
  // (services/place-values.ts): insights' peer ranks and ask's rankings read it once per change of its series.
  "ask.place-values": { maxEntries: 128 },
  // The jobs section of /api/health (services/health.ts), read at most once a second: one entry.
  "health.jobs": { maxEntries: 1 },
} as const satisfies Record<string, CacheBounds>;

/** The named memos (their bounds are in CACHE_BOUNDS under the same names). */
export const MEMO_NAMES = [
  "latest.rendered",
  "observations.computed-concepts",
  "ask.place-values",
  "health.jobs",
] as const;
export type MemoName = (typeof MEMO_NAMES)[number];

export class Memos {
  private readonly byName = Object.fromEntries(
    MEMO_NAMES.map((name) => [name, new BoundedCache<string, unknown>(CACHE_BOUNDS[name])]),
  ) as Record<MemoName, BoundedCache<string, unknown>>;
  /** The memo named `name`. Values are typed by the one module that uses the name. */
  of<T>(name: MemoName): BoundedCache<string, T> {
    return this.byName[name] as BoundedCache<string, T>;
  }
}

export type Caches = {
  catalog: CatalogIndex;
  regions: { current: RegionIndexEntry | null };
  series: SeriesCache;
  memos: Memos;
  pages: PageMemo;
  /** Request targets (method, path, query) that passed the query guard (src/http/request-guard.ts). */
  passedTargets: BoundedCache<string, true>;
  /**
   * Per base URL the service was reached by: the discovery documents (src/docs/discovery.ts, typed there) and the
   * OpenAPI text with its data lines (src/routes/discovery.ts).
   */
  discovery: { documents: BoundedCache<string, unknown>; served: BoundedCache<string, string> };
  compute: ComputePool;
  charts: ChartRenders;
};

export type CacheOptions = {
  /** How long a cached series head or catalog fingerprint is trusted before it is checked again (0: every read). */
  revalidateMs: number;
  /** Whether other processes may write the database (PostgreSQL); false skips the cross-process checks (PGlite). */
  crossProcess: boolean;
  /** Where CPU-heavy work runs (default: the calling thread). */
  compute: ComputePool;
  /** Uncached charts one caller may have drawn at once (the server's CHART_RENDERS_PER_CALLER; default: no limit, for tools that serve no client). */
  chartRendersPerCaller: number;
};

/** The caches of one app over `database`. Defaults: checked on every read and across processes (safe for tools). */
export function createCaches(
  database: Pick<Database, "db" | "kind" | "events">,
  opts: Partial<CacheOptions> = {},
): Caches {
  const revalidateMs = opts.revalidateMs ?? 0;
  const crossProcess = opts.crossProcess ?? database.kind !== "pglite";
  const compute = opts.compute ?? inProcessCompute();
  // The page memo's one validity token: moved by every invalidation of the catalog or of a series.
  const epoch = { value: 0 };
  return {
    catalog: new CatalogIndex(
      database,
      { revalidateMs, crossProcess },
      { bodies: CACHE_BOUNDS.catalogBodies, resolutions: CACHE_BOUNDS.resolutions, coverage: CACHE_BOUNDS.coverage },
      epoch,
    ),
    regions: { current: null },
    series: new SeriesCache(database, { revalidateMs, bounds: CACHE_BOUNDS, epoch }),
    memos: new Memos(),
    pages: new PageMemo(CACHE_BOUNDS.pageMemo, epoch),
    passedTargets: new BoundedCache(CACHE_BOUNDS.passedTargets),
    discovery: {
      documents: new BoundedCache(CACHE_BOUNDS.discoveryBaseUrls),
      served: new BoundedCache(CACHE_BOUNDS.discoveryBaseUrls),
    },
    compute,
    charts: chartRenders(compute, { perCaller: opts.chartRendersPerCaller ?? Number.POSITIVE_INFINITY }),
  };
}

/** What the data services read through: the database and this app's caches of it. */
export type Store = { db: Db; caches: Caches };
