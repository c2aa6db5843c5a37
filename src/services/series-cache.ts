// In-process cache of hot series: the whole latest-revision series of an (indicator, region), validated against
// series.version (the write path bumps it on every change), plus memoised views of it (resampled, transformed,
// rendered rows) that live and die with that version.
//
// Freshness: a series head (id, version) is trusted for `revalidateMs` after it was read; after that the next read
// re-reads the head (one indexed row) and reloads the observations only when the version moved. So a write from
// another process (svc import) is visible within revalidateMs; 0 checks on every read (the test default). A write
// in this process drops the written series' head at once (the database's write events, db/events.ts, told after
// commit), and a head read that such a write overtook is not kept. Memory is bounded by a row budget, least recently
// used series first out (CACHE_BOUNDS in caches.ts).
//
// Rendered pages: the JSON of a response page rendered once (src/services/rendered.ts: a Blob every Response shares,
// its bytes, its compressed forms once asked for), keyed by the series version(s) it was computed from and the
// normalised query (seriesVersionKey below), in one LRU bounded by total bytes. A key names its version, so a page can never outlive the data
// it shows: a new version simply misses, and the old version's pages age out.
import type { Database, Db } from "../../db/client";
import {
  findSeriesHead,
  findSeriesHeads,
  readLatestObservations,
  type SeriesHead,
  type StoredObservation,
} from "../../db/repos/observation-reads";
import type { Point } from "../domain/series";
import { BoundedCache, type CacheBounds } from "./bounded-cache";
import type { Epoch } from "./page-memo";
import type { RenderedJson } from "./rendered";

/** What a kept page holds in memory: its Blob and its bytes (compressed forms are a fraction more). */
const pageSize = (page: RenderedJson) => page.body.size * 2;

export type SeriesSnapshot = {
  head: SeriesHead;
  rows: StoredObservation[];
  points: Point[];
  /** Views computed from this version (keyed by what produced them); dropped with the snapshot. */
  memo: BoundedCache<string, unknown>;
};

export type SeriesCacheOptions = {
  revalidateMs: number;
  bounds: {
    seriesRows: CacheBounds;
    seriesPages: CacheBounds;
    seriesLatest: CacheBounds;
    seriesViews: CacheBounds;
    seriesHeads: CacheBounds;
  };
  now?: () => number;
  /** Moved by every invalidation (the page memo's validity token, page-memo.ts). */
  epoch?: Epoch;
};

type HeadEntry = { head: SeriesHead | null; checkedAt: number };

const key = (indicatorId: string, regionCode: string) => `${indicatorId}|${regionCode}`;

/** Names one stored version of a series: every cache of what was computed from a series keys on this. */
export const seriesVersionKey = (head: Pick<SeriesHead, "id" | "version">): string => `${head.id}@${head.version}`;
/** Names the versions of several series, in order (inputs of a computed or derived series). */
export const seriesVersionsKey = (heads: readonly Pick<SeriesHead, "id" | "version">[]): string =>
  heads.map(seriesVersionKey).join(",");

export class SeriesCache {
  private readonly heads: BoundedCache<string, HeadEntry>;
  private readonly snapshots: BoundedCache<number, SeriesSnapshot>;
  private readonly loading = new Map<string, Promise<SeriesSnapshot>>();
  // Newest valued row per series version, for batch latest reads that did not load the whole series.
  private readonly latest: BoundedCache<number, { version: number; row: StoredObservation | null }>;
  private readonly now: () => number;
  // Bumped by every invalidation: a head read that started before one is answered but not remembered.
  private generation = 0;
  private readonly pages: BoundedCache<string, RenderedJson>;
  /** Lookups answered from memory (hits) or the database (misses), per kind, for metrics. */
  readonly stats = { head: { hits: 0, misses: 0 }, series: { hits: 0, misses: 0 }, page: { hits: 0, misses: 0 } };

  private readonly db: Db;

  constructor(
    database: Pick<Database, "db" | "events">,
    private readonly opts: SeriesCacheOptions,
  ) {
    this.db = database.db;
    this.snapshots = new BoundedCache(opts.bounds.seriesRows, (s) => s.rows.length);
    this.pages = new BoundedCache(opts.bounds.seriesPages, pageSize);
    this.latest = new BoundedCache(opts.bounds.seriesLatest);
    this.heads = new BoundedCache(opts.bounds.seriesHeads);
    this.now = opts.now ?? (() => performance.now());
    database.events.onSeriesWritten((changed) => {
      for (const c of changed) this.invalidate(c);
    });
  }

  private fresh(e: HeadEntry | undefined): e is HeadEntry {
    return !!e && this.opts.revalidateMs > 0 && this.now() - e.checkedAt < this.opts.revalidateMs;
  }

  /** The series row of (indicator, region), or null when none is stored. */
  async head(indicatorId: string, regionCode: string): Promise<SeriesHead | null> {
    const k = key(indicatorId, regionCode);
    const e = this.heads.get(k);
    if (this.fresh(e)) {
      this.stats.head.hits++;
      return e.head;
    }
    this.stats.head.misses++;
    const generation = this.generation;
    const head = await findSeriesHead(this.db, indicatorId, regionCode);
    if (generation === this.generation) this.heads.set(k, { head, checkedAt: this.now() });
    return head;
  }

  /** Heads of many series; the stale ones are read in one statement. */
  async headsOf(keys: { indicatorId: string; regionCode: string }[]): Promise<(SeriesHead | null)[]> {
    const stale = keys.filter((k) => !this.fresh(this.heads.get(key(k.indicatorId, k.regionCode))));
    if (stale.length === 0) return keys.map((k) => this.heads.get(key(k.indicatorId, k.regionCode))?.head ?? null);
    const generation = this.generation;
    const found = await findSeriesHeads(this.db, stale);
    const byKey = new Map(found.map((h) => [key(h.indicatorId, h.regionCode), h]));
    if (generation === this.generation) {
      const at = this.now();
      for (const k of stale) {
        const kk = key(k.indicatorId, k.regionCode);
        this.heads.set(kk, { head: byKey.get(kk) ?? null, checkedAt: at });
      }
    }
    return keys.map((k) => {
      const kk = key(k.indicatorId, k.regionCode);
      return byKey.has(kk) ? byKey.get(kk)! : (this.heads.get(kk)?.head ?? null);
    });
  }

  /** Whether a head of (indicator, region) is remembered and still trusted (for tests of the freshness rules). */
  trusts(indicatorId: string, regionCode: string): boolean {
    return this.fresh(this.heads.get(key(indicatorId, regionCode)));
  }

  /** The remembered head while it is still trusted (no I/O), and until when (on this cache's clock); undefined when it would have to be read again. */
  trusted(indicatorId: string, regionCode: string): { head: SeriesHead | null; until: number } | undefined {
    const e = this.heads.get(key(indicatorId, regionCode));
    return this.fresh(e) ? { head: e.head, until: e.checkedAt + this.opts.revalidateMs } : undefined;
  }

  /** The cached snapshot for this exact head (id and version), if loaded. */
  peek(head: SeriesHead): SeriesSnapshot | null {
    const s = this.snapshots.peek(head.id);
    return s && s.head.version === head.version ? s : null;
  }

  /** The full series at the head's version, loading it when not cached. */
  async snapshot(head: SeriesHead): Promise<SeriesSnapshot> {
    const hit = this.peek(head);
    this.stats.series[hit ? "hits" : "misses"]++;
    if (hit) {
      this.snapshots.get(head.id); // most recently used
      return hit;
    }
    const lk = seriesVersionKey(head);
    let p = this.loading.get(lk);
    if (!p) {
      p = this.load(head).finally(() => this.loading.delete(lk));
      this.loading.set(lk, p);
    }
    return p;
  }

  private async load(head: SeriesHead): Promise<SeriesSnapshot> {
    const rows = await readLatestObservations(this.db, head.id);
    const points = new Array<Point>(rows.length);
    for (let k = 0; k < rows.length; k++) {
      const r = rows[k]!;
      points[k] = r.isPreliminary
        ? { date: r.date, value: r.value, preliminary: true }
        : { date: r.date, value: r.value };
    }
    const snap: SeriesSnapshot = { head, rows, points, memo: new BoundedCache(this.opts.bounds.seriesViews) };
    const old = this.snapshots.peek(head.id);
    // A slower load of an older version never replaces a newer one.
    if (old && old.head.version > head.version) return snap;
    return this.snapshots.set(head.id, snap);
  }

  /** The newest valued row remembered for this exact head, or undefined when not known. */
  latestOf(head: SeriesHead): StoredObservation | null | undefined {
    const e = this.latest.peek(head.id);
    return e && e.version === head.version ? e.row : undefined;
  }

  rememberLatest(head: SeriesHead, row: StoredObservation | null): void {
    this.latest.set(head.id, { version: head.version, row });
  }

  /** The rendered page stored under `key` (which must name the series version it shows), or undefined. */
  page(key: string): RenderedJson | undefined {
    const body = this.pages.get(key);
    this.stats.page[body === undefined ? "misses" : "hits"]++;
    return body;
  }

  rememberPage(key: string, body: RenderedJson): void {
    this.pages.set(key, body);
  }

  /** Forget what is known about a series (after writing it in this process), or everything. */
  /** Forgets every head, loaded series and rendered page: the next read of any series is a cold one (as after a restart). */
  clear(): void {
    this.invalidate();
    this.snapshots.clear();
    this.latest.clear();
    this.pages.clear();
  }

  invalidate(target?: { indicatorId: string; regionCode: string }): void {
    this.generation++;
    if (this.opts.epoch) this.opts.epoch.value++;
    if (!target) {
      this.heads.clear();
      return;
    }
    this.heads.delete(key(target.indicatorId, target.regionCode));
  }
}
