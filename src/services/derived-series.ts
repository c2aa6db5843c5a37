// Derived original series (svc:*): computed from their input series (src/domain/derived.ts) and stored through the
// one write path, so they keep revisions like any other series (a changed input value becomes a new revision of
// the derived value, an unchanged recomputation writes nothing).
//
// When they are recomputed:
// - on read: before a svc: series is read, its inputs' versions are compared with those it was last derived from
//   in this process; if any moved (or this process has not derived it yet) it is recomputed first. A read
//   therefore never serves a derived value older than its inputs.
// - in bulk: `svc derive` (deriveAll) recomputes every svc: series for every place whose inputs are held; run it
//   after imports and seeds so the series exist (and are listed) before anyone reads them.
// - after a refresh (deriveChanged): only the svc: series fed by the series that changed; a same-place input
//   recomputes that place, an input read at a fixed region (the national rate) every place.
import type { SeriesHead } from "../../db/repos/observation-reads";
import { findSeriesHeadsForIndicator } from "../../db/repos/observation-reads";
import { writeSeriesObservations } from "../../db/repos/observations";
import { isFrequency, type Frequency } from "../domain/calendar";
import { DERIVED_SERIES, type DerivedInput, type DerivedInputData } from "../domain/derived";
import { blockedInputMessage } from "../domain/concepts";
import { fail } from "../errors";
import { findIndicator, isPerRegion, regionLabel, type IndicatorRow } from "./concepts";
import { regionIndex, type RegionRow } from "./regions";
import type { Store } from "./caches";
import { seriesVersionsKey } from "./series-cache";

export type DeriveContext = Store & { now: () => Date };

type ResolvedInput = { spec: DerivedInput; indicator: IndicatorRow; regionCode: string };

// (svc indicator id | region) -> the input signature it was last derived from, and the recomputations under way.
const DERIVED_FROM = "derived-series.from";
const RUNNING = "derived-series.running";

export function isDerivedIndicator(i: IndicatorRow): boolean {
  return i.code.startsWith("svc:") && Object.hasOwn(DERIVED_SERIES, i.code);
}

async function resolveInputs(store: Store, svc: IndicatorRow, region: RegionRow): Promise<ResolvedInput[]> {
  const spec = DERIVED_SERIES[svc.code];
  const inputs = spec?.inputsFor(region.type);
  if (!spec || !inputs) fail("RESOURCE_NOT_FOUND", `${svc.code} is not computed for ${region.type} regions.`, { indicator: svc.code, region: region.code });
  const out: ResolvedInput[] = [];
  for (const i of inputs) {
    const indicator = await findIndicator(store, i.code, i.source);
    if (!indicator) throw new Error(`derived series ${svc.code}: input ${i.source}:${i.code} is not in the catalog`);
    out.push({ spec: i, indicator, regionCode: i.region === "same" ? region.code : i.region });
  }
  return out;
}

/**
 * Makes sure the stored svc: series for the place reflects its inputs' current versions (recomputing and writing
 * when not). A missing input is a 404 naming it.
 */
export async function ensureDerived(ctx: DeriveContext, svc: IndicatorRow, region: RegionRow): Promise<void> {
  const inputs = await resolveInputs(ctx, svc, region);
  const heads = await ctx.caches.series.headsOf(inputs.map((i) => ({ indicatorId: i.indicator.id, regionCode: i.regionCode })));
  const missing = inputs.findIndex((_, k) => !heads[k] || heads[k]!.observationCount === 0);
  if (missing >= 0) {
    const m = inputs[missing];
    const where = m.regionCode === region.code ? await regionLabel(ctx, region) : m.regionCode;
    fail("RESOURCE_NOT_FOUND", blockedInputMessage(svc.code, { role: m.spec.role, indicators: [m.indicator.code] }, where), {
      indicator: svc.code,
      region: region.code,
      blocking_input: m.spec.role,
      input_indicator: m.indicator.code,
      input_region: m.regionCode,
    });
  }
  const signature = seriesVersionsKey(heads as SeriesHead[]);
  const key = `${svc.id}|${region.code}`;
  const memo = ctx.caches.memos.of<string>(DERIVED_FROM);
  if (memo.get(key) === signature) return;
  const runs = ctx.caches.memos.of<Promise<void>>(RUNNING);
  const runKey = `${key}#${signature}`;
  let run = runs.get(runKey);
  if (!run) {
    run = recompute(ctx, svc, region, inputs, heads as SeriesHead[])
      .then(() => void memo.set(key, signature))
      .finally(() => runs.delete(runKey));
    runs.set(runKey, run);
  }
  await run;
}

async function recompute(ctx: DeriveContext, svc: IndicatorRow, region: RegionRow, inputs: ResolvedInput[], heads: SeriesHead[]) {
  const data: Record<string, DerivedInputData> = {};
  let sourceUpdatedAt: Date | null = null;
  for (let k = 0; k < inputs.length; k++) {
    const snap = await ctx.caches.series.snapshot(heads[k]);
    data[inputs[k].spec.role] = { points: snap.points, frequency: frequencyOf(inputs[k].indicator) };
    for (const r of snap.rows) if (r.sourceUpdatedAt && (!sourceUpdatedAt || r.sourceUpdatedAt > sourceUpdatedAt)) sourceUpdatedAt = r.sourceUpdatedAt;
  }
  const points = DERIVED_SERIES[svc.code].compute(data, frequencyOf(svc));
  await writeSeriesObservations(ctx.db, {
    indicatorId: svc.id,
    regionCode: region.code,
    rows: points.map((p) => ({ date: p.date, value: p.value, isPreliminary: !!p.preliminary, sourceUpdatedAt })),
    now: ctx.now(),
  });
  ctx.caches.series.invalidate({ indicatorId: svc.id, regionCode: region.code });
}

function frequencyOf(i: IndicatorRow): Frequency {
  if (!isFrequency(i.frequency)) throw new Error(`indicator ${i.code} has no valid frequency`);
  return i.frequency;
}

export type DeriveSummary = { indicator: string; region: string; status: "derived" | "skipped"; reason?: string }[];

/** Recomputes every svc: series for every place whose "same place" inputs are held (the `svc derive` command). */
export async function deriveAll(ctx: DeriveContext, only?: string[]): Promise<DeriveSummary> {
  const out: DeriveSummary = [];
  const catalog = await ctx.caches.catalog.catalog();
  const regions = await regionIndex(ctx);
  const svcIndicators = [...catalog.byId.values()].filter((i) => isDerivedIndicator(i) && (!only || only.includes(i.code)));
  svcIndicators.sort((a, b) => (a.code < b.code ? -1 : 1));
  for (const svc of svcIndicators) {
    // Places: those holding the first "same place" input, of the kinds the svc series is offered for.
    const candidates = new Set<string>();
    for (const kind of svc.regionKinds) {
      const first = DERIVED_SERIES[svc.code].inputsFor(kind)?.find((i) => i.region === "same");
      if (!first) continue;
      const indicator = await findIndicator(ctx, first.code, first.source);
      if (!indicator) continue;
      for (const h of await findSeriesHeadsForIndicator(ctx.db, indicator.id)) {
        const r = regions.byCode.get(h.regionCode);
        if (r && r.type === kind && (isPerRegion(svc) || r.code === svc.defaultRegionCode)) candidates.add(r.code);
      }
    }
    for (const code of [...candidates].sort()) {
      const region = regions.byCode.get(code)!;
      try {
        await ensureDerived(ctx, svc, region);
        out.push({ indicator: svc.code, region: code, status: "derived" });
      } catch (e) {
        out.push({ indicator: svc.code, region: code, status: "skipped", reason: (e as Error).message });
      }
    }
  }
  return out;
}

/**
 * Recomputes the svc: series whose inputs are among `changed`: a changed same-place input recomputes the svc: series
 * at that place, a changed fixed-region input (e.g. the US rate every county is compared with) at every place.
 */
export async function deriveChanged(ctx: DeriveContext, changed: readonly { indicatorId: string; regionCode: string }[]): Promise<DeriveSummary> {
  if (changed.length === 0) return [];
  const out: DeriveSummary = [];
  const catalog = await ctx.caches.catalog.catalog();
  const regions = await regionIndex(ctx);
  const svcIndicators = [...catalog.byId.values()].filter(isDerivedIndicator).sort((a, b) => (a.code < b.code ? -1 : 1));
  for (const svc of svcIndicators) {
    let everywhere = false;
    const places = new Set<string>();
    for (const kind of svc.regionKinds) {
      for (const input of DERIVED_SERIES[svc.code].inputsFor(kind) ?? []) {
        const indicator = await findIndicator(ctx, input.code, input.source);
        if (!indicator) continue;
        for (const c of changed) {
          if (c.indicatorId !== indicator.id) continue;
          if (input.region !== "same") everywhere ||= c.regionCode === input.region;
          else if (regions.byCode.get(c.regionCode)?.type === kind && (isPerRegion(svc) || c.regionCode === svc.defaultRegionCode)) places.add(c.regionCode);
        }
      }
    }
    if (everywhere) {
      out.push(...(await deriveAll(ctx, [svc.code])));
      continue;
    }
    for (const code of [...places].sort()) {
      try {
        await ensureDerived(ctx, svc, regions.byCode.get(code)!);
        out.push({ indicator: svc.code, region: code, status: "derived" });
      } catch (e) {
        out.push({ indicator: svc.code, region: code, status: "skipped", reason: (e as Error).message });
      }
    }
  }
  return out;
}
