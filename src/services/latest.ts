// GET /v1/observations/latest: the newest valued observation of one series, or of up to 20 at a flat price (batch:
// each code resolved, entitled and read on its own, so one bad code never fails the others).
import {
  isHeldHead,
  readLatestPerSeries,
  type SeriesHead,
  type StoredObservation,
} from "../../db/repos/observation-reads";
import { FREQUENCY_UNIT, periodEnd, type Frequency } from "../domain/calendar";
import { ApiError, type ErrorCode } from "../errors";
import {
  regionLabel,
  resolveSeriesTarget,
  type DerivedConceptTarget,
  type SeriesTarget,
  type StoredTarget,
} from "./concepts";
import { notFetchable, type NotHeld } from "./provisioning";
import { isDerivedIndicator } from "./derived-series";
import {
  dataFreshness,
  provisionOf,
  readable,
  seriesData,
  targetCode,
  type Heads,
  type Provision,
  type ReadContext,
} from "./series-read";
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
export async function getLatest(
  ctx: ReadContext,
  target: SeriesTarget & { heads?: Heads },
): Promise<LatestObservation | null> {
  return (await getLatestAnswer(ctx, target)).data;
}

/** getLatest and how current the series is (the single form's meta.freshness). */
export async function getLatestAnswer(
  ctx: ReadContext,
  target: SeriesTarget & { heads?: Heads },
): Promise<{ data: LatestObservation | null; freshness: Freshness | null }> {
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

export type BatchError = {
  indicator: string;
  code: "INVALID_PARAMETER" | "RESOURCE_NOT_FOUND" | "CATEGORY_NOT_ALLOWED";
  message: string;
  details?: Record<string, unknown>;
};

/**
 * How a resolved code of a batch reads: at its heads; not at all (a 404 that depends on data, reported after the
 * caller's entitlement, so a code the caller may not read is reported as refused); or not held yet, its provisioning
 * the `index`-th of the batch's provisions (started by the paid pipeline before admission).
 */
export type BatchRead =
  | { kind: "held"; heads: Heads }
  | { kind: "unreadable"; error: BatchError }
  | { kind: "not-held"; index: number };

/** A batch resolved: each code's series and how it reads, or its error (a bad or unknown code never fails the others). */
export type LatestBatch = {
  codes: string[];
  targets: { code: string; target: SeriesTarget; read: BatchRead }[];
  errors: BatchError[];
  provisions: Provision[];
};

/** Batch latest, before payment: every code resolved on its own, the heads of plain stored series in one statement. Reads only. */
export async function resolveLatestBatch(
  ctx: ReadContext,
  args: { codes: string[]; source?: string; region?: string },
): Promise<LatestBatch> {
  const errors: BatchError[] = [];
  const resolved: { code: string; target: SeriesTarget }[] = [];
  for (const code of args.codes) {
    try {
      resolved.push({
        code,
        target: await resolveSeriesTarget(ctx, { code, source: args.source, region: args.region }),
      });
    } catch (e) {
      errors.push(batchError(code, e));
    }
  }
  const plain = (t: SeriesTarget): t is StoredTarget => t.kind === "stored" && !isDerivedIndicator(t.indicator);
  const plainTargets = resolved.map((r) => r.target).filter(plain);
  const heads = await ctx.caches.series.headsOf(
    plainTargets.map((t) => ({ indicatorId: t.indicator.id, regionCode: t.region.code })),
  );
  const provisions: Provision[] = [];
  const targets: LatestBatch["targets"] = [];
  for (const { code, target } of resolved) {
    targets.push({
      code,
      target,
      read: await batchRead(
        ctx,
        code,
        target,
        plain(target) ? heads[plainTargets.indexOf(target)]! : undefined,
        provisions,
      ),
    });
  }
  return { codes: args.codes, targets, errors, provisions };
}

/** `head`: a plain stored series' head, read with the others (null: not held). A provision found is added to `provisions`. */
async function batchRead(
  ctx: ReadContext,
  code: string,
  target: SeriesTarget,
  head: SeriesHead | null | undefined,
  provisions: Provision[],
): Promise<BatchRead> {
  if (head === undefined) {
    try {
      const found = await readable(ctx, target);
      if (found.kind === "held") return { kind: "held", heads: found.target.heads };
      provisions.push(found.provision);
      return { kind: "not-held", index: provisions.length - 1 };
    } catch (e) {
      return { kind: "unreadable", error: batchError(code, e) };
    }
  }
  if (isHeldHead(head)) return { kind: "held", heads: [head] };
  const t = target as StoredTarget;
  const provision = provisionOf(ctx, t.indicator, t.region);
  if (!provision)
    return { kind: "unreadable", error: batchError(code, await notFetchable(ctx, t.indicator, t.region)) };
  provisions.push(provision);
  return { kind: "not-held", index: provisions.length - 1 };
}

/**
 * Batch latest: the latest of every resolved series. `refused`, per target (the admission core's entitlement of each
 * read: premium data, region restriction), the refusal of one the caller may not read, reported in errors[];
 * `started`, what starting each of the batch's provisions gave (a series fetched meanwhile is served).
 */
export async function getLatestBatch(
  ctx: ReadContext,
  batch: LatestBatch,
  refused: readonly ({ code: ErrorCode; message: string; details?: Record<string, unknown> } | null)[],
  started: readonly NotHeld[],
): Promise<{ data: LatestObservation[]; errors: BatchError[] }> {
  const args = { codes: batch.codes };
  const errors = [...batch.errors];
  const stored: { code: string; target: StoredTarget; head: SeriesHead }[] = [];
  const computed: { code: string; target: DerivedConceptTarget; heads: Heads }[] = [];
  for (let k = 0; k < batch.targets.length; k++) {
    const t = batch.targets[k]!;
    const r = refused[k];
    // Both refusals are reported as CATEGORY_NOT_ALLOWED, the one refusal code of the batch form (spec); a region
    // refusal says so in details.reason (REGION_NOT_ALLOWED, the single form's code) and names the region.
    if (r) {
      errors.push({
        indicator: t.code,
        code: "CATEGORY_NOT_ALLOWED",
        message: r.message,
        details: batchRefusalDetails(r, t.target),
      });
      continue;
    }
    let heads: Heads;
    if (t.read.kind === "unreadable") {
      errors.push(t.read.error);
      continue;
    } else if (t.read.kind === "not-held") {
      const outcome = started[t.read.index]!;
      if (outcome.kind !== "held") {
        errors.push(await notHeldError(ctx, t.code, t.target, outcome));
        continue;
      }
      heads = [outcome.head];
    } else heads = t.read.heads;
    if (t.target.kind === "stored") stored.push({ code: t.code, target: t.target, head: heads[0]! });
    else computed.push({ code: t.code, target: t.target, heads });
  }
  // Stored series: the cached ones answer from memory, the rest in ONE latest-per-series query.
  const results = new Map<string, LatestObservation | null>();
  const toQuery: number[] = [];
  for (let k = 0; k < stored.length; k++) {
    const { code, target, head } = stored[k]!;
    const rendered = renderedLatest(ctx, head);
    if (rendered !== undefined) {
      results.set(code, rendered);
      continue;
    }
    const snap = ctx.caches.series.peek(head);
    const known = snap ? lastValued(snap.rows) : ctx.caches.series.latestOf(head);
    if (known !== undefined)
      results.set(code, rememberRendered(ctx, head, known ? toLatest(target, known, target.indicator.unit) : null));
    else toQuery.push(k);
  }
  if (toQuery.length > 0) {
    const latest = await readLatestPerSeries(
      ctx.db,
      toQuery.map((k) => stored[k]!.head.id),
    );
    for (const k of toQuery) {
      const { code, target, head } = stored[k]!;
      const r = latest.get(head.id) ?? null;
      ctx.caches.series.rememberLatest(head, r);
      results.set(code, rememberRendered(ctx, head, r ? toLatest(target, r, target.indicator.unit) : null));
    }
  }
  for (const t of computed) {
    try {
      results.set(t.code, await getLatest(ctx, { ...t.target, heads: t.heads }));
    } catch (e) {
      errors.push(batchError(t.code, e));
    }
  }
  // Data in request order; a held series with no valued observation contributes nothing (it is not an error).
  const data: LatestObservation[] = [];
  for (const code of args.codes) {
    const r = results.get(code);
    const t = batch.targets.find((x) => x.code === code);
    const f = r && t ? dataFreshness(ctx, { newest: r.period_start }, t.target) : null;
    // The rendered observation is shared and frozen; its freshness depends on the day, so it is added to a copy.
    if (r) data.push(f ? { ...r, freshness: f } : r);
  }
  errors.sort((a, b) => args.codes.indexOf(a.indicator) - args.codes.indexOf(b.indicator));
  return { data, errors };
}

function batchRefusalDetails(
  refused: { code: ErrorCode; details?: Record<string, unknown> },
  target: SeriesTarget,
): Record<string, unknown> {
  if (refused.code === "CATEGORY_NOT_ALLOWED") return { ...refused.details };
  return { ...refused.details, reason: refused.code, region: target.region.code };
}

/**
 * A code whose series is offered but not held, once its provisioning was started (or joined) as for a single read:
 * a per-code RESOURCE_NOT_FOUND carrying the provisioning body in details.provisioning; a series whose provisioning
 * was refused (its upstream gave up, the budget) is reported with that answer's message and details.
 */
async function notHeldError(
  ctx: ReadContext,
  code: string,
  target: SeriesTarget,
  outcome: Exclude<NotHeld, { kind: "held" }>,
): Promise<BatchError> {
  if (outcome.kind === "refused")
    return {
      indicator: code,
      code: "RESOURCE_NOT_FOUND",
      message: outcome.error.message,
      ...(outcome.error.details ? { details: outcome.error.details } : {}),
    };
  const b = outcome.body;
  return {
    indicator: code,
    code: "RESOURCE_NOT_FOUND",
    message: `Not held yet: '${b.indicator}' for ${await regionLabel(ctx, target.region)} is being fetched from its upstream (provisioning ${b.request_ref}); ask again in ${b.retry_after_seconds} s.`,
    details: { indicator: b.indicator, region: b.region, held: false, provisioning: b },
  };
}

function batchError(indicator: string, e: unknown): BatchError {
  if (
    e instanceof ApiError &&
    (e.code === "INVALID_PARAMETER" || e.code === "RESOURCE_NOT_FOUND" || e.code === "CATEGORY_NOT_ALLOWED")
  ) {
    return { indicator, code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
  }
  throw e;
}
