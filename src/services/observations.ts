// GET /v1/observations: a page of one series, for REST, MCP and every later feature that reads numbers.
//
// Pipeline of a read (the order is the definition):
//   1. the whole series at its latest revisions (from the in-process cache, validated against series.version);
//      a derived concept is computed from its inputs' whole series, a svc: series is first brought up to date;
//   2. resampling to calendar buckets when `frequency` is given (src/domain/resample.ts), over the whole series;
//   3. the transform (src/domain/transforms.ts), over the whole (resampled) series, so comparators and index bases
//      outside the requested range or page are found;
//   4. the date range: native rows dated within [start_date, end_date]; buckets overlapping it;
//   5. order, then offset/limit; meta.total counts rows (or buckets) in the range.
// Steps 1-3 are memoised per series version (series-read.ts viewOf), so a hot series is paged without touching the database or recomputing,
// and the JSON text of a page is kept (src/services/series-cache.ts) under a key naming the series version(s) and the
// normalised query: a hot page is served without building or serialising rows, and never outlives its version.
// include_revisions=true reads every stored revision in the range straight from the database (no transform, no
// resampling: both are 400s).
import type { z } from "zod";
import { readRevisions } from "../../db/repos/observation-reads";
import { checkResample } from "../domain/resample";
import { checkTransformFrequency, formatTransform, parseTransform, type Transform } from "../domain/transforms";
import { fail } from "../errors";
import type { observationsQuerySchema } from "../schemas/observations";
import { resolveSeriesTarget, type ConceptDisclosure, type SeriesTarget } from "./concepts";
import { isDerivedIndicator } from "./derived-series";
import { toCsv } from "../domain/csv-render";
import { renderBody, renderJson, type RenderedJson } from "./rendered";
import type { ObservationRow, ObservationsPage, ResampledRow } from "./observations-page";
import {
  dataFreshness,
  newestValued,
  observationRows,
  readable,
  rule,
  seriesData,
  targetCode,
  viewKey,
  viewOf,
  type Heads,
  type View,
  type ReadContext,
  type Readable,
} from "./series-read";
import { freshnessAt, type Freshness } from "../domain/freshness";
import type { PageCheck } from "./page-memo";
import { seriesVersionKey } from "./series-cache";

/** GET /v1/observations's validated query, as its schema outputs it. */
export type ObservationsQuery = z.output<typeof observationsQuerySchema>;

export type {
  ObservationRow,
  ResampledRow,
  ResampleMeta,
  ObservationsMeta,
  ObservationsPage,
} from "./observations-page";

// ---------------------------------------------------------------------------------------------------------------
// Resolution (runs before any payment: what does not exist or cannot be computed costs nothing)

/**
 * `catalogGeneration`: the catalog's generation when resolution began (what the resolution is valid for); `heads`:
 * the series head(s) the read uses, found once at resolve.
 */
export type ObservationsTarget = SeriesTarget & {
  transformSpec: Transform | null;
  catalogGeneration: number;
  heads: Heads;
};

/**
 * Resolves the series and checks every rule that depends on it (frequency, transform) before the read: the target
 * with its heads, or the series to provision. Reads only.
 */
export async function resolveObservations(
  ctx: ReadContext,
  q: ObservationsQuery,
): Promise<Readable<ObservationsTarget>> {
  const catalogGeneration = ctx.caches.catalog.generation;
  const target = await resolveSeriesTarget(ctx, { code: q.indicator, source: q.source, region: q.region });
  const transformSpec = q.transform ? parseTransform(q.transform) : null;
  if (q.include_revisions && target.kind === "derived_concept") {
    fail(
      "INVALID_PARAMETER",
      `include_revisions is not available for '${target.code}': it is computed on read from ${target.inputs.map((i) => i.indicator.code).join(" and ")}, whose revisions can be read one by one.`,
      {
        parameter: "include_revisions",
      },
    );
  }
  try {
    if (q.frequency) checkResample(target.frequency, q.frequency);
    if (transformSpec)
      checkTransformFrequency(transformSpec, q.frequency ?? target.frequency, { resampled: !!q.frequency });
  } catch (e) {
    rule(e);
  }
  return readable(ctx, { ...target, transformSpec, catalogGeneration });
}

// ---------------------------------------------------------------------------------------------------------------
// Pages: the rows of a view in the date range, paged

/** First index with a[i] >= x (a ascending); with `after`, first with a[i] > x. */
function bound(a: string[], x: string, after: boolean): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x || (after && a[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows of `view` in the date range, as [lo, hi): native rows dated within it, buckets overlapping it. */
function windowOf(view: View, q: Pick<ObservationsQuery, "start_date" | "end_date">): [number, number] {
  // Buckets overlapping the range: period_end >= start_date and period_start <= end_date.
  const [starts, ends] = view.kind === "native" ? [view.dates, view.dates] : [view.starts, view.ends];
  const lo = q.start_date ? bound(ends, q.start_date, false) : 0;
  const hi = q.end_date ? bound(starts, q.end_date, true) : starts.length;
  return [lo, Math.max(lo, hi)];
}

/** The page of rows [lo, hi) that `q` asks for: in its order, from its offset, at most its limit. */
function pageRows<T>(rows: T[], lo: number, hi: number, q: Pick<ObservationsQuery, "order" | "limit" | "offset">): T[] {
  const n = Math.max(0, Math.min(q.limit, hi - lo - q.offset));
  const out = new Array<T>(n);
  if (q.order === "asc") for (let k = 0; k < n; k++) out[k] = rows[lo + q.offset + k]!;
  else for (let k = 0; k < n; k++) out[k] = rows[hi - 1 - q.offset - k]!;
  return out;
}

/** A series in a date range, resampled and transformed as a page of it would be: dated values (buckets by their start). */
export type SeriesWindow = {
  id: string;
  unit: string | null;
  points: { date: string; value: number | null }[];
  freshness: Freshness | null;
};

/** The whole window of (target, q), for a chart: every row in the range, in date order, no paging. */
export async function seriesWindow(
  ctx: ReadContext,
  target: ObservationsTarget,
  q: ObservationsQuery,
): Promise<SeriesWindow> {
  const data = await seriesData(ctx, target);
  const view = viewOf(data, target, q, viewKey(target, q));
  const [lo, hi] = windowOf(view, q);
  const dates = view.kind === "native" ? view.dates : view.starts;
  const points = new Array<{ date: string; value: number | null }>(hi - lo);
  for (let k = lo; k < hi; k++) points[k - lo] = { date: dates[k]!, value: view.rows[k]!.value };
  return { id: data.id, unit: view.unit, points, freshness: dataFreshness(ctx, data, target) };
}

/**
 * The page as a JSON Blob. A page of the latest revisions is a pure function of the series version(s) and the
 * normalised query, so its text is kept under a key naming both: a hot page is served without building or serialising
 * rows, and a write (a new version) can never be answered with an older page.
 */
export async function getObservationsPage(
  ctx: ReadContext,
  target: ObservationsTarget,
  q: ObservationsQuery,
  format: PageFormat = "json",
): Promise<RenderedJson> {
  const concept = target.kind === "stored" ? target.concept : target.disclosure;
  if (q.include_revisions && target.kind === "stored")
    return renderPage(await revisionsPage(ctx, target, q, concept), format);

  const data = await seriesData(ctx, target);
  const freshness = dataFreshness(ctx, data, target);
  const vk = viewKey(target, q);
  const pageKey = pageKeyOf(data.id, vk, q, concept, format, target.resolvedRegion.note ?? "", freshness);
  const hit = ctx.caches.series.page(pageKey);
  if (hit !== undefined) return hit;

  const view = viewOf(data, target, q, vk);
  const [lo, hi] = windowOf(view, q);
  const rows = pageRows<ObservationRow | ResampledRow>(view.rows, lo, hi, q);
  const body = renderPage(
    {
      data: rows,
      meta: {
        ...baseMeta(target, q),
        unit: view.unit,
        total: hi - lo,
        ...(view.kind === "buckets" ? { resample: view.resample } : {}),
        ...(concept ? { concept } : {}),
        ...(freshness ? { freshness } : {}),
      },
    },
    format,
  );
  ctx.caches.series.rememberPage(pageKey, body);
  return body;
}

/**
 * meta.concept depends on how the series was asked for (a concept or its code), not on the data: part of the key.
 * meta.freshness depends on the day as well: its periods behind (which fixes the rest of it for one version) too.
 */
function pageKeyOf(
  dataId: string,
  viewKey: string,
  q: ObservationsQuery,
  concept: ConceptDisclosure | null,
  format: PageFormat,
  regionNote: string,
  freshness: Freshness | null,
): string {
  return `${dataId}|${viewKey}|${q.start_date ?? ""}|${q.end_date ?? ""}|${q.order}|${q.limit}|${q.offset}|${concept ? concept.code : ""}|${format}|${regionNote}|${freshness?.periods_behind ?? ""}`;
}

/** How a page is written: JSON (`{ data, meta }`) or CSV (the rows; the meta beside them, sent as headers). */
export type PageFormat = "json" | "csv";

const NATIVE_COLUMNS = [
  "date",
  "value",
  "indicator",
  "region",
  "unit",
  "source",
  "source_updated_at",
  "is_preliminary",
  "revision",
] as const;
const BUCKET_COLUMNS = ["period_start", "period_end", "period_type", "value"] as const;

/**
 * The page as its body. CSV: a header row and the same rows as the JSON `data` (resampled buckets have their own
 * columns); what JSON carries in `meta` rides beside the body, for the http layer to send (README "CSV").
 */
function renderPage(page: ObservationsPage, format: PageFormat): RenderedJson {
  if (format === "json") return renderJson(page);
  const columns = page.meta.resample ? BUCKET_COLUMNS : NATIVE_COLUMNS;
  return renderBody(
    toCsv(columns, page.data as unknown as Record<string, unknown>[]),
    "text/csv; charset=utf-8",
    page.meta,
  );
}

/**
 * For the page memo (page-memo.ts), after a read of (target, q): the page a read returns now, found without I/O while
 * the catalog is current at the generation the target was resolved at and the series head is trusted, with until when
 * that holds (the head's and the catalog's trust; the day, for meta.freshness). Null when the read is not a page of a
 * stored series (revisions are read from the database; a svc: series is checked against its inputs on read, a derived
 * concept computed from them) or the page was not kept.
 */
export function observationsPageCheck(
  ctx: ReadContext,
  target: ObservationsTarget,
  q: ObservationsQuery,
  format: PageFormat,
): PageCheck | null {
  if (q.include_revisions || target.kind !== "stored" || isDerivedIndicator(target.indicator)) return null;
  const { catalog, series } = ctx.caches;
  const trusted = series.trusted(target.indicator.id, target.region.code);
  if (!trusted?.head || !catalog.isCurrent() || catalog.generation !== target.catalogGeneration) return null;
  const snap = series.peek(trusted.head);
  if (!snap) return null;
  const now = ctx.now();
  const freshness = freshnessAt(newestValued(snap.rows), target.frequency, now);
  const body = series.page(
    pageKeyOf(
      `s:${seriesVersionKey(trusted.head)}`,
      viewKey(target, q),
      q,
      target.concept,
      format,
      target.resolvedRegion.note ?? "",
      freshness,
    ),
  );
  if (!body) return null;
  // meta.freshness is a function of the UTC day (src/domain/freshness.ts asOfDate): it holds until the day ends.
  const dayEnd = freshness ? (Math.floor(now.getTime() / DAY_MS) + 1) * DAY_MS : Number.POSITIVE_INFINITY;
  return { body, until: Math.min(trusted.until, catalog.currentUntil()), dayEnd };
}

const DAY_MS = 86_400_000;

function baseMeta(target: ObservationsTarget, q: ObservationsQuery) {
  return {
    indicator: targetCode(target),
    region: target.region.code,
    resolved_region: target.resolvedRegion,
    limit: q.limit,
    offset: q.offset,
    source: target.kind === "stored" ? target.indicator.sourceSlug : "svc",
    frequency: q.frequency ?? target.frequency,
    native_frequency: target.frequency,
    ...(target.transformSpec ? { transform: formatTransform(target.transformSpec) } : {}),
  };
}

/** include_revisions=true: every stored revision in the range, read from the database (not cached). */
async function revisionsPage(
  ctx: ReadContext,
  target: ObservationsTarget & { kind: "stored" },
  q: ObservationsQuery,
  concept: ConceptDisclosure | null,
): Promise<ObservationsPage> {
  const head = target.heads[0]!;
  const { rows, total } = await readRevisions(ctx.db, head.id, {
    start: q.start_date,
    end: q.end_date,
    order: q.order,
    limit: q.limit,
    offset: q.offset,
  });
  const data = observationRows(
    rows,
    null,
    targetCode(target),
    target.region.code,
    target.indicator.unit,
    target.indicator.sourceSlug,
  );
  const freshness = dataFreshness(ctx, { newest: newestValued((await ctx.caches.series.snapshot(head)).rows) }, target);
  return {
    data,
    meta: {
      ...baseMeta(target, q),
      unit: target.indicator.unit,
      total,
      ...(concept ? { concept } : {}),
      ...(freshness ? { freshness } : {}),
    },
  };
}
