// Region use cases: list and fetch regions, and resolve what a caller typed to one region row.
// Resolution and listing run on an in-memory index built once per database from the regions table
// (about 3,500 rows, a few ms) and reused by every service that takes a `region` parameter. It is rebuilt when the
// catalog generation moves (src/services/catalog-index.ts: a region write in this process, or, on PostgreSQL,
// another process's within the revalidation bound). Region lists are rendered to JSON once per index and query:
// the county list is 444 KB, whose serialisation dominated its cost.
import { listRegions as listRegionRows, type RegionRow } from "../../db/repos/regions";
import { fail } from "../errors";
import { renderJson, type RenderedJson } from "./rendered";
import {
  buildRegionIndex,
  lookupRegion,
  regionKey,
  regionSearchText,
  type LookupOptions,
  type RegionIndex,
  type RegionLookup,
} from "../domain/regions";
import { fuzzyPlaceNames, type FuzzyName } from "../domain/ask/parse";
import type { RegionType } from "../domain/region-list";
import type { Region, RegionListQuery } from "../schemas/regions";
import { RenderedCache } from "./catalog-index";
import { CACHE_BOUNDS, type RegionIndexEntry, type Store } from "./caches";

export type { RegionRow };

/** The lookup index of this app's catalog generation, loaded on first use and again after the catalog changed. */
export async function regionIndex(store: Store): Promise<RegionIndex<RegionRow>> {
  return (await regionEntry(store)).index;
}

async function regionEntry(store: Store): Promise<RegionIndexEntry> {
  const { catalog, regions } = store.caches;
  await catalog.fresh();
  const generation = catalog.generation;
  const cached = regions.current;
  if (cached && cached.generation === generation) return cached;
  const index = listRegionRows(store.db).then((rows) => {
    // An unseeded database is not cached, so a seed that runs later is seen.
    if (rows.length === 0 && regions.current?.index === index) regions.current = null;
    return buildRegionIndex(rows);
  });
  // A failed load is not cached either: the next request retries.
  index.catch(() => {
    if (regions.current?.index === index) regions.current = null;
  });
  const entry: RegionIndexEntry = {
    generation,
    index,
    bodies: new RenderedCache(CACHE_BOUNDS.regionBodies),
    searchTexts: null,
    fuzzyNames: null,
  };
  regions.current = entry;
  return entry;
}

/** The region index with the names ask reads misspellings against (domain/ask/parse.ts), both kept per index. */
export async function regionIndexForAsk(
  store: Store,
): Promise<{ index: RegionIndex<RegionRow>; fuzzyNames: readonly FuzzyName[] }> {
  const entry = await regionEntry(store);
  const index = await entry.index;
  entry.fuzzyNames ??= fuzzyPlaceNames(index);
  return { index, fuzzyNames: entry.fuzzyNames };
}

/** What an input names, without throwing: for callers that report per-item errors (batch reads). */
export async function lookupRegionInput(
  store: Store,
  input: string,
  opts: LookupOptions = {},
): Promise<RegionLookup & { region?: RegionRow }> {
  const index = await regionIndex(store);
  const found = lookupRegion(index, input, opts);
  return found.kind === "found" ? { ...found, region: index.byCode.get(found.code)! } : found;
}

function describe(index: RegionIndex<RegionRow>, code: string): string {
  const r = index.byCode.get(code)!;
  if (r.type !== "county" || !r.parentCode) return `${code} (${r.name})`;
  const usps = index.byCode.get(r.parentCode)?.aliases.find((a) => /^[A-Z]{2}$/.test(a));
  return `${code} (${r.name}${usps ? `, ${usps}` : ""})`;
}

const echo = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);

/**
 * The region an input names: a canonical code, USPS abbreviation, "US-CA", ISO alpha-3 or numeric,
 * slug or name (rules in src/domain/regions.ts). Unknown: 404 RESOURCE_NOT_FOUND; several regions at
 * the same priority: 400 INVALID_PARAMETER listing them.
 */
export async function resolveRegion(
  store: Store,
  input: string,
  parameter = "region",
  opts: LookupOptions = {},
): Promise<RegionRow> {
  const index = await regionIndex(store);
  const found = lookupRegion(index, input, opts);
  if (found.kind === "found") return index.byCode.get(found.code)!;
  if (found.kind === "ambiguous") {
    const shown = found.candidates.slice(0, 10).map((c) => describe(index, c));
    const more = found.candidates.length > shown.length ? ` and ${found.candidates.length - shown.length} more` : "";
    fail(
      "INVALID_PARAMETER",
      `Ambiguous region '${echo(input)}': it names ${shown.join(", ")}${more}. Pass one of these codes.`,
      {
        parameter,
        value: input,
        candidates: found.candidates.map((c) => {
          const r = index.byCode.get(c)!;
          return { code: r.code, type: r.type, name: r.name, slug: r.slug };
        }),
      },
    );
  }
  if (found.retired) {
    const { year, reason, replacedBy } = found.retired;
    const instead = replacedBy.length ? `; use ${replacedBy.join(", ")}` : "";
    fail("RESOURCE_NOT_FOUND", `Unknown region '${echo(input)}': retired in ${year} (${reason})${instead}.`, {
      parameter,
      value: input,
      retired_year: year,
      replaced_by: replacedBy,
    });
  }
  fail("RESOURCE_NOT_FOUND", `Unknown region '${echo(input)}'`, { parameter, value: input });
}

/** The API shape of a region (spec "Region"); aliases stay internal. */
export function toRegion(r: RegionRow): Region {
  return {
    code: r.code,
    type: r.type,
    name: r.name,
    slug: r.slug,
    parent_code: r.parentCode,
    fips_state: r.fipsState,
    fips_county: r.fipsCounty,
  };
}

/**
 * The region an input names among the kinds a series is offered for ("IN" is Indiana for a LAUS series,
 * India for a World Bank one). An input naming no region of those kinds still resolves without the
 * filter, so the caller can say the series is not offered there rather than "unknown region".
 */
export async function resolveRegionAmong(
  store: Store,
  input: string,
  kinds: readonly string[],
  parameter = "region",
): Promise<RegionRow> {
  const fit = await lookupRegionInput(store, input, { kinds });
  if (fit.region) return fit.region;
  return resolveRegion(store, input, parameter, fit.kind === "ambiguous" ? { kinds } : {});
}

/** A parent is a state unless the input names no state ("CA" = California here; "US" = the country). */
async function resolveParent(store: Store, input: string): Promise<RegionRow> {
  const asState = await lookupRegionInput(store, input, { kinds: ["state"] });
  return asState.region ?? resolveRegion(store, input, "parent");
}

/** Regions by type and/or parent (any input resolveRegion accepts), ordered by code. */
export async function listRegions(store: Store, query: { type?: RegionType; parent?: string }): Promise<Region[]> {
  const parentCode = query.parent !== undefined ? (await resolveParent(store, query.parent)).code : undefined;
  return regionsOf(await regionIndex(store), { type: query.type, parentCode });
}

/** `search`: a text to find, with the search text of every region by code (searchTextsOf). */
type RegionFilter = {
  type?: RegionType;
  parentCode?: string;
  search?: { text: string; texts: ReadonlyMap<string, string> };
};

function regionsOf(index: RegionIndex<RegionRow>, f: RegionFilter): Region[] {
  const out: Region[] = [];
  const key = f.search === undefined ? undefined : regionKey(f.search.text);
  const texts = f.search?.texts;
  // byCode holds the rows in the order the repo loaded them: by code, byte order.
  for (const r of index.byCode.values()) {
    if (f.type !== undefined && r.type !== f.type) continue;
    if (f.parentCode !== undefined && r.parentCode !== f.parentCode) continue;
    if (texts && !texts.get(r.code)!.includes(key!)) continue;
    out.push(toRegion(r));
  }
  return out;
}

/** The search text of every region by code (about 3,500 short strings). */
function searchTextsOf(index: RegionIndex<RegionRow>): Map<string, string> {
  return new Map([...index.byCode.values()].map((r) => [r.code, regionSearchText(r)]));
}

type RegionList = { data: Region[]; meta: { total: number; limit: number | null; offset: number } };

function pageOfRegions(all: Region[], q: Pick<RegionListQuery, "limit" | "offset">): RegionList {
  const end = q.limit === undefined ? undefined : q.offset + q.limit;
  return { data: all.slice(q.offset, end), meta: { total: all.length, limit: q.limit ?? null, offset: q.offset } };
}

/**
 * GET /v1/regions as rendered JSON `{ data, meta }`. Lists without a search are kept per index, resolved parent and
 * page (`parent=CA` and `parent=06` share); a search is rendered per request, so arbitrary texts never crowd the
 * cache of the large lists.
 */
export async function renderRegionList(store: Store, query: RegionListQuery): Promise<RenderedJson> {
  const parentCode = query.parent !== undefined ? (await resolveParent(store, query.parent)).code : undefined;
  const entry = await regionEntry(store);
  const { index, bodies } = entry;
  const byCode = await index;
  if (query.search !== undefined) {
    // Built once per index, on its first search, and kept with it.
    entry.searchTexts ??= searchTextsOf(byCode);
    return renderJson(
      pageOfRegions(
        regionsOf(byCode, { type: query.type, parentCode, search: { text: query.search, texts: entry.searchTexts } }),
        query,
      ),
    );
  }
  const list = () => pageOfRegions(regionsOf(byCode, { type: query.type, parentCode }), query);
  return bodies.get(`${query.type ?? ""}|${parentCode ?? ""}|${query.limit ?? ""}|${query.offset}`, list);
}

export async function getRegion(store: Store, input: string): Promise<Region> {
  return toRegion(await resolveRegion(store, input, "code"));
}
