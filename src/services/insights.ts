// GET /v1/insights: the facts of one series over a window (src/domain/insights.ts), its active signals, and where
// the numbers come from. The series resolves exactly as for observations (src/services/concepts.ts,
// series-read.ts): same codes and concepts, same 404s before payment, same premium rule.
// - The whole series comes from the series cache (one version-checked read); facts are computed in one pass over
//   the window. Peer ranks read the peers' values on the latest date in one statement: counties within their state,
//   states (the 50 and DC), countries; kept until the indicator's series change (place-values.ts). Derived concepts (computed on read) have no stored peers or signals.
// - Polarity (up_is_good) comes from the catalog entry; a derived concept has none.
import { sourceAttribution, type SourceAttribution } from "../domain/attribution";
import type { InsightFact, PeerValues } from "../domain/insight-context";
import { computeInsights } from "../domain/insights";
import { formatWindow, parseWindow, type Window } from "../domain/window";
import { valueSpecOf } from "../domain/value-kinds";
import type { InsightsQuery } from "../schemas/insights";
import type { InsightSignalOut } from "../schemas/signals";
import { resolveSeriesTarget, type ConceptDisclosure, type SeriesTarget } from "./concepts";
import type { CatalogSnapshot } from "./catalog-index";
import { regionIndex } from "./regions";
import { dataFreshness, heldTarget, seriesData, targetCode, type Heads, type ReadContext } from "./series-read";
import type { Freshness } from "../domain/freshness";
import { activeSignalsOfSeries, placeOf } from "./signals";
import { placeValues } from "./place-values";

/** `heads`: found at resolve (the paid route); a target without them reads its heads when it is read. */
export type InsightsTarget = SeriesTarget & { window: Window; heads?: Heads };

export type InsightsBody = {
  facts: InsightFact[];
  signals: InsightSignalOut[];
  meta: {
    indicator: string;
    region: string;
    unit: string | null;
    window: string;
    observation_count: number;
    window_start: string | null;
    window_end: string | null;
    frequency: string;
    source_attribution: SourceAttribution;
    concept?: ConceptDisclosure;
    freshness?: Freshness;
  };
};

/** Resolves the series and finds its heads, before any payment (what does not exist or is not held costs nothing). Reads only. */
export async function resolveInsights(ctx: ReadContext, q: InsightsQuery): Promise<InsightsTarget> {
  const target = await heldTarget(
    ctx,
    await resolveSeriesTarget(ctx, { code: q.indicator, source: q.source, region: q.region }),
  );
  // The schema has validated the window.
  return { ...target, window: parseWindow(q.window)! };
}

export async function getInsights(ctx: ReadContext, target: InsightsTarget): Promise<InsightsBody> {
  const data = await seriesData(ctx, target);
  const regions = await regionIndex(ctx);
  const catalog = await ctx.caches.catalog.catalog();
  const stored = target.kind === "stored" ? target.indicator : null;
  const name = target.kind === "stored" ? target.indicator.name : target.concept.name;
  const place = placeOf(target.region, regions.byCode);
  const latest = lastValued(data.points);
  const peers = stored && latest ? await peerValues(ctx, stored.id, target.region, latest, regions.byCode) : null;
  const insights = computeInsights(
    {
      points: data.points,
      frequency: target.frequency,
      unit: data.unit,
      upIsGood: stored ? stored.upIsGood : null,
      indicatorName: name,
      place,
      values: stored ? valueSpecOf(stored) : undefined,
    },
    target.window,
    peers,
  );
  const attribution = seriesAttribution(catalog, target);
  const freshness = dataFreshness(ctx, data, target);
  // Active signals are news: none on a series behind schedule (src/domain/freshness.ts).
  const signals =
    stored && freshness && !freshness.stale
      ? await activeSignalsOfSeries(ctx, { indicatorId: stored.id, regionCode: target.region.code })
      : [];
  const concept = target.kind === "stored" ? target.concept : target.disclosure;
  return {
    facts: insights.facts,
    signals,
    meta: {
      indicator: targetCode(target),
      region: target.region.code,
      unit: data.unit,
      window: formatWindow(target.window),
      observation_count: insights.observationCount,
      window_start: insights.windowStart,
      window_end: insights.windowEnd,
      frequency: target.frequency,
      source_attribution: attribution,
      ...(concept ? { concept } : {}),
      ...(freshness ? { freshness } : {}),
    },
  };
}

/** Where a series' numbers come from: its agency and the attribution text the agency asks for (domain/attribution.ts). */
export function seriesAttribution(catalog: CatalogSnapshot, target: SeriesTarget): SourceAttribution {
  const source = (slug: string | null) => {
    const s = slug ? catalog.sourceBySlug.get(slug) : undefined;
    return s ? { name: s.name, provider: s.provider } : null;
  };
  // A derived series names its inputs: a concept's resolved inputs, a stored svc: series' meta.derived.inputs.
  const inputs =
    target.kind === "stored"
      ? ((target.indicator.meta.derived as { inputs?: string[] } | undefined)?.inputs ?? [])
          .map((code) =>
            (catalog.byLowerCode.get(code.toLowerCase()) ?? []).find((i) => i.code === code && i.sourceSlug !== "svc"),
          )
          .filter((i) => i !== undefined)
      : target.inputs.map((i) => i.indicator);
  return sourceAttribution(
    target.kind === "stored" ? target.indicator : { code: target.code, sourceSlug: "svc", meta: {} },
    target.kind === "stored" ? source(target.indicator.sourceSlug) : null,
    inputs.map((i) => ({ entry: i, source: source(i.sourceSlug) })),
  );
}

function lastValued(points: readonly { date: string; value: number | null }[]): string | null {
  for (let i = points.length - 1; i >= 0; i--) if (points[i].value !== null) return points[i].date;
  return null;
}

type RegionLike = { code: string; type: string; name: string; parentCode: string | null };

/** The peers of a region on `date` (see the file comment), with how prose names them; null when it has none. */
async function peerValues(
  ctx: ReadContext,
  indicatorId: string,
  region: RegionLike,
  date: string,
  byCode: Map<string, RegionLike>,
): Promise<PeerValues | null> {
  if (region.type !== "county" && region.type !== "state" && region.type !== "country") return null;
  const parentCode = region.type === "county" ? region.parentCode : null;
  if (region.type === "county" && !parentCode) return null;
  const values = await placeValues(ctx, { indicatorId, regionType: region.type, parentCode }, date);
  if (values.length < 2) return null;
  const n = values.length;
  const label =
    region.type === "county"
      ? `${n} counties in ${byCode.get(parentCode!)?.name ?? parentCode}`
      : region.type === "state"
        ? values.some((v) => v.region === "11")
          ? `the ${n - 1} states and DC`
          : `${n} states`
        : `${n} countries`;
  return { date, region: region.code, noun: label, values };
}
