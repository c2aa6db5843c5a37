// Catalog use cases: list sources, list and search indicators, describe one indicator, and resolve a code (plus an
// optional source) to one catalog row, which every read endpoint shares.
//
// Resolution rules:
// - Codes match exactly, or ignoring case when no source spells the code exactly ("unrate" finds UNRATE).
// - When several sources publish the code and no `source` is given, the original publisher wins over a
//   re-publisher (meta.republishes, e.g. FRED carrying a BLS id), then the first source by slug; the others are
//   reported as `ambiguous_with`.
// - Inactive indicators, and indicators of inactive sources, are invisible unless include_inactive is set.
import type { Db } from "../../db/client";
import {
  findIndicatorsByCode, findRegionName, findSource, indicatorCoverage, listIndicatorPage, listSourcesWithCounts,
  type IndicatorRow, type IndicatorWithSource,
} from "../../db/repos/catalog";
import { fail } from "../http/errors";
import type { Indicator, IndicatorDetail, Source } from "../schemas/catalog";

export type { IndicatorWithSource };

const echo = (value: string) => (value.length > 100 ? `${value.slice(0, 100)}…` : value);

export async function listSources(db: Db, query: { include_inactive: boolean }): Promise<{ data: Source[] }> {
  const rows = await listSourcesWithCounts(db, query.include_inactive);
  return {
    data: rows.map((r) => ({
      slug: r.slug,
      name: r.name,
      provider: r.provider,
      category: r.category,
      indicator_count: r.indicatorCount,
      docs_url: r.docsUrl,
    })),
  };
}

export function toIndicator(r: IndicatorRow): Indicator {
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
  };
}

export type IndicatorListQuery = {
  source?: string;
  category?: string;
  frequency?: string;
  search?: string;
  include_inactive: boolean;
  limit: number;
  offset: number;
};

export async function listIndicators(db: Db, q: IndicatorListQuery): Promise<{ data: Indicator[]; meta: { total: number; limit: number; offset: number } }> {
  // An unknown source is a caller mistake worth naming, not an empty page (a typo would look like "no data").
  if (q.source !== undefined && !(await findSource(db, q.source))) {
    const known = (await listSourcesWithCounts(db, true)).map((s) => s.slug);
    fail("INVALID_PARAMETER", `Invalid parameter source: unknown source '${echo(q.source)}'. Valid sources: ${known.join(", ")}.`, {
      parameter: "source",
      value: q.source,
      valid: known,
    });
  }
  const { rows, total } = await listIndicatorPage(
    db,
    { source: q.source, category: q.category, frequency: q.frequency, search: q.search, includeInactive: q.include_inactive },
    { limit: q.limit, offset: q.offset },
  );
  return { data: rows.map(toIndicator), meta: { total, limit: q.limit, offset: q.offset } };
}

function republishes(r: IndicatorRow): string | null {
  const v = (r.meta as { republishes?: unknown }).republishes;
  return typeof v === "string" ? v : null;
}

/** The preferred row among rows sharing a code (see the file comment), and the other rows' sources. */
export function pickIndicator(rows: IndicatorWithSource[], code: string): { indicator: IndicatorWithSource; ambiguousWith: string[] } {
  const exact = rows.filter((r) => r.code === code);
  const pool = exact.length ? exact : rows;
  const ranked = [...pool].sort((a, b) => {
    const ra = republishes(a) ? 1 : 0;
    const rb = republishes(b) ? 1 : 0;
    if (ra !== rb) return ra - rb;
    const sa = a.sourceSlug ?? "";
    const sb = b.sourceSlug ?? "";
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  });
  const indicator = ranked[0];
  return { indicator, ambiguousWith: ranked.slice(1).map((r) => r.sourceSlug ?? "").filter(Boolean).sort() };
}

/**
 * The catalog row a code (and optional source) names. 404 RESOURCE_NOT_FOUND names the code, or the source when
 * the source is unknown; an inactive match is reported as such (it is served with include_inactive=true).
 */
export async function resolveIndicator(
  db: Db,
  code: string,
  opts: { source?: string; includeInactive?: boolean } = {},
): Promise<{ indicator: IndicatorWithSource; ambiguousWith: string[] }> {
  const includeInactive = opts.includeInactive ?? false;
  if (opts.source !== undefined) {
    const src = await findSource(db, opts.source);
    if (!src || (!src.isActive && !includeInactive)) {
      fail("RESOURCE_NOT_FOUND", `Unknown source '${echo(opts.source)}' (looking up indicator '${echo(code)}').`, {
        parameter: "source",
        source: opts.source,
        code,
      });
    }
  }
  const rows = await findIndicatorsByCode(db, code, includeInactive);
  if (opts.source !== undefined) {
    const inSource = rows.filter((r) => r.sourceSlug === opts.source);
    if (inSource.length === 0) {
      const elsewhere = [...new Set(rows.map((r) => r.sourceSlug).filter((s): s is string => !!s))];
      if (elsewhere.length) {
        fail("RESOURCE_NOT_FOUND", `Indicator '${echo(code)}' is not published by source '${opts.source}'; it is published by ${elsewhere.join(", ")}.`, {
          code,
          source: opts.source,
          available_sources: elsewhere,
        });
      }
      await failNotFound(db, code, includeInactive, opts.source);
    }
    const { indicator } = pickIndicator(inSource, code);
    const others = [...new Set(rows.filter((r) => r.sourceSlug !== indicator.sourceSlug).map((r) => r.sourceSlug ?? ""))].filter(Boolean).sort();
    return { indicator, ambiguousWith: others };
  }
  if (rows.length === 0) await failNotFound(db, code, includeInactive);
  return pickIndicator(rows, code);
}

async function failNotFound(db: Db, code: string, includeInactive: boolean, source?: string): Promise<never> {
  const where = source ? ` in source '${source}'` : "";
  if (!includeInactive) {
    const hidden = (await findIndicatorsByCode(db, code, true)).filter((r) => !source || r.sourceSlug === source);
    if (hidden.length) {
      fail("RESOURCE_NOT_FOUND", `Indicator '${echo(code)}'${where} is inactive; pass include_inactive=true to see it.`, {
        code,
        ...(source ? { source } : {}),
        inactive: true,
      });
    }
  }
  fail("RESOURCE_NOT_FOUND", `Unknown indicator '${echo(code)}'${where}.`, { code, ...(source ? { source } : {}) });
}

export async function getIndicatorDetail(
  db: Db,
  code: string,
  q: { source?: string; include_inactive: boolean },
): Promise<{ data: IndicatorDetail; meta: { ambiguous_with: string[] } }> {
  const { indicator: r, ambiguousWith } = await resolveIndicator(db, code, { source: q.source, includeInactive: q.include_inactive });
  const [coverage, defaultRegionName] = await Promise.all([
    indicatorCoverage(db, r.id),
    r.defaultRegionCode ? findRegionName(db, r.defaultRegionCode) : Promise.resolve(null),
  ]);
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
      default_region: r.defaultRegionCode && defaultRegionName ? { code: r.defaultRegionCode, name: defaultRegionName } : null,
      available_regions: coverage.regions,
      date_range: { start: coverage.start, end: coverage.end },
    },
    meta: { ambiguous_with: ambiguousWith },
  };
}
