// The one resolver every read endpoint (observations, latest, insights, panel, signals, ask, MCP) uses to turn
// what a caller typed — an indicator code or a concept, an optional source and region — into the series to read.
//
// Rules, in order:
// 1. Exact indicator codes win over concepts (a code that is not a concept also matches ignoring case). `source`
//    disambiguates a code published by several sources; without it the original publisher is preferred over a
//    re-publication (meta.republishes), then the first source by slug (the catalog's own rule).
// 2. Otherwise a concept (src/domain/concepts.ts): it needs `region` (400 without), resolves by the region's kind,
//    and uses the freshest curated series held for that region (src/domain/freshness.ts freshestIndex: the newest
//    period ending latest, ties in curated order), else the first one the catalog offers for it. A kind it is not
//    curated for is a 404
//    naming the closest level; a derived concept whose input has no series for the place is a 404 naming the input.
// 3. Otherwise 404 RESOURCE_NOT_FOUND naming the indicator.
// Region: when omitted, the indicator's default region. An indicator is offered for a region when the region's
// kind is among its region_kinds and either the indicator is published per area (meta.per_region) or the region is
// its default region; a region it is not offered for is a 404 saying which regions it has.
//
// The catalog is the app's one catalog in memory (src/services/caches.ts): a change to it (a seed, an import, an
// upsert; another process's within the revalidation bound) is seen by the very next resolution. Only active
// indicators resolve. A resolution is a pure function of the catalog, the region index and the input, so successful
// ones are remembered on the catalog snapshot they came from (and with the region index they used): a reloaded
// catalog starts afresh. Failures (404s, 400s) are not remembered.
import { isPerRegion as perRegionMeta } from "../domain/coverage";
import type { IndicatorRow } from "../../db/repos/catalog";
import {
  conceptLevels,
  blockedInputMessage,
  getConcept,
  notOfferedMessage,
  pluralKind,
  resolveConceptLevel,
  type CuratedSeries,
  type DerivedConcept,
} from "../domain/concepts";
import { isFrequency, type Frequency } from "../domain/calendar";
import { freshestIndex } from "../domain/freshness";
import { ApiError, fail } from "../errors";
import { regionIndex, resolveRegion, resolveRegionAmong, type RegionRow } from "./regions";
import { lookupRegion, type RegionIndex } from "../domain/regions";
import { byPublisherPreference } from "./catalog";
import type { BoundedCache } from "./bounded-cache";
import type { Store } from "./caches";
import type { ConceptDisclosure } from "./observations-page";
import { familyOfIndicator, type DataFamilyId } from "../../db/seed/families";

export type { IndicatorRow };

export type { ConceptDisclosure } from "./observations-page";

/**
 * The region a read resolved to, disclosed in meta: its code, name and kind, and when the input also names other
 * regions (CA: Canada's ISO code and California's postal code), a note naming the other readings and their codes.
 */
export type RegionDisclosure = { code: string; name: string; type: string; note?: string };

export type StoredTarget = {
  kind: "stored";
  indicator: IndicatorRow;
  region: RegionRow;
  resolvedRegion: RegionDisclosure;
  frequency: Frequency;
  concept: ConceptDisclosure | null;
};

export type DerivedConceptTarget = {
  kind: "derived_concept";
  concept: DerivedConcept;
  code: string;
  region: RegionRow;
  resolvedRegion: RegionDisclosure;
  frequency: Frequency;
  unit: string;
  /** Each input with its native frequency; `frequency` (the coarsest of them) is what they are aligned to. */
  inputs: { role: string; indicator: IndicatorRow; frequency: Frequency }[];
  disclosure: ConceptDisclosure;
};

export type SeriesTarget = StoredTarget | DerivedConceptTarget;

export type ResolveInput = { code: string; source?: string; region?: string };

// ---------------------------------------------------------------------------------------------------------------
// The catalog: the app's one catalog in memory (src/services/caches.ts), whose generation every reader checks

/** Every catalog row with this code, ignoring case (inactive ones included). */
async function candidatesFor(store: Store, code: string): Promise<readonly IndicatorRow[]> {
  return (await store.caches.catalog.catalog()).byLowerCode.get(code.toLowerCase()) ?? [];
}

export async function indicatorById(store: Store, id: string): Promise<IndicatorRow | null> {
  return (await store.caches.catalog.catalog()).byId.get(id) ?? null;
}

/**
 * The catalog indicator a code names (rule 1), or null when no indicator has that code (the caller may then try a
 * concept). `source` that matches none of the code's sources is a 404.
 */
export async function findIndicator(
  store: Store,
  code: string,
  source?: string,
  match: "exact" | "any" = "any",
): Promise<IndicatorRow | null> {
  // An inactive indicator is not offered: it reads as unknown (the catalog lists it only with include_inactive).
  const all = (await candidatesFor(store, code)).filter((i) => i.isActive);
  const exact = all.filter((i) => i.code === code);
  if (exact.length === 0 && (match === "exact" || all.length === 0)) return null;
  let pool = exact.length > 0 ? exact : all;
  const sources = pool.map((i) => i.sourceSlug ?? "(none)");
  if (source !== undefined) {
    pool = pool.filter((i) => i.sourceSlug === source);
    if (pool.length === 0) {
      fail(
        "RESOURCE_NOT_FOUND",
        `Indicator '${code}' is not published by source '${source}' (sources: ${sources.join(", ")}).`,
        {
          parameter: "source",
          indicator: code,
          source,
          sources,
        },
      );
    }
    return pool[0];
  }
  // Same preference as the catalog: the original publisher, then by source slug.
  return [...pool].sort(byPublisherPreference)[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Regions an indicator is offered for

export function isPerRegion(i: IndicatorRow): boolean {
  return perRegionMeta(i.meta);
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

export async function regionLabel(store: Store, r: RegionRow): Promise<string> {
  if (r.type === "county" && r.parentCode) {
    const parent = (await regionIndex(store)).byCode.get(r.parentCode);
    if (parent) return `${r.name}, ${parent.name} (${r.code})`;
  }
  return `${r.name} (${r.code})`;
}

function nativeFrequency(i: IndicatorRow): Frequency {
  if (isFrequency(i.frequency)) return i.frequency;
  // Every curated indicator has one (catalog rule); a row without is a catalog bug, not a client error.
  throw new Error(`indicator ${i.sourceSlug}:${i.code} has no valid frequency (${String(i.frequency)})`);
}

async function regionFor(store: Store, i: IndicatorRow, region: string | undefined): Promise<RegionRow> {
  if (region === undefined) {
    if (!i.defaultRegionCode)
      fail("INVALID_PARAMETER", `Indicator '${i.code}' has no default region: pass region=.`, { parameter: "region" });
    return resolveRegion(store, i.defaultRegionCode);
  }
  return resolveRegionAmong(store, region, i.regionKinds);
}

async function notOffered(store: Store, i: IndicatorRow, r: RegionRow): Promise<never> {
  fail(
    "RESOURCE_NOT_FOUND",
    `Indicator '${i.code}' is not offered for ${await regionLabel(store, r)}: it is offered for ${offeredRegionsText(i)}.`,
    {
      parameter: "region",
      indicator: i.code,
      region: r.code,
      region_kinds: i.regionKinds,
      per_region: isPerRegion(i),
      default_region: i.defaultRegionCode,
    },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution

/** Resolves an indicator code or concept plus region to the series to read (rules in the file comment). */
export async function resolveSeriesTarget(store: Store, input: ResolveInput): Promise<SeriesTarget> {
  const catalog = await store.caches.catalog.catalog();
  const regions = await regionIndex(store);
  // \u0001 marks an absent parameter (no code, source or region contains it).
  const key = `${input.code}\u0000${input.source ?? "\u0001"}\u0000${input.region ?? "\u0001"}`;
  // Kept on the catalog snapshot it was resolved from: a catalog change drops every resolution with it.
  // A concept may resolve to the held one of two series: a change of holdings (coverageVersion) re-resolves.
  const holdings = store.caches.catalog.coverageVersion;
  const memo = catalog.memo as BoundedCache<string, { regions: object; holdings: number; target: SeriesTarget }>;
  const hit = memo.get(key);
  const loading = store.caches.catalog.loading;
  if (hit && hit.regions === regions && hit.holdings === holdings) {
    if (!loading.complete) loading.assertAllServed(familiesRead(hit.target));
    return hit.target;
  }
  // Shared by every request that resolves the same way: frozen so that no caller can change it for the others.
  const resolved = await resolveUncached(store, input);
  const target = Object.freeze({
    ...resolved,
    resolvedRegion: disclose(regions, resolved.region, input.region),
  }) as SeriesTarget;
  memo.set(key, { regions, holdings, target });
  if (!loading.complete) loading.assertAllServed(familiesRead(target));
  return target;
}

/**
 * The families of the first start's data a read of `target` depends on (db/seed/families.ts): its series', its
 * inputs', and for a concept those of every curated candidate (which one resolves depends on what is held).
 */
function familiesRead(target: SeriesTarget): (DataFamilyId | null)[] {
  const codes: { sourceSlug: string | null; code: string }[] =
    target.kind === "stored" ? [target.indicator] : target.inputs.map((i) => i.indicator);
  const concept = target.kind === "stored" ? (target.concept ? getConcept(target.concept.code) : null) : target.concept;
  if (concept) {
    const level = resolveConceptLevel(concept, target.region.type);
    if (level.ok) {
      const candidates = level.type === "series" ? level.candidates : level.inputs.flatMap((i) => i.candidates);
      codes.push(...candidates.map((c) => ({ sourceSlug: c.source, code: c.indicator })));
    }
  }
  return codes.map((c) => familyOfIndicator(c.sourceSlug, c.code));
}

/** The disclosure of `region`, resolved from `input` (undefined: the indicator's default region). */
export function disclose(
  regions: RegionIndex<RegionRow>,
  region: RegionRow,
  input: string | undefined,
): RegionDisclosure {
  const base = { code: region.code, name: region.name, type: region.type };
  if (input === undefined) return base;
  const found = lookupRegion(regions, input);
  const others = (found.kind === "found" ? found.shadowed : [])
    .filter((c) => c !== region.code)
    .map((c) => regions.byCode.get(c))
    .filter((r) => r !== undefined);
  if (others.length === 0) return base;
  const readings = others.map((o) => {
    const unambiguous = o.aliases.find((a) => a.startsWith("US-"));
    return `${o.name} is ${o.code}${unambiguous ? ` or ${unambiguous}` : ""}`;
  });
  return { ...base, note: `${input.trim()} is ${region.name}; ${readings.join("; ")}.` };
}

type Unresolved = Omit<StoredTarget, "resolvedRegion"> | Omit<DerivedConceptTarget, "resolvedRegion">;

async function resolveUncached(store: Store, input: ResolveInput): Promise<Unresolved> {
  // Exact-case codes first, then concepts, then codes ignoring case ("gdp" is the concept, "GDP" FRED's series).
  const concept = getConcept(input.code);
  const indicator = await findIndicator(store, input.code, input.source, concept ? "exact" : "any");
  if (indicator) {
    const region = await regionFor(store, indicator, input.region);
    if (!offeredFor(indicator, region)) await notOffered(store, indicator, region);
    return { kind: "stored", indicator, region, frequency: nativeFrequency(indicator), concept: null };
  }
  if (!concept) {
    fail("RESOURCE_NOT_FOUND", `Unknown indicator '${echo(input.code)}': it is neither a catalog code nor a concept.`, {
      parameter: "indicator",
      indicator: input.code,
    });
  }
  if (input.region === undefined) {
    fail(
      "INVALID_PARAMETER",
      `'${concept.code}' is a concept: pass region= (it resolves to a different series per region kind).`,
      {
        parameter: "region",
        concept: concept.code,
      },
    );
  }
  const region = await resolveRegionAmong(store, input.region, conceptLevels(concept));
  const level = resolveConceptLevel(concept, region.type);
  if (!level.ok) {
    fail("RESOURCE_NOT_FOUND", level.message, {
      parameter: "indicator",
      concept: concept.code,
      region_kind: region.type,
      available: level.available,
      closest: level.closest,
    });
  }
  if (level.type === "series") {
    const indicator = await firstOffered(store, level.candidates, region, input.source);
    if (!indicator)
      fail("RESOURCE_NOT_FOUND", notOfferedMessage(concept.code, level.candidates, await regionLabel(store, region)), {
        concept: concept.code,
        region: region.code,
      });
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
    const indicator = await firstOffered(store, i.candidates, region);
    if (!indicator) {
      fail(
        "RESOURCE_NOT_FOUND",
        blockedInputMessage(
          concept.code,
          { role: i.role, indicators: i.candidates.map((c) => c.indicator) },
          await regionLabel(store, region),
        ),
        {
          concept: concept.code,
          blocking_input: i.role,
          region: region.code,
        },
      );
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
    inputs: inputs.map(({ role, indicator }) => ({ role, indicator, frequency: nativeFrequency(indicator) })),
    disclosure: {
      code: concept.code,
      resolved_indicator: concept.code,
      source: "svc",
      inputs: inputs.map((i) => ({
        role: i.role,
        concept: i.concept,
        indicator: i.indicator.code,
        source: i.indicator.sourceSlug,
      })),
    },
  };
}

const RANK: Record<Frequency, number> = { daily: 0, weekly: 1, monthly: 2, quarterly: 3, annual: 4 };
const rank = (f: Frequency) => RANK[f];

/** The freshest curated series held for the region, else the first offered for it (concepts rule, domain/concepts.ts). */
async function firstOffered(
  store: Store,
  candidates: readonly CuratedSeries[],
  region: RegionRow,
  source?: string,
): Promise<IndicatorRow | null> {
  const offered: IndicatorRow[] = [];
  for (const c of candidates) {
    if (source !== undefined && c.source !== source) continue;
    const rows = await candidatesFor(store, c.indicator);
    const i = rows.find((r) => r.code === c.indicator && r.sourceSlug === c.source && r.isActive);
    if (i && offeredFor(i, region)) offered.push(i);
  }
  if (offered.length <= 1) return offered[0] ?? null;
  const heads = await store.caches.series.headsOf(offered.map((i) => ({ indicatorId: i.id, regionCode: region.code })));
  // The freshest held series (its newest period ends latest); ties keep the curated order.
  const held = freshestIndex(
    offered.map((i, k) => ({
      newest: (heads[k]?.observationCount ?? 0) > 0 ? (heads[k]?.lastDate ?? null) : null,
      cadence: nativeFrequency(i),
    })),
  );
  return offered[held >= 0 ? held : 0];
}

/** The ApiError a failed resolution raised, for callers that collect per-item errors (batch latest). */
export function asApiError(e: unknown): ApiError | null {
  return e instanceof ApiError ? e : null;
}

const echo = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);
