// Ingest use case: fetch catalog series from their upstream providers and store them through the one write path
// (db/repos/observations.ts writeManySeries), so a fetch follows the same revision rules as every other writer: a
// new date is inserted, a changed value (or preliminary flag) for a stored date becomes a new revision, an unchanged
// one writes nothing. Used by `svc ingest`, provisioning and scheduled refresh.
//
// Targets are grouped by connector and handed to it in its batch size (BLS: 50 series per query with a key), so a
// whole indicator across every county costs a few requests per batch, and each batch is written in one transaction.
// An upstream failure fails the series of its batch and writes none of them; other batches go on. A failure that is
// not the upstream's (the database) is thrown.
import type { Db } from "../../db/client";
import type { IndicatorRow } from "../../db/repos/catalog";
import type { RegionRow } from "../../db/repos/regions";
import { ObservationInputError, writeManySeries, type SeriesWrite } from "../../db/repos/observations";
import type { Clock } from "../ports";
import { silentProgress, type Progress } from "../progress";
import { UpstreamError, type DateRange, type FetchedSeries, type SeriesRef, type UpstreamRegistry } from "../upstream";

export type IngestContext = { db: Db; upstream: UpstreamRegistry; clock: Clock };

export type IngestTarget = {
  indicator: Pick<
    IndicatorRow,
    "id" | "code" | "sourceSlug" | "frequency" | "meta" | "regionKinds" | "defaultRegionCode"
  >;
  region: Pick<RegionRow, "code" | "type" | "fipsState" | "fipsCounty" | "aliases">;
};

export type SeriesIngestResult = {
  indicatorId: string;
  indicator: string;
  source: string | null;
  region: string;
  ref: SeriesRef | null;
  /** ok: fetched and written (counts say what changed); failed: see error, nothing written; unsupported: no
   * connector serves this indicator for this region. */
  status: "ok" | "failed" | "unsupported";
  /** Observations the provider returned. */
  observations: number;
  inserted: number;
  revised: number;
  unchanged: number;
  sourceUpdatedAt: string | null;
  error: UpstreamError | null;
};

export type IngestOptions = {
  /** Only these dates (a refresh of the recent past). Without it the whole history is fetched. */
  range?: DateRange;
  progress?: Progress;
  progressLabel?: string;
};

const key = (t: IngestTarget) => `${t.indicator.id}\u0000${t.region.code}`;

/** Fetches and stores each target's series; one result per target, in input order. */
export async function ingestSeries(
  ctx: IngestContext,
  targets: IngestTarget[],
  opts: IngestOptions = {},
): Promise<SeriesIngestResult[]> {
  const progress = opts.progress ?? silentProgress;
  progress.start(opts.progressLabel ?? "ingest", targets.length);
  const results = targets.map(
    (t): SeriesIngestResult => ({
      indicatorId: t.indicator.id,
      indicator: t.indicator.code,
      source: t.indicator.sourceSlug,
      region: t.region.code,
      ref: ctx.upstream.refFor(t.indicator, t.region),
      status: "unsupported",
      observations: 0,
      inserted: 0,
      revised: 0,
      unchanged: 0,
      sourceUpdatedAt: null,
      error: null,
    }),
  );
  // One fetch per series even when a target is listed twice; the duplicates share its result.
  const first = new Map<string, number>();
  const work: number[] = [];
  targets.forEach((t, i) => {
    if (!results[i].ref) return;
    if (first.has(key(t))) return;
    first.set(key(t), i);
    work.push(i);
  });
  if (work.length < targets.length) progress.tick(targets.length - work.length);

  for (const [connectorId, indexes] of Map.groupBy(work, (i) => results[i].ref!.connector)) {
    const connector = ctx.upstream.connector(connectorId);
    for (let at = 0; at < indexes.length; at += connector.batchSize) {
      const batch = indexes.slice(at, at + connector.batchSize);
      let fetched: FetchedSeries[];
      try {
        fetched = await connector.fetch(
          batch.map((i) => results[i].ref!),
          opts.range,
        );
      } catch (e) {
        if (!(e instanceof UpstreamError)) throw e;
        for (const i of batch) Object.assign(results[i], { status: "failed", error: e });
        progress.tick(batch.length);
        continue;
      }
      await writeBatch(ctx, targets, results, batch, fetched, opts.range);
      progress.tick(batch.length);
    }
  }
  targets.forEach((t, i) => {
    const j = first.get(key(t));
    if (j !== undefined && j !== i) results[i] = { ...results[j] };
  });
  progress.done();
  return results;
}

/** One series: the result when it was written or is not offered; the UpstreamError when the provider failed. */
export async function ingestOne(
  ctx: IngestContext,
  target: IngestTarget,
  opts: IngestOptions = {},
): Promise<SeriesIngestResult> {
  const [result] = await ingestSeries(ctx, [target], opts);
  if (result.status === "failed") throw result.error!;
  return result;
}

async function writeBatch(
  ctx: IngestContext,
  targets: IngestTarget[],
  results: SeriesIngestResult[],
  batch: number[],
  fetched: FetchedSeries[],
  range: DateRange | undefined,
): Promise<void> {
  let pending: { index: number; write: SeriesWrite }[] = [];
  batch.forEach((i, k) => {
    const f = fetched[k];
    const r = results[i];
    r.sourceUpdatedAt = f.sourceUpdatedAt;
    r.observations = f.observations.length;
    if (f.error) return Object.assign(r, { status: "failed", error: f.error });
    // A whole history with nothing in it is not a series we can hold; an empty refresh window is just quiet.
    if (f.observations.length === 0) {
      if (range) r.status = "ok";
      else
        Object.assign(r, {
          status: "failed",
          error: new UpstreamError({
            provider: f.ref.connector,
            kind: "not_found",
            retryable: false,
            message: `${f.ref.upstreamId}: no observations`,
          }),
        });
      return;
    }
    const updatedAt = f.sourceUpdatedAt ? new Date(f.sourceUpdatedAt) : null;
    pending.push({
      index: i,
      write: {
        indicatorId: targets[i].indicator.id,
        regionCode: targets[i].region.code,
        rows: f.observations.map((o) => ({
          date: o.date,
          value: o.value,
          isPreliminary: o.isPreliminary,
          sourceUpdatedAt: updatedAt,
        })),
      },
    });
  });
  // A series whose rows the write path refuses (a provider sending an impossible date) fails alone.
  while (pending.length > 0) {
    try {
      const written = await writeManySeries(ctx.db, { items: pending.map((p) => p.write), now: ctx.clock.now() });
      pending.forEach((p, k) =>
        Object.assign(results[p.index], {
          status: "ok",
          inserted: written[k].inserted,
          revised: written[k].revised,
          unchanged: written[k].unchanged,
        }),
      );
      return;
    } catch (e) {
      if (!(e instanceof ObservationInputError) || e.item >= pending.length) throw e;
      const bad = pending[e.item];
      const ref = results[bad.index].ref!;
      Object.assign(results[bad.index], {
        status: "failed",
        error: new UpstreamError({
          provider: ref.connector,
          kind: "protocol",
          retryable: false,
          message: `${ref.upstreamId}: ${e.message}`,
        }),
      });
      pending = pending.filter((_, k) => k !== e.item);
    }
  }
}
