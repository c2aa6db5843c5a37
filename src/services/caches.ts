// Every in-memory cache of one app's data, in one object made with its dependencies (bootstrap, makeTestApp, the
// CLI) and handed around in Deps: two apps in one process (tests, a bench) never share state by accident, and what
// a cache holds is visible from where it is made.
// - catalog: the one catalog in memory (sources, indicators, coverage) with its generation, which every reader
//   checks: resolution, concepts, derived series, catalog endpoints and the page memo in front of the paid pipeline;
// - regions: the region lookup index, rebuilt when the catalog generation moves;
// - series: whole series by version, rendered pages, series heads;
// - memos: small bounded maps of values computed from the above (computed concepts, rendered latest observations,
//   derived-series bookkeeping), each keyed by the versions it was computed from.
import type { Database, Db } from "../../db/client";
import type { RegionRow } from "../../db/repos/regions";
import type { RegionIndex } from "../domain/regions";
import { CatalogIndex, RenderedCache } from "./catalog-index";
import { SeriesCache } from "./series-cache";

/** The region index of one catalog generation, and the region lists rendered from it. */
export type RegionIndexEntry = { generation: number; index: Promise<RegionIndex<RegionRow>>; bodies: RenderedCache };

export class Memos {
  private readonly maps = new Map<string, Map<string, unknown>>();
  /** The map named `name` (created on first use). Values are typed by the one module that uses the name. */
  of<T>(name: string): Map<string, T> {
    let m = this.maps.get(name);
    if (!m) this.maps.set(name, (m = new Map()));
    return m as Map<string, T>;
  }
}

export type Caches = {
  catalog: CatalogIndex;
  regions: { current: RegionIndexEntry | null };
  series: SeriesCache;
  memos: Memos;
};

export type CacheOptions = {
  /** How long a cached series head or catalog fingerprint is trusted before it is checked again (0: every read). */
  revalidateMs: number;
  /** Whether other processes may write the database (PostgreSQL); false skips the cross-process checks (PGlite). */
  crossProcess: boolean;
};

/** The caches of one app over `database`. Defaults: checked on every read and across processes (safe for tools). */
export function createCaches(database: Pick<Database, "db" | "kind" | "events">, opts: Partial<CacheOptions> = {}): Caches {
  const revalidateMs = opts.revalidateMs ?? 0;
  const crossProcess = opts.crossProcess ?? database.kind !== "pglite";
  return {
    catalog: new CatalogIndex(database, { revalidateMs, crossProcess }),
    regions: { current: null },
    series: new SeriesCache(database, { revalidateMs }),
    memos: new Memos(),
  };
}

/** What the data services read through: the database and this app's caches of it. */
export type Store = { db: Db; caches: Caches };
