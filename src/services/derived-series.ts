// Derived original series (svc:*): computed from their input series (src/domain/derived.ts) and stored through the
// one write path, so they keep revisions like any other series (a changed input value becomes a new revision of
// the derived value, an unchanged recomputation writes nothing).
//
// When they are recomputed: by the writers of their inputs, never by a read. Every path that writes input series
// derives after its write commits:
// - after a refresh (src/services/refresh.ts) and after an on-demand fetch (the provisioning job,
//   src/services/provisioning.ts): deriveChanged, only the svc: series fed by the series written; a same-place input
//   recomputes that place, an input read at a fixed region (the national rate) every place;
// - after a seed (the first start, `svc seed`), `svc import` and `svc ingest`, and on demand (`svc derive`):
//   deriveAll, every svc: series for every place whose inputs are held.
// A derivation reads its inputs' heads from the database (not a cached head another process may have moved) and, once
// written, checks them again: two writers deriving one series at once (two inputs fetched together) cannot leave it
// computed from the older versions, since the one that wrote last sees the newer versions and derives again.
//
// Reads (derivedHead) only read: the stored svc: series, after the same check of its inputs as before this rule (a
// missing input is a 404 naming it). Since every write path derives, an input held implies its svc: series is
// stored; a place whose inputs are all held but whose svc: series is not (only between an input's write and its
// derivation, or after a write outside the service's paths) is a 404 saying it is not derived yet, naming
// `svc derive`. A svc: series is thus as current as its inputs' last derivation, not recomputed per read.
import type { SeriesHead } from "../../db/repos/observation-reads";
import { findSeriesHeads, findSeriesHeadsForIndicator, isHeldHead } from "../../db/repos/observation-reads";
import { writeSeriesObservations } from "../../db/repos/observations";
import { isFrequency, type Frequency } from "../domain/calendar";
import { DERIVED_SERIES, type DerivedInput, type DerivedInputData } from "../domain/derived";
import { blockedInputMessage } from "../domain/concepts";
import { ApiError, fail } from "../errors";
import { findIndicator, isPerRegion, regionLabel, type IndicatorRow } from "./concepts";
import { regionIndex, type RegionRow } from "./regions";
import type { Store } from "./caches";
import { seriesVersionsKey } from "./series-cache";

export type DeriveContext = Store & { now: () => Date };

type ResolvedInput = { spec: DerivedInput; indicator: IndicatorRow; regionCode: string };

/** Times one derivation recomputes when its inputs moved while it wrote (each later writer derives again anyway). */
const MAX_PASSES = 5;

export function isDerivedIndicator(i: IndicatorRow): boolean {
  return i.code.startsWith("svc:") && Object.hasOwn(DERIVED_SERIES, i.code);
}

async function resolveInputs(store: Store, svc: IndicatorRow, region: RegionRow): Promise<ResolvedInput[]> {
  const spec = DERIVED_SERIES[svc.code];
  const inputs = spec?.inputsFor(region.type);
  if (!spec || !inputs)
    fail("RESOURCE_NOT_FOUND", `${svc.code} is not computed for ${region.type} regions.`, {
      indicator: svc.code,
      region: region.code,
    });
  const out: ResolvedInput[] = [];
  for (const i of inputs) {
    const indicator = await findIndicator(store, i.code, i.source);
    if (!indicator) throw new Error(`derived series ${svc.code}: input ${i.source}:${i.code} is not in the catalog`);
    out.push({ spec: i, indicator, regionCode: i.region === "same" ? region.code : i.region });
  }
  return out;
}

const inputKeys = (inputs: ResolvedInput[]) =>
  inputs.map((i) => ({ indicatorId: i.indicator.id, regionCode: i.regionCode }));

/** The 404 naming the first input the place does not hold, if any. */
async function refuseMissingInput(
  store: Store,
  svc: IndicatorRow,
  region: RegionRow,
  inputs: ResolvedInput[],
  heads: (SeriesHead | null | undefined)[],
): Promise<void> {
  const missing = inputs.findIndex((_, k) => !isHeldHead(heads[k]));
  if (missing < 0) return;
  const m = inputs[missing];
  const where = m.regionCode === region.code ? await regionLabel(store, region) : m.regionCode;
  fail(
    "RESOURCE_NOT_FOUND",
    blockedInputMessage(svc.code, { role: m.spec.role, indicators: [m.indicator.code] }, where),
    {
      indicator: svc.code,
      region: region.code,
      blocking_input: m.spec.role,
      input_indicator: m.indicator.code,
      input_region: m.regionCode,
    },
  );
}

/**
 * For reads (it never writes): the stored svc: series of the place. A missing input is a 404 naming it; a place whose
 * inputs are held but whose series is not stored (not derived yet, see the file comment) is a 404 saying so.
 */
export async function derivedHead(store: Store, svc: IndicatorRow, region: RegionRow): Promise<SeriesHead> {
  const inputs = await resolveInputs(store, svc, region);
  const heads = await store.caches.series.headsOf([
    ...inputKeys(inputs),
    { indicatorId: svc.id, regionCode: region.code },
  ]);
  await refuseMissingInput(store, svc, region, inputs, heads);
  const head = heads[inputs.length];
  if (isHeldHead(head)) return head;
  const command = `svc derive ${svc.code}`;
  throw new ApiError(
    "RESOURCE_NOT_FOUND",
    `${svc.code} has not been derived for ${await regionLabel(store, region)} yet: its inputs are held and it is computed after they are written; '${command}' computes it now.`,
    { indicator: svc.code, region: region.code, held: false, derive_command: command },
  );
}

/**
 * Recomputes the stored svc: series of the place from its inputs' current versions, read from the database, and
 * writes it (a write path: unchanged values write nothing). A missing input is a 404 naming it.
 */
async function derive(ctx: DeriveContext, svc: IndicatorRow, region: RegionRow): Promise<void> {
  const inputs = await resolveInputs(ctx, svc, region);
  const keys = inputKeys(inputs);
  const headsNow = async () => {
    const found = await findSeriesHeads(ctx.db, keys);
    return keys.map((k) => found.find((h) => h.indicatorId === k.indicatorId && h.regionCode === k.regionCode) ?? null);
  };
  let heads = await headsNow();
  for (let pass = 1; ; pass++) {
    await refuseMissingInput(ctx, svc, region, inputs, heads);
    await recompute(ctx, svc, region, inputs, heads as SeriesHead[]);
    const after = await headsNow();
    if (
      pass >= MAX_PASSES ||
      seriesVersionsKey(after.filter((h) => h !== null)) === seriesVersionsKey(heads as SeriesHead[])
    )
      return;
    heads = after;
  }
}

async function recompute(
  ctx: DeriveContext,
  svc: IndicatorRow,
  region: RegionRow,
  inputs: ResolvedInput[],
  heads: SeriesHead[],
) {
  const data: Record<string, DerivedInputData> = {};
  let sourceUpdatedAt: Date | null = null;
  for (let k = 0; k < inputs.length; k++) {
    const snap = await ctx.caches.series.snapshot(heads[k]);
    data[inputs[k].spec.role] = { points: snap.points, frequency: frequencyOf(inputs[k].indicator) };
    for (const r of snap.rows)
      if (r.sourceUpdatedAt && (!sourceUpdatedAt || r.sourceUpdatedAt > sourceUpdatedAt))
        sourceUpdatedAt = r.sourceUpdatedAt;
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
  const svcIndicators = [...catalog.byId.values()].filter(
    (i) => isDerivedIndicator(i) && (!only || only.includes(i.code)),
  );
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
        await derive(ctx, svc, region);
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
export async function deriveChanged(
  ctx: DeriveContext,
  changed: readonly { indicatorId: string; regionCode: string }[],
): Promise<DeriveSummary> {
  if (changed.length === 0) return [];
  const out: DeriveSummary = [];
  const catalog = await ctx.caches.catalog.catalog();
  const regions = await regionIndex(ctx);
  const svcIndicators = [...catalog.byId.values()]
    .filter(isDerivedIndicator)
    .sort((a, b) => (a.code < b.code ? -1 : 1));
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
          else if (
            regions.byCode.get(c.regionCode)?.type === kind &&
            (isPerRegion(svc) || c.regionCode === svc.defaultRegionCode)
          )
            places.add(c.regionCode);
        }
      }
    }
    if (everywhere) {
      out.push(...(await deriveAll(ctx, [svc.code])));
      continue;
    }
    for (const code of [...places].sort()) {
      try {
        await derive(ctx, svc, regions.byCode.get(code)!);
        out.push({ indicator: svc.code, region: code, status: "derived" });
      } catch (e) {
        out.push({ indicator: svc.code, region: code, status: "skipped", reason: (e as Error).message });
      }
    }
  }
  return out;
}
