// Catalog use cases: list sources, list and search indicators, describe one indicator, and resolve a code (plus an
// optional source) to one catalog row, which every read endpoint shares.
//
// Resolution rules:
// - Codes match exactly, or ignoring case when no source spells the code exactly ("unrate" finds UNRATE).
// - When several sources publish the code and no `source` is given, the original publisher wins over a
//   re-publisher (meta.republishes, e.g. FRED carrying a BLS id), then the first source by slug; the others are
//   reported as `ambiguous_with`.
// - Inactive indicators, and indicators of inactive sources, are invisible unless include_inactive is set.
//
// Everything is answered from the in-memory catalog of src/services/catalog-index.ts (fresh after this process's
// writes at once, after other processes' within its revalidation bound); list responses are rendered once per
// catalog generation and query.
import type { IndicatorRow, IndicatorWithSource, SourceRow } from "../../db/repos/catalog";
import { findIndicators, isVisible, pageOf, type Standing } from "../domain/catalog-search";
import { FREQUENCY_UNIT, isFrequency, periodEnd } from "../domain/calendar";
import { asOfDate, isCurrent } from "../domain/freshness";
import { fail } from "../errors";
import type { RenderedJson } from "./rendered";
import { renderJson } from "./rendered";
import type { Indicator, IndicatorDetail, Source } from "../schemas/catalog";
import type { CatalogSnapshot, CoverageTable } from "./catalog-index";
import { isPerRegion, type CoverageFacts } from "../domain/coverage";
import type { RegionIndex } from "../domain/regions";
import { describeValues, valueSpecOf } from "../domain/value-kinds";
import type { RegionRow } from "../../db/repos/regions";
import type { Store } from "./caches";
import { regionIndex } from "./regions";

export type { IndicatorWithSource };

const echo = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);

function sourcesOf(snap: CatalogSnapshot, includeInactive: boolean): { data: Source[] } {
  return {
    data: snap.sources
      .filter((s) => includeInactive || s.isActive)
      .map((s) => {
        const n = snap.counts.get(s.slug);
        return {
          slug: s.slug,
          name: s.name,
          provider: s.provider,
          category: s.category,
          indicator_count: (includeInactive ? n?.all : n?.active) ?? 0,
          docs_url: s.docsUrl,
          attribution: s.attribution,
          license: s.license,
        };
      }),
  };
}

export async function listSources(store: Store, query: { include_inactive: boolean }): Promise<{ data: Source[] }> {
  return sourcesOf(await store.caches.catalog.catalog(), query.include_inactive);
}

/** GET /v1/sources as rendered JSON, kept per catalog generation. */
export async function renderSources(store: Store, query: { include_inactive: boolean }): Promise<RenderedJson> {
  const snap = await store.caches.catalog.catalog();
  return snap.bodies.get(`sources|${query.include_inactive}`, () => sourcesOf(snap, query.include_inactive));
}

export function toIndicator(r: IndicatorRow, coverage: CoverageTable): Indicator {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    source: r.sourceSlug,
    category: r.category,
    subcategory: r.subcategory,
    access_tier: r.accessTier,
    unit: r.unit,
    frequency: r.frequency,
    is_active: r.isActive,
    coverage: coverage.byId.get(r.id)!,
  };
}

export type IndicatorListQuery = {
  source?: string;
  category?: string;
  frequency?: string;
  search?: string;
  include_inactive: boolean;
  has_data?: boolean;
  limit: number;
  offset: number;
};

type IndicatorList = { data: Indicator[]; meta: { total: number; limit: number; offset: number } };

/** How an indicator stands for the list's order (src/domain/catalog-search.ts): held, current as of `asOf`, newest end. */
export function standingOf(coverage: CoverageTable, asOf: string | null): (r: IndicatorRow) => Standing {
  return (r) => {
    const c = coverage.byId.get(r.id)!;
    const held = c.regions_held > 0 && c.end !== null;
    if (!held || !isFrequency(r.frequency)) return { held, current: false, newestEnd: null };
    return {
      held,
      current: asOf !== null && isCurrent(c.end, r.frequency, asOf),
      newestEnd: periodEnd(c.end!, FREQUENCY_UNIT[r.frequency]),
    };
  };
}

function indicatorsOf(
  snap: CatalogSnapshot,
  coverage: CoverageTable,
  q: IndicatorListQuery,
  asOf: string | null,
): IndicatorList {
  // An unknown source is a caller mistake worth naming, not an empty page (a typo would look like "no data").
  if (q.source !== undefined && !snap.sourceBySlug.has(q.source)) {
    const known = snap.sources.map((s) => s.slug);
    fail(
      "INVALID_PARAMETER",
      `Invalid parameter source: unknown source '${echo(q.source)}'. Valid sources: ${known.join(", ")}.`,
      {
        parameter: "source",
        value: q.source,
        valid: known,
      },
    );
  }
  const found = findIndicators(
    snap.search,
    {
      source: q.source,
      category: q.category,
      frequency: q.frequency,
      search: q.search,
      includeInactive: q.include_inactive,
    },
    standingOf(coverage, asOf),
  );
  const matches =
    q.has_data === undefined ? found : found.filter((r) => coverage.byId.get(r.id)!.regions_held > 0 === q.has_data);
  return {
    data: pageOf(matches, q).map((r) => toIndicator(r, coverage)),
    meta: { total: matches.length, limit: q.limit, offset: q.offset },
  };
}

/**
 * `now`: the clock's instant, which decides which held series are current (listed before stale ones); without it,
 * held series still come before the rest but none counts as current.
 */
export async function listIndicators(store: Store, q: IndicatorListQuery, now?: Date): Promise<IndicatorList> {
  const index = store.caches.catalog;
  const coverage = await index.coverageTable();
  return indicatorsOf(coverage.snap, coverage, q, now ? asOfDate(now) : null);
}

/** GET /v1/indicators as rendered JSON, kept per catalog generation and normalised query (bounded by bytes). */
export async function renderIndicators(store: Store, q: IndicatorListQuery, now: Date): Promise<RenderedJson> {
  const index = store.caches.catalog;
  const coverage = await index.coverageTable();
  const snap = coverage.snap;
  const asOf = asOfDate(now);
  // JSON.stringify of the parts: no separator inside a value can make two queries share a key. Coverage shows in
  // every item, so its state is part of the key; so is the day, which decides what is current (the order).
  const key = `indicators|${coverage.key}|${asOf}|${JSON.stringify([q.source, q.category, q.frequency, q.search, q.include_inactive, q.has_data, q.limit, q.offset])}`;
  return snap.bodies.get(key, () => indicatorsOf(snap, coverage, q, asOf));
}

function republishes(r: IndicatorRow): string | null {
  const v = (r.meta as { republishes?: unknown }).republishes;
  return typeof v === "string" ? v : null;
}

/** Order of rows sharing a code: the original publisher before a re-publisher, then by source slug. */
export function byPublisherPreference(a: IndicatorRow, b: IndicatorRow): number {
  const ra = republishes(a) ? 1 : 0;
  const rb = republishes(b) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  const sa = a.sourceSlug ?? "";
  const sb = b.sourceSlug ?? "";
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The preferred row among rows sharing a code (see the file comment), and the other rows' sources. */
export function pickIndicator(
  rows: IndicatorWithSource[],
  code: string,
): { indicator: IndicatorWithSource; ambiguousWith: string[] } {
  const exact = rows.filter((r) => r.code === code);
  const pool = exact.length ? exact : rows;
  const ranked = [...pool].sort(byPublisherPreference);
  const indicator = ranked[0];
  return {
    indicator,
    ambiguousWith: ranked
      .slice(1)
      .map((r) => r.sourceSlug ?? "")
      .filter(Boolean)
      .sort(),
  };
}

/** findIndicatorsByCode over the snapshot: rows whose code equals `code` ignoring case, by source. */
function rowsByCode(snap: CatalogSnapshot, code: string, includeInactive: boolean): IndicatorWithSource[] {
  const rows = snap.byLowerCode.get(code.toLowerCase()) ?? [];
  return includeInactive ? rows : rows.filter(isVisible);
}

/**
 * The catalog row a code (and optional source) names. 404 RESOURCE_NOT_FOUND names the code, or the source when
 * the source is unknown; an inactive match is reported as such (it is served with include_inactive=true).
 */
export async function resolveIndicator(
  store: Store,
  code: string,
  opts: { source?: string; includeInactive?: boolean } = {},
): Promise<{ indicator: IndicatorWithSource; ambiguousWith: string[] }> {
  return resolveIn(await store.caches.catalog.catalog(), code, opts);
}

function resolveIn(
  snap: CatalogSnapshot,
  code: string,
  opts: { source?: string; includeInactive?: boolean },
): { indicator: IndicatorWithSource; ambiguousWith: string[] } {
  const includeInactive = opts.includeInactive ?? false;
  if (opts.source !== undefined) {
    const src: SourceRow | undefined = snap.sourceBySlug.get(opts.source);
    if (!src || (!src.isActive && !includeInactive)) {
      fail("RESOURCE_NOT_FOUND", `Unknown source '${echo(opts.source)}' (looking up indicator '${echo(code)}').`, {
        parameter: "source",
        source: opts.source,
        code,
      });
    }
  }
  const rows = rowsByCode(snap, code, includeInactive);
  if (opts.source !== undefined) {
    const inSource = rows.filter((r) => r.sourceSlug === opts.source);
    if (inSource.length === 0) {
      const elsewhere = [...new Set(rows.map((r) => r.sourceSlug).filter((s): s is string => !!s))];
      if (elsewhere.length) {
        fail(
          "RESOURCE_NOT_FOUND",
          `Indicator '${echo(code)}' is not published by source '${opts.source}'; it is published by ${elsewhere.join(", ")}.`,
          {
            code,
            source: opts.source,
            available_sources: elsewhere,
          },
        );
      }
      failNotFound(snap, code, includeInactive, opts.source);
    }
    const { indicator } = pickIndicator(inSource, code);
    const others = [
      ...new Set(rows.filter((r) => r.sourceSlug !== indicator.sourceSlug).map((r) => r.sourceSlug ?? "")),
    ]
      .filter(Boolean)
      .sort();
    return { indicator, ambiguousWith: others };
  }
  if (rows.length === 0) failNotFound(snap, code, includeInactive);
  return pickIndicator(rows, code);
}

function failNotFound(snap: CatalogSnapshot, code: string, includeInactive: boolean, source?: string): never {
  const where = source ? ` in source '${source}'` : "";
  if (!includeInactive) {
    const hidden = rowsByCode(snap, code, true).filter((r) => !source || r.sourceSlug === source);
    if (hidden.length) {
      fail(
        "RESOURCE_NOT_FOUND",
        `Indicator '${echo(code)}'${where} is inactive; pass include_inactive=true to see it.`,
        {
          code,
          ...(source ? { source } : {}),
          inactive: true,
        },
      );
    }
  }
  fail("RESOURCE_NOT_FOUND", `Unknown indicator '${echo(code)}'${where}.`, { code, ...(source ? { source } : {}) });
}

export async function getIndicatorDetail(
  store: Store,
  code: string,
  q: { source?: string; include_inactive: boolean },
): Promise<{ data: IndicatorDetail; meta: { ambiguous_with: string[] } }> {
  const index = store.caches.catalog;
  const table = await index.coverageTable();
  const { indicator: r, ambiguousWith } = resolveIn(table.snap, code, {
    source: q.source,
    includeInactive: q.include_inactive,
  });
  const [held, regions] = await Promise.all([index.coverageOf(r.id), regionIndex(store)]);
  const coverage = table.byId.get(r.id)!;
  const defaultRegionName = r.defaultRegionCode ? (regions.byCode.get(r.defaultRegionCode)?.name ?? null) : null;
  return {
    data: {
      id: r.id,
      code: r.code,
      name: r.name,
      description: r.description,
      source: r.sourceSlug && r.sourceName ? { slug: r.sourceSlug, name: r.sourceName } : null,
      category: r.category,
      subcategory: r.subcategory,
      access_tier: r.accessTier,
      unit: r.unit,
      frequency: r.frequency,
      default_region:
        r.defaultRegionCode && defaultRegionName ? { code: r.defaultRegionCode, name: defaultRegionName } : null,
      available_regions: availableRegions(r, held.regions, coverage, regions),
      date_range: { start: held.start, end: held.end },
      values: valuesOut(r),
      coverage,
    },
    meta: { ambiguous_with: ambiguousWith },
  };
}

function valuesOut(r: IndicatorRow): IndicatorDetail["values"] {
  const spec = valueSpecOf(r);
  return { kind: spec.kind, span_months: spec.spanMonths ?? null, note: describeValues(spec, r.unit) };
}

/**
 * Regions a read can be served for: those held, plus every offered region when the rest are fetched on request (a
 * read answers 202, then the data). Never a region that can neither be served nor fetched.
 */
function availableRegions(
  r: IndicatorRow,
  held: string[],
  coverage: CoverageFacts,
  regions: RegionIndex<RegionRow>,
): string[] {
  if (coverage.other_regions !== "fetch_on_request") return held;
  const offered = isPerRegion(r.meta)
    ? [...regions.byCode.values()].filter((g) => r.regionKinds.includes(g.type)).map((g) => g.code)
    : r.defaultRegionCode
      ? [r.defaultRegionCode]
      : [];
  return [...new Set([...held, ...offered])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** GET /v1/indicators/{code} as rendered JSON (built per request from memory: the ETag needs the bytes). */
export async function renderIndicatorDetail(
  store: Store,
  code: string,
  q: { source?: string; include_inactive: boolean },
): Promise<RenderedJson> {
  return renderJson(await getIndicatorDetail(store, code, q));
}

/** Per source, what llms.txt says of where the data come from and how fresh (src/docs/llms.ts renders it). */
export type SourceFreshness = {
  slug: string;
  name: string;
  attribution: string | null;
  license: string | null;
  indicators: number;
  indicatorsHeld: number;
  /** The last observation date held over the source's indicators. */
  latestDate: string | null;
  /** When a series of the source last changed in this service. */
  lastUpdated: string | null;
};

/** Per active source: its credit line and licence, and how much of it is held and how fresh (llms.txt "## Data"). */
export async function sourceFreshness(store: Store): Promise<SourceFreshness[]> {
  const index = store.caches.catalog;
  const coverage = await index.coverageTable();
  const snap = coverage.snap;
  return snap.sources
    .filter((s) => s.isActive)
    .map((s) => {
      const own = [...snap.byId.values()]
        .filter((i) => i.sourceSlug === s.slug && i.isActive)
        .map((i) => coverage.byId.get(i.id)!);
      const held = own.filter((c) => c.regions_held > 0);
      const max = (xs: (string | null)[]) =>
        xs.reduce<string | null>((m, x) => (x !== null && (m === null || x > m) ? x : m), null);
      return {
        slug: s.slug,
        name: s.name,
        attribution: s.attribution,
        license: s.license,
        indicators: own.length,
        indicatorsHeld: held.length,
        latestDate: max(held.map((c) => c.end)),
        lastUpdated: max(held.map((c) => c.last_updated)),
      };
    });
}
