// The one catalog in memory of an app (src/services/caches.ts): sources and indicators (searched, filtered and paged in memory by
// src/domain/catalog-search.ts), each indicator's series coverage, and the rendered JSON of list responses. The region
// index (src/services/regions.ts) follows the same generation. It all changes only with a seed, an import or a
// derived-series or observation write, so reads never touch the database between those.
//
// Freshness:
// - This process's writes are seen by the next read, exactly: the catalog upserts (sources, indicators, regions)
//   announce themselves after commit (the database's write events, db/events.ts) and drop the catalog; the
//   observation write path announces the series it changed (svc import, derived series, the seed's samples), which
//   drops those indicators' coverage. A write inside a transaction (the seed) is announced when it commits.
// - Other processes' writes (PostgreSQL only: the embedded database admits one process): the first read after
//   `revalidateMs` since the last check reads a fingerprint of the catalog tables and of every indicator's series
//   (about 2 ms, db/repos/catalog.ts catalogFingerprint) and drops what changed. A change is therefore seen within
//   revalidateMs (SERIES_CACHE_REVALIDATE_MS, default 1 s, the bound cached series have too) plus one check.
import type { Database, Db } from "../../db/client";
import {
  catalogFingerprint,
  heldSummaries,
  indicatorCoverage,
  listAllIndicatorsWithSource,
  listAllSources,
  regionCountsByType,
  type IndicatorWithSource,
  type SourceRow,
} from "../../db/repos/catalog";
import { describeCoverage, isPerRegion, NO_HOLDINGS, type CoverageFacts } from "../domain/coverage";
import { findRegions, type RegionRow } from "../../db/repos/regions";
import { buildIndicatorSearch, type IndicatorSearchIndex } from "../domain/catalog-search";
import { BoundedCache, type CacheBounds } from "./bounded-cache";
import { renderJson, type RenderedJson } from "./rendered";
import { DataLoading, loadingLabel } from "./data-loading";
import type { Epoch } from "./page-memo";

export type CatalogIndexOptions = {
  /** How long a fingerprint check is trusted; 0 checks before every read. */
  revalidateMs: number;
  /** Whether other processes may write the database (PostgreSQL); false skips the fingerprint checks (PGlite). */
  crossProcess: boolean;
  /** Milliseconds, monotonic. */
  now?: () => number;
  /**
   * The upstream connector that can fetch an indicator's series for a region (asked for its default region), or
   * null: none configured, or none maps it.
   */
  fetchVia?: FetchVia;
};

export type FetchVia = (indicator: IndicatorWithSource, region: RegionRow) => string | null;

/** Every indicator's coverage facts, as of one catalog generation and one coverage version. */
/** Every indicator's coverage facts, with the catalog snapshot they were computed for (read both from here, so an
 * indicator listed always has its facts). */
export type CoverageTable = { key: string; snap: CatalogSnapshot; byId: Map<string, CoverageFacts> };

export type Coverage = { regions: string[]; start: string | null; end: string | null };

export type CatalogSnapshot = {
  /** The generation this snapshot was loaded at. */
  generation: number;
  /** Every indicator, by code then source (byte order), with folded text for search. */
  search: IndicatorSearchIndex<IndicatorWithSource>;
  /** Every indicator by lower-cased code, each list by source (byte order). */
  byLowerCode: Map<string, IndicatorWithSource[]>;
  byId: Map<string, IndicatorWithSource>;
  /** Every source, by slug (byte order). */
  sources: SourceRow[];
  sourceBySlug: Map<string, SourceRow>;
  /** Indicators per source slug: all of them and the active ones. */
  counts: Map<string, { all: number; active: number }>;
  /** Rendered list responses of this snapshot, by normalised query. */
  bodies: RenderedCache;
  /** Values computed from this snapshot alone (series resolutions), dropped with it. */
  memo: BoundedCache<string, unknown>;
};

/** Rendered JSON bodies by key, bounded by their bytes (src/services/bounded-cache.ts). */
export class RenderedCache {
  private readonly entries: BoundedCache<string, RenderedJson>;
  constructor(bounds: CacheBounds) {
    this.entries = new BoundedCache(bounds, (r) => r.body.size);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The body stored under `key`, rendering `value()` on a miss. */
  get(key: string, value: () => unknown): RenderedJson {
    return this.entries.get(key) ?? this.entries.set(key, renderJson(value()));
  }
}

export class CatalogIndex {
  /** Bumped whenever the catalog (sources, indicators, regions) may have changed; caches keyed by it reload. */
  generation = 0;
  private snapshot: Promise<CatalogSnapshot> | null = null;
  private readonly coverage: BoundedCache<string, Promise<Coverage>>;
  /**
   * Per indicator, bumped whenever one of its series may have changed (seriesToken); `seriesEpoch` when all may have.
   * One small number per indicator written since start: bounded by the catalog, not by requests.
   */
  private readonly seriesVersions = new Map<string, number>();
  private seriesEpoch = 0;
  /** Bumped whenever some series' holdings may have changed; coverage tables and bodies that show them key on it. */
  coverageVersion = 0;
  private table: Promise<CoverageTable> | null = null;
  private tableKey = "";
  private prints: { catalog: string; series: Map<string, string> } | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;
  private opts: CatalogIndexOptions & { now: () => number };

  private readonly db: Db;

  constructor(
    database: Pick<Database, "db" | "events">,
    opts: CatalogIndexOptions,
    private readonly bounds: { bodies: CacheBounds; resolutions: CacheBounds; coverage: CacheBounds },
    /** Moved with the generation (the page memo's validity token, page-memo.ts). */
    private readonly epoch: Epoch = { value: 0 },
  ) {
    this.db = database.db;
    this.coverage = new BoundedCache(bounds.coverage);
    this.opts = { now: () => performance.now(), ...opts };
    database.events.onCatalogWritten(() => this.invalidateCatalog());
    database.events.onSeriesWritten((changed) => {
      for (const c of changed) this.seriesChanged(c.indicatorId);
      this.holdingsChanged();
    });
  }

  configure(opts: CatalogIndexOptions): void {
    this.opts = { now: () => performance.now(), fetchVia: this.opts.fetchVia, ...opts };
    this.checkedAt = -Infinity;
  }

  /** Which families of the first start's data are served (all, unless a first start is storing them). */
  loading = new DataLoading();
  private unwatchLoading = () => {};

  /** What says which data is served yet (the server's first start); coverage and resolutions follow its changes. */
  useLoading(loading: DataLoading): void {
    this.unwatchLoading();
    this.loading = loading;
    this.unwatchLoading = loading.onChange(() => this.holdingsChanged());
    this.holdingsChanged();
  }

  /** Who answers coverage's fetch question (the app's SeriesFetcher); the coverage table is recomputed. */
  useFetchVia(fetcher: { fetchVia: FetchVia }): void {
    this.opts = { ...this.opts, fetchVia: (indicator, region) => fetcher.fetchVia(indicator, region) };
    this.holdingsChanged();
  }

  private seriesChanged(indicatorId: string): void {
    this.coverage.delete(indicatorId);
    this.seriesVersions.set(indicatorId, (this.seriesVersions.get(indicatorId) ?? 0) + 1);
  }

  /**
   * A token that changes whenever any series of the indicator may have changed (this process's writes at once,
   * another's within the revalidation bound): what is computed from all of an indicator's series at once (a ranking
   * of every county) is cached under it.
   */
  async seriesToken(indicatorId: string): Promise<string> {
    await this.fresh();
    return `${this.generation}.${this.seriesEpoch}.${this.seriesVersions.get(indicatorId) ?? 0}`;
  }

  private holdingsChanged(): void {
    this.coverageVersion++;
    this.table = null;
  }

  /** Drops the catalog, the region index and every rendered body: the next read reloads them. */
  invalidateCatalog(): void {
    this.generation++;
    this.epoch.value++;
    this.snapshot = null;
  }

  /**
   * Brings the index up to date with writes this process cannot hear of directly: catalog writes made inside a
   * transaction, and (PostgreSQL) other processes' writes, by a fingerprint check at most every revalidateMs.
   * Concurrent readers share one check.
   */
  async fresh(): Promise<void> {
    if (!this.opts.crossProcess) return;
    if (this.checking) return this.checking;
    if (this.opts.revalidateMs > 0 && this.opts.now() - this.checkedAt < this.opts.revalidateMs) return;
    this.checking = this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /**
   * Whether the index is current without a check: no catalog write is pending and (PostgreSQL) the last
   * cross-process check is within revalidateMs. What was derived from the index at this generation is still right.
   */
  isCurrent(): boolean {
    return this.opts.now() < this.currentUntil();
  }

  /** Until when (on this index's clock) it stays current without a check: for ever in one process (PGlite). */
  currentUntil(): number {
    if (!this.opts.crossProcess) return Number.POSITIVE_INFINITY;
    return this.opts.revalidateMs > 0 && this.checking === null
      ? this.checkedAt + this.opts.revalidateMs
      : Number.NEGATIVE_INFINITY;
  }

  private async check(): Promise<void> {
    const startedAt = this.opts.now();
    const print = await catalogFingerprint(this.db);
    const prev = this.prints;
    if (!prev || prev.catalog !== print.catalog) this.invalidateCatalog();
    if (!prev) {
      this.coverage.clear();
      this.seriesEpoch++;
      this.holdingsChanged();
    } else {
      let changed = false;
      for (const [id, p] of print.series) if (prev.series.get(id) !== p) (changed = true), this.seriesChanged(id);
      for (const id of prev.series.keys()) if (!print.series.has(id)) (changed = true), this.seriesChanged(id);
      if (changed) this.holdingsChanged();
    }
    this.prints = print;
    this.checkedAt = startedAt;
  }

  /** The catalog snapshot, loaded on first use after each invalidation. */
  async catalog(): Promise<CatalogSnapshot> {
    await this.fresh();
    if (!this.snapshot) {
      const generation = this.generation;
      const loading = this.load(generation);
      this.snapshot = loading;
      // A failed load is not kept: the next read retries.
      loading.catch(() => {
        if (this.snapshot === loading) this.snapshot = null;
      });
    }
    return this.snapshot;
  }

  private async load(generation: number): Promise<CatalogSnapshot> {
    const [indicators, sources] = await Promise.all([listAllIndicatorsWithSource(this.db), listAllSources(this.db)]);
    const byLowerCode = new Map<string, IndicatorWithSource[]>();
    const counts = new Map<string, { all: number; active: number }>();
    for (const r of indicators) {
      const k = r.code.toLowerCase();
      const list = byLowerCode.get(k);
      if (list) list.push(r);
      else byLowerCode.set(k, [r]);
      if (r.sourceSlug !== null) {
        const n = counts.get(r.sourceSlug) ?? { all: 0, active: 0 };
        n.all++;
        if (r.isActive) n.active++;
        counts.set(r.sourceSlug, n);
      }
    }
    // Within one code, by source in byte order (the base list is by code, then source, so each list already is).
    return {
      generation,
      search: buildIndicatorSearch(indicators),
      byLowerCode,
      byId: new Map(indicators.map((r) => [r.id, r])),
      sources,
      sourceBySlug: new Map(sources.map((s) => [s.slug, s])),
      counts,
      bodies: new RenderedCache(this.bounds.bodies),
      memo: new BoundedCache(this.bounds.resolutions),
    };
  }

  /**
   * Every indicator's coverage facts (src/domain/coverage.ts), loaded with one grouped query over the series table and
   * kept until the catalog or any series' holdings change. `key` names that state, for caches of what shows them.
   */
  async coverageTable(): Promise<CoverageTable> {
    const snap = await this.catalog();
    const key = `${snap.generation}.${this.coverageVersion}`;
    // Compared by the key it was started for, not awaited: while holdings change (a first start storing its data), a
    // caller gets the table of the state it asked in, and the next caller a new one.
    const current = this.table;
    if (current && this.tableKey === key) return current;
    this.tableKey = key;
    const loading = (async () => {
      const defaults = [
        ...new Set([...snap.byId.values()].map((i) => i.defaultRegionCode).filter((c): c is string => !!c)),
      ];
      const [held, regionCounts, defaultRegions] = await Promise.all([
        heldSummaries(this.db),
        regionCountsByType(this.db),
        findRegions(this.db, defaults),
      ]);
      const regionByCode = new Map(defaultRegions.map((r) => [r.code, r]));
      const byId = new Map<string, CoverageFacts>();
      for (const i of snap.byId.values()) {
        const loadingFamily = this.loading.loadingFamilyOf(i);
        const subject = {
          code: i.code,
          perRegion: isPerRegion(i.meta),
          regionKinds: i.regionKinds,
          defaultRegionCode: i.defaultRegionCode,
          derived: i.code.startsWith("svc:"),
          fetchVia: this.fetchVia(i, regionByCode),
          loading: loadingFamily ? loadingLabel(loadingFamily) : null,
        };
        byId.set(i.id, describeCoverage(subject, held.get(i.id) ?? NO_HOLDINGS, regionCounts));
      }
      return { key, snap, byId };
    })();
    this.table = loading;
    loading.catch(() => {
      if (this.table === loading) this.table = null;
    });
    return loading;
  }

  private fetchVia(i: IndicatorWithSource, regions: Map<string, RegionRow>): string | null {
    const region = i.defaultRegionCode ? regions.get(i.defaultRegionCode) : undefined;
    return region && this.opts.fetchVia ? this.opts.fetchVia(i, region) : null;
  }

  /** Where an indicator has data (regions by code, first and last date), loaded once per change of its series. */
  async coverageOf(indicatorId: string): Promise<Coverage> {
    await this.fresh();
    let c = this.coverage.get(indicatorId);
    if (!c) {
      const loading = indicatorCoverage(this.db, indicatorId);
      c = loading;
      this.coverage.set(indicatorId, loading);
      loading.catch(() => {
        if (this.coverage.get(indicatorId) === loading) this.coverage.delete(indicatorId);
      });
    }
    return c;
  }
}
