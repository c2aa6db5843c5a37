// The FRED-compatible reads (GET /fred/series/observations and /fred/series/vintagedates): a FRED series id
// resolved to a catalog series (src/domain/fred/series-ids.ts), its revisions read through the series cache and
// the revision store, and FRED's answer computed by src/domain/fred and rendered once per series version and query.
// - Resolution reads only memory (the catalog snapshot and region index) and then the same resolveSeriesTarget and
//   readable as /v1, so a series offered but not held comes back as what to provision (202, started by the caller)
//   and one not offered is FRED's "The series does not exist." before any payment. The head found there is the one
//   the answer reads.
// - Fast path: when the real-time period starts on or after the newest vintage of every latest row (the default:
//   today), the series as of that period is its latest revisions, which the series cache holds; otherwise every
//   stored revision is read with its vintage day (db/repos/observation-reads.ts readRevisionHistory), once per
//   series version.
// - Pages are rendered once per series version, normalised query and real-time period and kept with the version.
import { readRevisionHistory } from "../../db/repos/observation-reads";
import { ApiError } from "../errors";
import { nativeFrequency } from "../domain/fred/frequency";
import type { FredError } from "../domain/fred/errors";
import { fredObservations, printer, type FredSeriesData } from "../domain/fred/observations";
import type { ObservationsQuery, VintageDatesQuery } from "../domain/fred/query";
import { renderObservations, renderVintageDates } from "../domain/fred/render";
import {
  areaTemplate,
  compactCode,
  fredSeriesId,
  readSeriesId,
  STATE_RATE,
  type IdCandidate,
} from "../domain/fred/series-ids";
import { seriesDecimals } from "../domain/fred/units";
import { RevisionHistory } from "../domain/fred/vintages";
import { resolveSeriesTarget, type IndicatorRow, type StoredTarget } from "./concepts";
import { regionIndex, type RegionRow } from "./regions";
import { renderBody, type RenderedJson } from "./rendered";
import { readable, type Heads, type ReadContext, type Readable } from "./series-read";
import type { Store } from "./caches";
import type { PageCheck } from "./page-memo";

export type FredTarget = { id: string; target: StoredTarget & { heads: Heads }; catalogGeneration: number };
export type FredAnswer = { ok: true; body: RenderedJson } | { ok: false; error: FredError };

type IdTables = { templates: Map<string, IndicatorRow>; compact: Map<string, IndicatorRow[]> };

async function idTables(store: Store): Promise<IdTables> {
  const snap = await store.caches.catalog.catalog();
  const memo = snap.memo as { get(k: string): unknown; set(k: string, v: unknown): unknown };
  const hit = memo.get("fred:ids") as IdTables | undefined;
  if (hit) return hit;
  const tables: IdTables = { templates: new Map(), compact: new Map() };
  for (const row of snap.byId.values()) {
    const t = areaTemplate(row.meta);
    if (t) tables.templates.set(t, row);
    const c = compactCode(row.code);
    tables.compact.set(c, [...(tables.compact.get(c) ?? []), row]);
  }
  memo.set("fred:ids", tables);
  return tables;
}

/** The USPS abbreviation of a state region, from its aliases. */
export function uspsOf(region: Pick<RegionRow, "type" | "aliases">): string | null {
  return region.type === "state" ? (region.aliases.find((a) => /^[A-Z]{2}$/.test(a)) ?? null) : null;
}

/** The FRED id of a resolved series. */
export function fredIdOf(indicator: IndicatorRow, region: RegionRow): string {
  return fredSeriesId(
    { source: indicator.sourceSlug ?? "", code: indicator.code, template: areaTemplate(indicator.meta) },
    { code: region.code, usps: uspsOf(region) },
  );
}

function candidateInput(
  c: IdCandidate,
  tables: IdTables,
  stateByUsps: (usps: string) => string | null,
): { code: string; source: string; region: string }[] {
  switch (c.kind) {
    case "fred":
      return [{ code: c.code, source: "fred", region: "US" }];
    case "state-rate": {
      const region = stateByUsps(c.usps);
      return region ? [{ code: STATE_RATE.code, source: STATE_RATE.source, region }] : [];
    }
    case "template": {
      const row = tables.templates.get(c.template);
      return row?.sourceSlug ? [{ code: row.code, source: row.sourceSlug, region: c.region }] : [];
    }
    case "compact":
      return (tables.compact.get(c.code) ?? [])
        .filter((r) => r.sourceSlug)
        .map((r) => ({ code: r.code, source: r.sourceSlug!, region: c.region }));
  }
}

/**
 * The catalog series a FRED id names, with its head, or the series to provision when it is offered but not held; null
 * when the id names none (or one nothing fetches). Reads only.
 */
export async function resolveFredSeries(ctx: ReadContext, seriesId: string): Promise<Readable<FredTarget> | null> {
  const catalogGeneration = ctx.caches.catalog.generation;
  const [tables, regions] = await Promise.all([idTables(ctx), regionIndex(ctx)]);
  const isRegion = (code: string) => regions.byCode.has(code) || regions.byCode.has(code.toLowerCase());
  const stateByUsps = (usps: string) => {
    for (const r of regions.byCode.values()) if (r.type === "state" && r.aliases.includes(usps)) return r.code;
    return null;
  };
  for (const candidate of readSeriesId(seriesId, tables.templates.keys(), tables.compact, isRegion)) {
    for (const input of candidateInput(candidate, tables, stateByUsps)) {
      const regionCode = regions.byCode.has(input.region) ? input.region : input.region.toLowerCase();
      let target;
      try {
        target = await resolveSeriesTarget(ctx, { ...input, region: regionCode });
      } catch (e) {
        if (e instanceof ApiError && e.status < 500) continue;
        throw e;
      }
      if (target.kind !== "stored" || target.indicator.sourceSlug !== input.source) continue;
      if (fredIdOf(target.indicator, target.region).toUpperCase() !== seriesId.toUpperCase()) continue;
      let found;
      try {
        found = await readable(ctx, target);
      } catch (e) {
        // Offered by the catalog but not fetchable (404): FRED's "does not exist"; anything else goes on as on /v1.
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
      if (found.kind === "not-held") return found;
      return {
        kind: "held",
        target: { id: fredIdOf(target.indicator, target.region), target: found.target, catalogGeneration },
      };
    }
  }
  return null;
}

type Views = { get(k: string): unknown; set(k: string, v: unknown): unknown };

/** The series' newest vintage day among its latest rows, or null when some latest row has no source date. */
function newestVintage(rows: readonly { sourceUpdatedAt: Date | null }[]): string | null {
  let newest = "";
  for (const r of rows) {
    if (!r.sourceUpdatedAt) return null;
    const day = r.sourceUpdatedAt.toISOString().slice(0, 10);
    if (day > newest) newest = day;
  }
  return newest;
}

/** The series' data for FRED, from the cache when `realtimeStart` needs nothing older than the latest rows. */
async function seriesData(ctx: ReadContext, t: FredTarget, realtimeStart: string | null): Promise<FredSeriesData> {
  const head = t.target.heads[0]!;
  const snap = await ctx.caches.series.snapshot(head);
  const views = snap.memo as Views;
  let base = views.get("fred:base") as { decimals: number; newest: string | null; latest: RevisionHistory } | undefined;
  if (!base) {
    const newest = newestVintage(snap.rows);
    base = {
      decimals: seriesDecimals(snap.rows.map((r) => r.value)),
      newest,
      latest: new RevisionHistory(snap.rows.map((r) => ({ date: r.date, value: r.value, vintage: newest ?? r.date }))),
    };
    views.set("fred:base", base);
  }
  const native = nativeFrequency(t.target.indicator.frequency, snap.points)!;
  if (realtimeStart !== null && base.newest !== null && realtimeStart >= base.newest) {
    return { id: t.id, native, decimals: base.decimals, history: base.latest };
  }
  let history = views.get("fred:history") as RevisionHistory | undefined;
  if (!history) {
    history = new RevisionHistory(await readRevisionHistory(ctx.db, head.id));
    views.set("fred:history", history);
  }
  return { id: t.id, native, decimals: base.decimals, history };
}

/** The memo key of a query: every parameter that shapes the answer, never the credential. */
export function observationsKey(q: ObservationsQuery): string {
  return [
    "obs",
    q.fileType,
    q.realtimeStart,
    q.realtimeEnd,
    q.observationStart,
    q.observationEnd,
    q.limit,
    q.offset,
    q.sortOrder,
    q.units,
    q.frequencyValue ?? "",
    q.aggregationMethod,
    q.outputType,
    q.vintageDates?.join(",") ?? "",
  ].join("|");
}

/** GET /fred/series/observations: the page, or FRED's error for a rule only the series can break. */
export async function getFredObservations(ctx: ReadContext, t: FredTarget, q: ObservationsQuery): Promise<FredAnswer> {
  const snap = await ctx.caches.series.snapshot(t.target.heads[0]!);
  const views = snap.memo as Views;
  const key = observationsKey(q);
  const hit = views.get(key) as RenderedJson | undefined;
  if (hit) return { ok: true, body: hit };
  const fast = q.outputType === 1 && !q.vintageDates ? q.realtimeStart : null;
  const answer = fredObservations(q, await seriesData(ctx, t, fast));
  if ("status" in answer) return { ok: false, error: answer };
  const rendered = renderObservations(answer, q.fileType);
  const body = renderBody(rendered.body, rendered.contentType);
  views.set(key, body);
  return { ok: true, body };
}

/**
 * The page memo's check for an observations page: the body again, found without I/O while the catalog is current at
 * the generation resolved and the series head is trusted, with until when that holds; null when the page was not kept.
 */
export function fredObservationsCheck(
  ctx: ReadContext,
  t: FredTarget,
  q: ObservationsQuery,
  today: string,
): PageCheck | null {
  const { catalog, series } = ctx.caches;
  const trusted = series.trusted(t.target.indicator.id, t.target.region.code);
  if (!trusted?.head || !catalog.isCurrent() || catalog.generation !== t.catalogGeneration) return null;
  const snap = series.peek(trusted.head);
  const body = snap ? ((snap.memo as Views).get(observationsKey(q)) as RenderedJson | undefined) : undefined;
  if (!body) return null;
  // The defaults of realtime_start and realtime_end are today: the page holds for the day it was read on.
  return {
    body,
    until: Math.min(trusted.until, catalog.currentUntil()),
    dayEnd: Date.parse(`${today}T00:00:00Z`) + 86_400_000,
  };
}

/** GET /fred/series/vintagedates: the days the stored revisions became known, in the real-time period. */
export async function getFredVintageDates(
  ctx: ReadContext,
  t: FredTarget,
  q: VintageDatesQuery,
): Promise<RenderedJson> {
  const data = await seriesData(ctx, t, null);
  const dates = data.history.vintages.filter((d) => d >= q.realtimeStart && d <= q.realtimeEnd);
  if (q.sortOrder === "desc") dates.reverse();
  const rendered = renderVintageDates(
    {
      realtime_start: q.realtimeStart,
      realtime_end: q.realtimeEnd,
      order_by: "vintage_date",
      sort_order: q.sortOrder,
      count: dates.length,
      offset: q.offset,
      limit: q.limit,
      vintage_dates: dates.slice(q.offset, q.offset + q.limit),
    },
    q.fileType,
  );
  return renderBody(rendered.body, rendered.contentType);
}

/** FRED's error for what this series cannot give the query (a frequency finer than its own), or null. */
export async function checkFredObservations(
  ctx: ReadContext,
  t: FredTarget,
  q: ObservationsQuery,
): Promise<FredError | null> {
  if (!q.frequency) return null;
  const data = await seriesData(ctx, t, q.realtimeStart);
  const printed = printer(q, data);
  return typeof printed === "function" ? null : printed;
}
