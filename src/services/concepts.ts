// The one resolver every read endpoint (observations, latest, insights, panel, signals, ask, MCP) uses to turn
// what a caller typed — an indicator code or a concept, an optional source and region — into the series to read.
//
// Rules, in order:
// 1. Exact indicator codes win over concepts (a code that is not a concept also matches ignoring case). `source`
//    disambiguates a code published by several sources; without it the original publisher is preferred over a
//    re-publication (meta.republishes), then the first source by slug (the catalog's own rule).
// 2. Otherwise a concept (src/domain/concepts.ts): it needs `region` (400 without), resolves by the region's kind,
//    and uses the first curated series the catalog offers for that region. A kind it is not curated for is a 404
//    naming the closest level; a derived concept whose input has no series for the place is a 404 naming the input.
// 3. Otherwise 404 RESOURCE_NOT_FOUND naming the indicator.
// Region: when omitted, the indicator's default region. An indicator is offered for a region when the region's
// kind is among its region_kinds and either the indicator is published per area (meta.per_region) or the region is
// its default region; a region it is not offered for is a 404 saying which regions it has.
//
// The catalog is small (hundreds of rows): it is held in memory per database and reloaded at most once a second
// when a code misses (a seed that ran after the app started becomes visible). A resolution is a pure function of the
// catalog, the region index and the input, so successful ones are remembered per (catalog, region index) pair: a
// reloaded index starts afresh. Failures (404s, 400s) are not remembered.
import type { Db } from "../../db/client";
import { listIndicatorPage, type IndicatorRow } from "../../db/repos/catalog";
import { conceptLevels,
  blockedInputMessage, getConcept, notOfferedMessage, pluralKind, resolveConceptLevel, type CuratedSeries, type DerivedConcept,
} from "../domain/concepts";
import { isFrequency, type Frequency } from "../domain/calendar";
import { ApiError, fail } from "../errors";
import { regionIndex, resolveRegion, resolveRegionAmong, type RegionRow } from "./regions";
import { byPublisherPreference } from "./catalog";
import type { SeriesCache } from "./series-cache";

export type { IndicatorRow };

export type ConceptDisclosure = {
  code: string;
  resolved_indicator: string;
  source: string | null;
  inputs?: { role: string; concept: string; indicator: string; source: string | null }[];
};

export type StoredTarget = {
  kind: "stored";
  indicator: IndicatorRow;
  region: RegionRow;
  frequency: Frequency;
  concept: ConceptDisclosure | null;
};

export type DerivedConceptTarget = {
  kind: "derived_concept";
  concept: DerivedConcept;
  code: string;
  region: RegionRow;
  frequency: Frequency;
  unit: string;
  inputs: { role: string; indicator: IndicatorRow }[];
  disclosure: ConceptDisclosure;
};

export type SeriesTarget = StoredTarget | DerivedConceptTarget;

export type ResolveInput = { code: string; source?: string; region?: string };

// ---------------------------------------------------------------------------------------------------------------
// Catalog index

type CatalogIndex = { byCode: Map<string, IndicatorRow[]>; byId: Map<string, IndicatorRow>; loadedAt: number };

const catalogs = new WeakMap<Db, Promise<CatalogIndex>>();
const RELOAD_ON_MISS_MS = 1000;

async function loadCatalog(db: Db): Promise<CatalogIndex> {
  const { rows } = await listIndicatorPage(db, { includeInactive: true }, { limit: 1_000_000, offset: 0 });
  const byCode = new Map<string, IndicatorRow[]>();
  const byId = new Map<string, IndicatorRow>();
  for (const r of rows) {
    const k = r.code.toLowerCase();
    let list = byCode.get(k);
    if (!list) byCode.set(k, (list = []));
    list.push(r);
    byId.set(r.id, r);
  }
  return { byCode, byId, loadedAt: performance.now() };
}

export function catalogIndex(db: Db): Promise<CatalogIndex> {
  let p = catalogs.get(db);
  if (!p) {
    p = loadCatalog(db);
    p.catch(() => catalogs.delete(db));
    catalogs.set(db, p);
  }
  return p;
}

/** Call after changing the catalog in this process (seeds run before the app starts need not). */
export function invalidateCatalogIndex(db: Db): void {
  catalogs.delete(db);
}

async function candidatesFor(db: Db, code: string): Promise<IndicatorRow[]> {
  let index = await catalogIndex(db);
  let found = index.byCode.get(code.toLowerCase());
  if (!found && performance.now() - index.loadedAt > RELOAD_ON_MISS_MS) {
    invalidateCatalogIndex(db);
    index = await catalogIndex(db);
    found = index.byCode.get(code.toLowerCase());
  }
  return found ?? [];
}

export async function indicatorById(db: Db, id: string): Promise<IndicatorRow | null> {
  return (await catalogIndex(db)).byId.get(id) ?? null;
}

/**
 * The catalog indicator a code names (rule 1), or null when no indicator has that code (the caller may then try a
 * concept). `source` that matches none of the code's sources is a 404.
 */
export async function findIndicator(db: Db, code: string, source?: string, match: "exact" | "any" = "any"): Promise<IndicatorRow | null> {
  const all = await candidatesFor(db, code);
  const exact = all.filter((i) => i.code === code);
  if (exact.length === 0 && (match === "exact" || all.length === 0)) return null;
  let pool = exact.length > 0 ? exact : all;
  const sources = pool.map((i) => i.sourceSlug ?? "(none)");
  if (source !== undefined) {
    pool = pool.filter((i) => i.sourceSlug === source);
    if (pool.length === 0) {
      fail("RESOURCE_NOT_FOUND", `Indicator '${code}' is not published by source '${source}' (sources: ${sources.join(", ")}).`, {
        parameter: "source",
        indicator: code,
        source,
        sources,
      });
    }
    return pool[0];
  }
  // Same preference as the catalog: the original publisher, then by source slug.
  return [...pool].sort(byPublisherPreference)[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Regions an indicator is offered for

export function isPerRegion(i: IndicatorRow): boolean {
  // The catalog rule is meta.per_region; some entries carry it under meta.upstream: accept both.
  const m = i.meta as { per_region?: unknown; upstream?: { per_region?: unknown } };
  return m.per_region === true || m.upstream?.per_region === true;
}

export function offeredFor(i: IndicatorRow, region: RegionRow): boolean {
  if (!i.regionKinds.includes(region.type)) return false;
  return isPerRegion(i) || region.code === i.defaultRegionCode;
}

/** "every state and county" or "US only". */
export function offeredRegionsText(i: IndicatorRow): string {
  if (isPerRegion(i)) {
    const kinds = i.regionKinds.map(pluralKind);
    return `every region of kind ${kinds.length > 1 ? `${kinds.slice(0, -1).join(", ")} and ${kinds[kinds.length - 1]}` : kinds[0]}`;
  }
  return `${i.defaultRegionCode ?? "no region"} only`;
}

export async function regionLabel(db: Db, r: RegionRow): Promise<string> {
  if (r.type === "county" && r.parentCode) {
    const parent = (await regionIndex(db)).byCode.get(r.parentCode);
    if (parent) return `${r.name}, ${parent.name} (${r.code})`;
  }
  return `${r.name} (${r.code})`;
}

function nativeFrequency(i: IndicatorRow): Frequency {
  if (isFrequency(i.frequency)) return i.frequency;
  // Every curated indicator has one (catalog rule); a row without is a catalog bug, not a client error.
  throw new Error(`indicator ${i.sourceSlug}:${i.code} has no valid frequency (${String(i.frequency)})`);
}

async function regionFor(db: Db, i: IndicatorRow, region: string | undefined): Promise<RegionRow> {
  if (region === undefined) {
    if (!i.defaultRegionCode) fail("INVALID_PARAMETER", `Indicator '${i.code}' has no default region: pass region=.`, { parameter: "region" });
    return resolveRegion(db, i.defaultRegionCode);
  }
  return resolveRegionAmong(db, region, i.regionKinds);
}

async function notOffered(db: Db, i: IndicatorRow, r: RegionRow): Promise<never> {
  fail("RESOURCE_NOT_FOUND", `Indicator '${i.code}' is not offered for ${await regionLabel(db, r)}: it is offered for ${offeredRegionsText(i)}.`, {
    parameter: "region",
    indicator: i.code,
    region: r.code,
    region_kinds: i.regionKinds,
    per_region: isPerRegion(i),
    default_region: i.defaultRegionCode,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution

const resolutions = new WeakMap<CatalogIndex, Map<string, { regions: object; target: SeriesTarget }>>();
const MAX_RESOLUTIONS = 4096;

/** Resolves an indicator code or concept plus region to the series to read (rules in the file comment). */
export async function resolveSeriesTarget(db: Db, input: ResolveInput): Promise<SeriesTarget> {
  const catalog = await catalogIndex(db);
  const regions = await regionIndex(db);
  // \u0001 marks an absent parameter (no code, source or region contains it).
  const key = `${input.code}\u0000${input.source ?? "\u0001"}\u0000${input.region ?? "\u0001"}`;
  let memo = resolutions.get(catalog);
  const hit = memo?.get(key);
  if (hit && hit.regions === regions) return hit.target;
  // Shared by every request that resolves the same way: frozen so that no caller can change it for the others.
  const target = Object.freeze(await resolveUncached(db, input));
  if (!memo) resolutions.set(catalog, (memo = new Map()));
  if (memo.size >= MAX_RESOLUTIONS) memo.delete(memo.keys().next().value!);
  memo.set(key, { regions, target });
  return target;
}

async function resolveUncached(db: Db, input: ResolveInput): Promise<SeriesTarget> {
  // Exact-case codes first, then concepts, then codes ignoring case ("gdp" is the concept, "GDP" FRED's series).
  const concept = getConcept(input.code);
  const indicator = await findIndicator(db, input.code, input.source, concept ? "exact" : "any");
  if (indicator) {
    const region = await regionFor(db, indicator, input.region);
    if (!offeredFor(indicator, region)) await notOffered(db, indicator, region);
    return { kind: "stored", indicator, region, frequency: nativeFrequency(indicator), concept: null };
  }
  if (!concept) {
    fail("RESOURCE_NOT_FOUND", `Unknown indicator '${echo(input.code)}': it is neither a catalog code nor a concept.`, {
      parameter: "indicator",
      indicator: input.code,
    });
  }
  if (input.region === undefined) {
    fail("INVALID_PARAMETER", `'${concept.code}' is a concept: pass region= (it resolves to a different series per region kind).`, {
      parameter: "region",
      concept: concept.code,
    });
  }
  const region = await resolveRegionAmong(db, input.region, conceptLevels(concept));
  const level = resolveConceptLevel(concept, region.type);
  if (!level.ok) {
    fail("RESOURCE_NOT_FOUND", level.message, { parameter: "indicator", concept: concept.code, region_kind: region.type, available: level.available, closest: level.closest });
  }
  if (level.type === "series") {
    const indicator = await firstOffered(db, level.candidates, region, input.source);
    if (!indicator) fail("RESOURCE_NOT_FOUND", notOfferedMessage(concept.code, level.candidates, await regionLabel(db, region)), { concept: concept.code, region: region.code });
    return {
      kind: "stored",
      indicator,
      region,
      frequency: nativeFrequency(indicator),
      concept: { code: concept.code, resolved_indicator: indicator.code, source: indicator.sourceSlug },
    };
  }
  const inputs: { role: string; indicator: IndicatorRow; concept: string }[] = [];
  for (const i of level.inputs) {
    const indicator = await firstOffered(db, i.candidates, region);
    if (!indicator) {
      fail("RESOURCE_NOT_FOUND", blockedInputMessage(concept.code, { role: i.role, indicators: i.candidates.map((c) => c.indicator) }, await regionLabel(db, region)), {
        concept: concept.code,
        blocking_input: i.role,
        region: region.code,
      });
    }
    inputs.push({ role: i.role, indicator, concept: i.concept });
  }
  // Inputs of one concept share a frequency in the curated table; if not, the coarsest one governs (derived.ts alignTo).
  const frequency = inputs.map((i) => nativeFrequency(i.indicator)).reduce((a, b) => (rank(b) > rank(a) ? b : a));
  return {
    kind: "derived_concept",
    concept: level.concept,
    code: concept.code,
    region,
    frequency,
    unit: level.concept.unit,
    inputs: inputs.map(({ role, indicator }) => ({ role, indicator })),
    disclosure: {
      code: concept.code,
      resolved_indicator: concept.code,
      source: "svc",
      inputs: inputs.map((i) => ({ role: i.role, concept: i.concept, indicator: i.indicator.code, source: i.indicator.sourceSlug })),
    },
  };
}

const RANK: Record<Frequency, number> = { daily: 0, weekly: 1, monthly: 2, quarterly: 3, annual: 4 };
const rank = (f: Frequency) => RANK[f];

async function firstOffered(db: Db, candidates: readonly CuratedSeries[], region: RegionRow, source?: string): Promise<IndicatorRow | null> {
  for (const c of candidates) {
    if (source !== undefined && c.source !== source) continue;
    const rows = await candidatesFor(db, c.indicator);
    const i = rows.find((r) => r.code === c.indicator && r.sourceSlug === c.source);
    if (i && offeredFor(i, region)) return i;
  }
  return null;
}

/** The series head of a stored target, or a 404 saying the series is offered but holds no data yet. */
export async function requireHeld(db: Db, cache: SeriesCache, indicator: IndicatorRow, region: RegionRow) {
  const head = await cache.head(indicator.id, region.code);
  if (!head || head.observationCount === 0) {
    fail(
      "RESOURCE_NOT_FOUND",
      `No observations of '${indicator.code}' are held for ${await regionLabel(db, region)} yet. The series is offered, but on-demand provisioning is not available: it arrives with an import or a refresh.`,
      { indicator: indicator.code, region: region.code, held: false },
    );
  }
  return head;
}

/** The ApiError a failed resolution raised, for callers that collect per-item errors (batch latest). */
export function asApiError(e: unknown): ApiError | null {
  return e instanceof ApiError ? e : null;
}

const echo = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);
