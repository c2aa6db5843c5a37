// What the landing page at `/` shows that comes from the database: how many regions and indicators the service holds,
// and a few live examples, the headline series a reader looks for first: the US unemployment rate, CPI inflation
// (the 12-month change), a state's unemployment rate and a county's population, the concepts resolving to the
// freshest series held for the place. A card's percent-change transform applies only where the series' values allow
// one (src/domain/value-kinds.ts: a level or an index); a rate, or a change already computed, is shown as it is.
// Each example is read through the same services its request uses
// (GET /v1/observations/latest: resolveSeriesTarget, getLatestAnswer, latestMeta; a transform: GET /v1/observations'
// resolveObservations and getObservationsPage), so the page shows exactly what that request answers today; nothing
// on the page is a number written in code. Each card's chart is GET /v1/chart's picture of the series' last ten years.
import { ApiError } from "../errors";
import type { Logger } from "../logger";
import { listIndicators, listSources } from "../services/catalog";
import { regionLabel, resolveSeriesTarget } from "../services/concepts";
import type { Freshness } from "../domain/freshness";
import { observationsQuerySchema } from "../schemas/observations";
import type { StoredTarget } from "../services/concepts";
import { getLatestAnswer, latestMeta, type LatestObservation } from "../services/latest";
import {
  getObservationsPage,
  resolveObservations,
  type ObservationRow,
  type ObservationsPage,
} from "../services/observations";
import { regionIndex } from "../services/regions";
import type { ReadContext } from "../services/series-read";
import { chartPicture, type ChartPicture } from "../services/chart";
import { addYears } from "../domain/calendar";
import { shortNameOf } from "../domain/short-name";
import { percentChangeApplies, valueSpecOf } from "../domain/value-kinds";

/** Series shown as live examples, one per kind of region, in the order shown. Series the database does not hold
 *  (an installation seeded without the samples) are left out. All are standard (non-premium) series. */
export type LandingExampleSpec = { indicator: string; region: string; transform?: string };

export const LANDING_EXAMPLES: readonly LandingExampleSpec[] = [
  { indicator: "UNRATE", region: "US" },
  { indicator: "CPIAUCSL", region: "US", transform: "yoy" },
  { indicator: "unemployment_rate", region: "48" },
  { indicator: "population", region: "06037" },
];

/** A transformed value (a percent change) is shown to this many decimals; the API answers it unrounded. */
export const TRANSFORM_DECIMALS = 1;

/** Years of history an example's chart draws, up to its newest value. */
const CHART_YEARS = 10;

/**
 * The size a card's chart is drawn at: about the width a card shows it at (220 pixels in four columns on a desktop,
 * 300 on a phone), so its text is drawn near its own size at both, never shrunk to unreadable.
 */
export const CARD_CHART = { width: 250, height: 200 };

export type LandingExample = {
  /** The request that returns `body` (path and query, no base URL). */
  path: string;
  /** The series' short name (with the transform said), as the card heads it; `fullName` its catalog name. */
  name: string;
  fullName: string;
  regionLabel: string;
  regionType: string;
  /** The publishing source's name. */
  source: string | null;
  latest: LatestObservation;
  /** `{ data, meta }`, the body of GET `path` (for a transform, its one-row page). */
  body: { data: unknown; meta: Record<string, unknown> & { freshness?: Freshness } };
  /** The series' last CHART_YEARS years as GET /v1/chart draws them; null when it cannot be drawn. */
  chart: ChartPicture | null;
  /** Decimals the card shows (a computed change reads as 2.7, not 2.7119693852721904); absent: as published. */
  decimals?: number;
};

export type LandingFacts = {
  /** Regions by type (country, state, county); null when the database could not be read. */
  regions: Record<string, number> | null;
  indicators: number | null;
  sources: number | null;
  examples: LandingExample[];
};

export function latestPath(indicator: string, region: string): string {
  return `/v1/observations/latest?${new URLSearchParams({ indicator, region })}`;
}

/** The request an example shows: its latest observation, or with a transform the newest row of that transform. */
export function examplePath(e: LandingExampleSpec): string {
  if (!e.transform) return latestPath(e.indicator, e.region);
  return `/v1/observations?${new URLSearchParams({ indicator: e.indicator, region: e.region, transform: e.transform, limit: "1" })}`;
}

/** The card as shown: its percent change kept only where the series' values allow one (see the file comment). */
async function allowed(ctx: ReadContext, e: LandingExampleSpec): Promise<LandingExampleSpec> {
  if (!e.transform || !["yoy", "mom", "qoq"].includes(e.transform)) return e;
  const target = await resolveSeriesTarget(ctx, { code: e.indicator, region: e.region });
  return target.kind === "stored" && percentChangeApplies(valueSpecOf(target.indicator))
    ? e
    : { indicator: e.indicator, region: e.region };
}

async function example(
  ctx: ReadContext,
  sourceNames: Map<string, string>,
  spec: LandingExampleSpec,
): Promise<LandingExample | null> {
  const e = await allowed(ctx, spec);
  const found = e.transform ? await transformed(ctx, e) : await latestOf(ctx, e);
  if (!found) return null;
  const { target, latest, body, name, fullName } = found;
  const chartParams = {
    indicator: e.indicator,
    region: e.region,
    ...(e.transform ? { transform: e.transform } : {}),
    start_date: addYears(latest.period_start, -CHART_YEARS),
    width: String(CARD_CHART.width),
    height: String(CARD_CHART.height),
  };
  return {
    path: examplePath(e),
    name,
    fullName,
    regionLabel: await regionLabel(ctx, target.region),
    regionType: target.region.type,
    source: target.indicator.sourceSlug
      ? (sourceNames.get(target.indicator.sourceSlug) ?? target.indicator.sourceSlug)
      : null,
    latest,
    body,
    // The card prints the name, unit and source: the chart is the line alone.
    chart: await chartPicture(ctx, chartParams, { bare: true }),
    ...(e.transform ? { decimals: TRANSFORM_DECIMALS } : {}),
  };
}

type Found = {
  target: StoredTarget;
  latest: LatestObservation;
  body: LandingExample["body"];
  name: string;
  fullName: string;
};

async function latestOf(ctx: ReadContext, e: LandingExampleSpec): Promise<Found | null> {
  const target = await resolveSeriesTarget(ctx, { code: e.indicator, region: e.region });
  if (target.kind !== "stored") return null;
  const { data: latest, freshness } = await getLatestAnswer(ctx, target);
  if (!latest) return null;
  return {
    target,
    latest,
    body: { data: latest, meta: latestMeta(target, true, freshness) },
    name: shortNameOf(target.indicator),
    fullName: target.indicator.name,
  };
}

/** A transformed series (CPI's 12-month change): the newest rows of the GET /v1/observations page it names. */
async function transformed(ctx: ReadContext, e: LandingExampleSpec): Promise<Found | null> {
  const query = (limit: number) =>
    observationsQuerySchema.parse({
      indicator: e.indicator,
      region: e.region,
      transform: e.transform,
      limit: String(limit),
    });
  const found = await resolveObservations(ctx, query(1));
  if (found.kind !== "held" || found.target.kind !== "stored") return null;
  const target = found.target;
  const pageOf = async (limit: number) =>
    JSON.parse(
      new TextDecoder().decode((await getObservationsPage(ctx, target, query(limit))).bytes),
    ) as ObservationsPage;
  const body = await pageOf(1);
  const row = body.data[0] as ObservationRow | undefined;
  if (!row || row.value === null) return null;
  const latest: LatestObservation = {
    indicator: row.indicator,
    region: row.region,
    period_start: row.date,
    period_end: null,
    period_type: body.meta.frequency,
    value: row.value,
    revision: row.revision,
    is_preliminary: row.is_preliminary,
    source_updated_at: row.source_updated_at,
    unit: row.unit,
  };
  const said = (name: string) => (e.transform === "yoy" ? `${name}: 12-month change` : `${name} (${e.transform})`);
  return { target, latest, body, name: said(shortNameOf(target.indicator)), fullName: said(target.indicator.name) };
}

/**
 * Everything the page reads from the database. A series that is not held is skipped; a database that does not
 * answer leaves the page without its numbers rather than failing it (the page still explains and links the API).
 */
export async function landingFacts(ctx: ReadContext, logger: Logger): Promise<LandingFacts> {
  try {
    const regions: Record<string, number> = {};
    for (const r of (await regionIndex(ctx)).byCode.values()) regions[r.type] = (regions[r.type] ?? 0) + 1;
    const sources = (await listSources(ctx, { include_inactive: false })).data;
    const indicators = (await listIndicators(ctx, { include_inactive: false, limit: 0, offset: 0 }, ctx.now())).meta
      .total;
    const sourceNames = new Map(sources.map((s) => [s.slug, s.name]));
    const examples: LandingExample[] = [];
    for (const e of LANDING_EXAMPLES) {
      try {
        const found = await example(ctx, sourceNames, e);
        if (found) examples.push(found);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
    }
    return { regions, indicators, sources: sources.length, examples };
  } catch (err) {
    logger.warn("landing page rendered without live data", { error: String(err) });
    return { regions: null, indicators: null, sources: null, examples: [] };
  }
}
