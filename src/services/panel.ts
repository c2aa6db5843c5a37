// GET /v1/panel: several series (codes or concepts) aligned on one grid of dates (src/domain/panel.ts).
// Each code is resolved by the one resolver (src/services/concepts.ts) and read through the same read path as
// observations (src/services/series-read.ts: the whole series at its latest revisions, from the series cache; a
// derived concept computed from its inputs; a svc: series brought up to date). Resolution checks every rule before
// any payment: a code that does not resolve (404, 400), a plan that cannot be made (weekly without frequency,
// upsampling: 400), a series offered but not held (404), and the grid cap (400), which needs the data: the panel is
// built there and its rendered body kept under a key naming every series version and the query, so the paid read
// that follows re-validates the versions and serves the same body.
import type { z } from "zod";
import { alignPanel, planPanel, type PanelPlan } from "../domain/panel";
import { ApiError } from "../errors";
import type { panelQuerySchema, PanelResponse } from "../schemas/panel";
import { resolveSeriesTarget, type ConceptDisclosure, type SeriesTarget } from "./concepts";
import { renderJson, type RenderedJson } from "./rendered";
import { dataFreshness, rule, seriesData, targetCode, targetPremium, type ReadContext } from "./series-read";
import type { Freshness } from "../domain/freshness";

export type PanelQuery = z.output<typeof panelQuerySchema>;

export type PanelSeries = { code: string; target: SeriesTarget };

export type PanelTarget = {
  query: PanelQuery;
  series: PanelSeries[];
  plan: PanelPlan;
  /** The region of every series, or null when they default to different regions. */
  region: string | null;
  /** Whether any series reads premium data (a `svc:` series, a premium indicator, a concept through its inputs). */
  premium: boolean;
};

/** Resolves one listed code; a failure names the `indicators` parameter and the code. */
async function resolveListed(ctx: ReadContext, code: string, region: string | undefined): Promise<SeriesTarget> {
  try {
    return await resolveSeriesTarget(ctx, { code, region });
  } catch (e) {
    if (e instanceof ApiError && e.details?.parameter === "indicator")
      throw new ApiError(e.code, e.message, { ...e.details, parameter: "indicators", indicator: code }, e.advice);
    throw e;
  }
}

export async function resolvePanel(ctx: ReadContext, q: PanelQuery): Promise<PanelTarget> {
  const series: PanelSeries[] = [];
  for (const code of q.indicators) series.push({ code, target: await resolveListed(ctx, code, q.region) });
  let plan: PanelPlan;
  try {
    plan = planPanel(
      series.map((s) => ({ key: s.code, frequency: s.target.frequency })),
      q.frequency,
    );
  } catch (e) {
    rule(e);
  }
  const regions = new Set(series.map((s) => s.target.region.code));
  const target: PanelTarget = {
    query: q,
    series,
    plan,
    region: regions.size === 1 ? [...regions][0]! : null,
    premium: series.some((s) => targetPremium(s.target)),
  };
  // Held (404) and within the grid (400), before any payment.
  await getPanel(ctx, target);
  return target;
}

const disclosureOf = (t: SeriesTarget): ConceptDisclosure | null => (t.kind === "stored" ? t.concept : t.disclosure);

/** The panel's JSON body, built from the series' current versions (or the body kept for them). */
export async function getPanel(ctx: ReadContext, t: PanelTarget): Promise<RenderedJson> {
  const data = await Promise.all(t.series.map((s) => seriesData(ctx, s.target)));
  const freshness = t.series.map((s, k) => dataFreshness(ctx, data[k]!, s.target));
  const q = t.query;
  // The body depends on the data versions, how each code was asked for (concept or code), the query, and how many
  // periods behind each series is today (meta.freshness).
  const key = [
    "panel",
    data.map((d) => d.id).join(","),
    freshness.map((f) => f?.periods_behind ?? "").join(","),
    t.series.map((s) => `${s.code}=${targetCode(s.target)}@${s.target.region.code}`).join(","),
    q.frequency ?? "",
    q.resample_method,
    q.missing,
    q.start_date ?? "",
    q.end_date ?? "",
  ].join("|");
  const hit = ctx.caches.series.page(key);
  if (hit) return hit;

  let panel;
  try {
    panel = alignPanel(
      t.series.map((s, k) => ({ key: s.code, frequency: s.target.frequency, points: data[k]!.points })),
      { plan: t.plan, method: q.resample_method, missing: q.missing, start: q.start_date, end: q.end_date },
    );
  } catch (e) {
    rule(e);
  }
  const series: Record<string, (number | null)[]> = {};
  const units: Record<string, string | null> = {};
  const regions: Record<string, string> = {};
  const concepts: Record<string, ConceptDisclosure> = {};
  const fresh: Record<string, Freshness> = {};
  t.series.forEach((s, k) => {
    const f = freshness[k];
    if (f) fresh[s.code] = f;
    series[s.code] = panel.values[k]!;
    units[s.code] = data[k]!.unit;
    regions[s.code] = s.target.region.code;
    const c = disclosureOf(s.target);
    if (c) concepts[s.code] = c;
  });
  const resampled = Object.keys(panel.resampled).length > 0;
  const body: PanelResponse = {
    dates: panel.dates,
    series,
    meta: {
      units,
      alignment: { basis: t.plan.resampled ? "resampled" : "native", missing: q.missing },
      region: t.region,
      regions,
      frequency: t.plan.frequency,
      points: panel.dates.length * t.series.length,
      ...(resampled
        ? { resample: { method: q.resample_method, target_frequency: t.plan.frequency, series: panel.resampled } }
        : {}),
      ...(Object.keys(concepts).length > 0 ? { concepts } : {}),
      freshness: fresh,
    },
  };
  const rendered = renderJson(body);
  ctx.caches.series.rememberPage(key, rendered);
  return rendered;
}
