// GET /v1/observations/latest: the newest valued observation of one series, or of up to 20 at a flat price (batch:
// each code resolved, entitled and read on its own, so one bad code never fails the others).
import { isHeldHead, readLatestPerSeries, type SeriesHead, type StoredObservation } from "../../db/repos/observation-reads";
import { FREQUENCY_UNIT, periodEnd, type Frequency } from "../domain/calendar";
import { ApiError, type ErrorCode } from "../errors";
import { regionLabel, resolveSeriesTarget, type SeriesTarget, type StoredTarget } from "./concepts";
import { notHeld } from "./provisioning";
import { derivedHead, isDerivedIndicator } from "./derived-series";
import { dataFreshness, seriesData, targetCode, type ReadContext } from "./series-read";
import type { Freshness } from "../domain/freshness";
import { seriesVersionKey } from "./series-cache";

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
  /** Batch form only: how current the series is (the single form says it in meta). */
  freshness?: Freshness;
};

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
const RENDERED_LATEST = "latest.rendered";

function renderedLatest(ctx: ReadContext, head: SeriesHead): LatestObservation | null | undefined {
  return ctx.caches.memos.of<LatestObservation | null>(RENDERED_LATEST).get(seriesVersionKey(head));
}

function rememberRendered(ctx: ReadContext, head: SeriesHead, obs: LatestObservation | null): LatestObservation | null {
  const memo = ctx.caches.memos.of<LatestObservation | null>(RENDERED_LATEST);
  const frozen = obs ? Object.freeze(obs) : null;
  memo.set(seriesVersionKey(head), frozen);
  return frozen;
}

/** The newest observation with a value, or null when the held series has none. */
export async function getLatest(ctx: ReadContext, target: SeriesTarget): Promise<LatestObservation | null> {
  return (await getLatestAnswer(ctx, target)).data;
}

/** getLatest and how current the series is (the single form's meta.freshness). */
export async function getLatestAnswer(ctx: ReadContext, target: SeriesTarget): Promise<{ data: LatestObservation | null; freshness: Freshness | null }> {
  const data = await seriesData(ctx, target);
  const r = lastValued(data.rows);
  return { data: r ? toLatest(target, r, unitOf(target)) : null, freshness: dataFreshness(ctx, data, target) };
}

export function latestMeta(target: SeriesTarget, found: boolean, freshness: Freshness | null = null) {
  const concept = target.kind === "stored" ? target.concept : target.disclosure;
  return {
    indicator: targetCode(target),
    region: target.region.code,
    unit: unitOf(target),
    total: found ? 1 : 0,
    limit: 1,
    offset: 0,
    resolved_region: target.resolvedRegion,
    ...(concept ? { concept } : {}),
    ...(freshness ? { freshness } : {}),
  };
}

export type BatchError = { indicator: string; code: "INVALID_PARAMETER" | "RESOURCE_NOT_FOUND" | "CATEGORY_NOT_ALLOWED"; message: string; details?: Record<string, unknown> };

/** A batch resolved: each code's series, or its error (a bad or unknown code never fails the others). */
export type LatestBatch = { codes: string[]; targets: { code: string; target: SeriesTarget }[]; errors: BatchError[] };

/** Batch latest, before payment: every code resolved on its own. */
export async function resolveLatestBatch(ctx: ReadContext, args: { codes: string[]; source?: string; region?: string }): Promise<LatestBatch> {
  const errors: BatchError[] = [];
  const targets: { code: string; target: SeriesTarget }[] = [];
  for (const code of args.codes) {
    try {
      targets.push({ code, target: await resolveSeriesTarget(ctx, { code, source: args.source, region: args.region }) });
    } catch (e) {
      errors.push(batchError(code, e));
    }
  }
  return { codes: args.codes, targets, errors };
}

/**
 * Batch latest: the latest of every resolved series. `refused`, per target (the admission core's entitlement of each
 * read: premium data, region restriction), the refusal of one the caller may not read, reported in errors[].
 */
export async function getLatestBatch(
  ctx: ReadContext,
  batch: LatestBatch,
  refused: readonly ({ code: ErrorCode; message: string; details?: Record<string, unknown> } | null)[],
): Promise<{ data: LatestObservation[]; errors: BatchError[] }> {
  const args = { codes: batch.codes };
  const errors = [...batch.errors];
  const targets: { code: string; target: SeriesTarget }[] = [];
  batch.targets.forEach((t, k) => {
    const r = refused[k];
    // Both refusals are reported as CATEGORY_NOT_ALLOWED, the one refusal code of the batch form (spec); a region
    // refusal says so in details.reason (REGION_NOT_ALLOWED, the single form's code) and names the region.
    if (r) errors.push({ indicator: t.code, code: "CATEGORY_NOT_ALLOWED", message: r.message, details: batchRefusalDetails(r, t.target) });
    else targets.push({ ...t });
  });
  // Stored series: heads in one statement; the cached ones answer from memory, the rest in ONE latest-per-series query.
  const stored = targets.filter((t) => t.target.kind === "stored") as { code: string; target: Extract<SeriesTarget, { kind: "stored" }> }[];
  // A svc: series is checked against its inputs first (reads only): a missing input or a series not derived yet is its error.
  for (const t of stored) {
    if (!isDerivedIndicator(t.target.indicator)) continue;
    try {
      await derivedHead(ctx, t.target.indicator, t.target.region);
    } catch (e) {
      errors.push(batchError(t.code, e));
      t.code = "";
    }
  }
  const live = stored.filter((t) => t.code !== "");
  const heads = await ctx.caches.series.headsOf(live.map((t) => ({ indicatorId: t.target.indicator.id, regionCode: t.target.region.code })));
  const results = new Map<string, LatestObservation | null>();
  const toQuery: number[] = [];
  for (let k = 0; k < live.length; k++) {
    let head = heads[k];
    if (!isHeldHead(head)) {
      const notHeldNow = await notHeldError(ctx, live[k].code, live[k].target);
      if (!("head" in notHeldNow)) {
        errors.push(notHeldNow);
        continue;
      }
      head = notHeldNow.head;
    }
    const rendered = renderedLatest(ctx, head);
    if (rendered !== undefined) {
      results.set(live[k].code, rendered);
      continue;
    }
    const snap = ctx.caches.series.peek(head);
    const known = snap ? lastValued(snap.rows) : ctx.caches.series.latestOf(head);
    if (known !== undefined) results.set(live[k].code, rememberRendered(ctx, head, known ? toLatest(live[k].target, known, live[k].target.indicator.unit) : null));
    else toQuery.push(k);
  }
  if (toQuery.length > 0) {
    const latest = await readLatestPerSeries(ctx.db, toQuery.map((k) => heads[k]!.id));
    for (const k of toQuery) {
      const r = latest.get(heads[k]!.id) ?? null;
      ctx.caches.series.rememberLatest(heads[k]!, r);
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
    const t = targets.find((x) => x.code === code);
    const f = r && t ? dataFreshness(ctx, { newest: r.period_start }, t.target) : null;
    // The rendered observation is shared and frozen; its freshness depends on the day, so it is added to a copy.
    if (r) data.push(f ? { ...r, freshness: f } : r);
  }
  errors.sort((a, b) => args.codes.indexOf(a.indicator) - args.codes.indexOf(b.indicator));
  return { data, errors };
}

/**
 * A code whose series is offered but not held: its provisioning is started (or joined) as for a single read, and
 * reported as a per-code RESOURCE_NOT_FOUND carrying the provisioning body in details.provisioning; a series that
 * cannot be fetched, or whose upstream gave up, is reported with that answer's message and details.
 */
function batchRefusalDetails(refused: { code: ErrorCode; details?: Record<string, unknown> }, target: SeriesTarget): Record<string, unknown> {
  if (refused.code === "CATEGORY_NOT_ALLOWED") return { ...refused.details };
  return { ...refused.details, reason: refused.code, region: target.region.code };
}

/** The code's error, or the series' head when it turned out held (a provisioning finished meanwhile). */
async function notHeldError(ctx: ReadContext, code: string, target: StoredTarget): Promise<BatchError | { head: SeriesHead }> {
  const outcome = await notHeld(ctx, ctx.provisioning, ctx.now(), target.indicator, target.region);
  if (outcome.kind === "held") return { head: outcome.head };
  if (outcome.kind === "refused") return { indicator: code, code: "RESOURCE_NOT_FOUND", message: outcome.error.message, ...(outcome.error.details ? { details: outcome.error.details } : {}) };
  const b = outcome.body;
  return {
    indicator: code,
    code: "RESOURCE_NOT_FOUND",
    message: `Not held yet: '${b.indicator}' for ${await regionLabel(ctx, target.region)} is being fetched from its upstream (provisioning ${b.request_ref}); ask again in ${b.retry_after_seconds} s.`,
    details: { indicator: b.indicator, region: b.region, held: false, provisioning: b },
  };
}

function batchError(indicator: string, e: unknown): BatchError {
  if (e instanceof ApiError && (e.code === "INVALID_PARAMETER" || e.code === "RESOURCE_NOT_FOUND" || e.code === "CATEGORY_NOT_ALLOWED")) {
    return { indicator, code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
  }
  throw e;
}
