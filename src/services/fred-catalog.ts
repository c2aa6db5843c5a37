// The FRED-compatible catalog reads: GET /fred/series (one series' metadata) and GET /fred/series/search (catalog
// search, one result per held series). Both read the in-memory catalog, its coverage table and the series heads.
// - full_text search is the catalog's own search (src/domain/catalog-search.ts, ranked as /v1/indicators?search=)
//   over indicators, each held indicator then listed once per region it is held for, in the search's order and then
//   by region code;
// - series_id search matches the FRED ids of every held series against search_text, `*` standing for any run of
//   characters, without regard to case (FRED's own id search);
// - order_by search_rank keeps that order (descending is the default and means best first); the other keys sort
//   by the field they name, ties by id.
import { findIndicators } from "../domain/catalog-search";
import { nativeFrequency } from "../domain/fred/frequency";
import type { SearchQuery, SeriesQuery } from "../domain/fred/query";
import { renderSearch, renderSeries, type FredSeriesMeta } from "../domain/fred/render";
import { fredSeriesMeta } from "../domain/fred/series-meta";
import { asOfDate } from "../domain/freshness";
import { standingOf } from "./catalog";
import type { IndicatorRow } from "./concepts";
import { fredIdOf, type FredTarget } from "./fred";
import { regionIndex, type RegionRow } from "./regions";
import { renderBody, type RenderedJson } from "./rendered";
import type { ReadContext } from "./series-read";

type Held = { id: string; indicator: IndicatorRow; region: RegionRow; rank: number };

function adjustmentOf(indicator: IndicatorRow): string | null {
  const upstream = (indicator.meta as { upstream?: { seasonal_adjustment?: unknown } }).upstream;
  return typeof upstream?.seasonal_adjustment === "string" ? upstream.seasonal_adjustment : null;
}

async function metaOf(
  ctx: ReadContext,
  h: Omit<Held, "rank">,
  realtime: { start: string; end: string },
  head: { firstDate: string | null; lastDate: string | null } | null,
): Promise<FredSeriesMeta> {
  const coverage = await ctx.caches.catalog.coverageTable();
  const facts = coverage.byId.get(h.indicator.id);
  const frequency = nativeFrequency(
    h.indicator.frequency,
    head?.lastDate ? [{ date: head.lastDate, value: null }] : [],
  ) ?? { code: "a" };
  return fredSeriesMeta({
    id: h.id,
    name: h.indicator.name,
    description: h.indicator.description,
    unit: h.indicator.unit,
    adjustment: adjustmentOf(h.indicator),
    frequency,
    region: h.region,
    observationStart: head?.firstDate ?? null,
    observationEnd: head?.lastDate ?? null,
    lastUpdated: facts?.last_updated ?? null,
    realtime,
  });
}

/** GET /fred/series. */
export async function getFredSeries(ctx: ReadContext, t: FredTarget, q: SeriesQuery): Promise<RenderedJson> {
  const head = t.target.heads[0]!;
  const realtime = { start: q.realtimeStart, end: q.realtimeEnd };
  const meta = await metaOf(ctx, { id: t.id, indicator: t.target.indicator, region: t.target.region }, realtime, head);
  const r = renderSeries({ realtime_start: q.realtimeStart, realtime_end: q.realtimeEnd, seriess: [meta] }, q.fileType);
  return renderBody(r.body, r.contentType);
}

/** Every held series of the indicators, in the given order, then by region code. */
async function heldSeries(ctx: ReadContext, indicators: readonly IndicatorRow[]): Promise<Held[]> {
  const [coverage, regions] = await Promise.all([ctx.caches.catalog.coverageTable(), regionIndex(ctx)]);
  const out: Held[] = [];
  for (const indicator of indicators) {
    if ((coverage.byId.get(indicator.id)?.regions_held ?? 0) === 0) continue;
    const { regions: codes } = await ctx.caches.catalog.coverageOf(indicator.id);
    for (const code of [...codes].sort()) {
      const region = regions.byCode.get(code);
      if (region) out.push({ id: fredIdOf(indicator, region), indicator, region, rank: out.length });
    }
  }
  return out;
}

function wildcard(text: string): RegExp {
  const body = text
    .trim()
    .split("*")
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

type SortKey = (h: Held, m: FredSeriesMeta | undefined) => string | number;

/** GET /fred/series/search. */
export async function searchFredSeries(ctx: ReadContext, q: SearchQuery): Promise<RenderedJson> {
  const snap = await ctx.caches.catalog.catalog();
  let matches: Held[];
  if (q.searchType === "series_id") {
    const all = await heldSeries(
      ctx,
      [...snap.byId.values()].filter((i) => i.isActive),
    );
    const pattern = wildcard(q.searchText);
    matches = all.filter((h) => pattern.test(h.id)).map((h, rank) => ({ ...h, rank }));
  } else {
    // Ranked as GET /v1/indicators?search= ranks: held and current series first, the closer name match first.
    const coverage = await ctx.caches.catalog.coverageTable();
    matches = await heldSeries(
      ctx,
      findIndicators(
        snap.search,
        { search: q.searchText, includeInactive: false },
        standingOf(coverage, asOfDate(ctx.now())),
      ),
    );
  }
  const realtime = { start: q.realtimeStart, end: q.realtimeEnd };
  const needsHeads = q.orderBy === "observation_start" || q.orderBy === "observation_end";
  const headOf = async (list: Held[]) => {
    const heads = await ctx.caches.series.headsOf(
      list.map((h) => ({ indicatorId: h.indicator.id, regionCode: h.region.code })),
    );
    return new Map(list.map((h, i) => [h.id, heads[i]]));
  };
  let heads = needsHeads ? await headOf(matches) : null;
  const metas = new Map<string, FredSeriesMeta>();
  if (q.orderBy !== "search_rank" && q.orderBy !== "series_id") {
    for (const h of matches) metas.set(h.id, await metaOf(ctx, h, realtime, heads?.get(h.id) ?? null));
  }
  const field = q.orderBy === "group_popularity" ? "popularity" : q.orderBy;
  const key: SortKey =
    q.orderBy === "search_rank"
      ? (h) => -h.rank
      : q.orderBy === "series_id"
        ? (h) => h.id
        : (h, m) => (m ? (m[field as keyof FredSeriesMeta] as string | number) : "");
  matches.sort((a, b) => {
    const ka = key(a, metas.get(a.id));
    const kb = key(b, metas.get(b.id));
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return q.sortOrder === "asc" ? c : -c;
  });
  const page = matches.slice(q.offset, q.offset + q.limit);
  heads ??= await headOf(page);
  const seriess: FredSeriesMeta[] = [];
  for (const h of page) seriess.push(await metaOf(ctx, h, realtime, heads.get(h.id) ?? null));
  const r = renderSearch(
    {
      realtime_start: q.realtimeStart,
      realtime_end: q.realtimeEnd,
      order_by: q.orderBy,
      sort_order: q.sortOrder,
      count: matches.length,
      offset: q.offset,
      limit: q.limit,
      seriess,
    },
    q.fileType,
  );
  return renderBody(r.body, r.contentType);
}
