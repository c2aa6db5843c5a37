// Observation reads: GET /v1/observations and GET /v1/observations/latest (single and batch), for MCP and every
// later feature that reads numbers.
//
// Pipeline of a read (the order is the definition):
//   1. the whole series at its latest revisions (from the in-process cache, validated against series.version);
//      a derived concept is computed from its inputs' whole series, a svc: series is first brought up to date;
//   2. resampling to calendar buckets when `frequency` is given (src/domain/resample.ts), over the whole series;
//   3. the transform (src/domain/transforms.ts), over the whole (resampled) series, so comparators and index bases
//      outside the requested range or page are found;
//   4. the date range: native rows dated within [start_date, end_date]; buckets overlapping it;
//   5. order, then offset/limit; meta.total counts rows (or buckets) in the range.
// Steps 1-3 are memoised per series version, so a hot series is paged without touching the database or recomputing,
// and the JSON text of a page is kept (src/services/series-cache.ts) under a key naming the series version(s) and the
// normalised query: a hot page is served without building or serialising rows, and never outlives its version.
// include_revisions=true reads every stored revision in the range straight from the database (no transform, no
// resampling: both are 400s).
import type { Db } from "../../db/client";
import { readLatestPerSeries, readRevisions, type SeriesHead, type StoredObservation } from "../../db/repos/observation-reads";
import type { Deps } from "../deps";
import { FREQUENCY_UNIT, periodEnd, periodIndex, type Frequency } from "../domain/calendar";
import { blockedInputMessage } from "../domain/concepts";
import { COMPLETENESS_RULE, bucketsAsPoints, checkResample, resample, type Bucket, type ResampleMethod, type ResampleTarget } from "../domain/resample";
import { RuleError, type Point } from "../domain/series";
import { applyTransform, checkTransformFrequency, formatTransform, parseTransform, transformedUnit, type Transform } from "../domain/transforms";
import { ApiError, fail } from "../errors";
import { regionLabel, requireHeld, resolveSeriesTarget, type ConceptDisclosure, type DerivedConceptTarget, type IndicatorRow, type SeriesTarget } from "./concepts";
import { ensureDerived, isDerivedIndicator } from "./derived-series";
import { catalogIndexFor } from "./catalog-index";
import { seriesCacheFor, type SeriesCache } from "./series-cache";

export type ReadContext = { db: Db; cache: SeriesCache; now: () => Date };

export function readContext(deps: Pick<Deps, "database" | "clock" | "config">): ReadContext {
  return { db: deps.database.db, cache: seriesCacheFor(deps.database.db, deps.config.seriesCacheRevalidateMs), now: () => deps.clock.now() };
}

export type ObservationsQuery = {
  indicator: string;
  source?: string;
  region?: string;
  start_date?: string;
  end_date?: string;
  include_revisions: boolean;
  limit: number;
  offset: number;
  order: "asc" | "desc";
  transform?: string;
  frequency?: ResampleTarget;
  resample_method: ResampleMethod;
};

export type ObservationRow = {
  date: string;
  value: number | null;
  indicator: string;
  region: string;
  unit: string | null;
  source: string | null;
  source_updated_at: string | null;
  is_preliminary: boolean;
  revision: number;
};

export type ResampledRow = { period_start: string; period_end: string; period_type: ResampleTarget; value: number | null };

export type ResampleMeta = {
  method: ResampleMethod;
  source_frequency: Frequency;
  target_frequency: ResampleTarget;
  completeness: string;
  dropped_incomplete_bucket: boolean;
  dropped_period_start: string | null;
};

export type ObservationsMeta = {
  indicator: string;
  region: string;
  unit: string | null;
  total: number;
  limit: number;
  offset: number;
  source: string | null;
  frequency: Frequency;
  transform?: string;
  resample?: ResampleMeta;
  concept?: ConceptDisclosure;
};

export type ObservationsPage = { data: (ObservationRow | ResampledRow)[]; meta: ObservationsMeta };

export type LatestObservation = {
  indicator: string;
  region: string;
  period_start: string;
  period_end: string | null;
  period_type: string | null;
  value: number;
  revision: number;
  is_preliminary: boolean;
  source_updated_at: string | null;
  unit: string | null;
};

// ---------------------------------------------------------------------------------------------------------------
// Resolution (runs before any payment: what does not exist or cannot be computed costs nothing)

/** `catalogGeneration`: the catalog's generation when resolution began (what the resolution is valid for). */
export type ObservationsTarget = SeriesTarget & { transformSpec: Transform | null; catalogGeneration: number };

function rule(e: unknown): never {
  if (e instanceof RuleError) fail("INVALID_PARAMETER", e.message, e.details);
  throw e;
}

/** Resolves the series and checks every rule that depends on it (frequency, transform) before the read. */
export async function resolveObservations(ctx: ReadContext, q: ObservationsQuery): Promise<ObservationsTarget> {
  const catalogGeneration = catalogIndexFor(ctx.db).generation;
  const target = await resolveSeriesTarget(ctx.db, { code: q.indicator, source: q.source, region: q.region });
  const transformSpec = q.transform ? parseTransform(q.transform) : null;
  if (q.include_revisions && target.kind === "derived_concept") {
    fail("INVALID_PARAMETER", `include_revisions is not available for '${target.code}': it is computed on read from ${target.inputs.map((i) => i.indicator.code).join(" and ")}, whose revisions can be read one by one.`, {
      parameter: "include_revisions",
    });
  }
  try {
    if (q.frequency) checkResample(target.frequency, q.frequency);
    if (transformSpec) checkTransformFrequency(transformSpec, q.frequency ?? target.frequency, { resampled: !!q.frequency });
  } catch (e) {
    rule(e);
  }
  await ensureReadable(ctx, target);
  return { ...target, transformSpec, catalogGeneration };
}

/**
 * 404s that depend on data (a series offered but not held, a derived input missing) raised before any payment:
 * brings a svc: series up to date and checks that what will be read exists.
 */
export async function ensureReadable(ctx: ReadContext, target: SeriesTarget): Promise<void> {
  if (target.kind === "stored") await storedHead(ctx, target.indicator, target);
  else await inputHeads(ctx, target);
}

export function targetCode(t: SeriesTarget): string {
  return t.kind === "stored" ? t.indicator.code : t.code;
}

export function targetPremium(t: SeriesTarget): boolean {
  if (t.kind === "stored") return t.indicator.accessTier === "premium" || t.indicator.code.startsWith("svc:");
  return t.inputs.some((i) => i.indicator.accessTier === "premium" || i.indicator.code.startsWith("svc:"));
}

// ---------------------------------------------------------------------------------------------------------------
// Whole-series data

type BaseRow = StoredObservation;
/** `id` names the data and its version(s): `s:<series id>@<version>` or `c:<concept>|<region>|<input versions>`. */
type SeriesData = { id: string; rows: BaseRow[]; points: Point[]; memo: Map<string, unknown>; unit: string | null; source: string | null };

/** A rendered page: its JSON as a Blob, which every Response serving it shares without copying. */
const jsonBlob = (value: unknown): Blob => new Blob([JSON.stringify(value)], { type: "application/json" });

const conceptMemo = new WeakMap<Db, Map<string, SeriesData>>();

async function storedHead(ctx: ReadContext, indicator: IndicatorRow, target: SeriesTarget): Promise<SeriesHead> {
  if (isDerivedIndicator(indicator)) await ensureDerived(ctx, indicator, target.region);
  return requireHeld(ctx.db, ctx.cache, indicator, target.region);
}

async function inputHeads(ctx: ReadContext, target: DerivedConceptTarget): Promise<SeriesHead[]> {
  const heads = await ctx.cache.headsOf(target.inputs.map((i) => ({ indicatorId: i.indicator.id, regionCode: target.region.code })));
  const missing = heads.findIndex((h) => !h || h.observationCount === 0);
  if (missing >= 0) {
    const input = target.inputs[missing];
    fail("RESOURCE_NOT_FOUND", blockedInputMessage(target.code, { role: input.role, indicators: [input.indicator.code] }, await regionLabel(ctx.db, target.region)), {
      concept: target.code,
      blocking_input: input.role,
      input_indicator: input.indicator.code,
      region: target.region.code,
    });
  }
  return heads as SeriesHead[];
}

async function seriesData(ctx: ReadContext, target: SeriesTarget): Promise<SeriesData> {
  if (target.kind === "stored") {
    const snap = await ctx.cache.snapshot(await storedHead(ctx, target.indicator, target));
    return { id: `s:${snap.head.id}@${snap.head.version}`, rows: snap.rows, points: snap.points, memo: snap.memo, unit: target.indicator.unit, source: target.indicator.sourceSlug };
  }
  const heads = await inputHeads(ctx, target);
  const key = `${target.code}|${target.region.code}|${heads.map((h) => `${h.id}@${h.version}`).join(",")}`;
  let memo = conceptMemo.get(ctx.db);
  if (!memo) conceptMemo.set(ctx.db, (memo = new Map()));
  const hit = memo.get(key);
  if (hit) return hit;
  const snaps = await Promise.all(heads.map((h) => ctx.cache.snapshot(h)));
  const byRole: Record<string, readonly Point[]> = {};
  target.inputs.forEach((i, k) => (byRole[i.role] = snaps[k].points));
  const points = target.concept.combine(byRole, target.frequency);
  // Row metadata of a computed value: the newest revision and source update among the input rows it used.
  const unit = FREQUENCY_UNIT[target.frequency];
  const inputMeta = snaps.map((snap) => {
    const m = new Map<number, StoredObservation>();
    for (const r of snap.rows) m.set(periodIndex(r.date, unit), r);
    return m;
  });
  const rows: BaseRow[] = points.map((p) => {
    let revision = 0;
    let sourceUpdatedAt: Date | null = null;
    for (const m of inputMeta) {
      const r = m.get(periodIndex(p.date, unit));
      if (!r) continue;
      if (r.revision > revision) revision = r.revision;
      if (r.sourceUpdatedAt && (!sourceUpdatedAt || r.sourceUpdatedAt > sourceUpdatedAt)) sourceUpdatedAt = r.sourceUpdatedAt;
    }
    return { date: p.date, value: p.value, revision, isPreliminary: !!p.preliminary, sourceUpdatedAt };
  });
  const data: SeriesData = { id: `c:${key}`, rows, points, memo: new Map(), unit: target.unit, source: "svc" };
  if (memo.size >= 256) memo.delete(memo.keys().next().value!);
  memo.set(key, data);
  return data;
}

// ---------------------------------------------------------------------------------------------------------------
// Views: the whole series after resampling and transform, rendered as response rows (memoised per version)

type NativeView = { kind: "native"; rows: ObservationRow[]; dates: string[]; unit: string | null };
type BucketView = { kind: "buckets"; rows: ResampledRow[]; starts: string[]; ends: string[]; unit: string | null; resample: ResampleMeta };
type View = NativeView | BucketView;

function buildView(data: SeriesData, target: ObservationsTarget, q: ObservationsQuery): View {
  const code = targetCode(target);
  const t = target.transformSpec;
  const unit = t ? transformedUnit(t, data.unit) : data.unit;
  if (!q.frequency) {
    let values: (number | null)[] | null = null;
    if (t) values = applyTransform(data.points, t, target.frequency).map((p) => p.value);
    const rows = data.rows.map(
      (r, k): ObservationRow => ({
        date: r.date,
        value: values ? values[k] : r.value,
        indicator: code,
        region: target.region.code,
        unit,
        source: data.source,
        source_updated_at: r.sourceUpdatedAt ? r.sourceUpdatedAt.toISOString() : null,
        is_preliminary: r.isPreliminary,
        revision: r.revision,
      }),
    );
    return { kind: "native", rows, dates: data.rows.map((r) => r.date), unit };
  }
  const res = resample(data.points, target.frequency, q.frequency, q.resample_method);
  let values: (number | null)[] = res.buckets.map((b) => b.value);
  if (t) values = applyTransform(bucketsAsPoints(res.buckets), t, q.frequency, { resampled: true }).map((p) => p.value);
  const rows = res.buckets.map((b: Bucket, k): ResampledRow => ({ period_start: b.period_start, period_end: b.period_end, period_type: b.period_type, value: values[k] }));
  return {
    kind: "buckets",
    rows,
    starts: res.buckets.map((b) => b.period_start),
    ends: res.buckets.map((b) => b.period_end),
    unit,
    resample: {
      method: q.resample_method,
      source_frequency: target.frequency,
      target_frequency: q.frequency,
      completeness: COMPLETENESS_RULE[target.frequency],
      dropped_incomplete_bucket: res.dropped !== null,
      dropped_period_start: res.dropped?.period_start ?? null,
    },
  };
}

/** What a view depends on besides the data: code (rows carry it), region, resampling and transform. */
function viewKey(target: ObservationsTarget, q: ObservationsQuery): string {
  return `view|${target.region.code}|${targetCode(target)}|${q.frequency ?? ""}|${q.frequency ? q.resample_method : ""}|${target.transformSpec ? formatTransform(target.transformSpec) : ""}`;
}

function viewOf(data: SeriesData, target: ObservationsTarget, q: ObservationsQuery, key: string): View {
  const hit = data.memo.get(key) as View | undefined;
  if (hit) return hit;
  let view: View;
  try {
    view = buildView(data, target, q);
  } catch (e) {
    rule(e);
  }
  // A few views per series version (different frequencies/transforms); bounded so odd requests cannot grow it.
  if (data.memo.size >= 32) data.memo.delete(data.memo.keys().next().value!);
  data.memo.set(key, view);
  return view;
}

/** First index with a[i] >= x (a ascending). */
function lowerBound(a: string[], x: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index with a[i] > x (a ascending). */
function upperBound(a: string[], x: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function page<T>(rows: T[], lo: number, hi: number, q: Pick<ObservationsQuery, "order" | "limit" | "offset">): T[] {
  const total = hi - lo;
  const n = Math.max(0, Math.min(q.limit, total - q.offset));
  const out = new Array<T>(n);
  if (q.order === "asc") for (let k = 0; k < n; k++) out[k] = rows[lo + q.offset + k];
  else for (let k = 0; k < n; k++) out[k] = rows[hi - 1 - q.offset - k];
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// GET /v1/observations

/**
 * The page as a JSON Blob. A page of the latest revisions is a pure function of the series version(s) and the
 * normalised query, so its text is kept under a key naming both: a hot page is served without building or serialising
 * rows, and a write (a new version) can never be answered with an older page.
 */
export async function getObservationsJson(ctx: ReadContext, target: ObservationsTarget, q: ObservationsQuery): Promise<Blob> {
  const concept = target.kind === "stored" ? target.concept : target.disclosure;
  if (q.include_revisions && target.kind === "stored") return revisionsJson(ctx, target, q, concept);

  const data = await seriesData(ctx, target);
  const vk = viewKey(target, q);
  const pageKey = pageKeyOf(data.id, vk, q, concept);
  const hit = ctx.cache.page(pageKey);
  if (hit !== undefined) return hit;

  const view = viewOf(data, target, q, vk);
  let lo: number;
  let hi: number;
  if (view.kind === "native") {
    lo = q.start_date ? lowerBound(view.dates, q.start_date) : 0;
    hi = q.end_date ? upperBound(view.dates, q.end_date) : view.dates.length;
  } else {
    // Buckets overlapping the range: period_end >= start_date and period_start <= end_date.
    lo = q.start_date ? lowerBound(view.ends, q.start_date) : 0;
    hi = q.end_date ? upperBound(view.starts, q.end_date) : view.starts.length;
  }
  if (hi < lo) hi = lo;
  const rows = page<ObservationRow | ResampledRow>(view.rows, lo, hi, q);
  const body = jsonBlob({
    data: rows,
    meta: {
      ...baseMeta(target, q),
      unit: view.unit,
      total: hi - lo,
      ...(view.kind === "buckets" ? { resample: view.resample } : {}),
      ...(concept ? { concept } : {}),
    },
  } satisfies ObservationsPage);
  ctx.cache.rememberPage(pageKey, body);
  return body;
}

/** meta.concept depends on how the series was asked for (a concept or its code), not on the data: part of the key. */
function pageKeyOf(dataId: string, viewKey: string, q: ObservationsQuery, concept: ConceptDisclosure | null): string {
  return `${dataId}|${viewKey}|${q.start_date ?? ""}|${q.end_date ?? ""}|${q.order}|${q.limit}|${q.offset}|${concept ? concept.code : ""}`;
}

/**
 * For the hot-read lane (src/http/hot-reads.ts), after a read of (target, q): a check without I/O that yields the
 * page a read would return now — while the catalog is still at the generation the target was resolved at and the
 * series head is still trusted at the version the page was rendered from — else null. Null when the read is not a
 * page of a stored series (revisions are read from the database; svc: series and derived concepts are computed
 * from their inputs on read).
 */
export function hotObservationsPage(ctx: ReadContext, target: ObservationsTarget, q: ObservationsQuery): (() => Blob | null) | null {
  if (q.include_revisions || target.kind !== "stored" || isDerivedIndicator(target.indicator)) return null;
  const catalog = catalogIndexFor(ctx.db);
  const { catalogGeneration } = target;
  const indicatorId = target.indicator.id;
  const region = target.region.code;
  const head = ctx.cache.trustedHead(indicatorId, region);
  if (!head || catalog.generation !== catalogGeneration) return null;
  const body = ctx.cache.page(pageKeyOf(`s:${head.id}@${head.version}`, viewKey(target, q), q, target.concept));
  if (!body) return null;
  return () => {
    if (!catalog.isCurrent() || catalog.generation !== catalogGeneration) return null;
    const now = ctx.cache.trustedHead(indicatorId, region);
    return now && now.id === head.id && now.version === head.version ? body : null;
  };
}

function baseMeta(target: ObservationsTarget, q: ObservationsQuery) {
  return {
    indicator: targetCode(target),
    region: target.region.code,
    limit: q.limit,
    offset: q.offset,
    source: target.kind === "stored" ? target.indicator.sourceSlug : "svc",
    frequency: target.frequency,
    ...(target.transformSpec ? { transform: formatTransform(target.transformSpec) } : {}),
  };
}

/** include_revisions=true: every stored revision in the range, read from the database (not cached). */
async function revisionsJson(ctx: ReadContext, target: ObservationsTarget & { kind: "stored" }, q: ObservationsQuery, concept: ConceptDisclosure | null): Promise<Blob> {
  const code = targetCode(target);
  const head = await storedHead(ctx, target.indicator, target);
  const { rows, total } = await readRevisions(ctx.db, head.id, { start: q.start_date, end: q.end_date, order: q.order, limit: q.limit, offset: q.offset });
  const data = rows.map(
    (r): ObservationRow => ({
      date: r.date,
      value: r.value,
      indicator: code,
      region: target.region.code,
      unit: target.indicator.unit,
      source: target.indicator.sourceSlug,
      source_updated_at: r.sourceUpdatedAt ? r.sourceUpdatedAt.toISOString() : null,
      is_preliminary: r.isPreliminary,
      revision: r.revision,
    }),
  );
  const page: ObservationsPage = { data, meta: { ...baseMeta(target, q), unit: target.indicator.unit, total, ...(concept ? { concept } : {}) } };
  return jsonBlob(page);
}

// ---------------------------------------------------------------------------------------------------------------
// GET /v1/observations/latest

function latestPeriodEnd(date: string, frequency: Frequency): string | null {
  // Weekly series are dated on different weekdays by different publishers (week start or week end): no safe end.
  if (frequency === "weekly") return null;
  return periodEnd(date, FREQUENCY_UNIT[frequency]);
}

function toLatest(target: SeriesTarget, r: StoredObservation, unit: string | null): LatestObservation {
  return {
    indicator: targetCode(target),
    region: target.region.code,
    period_start: r.date,
    period_end: latestPeriodEnd(r.date, target.frequency),
    period_type: target.frequency,
    value: r.value as number,
    revision: r.revision,
    is_preliminary: r.isPreliminary,
    source_updated_at: r.sourceUpdatedAt ? r.sourceUpdatedAt.toISOString() : null,
    unit,
  };
}

function lastValued(rows: StoredObservation[]): StoredObservation | null {
  for (let k = rows.length - 1; k >= 0; k--) if (rows[k].value !== null) return rows[k];
  return null;
}

function unitOf(t: SeriesTarget): string | null {
  return t.kind === "stored" ? t.indicator.unit : t.unit;
}

// The LatestObservation of a stored series is a function of its version alone (code, region, frequency and unit are
// the series'): rendered once per version and shared, frozen, by every request that reads it.
const renderedLatestMemo = new WeakMap<SeriesCache, Map<string, LatestObservation | null>>();
const MAX_RENDERED_LATEST = 20_000;

function renderedLatest(ctx: ReadContext, head: SeriesHead): LatestObservation | null | undefined {
  return renderedLatestMemo.get(ctx.cache)?.get(`${head.id}@${head.version}`);
}

function rememberRendered(ctx: ReadContext, head: SeriesHead, obs: LatestObservation | null): LatestObservation | null {
  let memo = renderedLatestMemo.get(ctx.cache);
  if (!memo) renderedLatestMemo.set(ctx.cache, (memo = new Map()));
  if (memo.size >= MAX_RENDERED_LATEST) memo.delete(memo.keys().next().value!);
  const frozen = obs ? Object.freeze(obs) : null;
  memo.set(`${head.id}@${head.version}`, frozen);
  return frozen;
}

/** The newest observation with a value, or null when the held series has none. */
export async function getLatest(ctx: ReadContext, target: SeriesTarget): Promise<LatestObservation | null> {
  const data = await seriesData(ctx, target);
  const r = lastValued(data.rows);
  return r ? toLatest(target, r, unitOf(target)) : null;
}

export function latestMeta(target: SeriesTarget, found: boolean) {
  const concept = target.kind === "stored" ? target.concept : target.disclosure;
  return {
    indicator: targetCode(target),
    region: target.region.code,
    unit: unitOf(target),
    total: found ? 1 : 0,
    limit: 1,
    offset: 0,
    ...(concept ? { concept } : {}),
  };
}

export const BATCH_LATEST_MAX = 20;

export type BatchError = { indicator: string; code: "INVALID_PARAMETER" | "RESOURCE_NOT_FOUND" | "CATEGORY_NOT_ALLOWED"; message: string; details?: Record<string, unknown> };

/** Splits the `indicators` parameter: trimmed, non-empty, in order, duplicates kept once. */
export function splitIndicators(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(",")) {
    const code = part.trim();
    if (code && !out.includes(code)) out.push(code);
  }
  return out;
}

/**
 * Batch latest: every code resolved on its own, so one bad code never fails the others. `allowed` decides per
 * resolved series whether the caller may read it (premium entitlement, region restriction).
 */
export async function getLatestBatch(
  ctx: ReadContext,
  args: { codes: string[]; source?: string; region?: string; allowed?: (t: SeriesTarget) => string | null },
): Promise<{ data: LatestObservation[]; errors: BatchError[] }> {
  const errors: BatchError[] = [];
  const targets: { code: string; target: SeriesTarget }[] = [];
  for (const code of args.codes) {
    try {
      const target = await resolveSeriesTarget(ctx.db, { code, source: args.source, region: args.region });
      const refused = args.allowed?.(target);
      if (refused) errors.push({ indicator: code, code: "CATEGORY_NOT_ALLOWED", message: refused });
      else targets.push({ code, target });
    } catch (e) {
      errors.push(batchError(code, e));
    }
  }
  // Stored series: heads in one statement; the cached ones answer from memory, the rest in ONE latest-per-series query.
  const stored = targets.filter((t) => t.target.kind === "stored") as { code: string; target: Extract<SeriesTarget, { kind: "stored" }> }[];
  for (const t of stored) {
    if (!isDerivedIndicator(t.target.indicator)) continue;
    try {
      await ensureDerived(ctx, t.target.indicator, t.target.region);
    } catch (e) {
      errors.push(batchError(t.code, e));
      t.code = "";
    }
  }
  const live = stored.filter((t) => t.code !== "");
  const heads = await ctx.cache.headsOf(live.map((t) => ({ indicatorId: t.target.indicator.id, regionCode: t.target.region.code })));
  const results = new Map<string, LatestObservation | null>();
  const toQuery: number[] = [];
  for (let k = 0; k < live.length; k++) {
    const head = heads[k];
    if (!head || head.observationCount === 0) {
      errors.push({
        indicator: live[k].code,
        code: "RESOURCE_NOT_FOUND",
        message: `No observations of '${live[k].target.indicator.code}' are held for ${await regionLabel(ctx.db, live[k].target.region)} yet.`,
        details: { indicator: live[k].target.indicator.code, region: live[k].target.region.code, held: false },
      });
      continue;
    }
    const rendered = renderedLatest(ctx, head);
    if (rendered !== undefined) {
      results.set(live[k].code, rendered);
      continue;
    }
    const snap = ctx.cache.peek(head);
    const known = snap ? lastValued(snap.rows) : ctx.cache.latestOf(head);
    if (known !== undefined) results.set(live[k].code, rememberRendered(ctx, head, known ? toLatest(live[k].target, known, live[k].target.indicator.unit) : null));
    else toQuery.push(k);
  }
  if (toQuery.length > 0) {
    const latest = await readLatestPerSeries(ctx.db, toQuery.map((k) => heads[k]!.id));
    for (const k of toQuery) {
      const r = latest.get(heads[k]!.id) ?? null;
      ctx.cache.rememberLatest(heads[k]!, r);
      results.set(live[k].code, rememberRendered(ctx, heads[k]!, r ? toLatest(live[k].target, r, live[k].target.indicator.unit) : null));
    }
  }
  for (const t of targets) {
    if (t.target.kind !== "derived_concept") continue;
    try {
      results.set(t.code, await getLatest(ctx, t.target));
    } catch (e) {
      errors.push(batchError(t.code, e));
    }
  }
  // Data in request order; a held series with no valued observation contributes nothing (it is not an error).
  const data: LatestObservation[] = [];
  for (const code of args.codes) {
    const r = results.get(code);
    if (r) data.push(r);
  }
  errors.sort((a, b) => args.codes.indexOf(a.indicator) - args.codes.indexOf(b.indicator));
  return { data, errors };
}

function batchError(indicator: string, e: unknown): BatchError {
  if (e instanceof ApiError && (e.code === "INVALID_PARAMETER" || e.code === "RESOURCE_NOT_FOUND" || e.code === "CATEGORY_NOT_ALLOWED")) {
    return { indicator, code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
  }
  throw e;
}
