// Signal detection over held series (src/domain/signals.ts), stored as intervals (db/repos/signals.ts).
//
// detectChangedSeries(ctx) is what runs after a series changes (any write: the database records it in series_changes,
// and the `detect` job drains that, src/jobs/runtime.ts); detectSignalsFor(store, [{ indicatorId, regionCode }])
// does the work for given series: it reads each series whole, detects every interval, and reconciles the stored
// intervals with them. One pass per series, in batches of BATCH series: one query for the batch's observations, one
// for its stored intervals, one transaction for its writes (no per-observation or per-series query). Re-running on unchanged data
// writes nothing; a new observation extends or closes open intervals, a direction flip closes one and opens the next.
// Series that are not held (no row, or no observation) are skipped; so are indicators not in the catalog. The
// detectors run on the compute pool (ctx.caches.compute: a worker thread in the server), a batch at a time.
import type { DetectionSummary } from "../ports";
import {
  findSeriesHeads,
  findSeriesHeadsForIndicator,
  isHeldHead,
  readLatestObservationsMany,
  type SeriesHead,
} from "../../db/repos/observation-reads";
import { applyIntervalChanges, intervalsOfSeries, type IntervalChanges, type SignalRow } from "../../db/repos/signals";
import { clearSeriesChanges, pendingSeriesChanges, pendingSeriesChangesOf } from "../../db/repos/series-changes";
import { isFrequency } from "../domain/calendar";
import { isRateUnit } from "../domain/prose";
import { type Episode, type SeriesProfile, type SeriesToDetect, type StoredEpisode } from "../domain/signals";
import type { IndicatorRow } from "../../db/repos/catalog";
import type { Store } from "./caches";

/** The store and the clock that stamps detected_at and last_seen_at. */
export type { DetectionSummary };
export type DetectionContext = Store & { now: () => Date };
export type SeriesRef = { indicatorId: string; regionCode: string };

const BATCH = 200;

/** Detects and stores the signal intervals of the given series (see the file comment). */
export async function detectSignalsFor(ctx: DetectionContext, refs: readonly SeriesRef[]): Promise<DetectionSummary> {
  const summary: DetectionSummary = { series: 0, observations: 0, inserted: 0, updated: 0, removed: 0, unchanged: 0 };
  const unique = [...new Map(refs.map((r) => [`${r.indicatorId}|${r.regionCode}`, r])).values()];
  for (let i = 0; i < unique.length; i += BATCH) {
    const heads = await findSeriesHeads(ctx.db, unique.slice(i, i + BATCH));
    await detectBatch(ctx, heads, summary);
  }
  return summary;
}

/**
 * Detection for every series written since it last ran (the series_changes outbox, filled by the database on every
 * write, by any process): in batches of BATCH series, oldest change first, each batch cleared once detected (a series
 * written again meanwhile stays, and is taken by a later batch of the same run), until the outbox is empty.
 * `onSeries` is called after each series is detected (the seed worker collects garbage as detection goes).
 */
export async function detectChangedSeries(ctx: DetectionContext, onSeries?: () => void): Promise<DetectionSummary> {
  const summary: DetectionSummary = { series: 0, observations: 0, inserted: 0, updated: 0, removed: 0, unchanged: 0 };
  for (;;) {
    const batch = await pendingSeriesChanges(ctx.db, BATCH);
    if (batch.length === 0) return summary;
    await detectBatch(ctx, await findSeriesHeads(ctx.db, batch), summary, onSeries);
    await clearSeriesChanges(ctx.db, batch);
  }
}

/** Every held series of the indicators (all indicators when `indicatorIds` is omitted). */
export async function detectSignalsForIndicators(
  ctx: DetectionContext,
  indicatorIds?: readonly string[],
): Promise<DetectionSummary> {
  const ids = indicatorIds ?? [...(await ctx.caches.catalog.catalog()).byId.keys()];
  const summary: DetectionSummary = { series: 0, observations: 0, inserted: 0, updated: 0, removed: 0, unchanged: 0 };
  for (const id of ids) {
    // The indicator's series waiting in the outbox are detected by this pass too: read before the heads, their rows are
    // cleared after it (a write meanwhile moves its row's seq, and that row stays for the detect job).
    const pending = await pendingSeriesChangesOf(ctx.db, id);
    const heads = await findSeriesHeadsForIndicator(ctx.db, id);
    for (let i = 0; i < heads.length; i += BATCH) await detectBatch(ctx, heads.slice(i, i + BATCH), summary);
    await clearSeriesChanges(ctx.db, pending);
  }
  return summary;
}

/** The detectors' view of a catalog entry. */
export function seriesProfile(
  i: Pick<IndicatorRow, "code" | "sourceSlug" | "unit" | "frequency" | "meta">,
): SeriesProfile | null {
  if (!isFrequency(i.frequency)) return null;
  const upstream = (i.meta as { upstream?: { seasonal_adjustment?: unknown } }).upstream;
  return {
    code: i.code,
    source: i.sourceSlug,
    unit: i.unit,
    frequency: i.frequency,
    seasonalAdjustment: typeof upstream?.seasonal_adjustment === "string" ? upstream.seasonal_adjustment : null,
    additive: isRateUnit(i.unit),
  };
}

const toTimestamp = (date: string) => new Date(`${date}T00:00:00.000Z`);
const toDate = (t: Date) => t.toISOString().slice(0, 10);

function storedEpisode(r: SignalRow): StoredEpisode {
  return {
    id: r.id,
    type: r.type,
    direction: (r.direction ?? "up") as Episode["direction"],
    strength: r.strength,
    validFrom: toDate(r.validFrom),
    validTo: r.validTo ? toDate(r.validTo) : null,
    evidence: r.evidence,
  };
}

async function detectBatch(
  ctx: DetectionContext,
  heads: readonly SeriesHead[],
  summary: DetectionSummary,
  onSeries?: () => void,
): Promise<void> {
  const held = heads.filter(isHeldHead);
  if (held.length === 0) return;
  const catalog = await ctx.caches.catalog.catalog();
  const [observations, stored] = await Promise.all([
    readLatestObservationsMany(
      ctx.db,
      held.map((h) => h.id),
    ),
    intervalsOfSeries(ctx.db, held),
  ]);
  const storedBySeries = new Map<string, StoredEpisode[]>();
  for (const r of stored) {
    const k = `${r.indicatorId}|${r.regionCode}`;
    const list = storedBySeries.get(k) ?? [];
    list.push(storedEpisode(r));
    storedBySeries.set(k, list);
  }
  const batch: { head: SeriesHead; item: SeriesToDetect }[] = [];
  for (const h of held) {
    const indicator = catalog.byId.get(h.indicatorId);
    const profile = indicator ? seriesProfile(indicator) : null;
    if (!profile) continue;
    batch.push({
      head: h,
      item: {
        points: observations.get(h.id) ?? [],
        profile,
        stored: storedBySeries.get(`${h.indicatorId}|${h.regionCode}`) ?? [],
      },
    });
  }
  if (batch.length === 0) return;
  // The detectors' CPU runs on the compute pool: this thread (the server's, which answers requests) only waits.
  const diffs = await ctx.caches.compute.run(
    "detectSignals",
    batch.map((b) => b.item),
  );
  const now = ctx.now();
  const changes: IntervalChanges = { inserts: [], updates: [], deletes: [] };
  batch.forEach(({ head: h, item }, k) => {
    const diff = diffs[k]!;
    summary.series++;
    summary.observations += item.points.length;
    for (const e of diff.insert) {
      changes.inserts.push({
        indicatorId: h.indicatorId,
        regionCode: h.regionCode,
        type: e.type,
        direction: e.direction,
        strength: e.strength,
        validFrom: toTimestamp(e.validFrom),
        validTo: e.validTo ? toTimestamp(e.validTo) : null,
        detectedAt: now,
        lastSeenAt: now,
        evidence: e.evidence,
      });
    }
    for (const u of diff.update) {
      const e = u.episode;
      changes.updates.push({
        id: u.id,
        set: {
          direction: e.direction,
          strength: e.strength,
          validTo: e.validTo ? toTimestamp(e.validTo) : null,
          evidence: e.evidence,
          lastSeenAt: now,
        },
      });
    }
    changes.deletes.push(...diff.remove);
    summary.inserted += diff.insert.length;
    summary.updated += diff.update.length;
    summary.removed += diff.remove.length;
    summary.unchanged += diff.unchanged;
    onSeries?.();
  });
  await applyIntervalChanges(ctx.db, changes);
}
