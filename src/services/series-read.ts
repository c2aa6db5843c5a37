// Reading a resolved series (src/services/concepts.ts resolves what a caller typed into a SeriesTarget): the read
// context, the heads a read will use (found once, at resolve) or what to provision when a series is not held, 404s
// that depend on data, and the whole series at its latest revisions, from the in-process cache (validated against
// series.version) or, for a derived concept, computed from its inputs' whole series. A read never writes: a svc:
// series is read as its inputs' writers last derived it (src/services/derived-series.ts), and a series offered but
// not held is handed back as a Provision that only the paid pipeline (src/http/paid.ts) starts. And views of the whole
// series (resampled, transformed, as response rows; memoised per version).
// Observations (observations.ts) and latest (latest.ts) read through it.
import type { z } from "zod";
import type { observationsQuerySchema } from "../schemas/observations";
import { isHeldHead, type SeriesHead, type StoredObservation } from "../../db/repos/observation-reads";
import type { Deps } from "../deps";
import { FREQUENCY_UNIT, periodIndex } from "../domain/calendar";
import { blockedInputMessage } from "../domain/concepts";
import { alignTo } from "../domain/derived";
import { freshnessAt, type Freshness } from "../domain/freshness";
import { COMPLETENESS_RULE, bucketsAsPoints, resample, type Bucket } from "../domain/resample";
import { RuleError, type Point } from "../domain/series";
import { applyTransform, formatTransform, transformedUnit, type Transform } from "../domain/transforms";
import { fail } from "../errors";
import { isPremiumIndicator, type Read, type Surface } from "../pricing";
import { BoundedCache } from "./bounded-cache";
import { CACHE_BOUNDS, type Store } from "./caches";
import { regionLabel, type DerivedConceptTarget, type IndicatorRow, type SeriesTarget } from "./concepts";
import { derivedHead, isDerivedIndicator } from "./derived-series";
import { canProvision, notFetchable, notHeld, type NotHeld, type ProvisioningContext } from "./provisioning";
import { ANONYMOUS_CALLER, provisioningBudget, type ProvisioningCaller } from "./provisioning-budget";
import type { ObservationRow, ResampledRow, ResampleMeta } from "./observations-page";
import type { RegionRow } from "./regions";
import { seriesVersionKey, seriesVersionsKey } from "./series-cache";

/**
 * The app's database and caches, and its clock. `provisioning`: a series offered but not held is fetched on demand
 * (a 202 while it is); without it such a series is a 404. Only the data routes provision: a page that merely shows
 * examples (the landing page) must not set fetches off.
 */
export type ReadContext = Store & { now: () => Date; provisioning?: ProvisioningContext };

export function readContext(
  deps: Pick<
    Deps,
    "database" | "clock" | "caches" | "fetcher" | "jobs" | "random" | "config" | "rateLimits" | "upstream"
  >,
  opts: { provisioning?: boolean } = {},
): ReadContext {
  const ctx: ReadContext = { db: deps.database.db, caches: deps.caches, now: () => deps.clock.now() };
  if (opts.provisioning) {
    const settings = deps.config.jobs.provision;
    const budget = provisioningBudget({
      rateLimits: deps.rateLimits,
      limits: settings.limits,
      upstreamAllowance: (u) => deps.upstream.limiter.limitsOf(u),
    });
    ctx.provisioning = {
      fetcher: deps.fetcher,
      jobs: deps.jobs,
      random: deps.random,
      settings,
      budget,
      caller: () => ANONYMOUS_CALLER,
    };
  }
  return ctx;
}

/** A series offered but not held, and how to start its provisioning (records it, queues its job: it writes). */
export type Provision = {
  indicator: IndicatorRow;
  region: RegionRow;
  start(caller: ProvisioningCaller): Promise<NotHeld>;
};

/** The heads a read of a target uses, found once: one for a stored series, one per input of a derived concept. */
export type Heads = readonly SeriesHead[];

/** What a read found: the target with its heads, or a series to provision before it can be read. */
export type Readable<T> = { kind: "held"; target: T } | { kind: "not-held"; provision: Provision };

/**
 * The heads `target` will be read at, or the series to provision (only in a context that provisions and when a
 * connector fetches it). Answers that depend on data are thrown before any payment: a series nothing fetches (404
 * naming its import command), a derived input missing (404), a svc: series not derived yet (404). Reads only.
 */
export async function readable<T extends SeriesTarget>(
  ctx: ReadContext,
  target: T,
): Promise<Readable<T & { heads: Heads }>> {
  if (target.kind === "derived_concept")
    return { kind: "held", target: { ...target, heads: await inputHeads(ctx, target) } };
  const indicator = target.indicator;
  if (isDerivedIndicator(indicator))
    return { kind: "held", target: { ...target, heads: [await derivedHead(ctx, indicator, target.region)] } };
  const head = await ctx.caches.series.head(indicator.id, target.region.code);
  if (isHeldHead(head)) return { kind: "held", target: { ...target, heads: [head] } };
  const provision = provisionOf(ctx, indicator, target.region);
  if (!provision) throw await notFetchable(ctx, indicator, target.region);
  return { kind: "not-held", provision };
}

/** How to provision a stored series found not held, or null when this context cannot (no provisioning, no connector). */
export function provisionOf(ctx: ReadContext, indicator: IndicatorRow, region: RegionRow): Provision | null {
  const p = ctx.provisioning;
  if (!canProvision(p, indicator, region)) return null;
  return {
    indicator,
    region,
    start: (caller) => notHeld(ctx, { ...p, caller: () => caller }, ctx.now(), indicator, region),
  };
}

/** The target with its heads, where a series not held is a 404 (a read that does not provision: ask, briefings, pages). */
export async function heldTarget<T extends SeriesTarget>(ctx: ReadContext, target: T): Promise<T & { heads: Heads }> {
  const r = await readable({ ...ctx, provisioning: undefined }, target);
  if (r.kind === "held") return r.target;
  throw await notFetchable(ctx, r.provision.indicator, r.provision.region);
}

export function targetCode(t: SeriesTarget): string {
  return t.kind === "stored" ? t.indicator.code : t.code;
}

/** Whether the series reads premium data (src/pricing.ts isPremiumIndicator: a derived concept through its inputs). */
export function targetPremium(t: SeriesTarget): boolean {
  return t.kind === "stored" ? isPremiumIndicator(t.indicator) : t.inputs.some((i) => isPremiumIndicator(i.indicator));
}

/** A read of the series through `surface`, for the admission core's entitlement. */
export function seriesRead(t: SeriesTarget, surface: Surface): Read {
  return { indicator: targetCode(t), region: t.region.code, premium: targetPremium(t), surface };
}

// ---------------------------------------------------------------------------------------------------------------
// Whole-series data

type BaseRow = StoredObservation;
/** `id` names the data and its version(s): `s:<series id>@<version>` or `c:<concept>|<region>|<input versions>`. */
/** `newest`: the newest period with a value (src/domain/freshness.ts), null without one. */
export type SeriesData = {
  id: string;
  rows: BaseRow[];
  points: Point[];
  memo: BoundedCache<string, unknown>;
  unit: string | null;
  source: string | null;
  newest: string | null;
};

/** Derived concepts computed from their inputs' versions, by concept, region and input versions. */
const COMPUTED_CONCEPTS = "observations.computed-concepts";

async function inputHeads(ctx: ReadContext, target: DerivedConceptTarget): Promise<SeriesHead[]> {
  const heads = await ctx.caches.series.headsOf(
    target.inputs.map((i) => ({ indicatorId: i.indicator.id, regionCode: target.region.code })),
  );
  const missing = heads.findIndex((h) => !isHeldHead(h));
  if (missing >= 0) {
    const input = target.inputs[missing];
    fail(
      "RESOURCE_NOT_FOUND",
      blockedInputMessage(
        target.code,
        { role: input.role, indicators: [input.indicator.code] },
        await regionLabel(ctx, target.region),
      ),
      {
        concept: target.code,
        blocking_input: input.role,
        input_indicator: input.indicator.code,
        region: target.region.code,
      },
    );
  }
  return heads as SeriesHead[];
}

/** The date of the newest row with a value (rows in date order). */
export function newestValued(rows: readonly { date: string; value: number | null }[]): string | null {
  for (let k = rows.length - 1; k >= 0; k--) if (rows[k].value !== null) return rows[k].date;
  return null;
}

/** How current the data read are, as of the context's clock (src/domain/freshness.ts). */
export function dataFreshness(
  ctx: ReadContext,
  data: Pick<SeriesData, "newest">,
  target: SeriesTarget,
): Freshness | null {
  return freshnessAt(data.newest, target.frequency, ctx.now());
}

/** The whole series at `target.heads` (found at resolve), or, for a target without them, at the heads read now (held only). */
export async function seriesData(ctx: ReadContext, target: SeriesTarget & { heads?: Heads }): Promise<SeriesData> {
  const heads = target.heads ?? (await heldTarget(ctx, target)).heads;
  if (target.kind === "stored") {
    const snap = await ctx.caches.series.snapshot(heads[0]!);
    return {
      id: `s:${seriesVersionKey(snap.head)}`,
      rows: snap.rows,
      points: snap.points,
      memo: snap.memo,
      unit: target.indicator.unit,
      source: target.indicator.sourceSlug,
      newest: newestValued(snap.rows),
    };
  }
  const key = `${target.code}|${target.region.code}|${seriesVersionsKey(heads)}`;
  const memo = ctx.caches.memos.of<SeriesData>(COMPUTED_CONCEPTS);
  const hit = memo.get(key);
  if (hit) return hit;
  const snaps = await Promise.all(heads.map((h) => ctx.caches.series.snapshot(h)));
  const byRole: Record<string, readonly Point[]> = {};
  // Inputs held at different frequencies (a state's monthly employed beside its annual labour force) are first averaged
  // to the coarsest one, over complete buckets, so the combination compares like periods.
  target.inputs.forEach((i, k) => (byRole[i.role] = alignTo(snaps[k].points, i.frequency, target.frequency)));
  const points = target.concept.combine(byRole, target.frequency);
  // Row metadata of a computed value: the newest revision and source update among the input rows it used (every row of
  // an input's period, when that input was averaged to a coarser frequency).
  const unit = FREQUENCY_UNIT[target.frequency];
  const meta = new Map<number, { revision: number; sourceUpdatedAt: Date | null }>();
  for (const snap of snaps) {
    for (const r of snap.rows) {
      const idx = periodIndex(r.date, unit);
      const m = meta.get(idx) ?? { revision: 0, sourceUpdatedAt: null };
      if (r.revision > m.revision) m.revision = r.revision;
      if (r.sourceUpdatedAt && (!m.sourceUpdatedAt || r.sourceUpdatedAt > m.sourceUpdatedAt))
        m.sourceUpdatedAt = r.sourceUpdatedAt;
      meta.set(idx, m);
    }
  }
  const rows: BaseRow[] = points.map((p) => {
    const m = meta.get(periodIndex(p.date, unit));
    return {
      date: p.date,
      value: p.value,
      revision: m?.revision ?? 0,
      isPreliminary: !!p.preliminary,
      sourceUpdatedAt: m?.sourceUpdatedAt ?? null,
    };
  });
  const data: SeriesData = {
    id: `c:${key}`,
    rows,
    points,
    memo: new BoundedCache(CACHE_BOUNDS.seriesViews),
    unit: target.unit,
    source: "svc",
    newest: newestValued(rows),
  };
  memo.set(key, data);
  return data;
}

// ---------------------------------------------------------------------------------------------------------------
// Views: the whole series after resampling and transform, as response rows (memoised per series version)

/** A domain RuleError as a 400 INVALID_PARAMETER; anything else rethrown. */
export function rule(e: unknown): never {
  if (e instanceof RuleError) fail("INVALID_PARAMETER", e.message, e.details);
  throw e;
}

/** What a view is of: a series with the transform asked for. */
export type ViewTarget = SeriesTarget & { transformSpec: Transform | null };
/** What a view (and a page of it, observations.ts) depends on in the query (GET /v1/observations's, as its schema outputs it). */
export type ViewQuery = Pick<
  z.output<typeof observationsQuerySchema>,
  "frequency" | "resample_method" | "start_date" | "end_date" | "order" | "limit" | "offset"
>;

type NativeView = { kind: "native"; rows: ObservationRow[]; dates: string[]; unit: string | null };
type BucketView = {
  kind: "buckets";
  rows: ResampledRow[];
  starts: string[];
  ends: string[];
  unit: string | null;
  resample: ResampleMeta;
};
export type View = NativeView | BucketView;

/** Rows as a page shows them, with `values` in place of theirs when given (a transform's). One loop, no call a row. */
export function observationRows(
  rows: readonly BaseRow[],
  values: readonly (number | null)[] | null,
  code: string,
  region: string,
  unit: string | null,
  source: string | null,
): ObservationRow[] {
  const out = new Array<ObservationRow>(rows.length);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    const at = r.sourceUpdatedAt;
    out[k] = {
      date: r.date,
      value: values ? values[k]! : r.value,
      indicator: code,
      region,
      unit,
      source,
      source_updated_at: at ? at.toISOString() : null,
      is_preliminary: r.isPreliminary,
      revision: r.revision,
    };
  }
  return out;
}

function buildView(data: SeriesData, target: ViewTarget, q: ViewQuery): View {
  const t = target.transformSpec;
  const unit = t ? transformedUnit(t, data.unit) : data.unit;
  if (!q.frequency) {
    const values = t ? applyTransform(data.points, t, target.frequency).map((p) => p.value) : null;
    const dates = new Array<string>(data.rows.length);
    for (let k = 0; k < dates.length; k++) dates[k] = data.rows[k]!.date;
    return {
      kind: "native",
      rows: observationRows(data.rows, values, targetCode(target), target.region.code, unit, data.source),
      dates,
      unit,
    };
  }
  const res = resample(data.points, target.frequency, q.frequency, q.resample_method);
  let values: (number | null)[] = res.buckets.map((b) => b.value);
  if (t) values = applyTransform(bucketsAsPoints(res.buckets), t, q.frequency, { resampled: true }).map((p) => p.value);
  const rows = res.buckets.map(
    (b: Bucket, k): ResampledRow => ({
      period_start: b.period_start,
      period_end: b.period_end,
      period_type: b.period_type,
      value: values[k],
    }),
  );
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
export function viewKey(target: ViewTarget, q: ViewQuery): string {
  return `view|${target.region.code}|${targetCode(target)}|${q.frequency ?? ""}|${q.frequency ? q.resample_method : ""}|${target.transformSpec ? formatTransform(target.transformSpec) : ""}`;
}

/** The view of `data` under `key` (viewKey), built on first use: a few per series version, bounded (CACHE_BOUNDS.seriesViews). */
export function viewOf(data: SeriesData, target: ViewTarget, q: ViewQuery, key: string): View {
  const hit = data.memo.get(key) as View | undefined;
  if (hit) return hit;
  let view: View;
  try {
    view = buildView(data, target, q);
  } catch (e) {
    rule(e);
  }
  data.memo.set(key, view);
  return view;
}
