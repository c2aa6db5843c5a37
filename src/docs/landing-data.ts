// What the landing page at `/` shows that comes from the database: how many regions and indicators the service holds,
// and a few live examples. Each example is read through the same services GET /v1/observations/latest uses
// (resolveSeriesTarget, getLatest, latestMeta), so the page shows exactly what that request answers today; nothing
// on the page is a number written in code.
import { ApiError } from "../errors";
import type { Logger } from "../logger";
import { listIndicators, listSources } from "../services/catalog";
import { regionLabel, resolveSeriesTarget } from "../services/concepts";
import { getLatest, latestMeta, type LatestObservation } from "../services/latest";
import { regionIndex } from "../services/regions";
import { seriesData, type ReadContext } from "../services/series-read";

/** Series shown as live examples, one per kind of region, in the order shown. Series the database does not hold
 *  (an installation seeded without the samples) are left out. All are standard (non-premium) series. */
export const LANDING_EXAMPLES: readonly { indicator: string; region: string }[] = [
  { indicator: "PAYEMS", region: "US" },
  { indicator: "life_expectancy_years", region: "JP" },
  { indicator: "ELEC.GEN.REN-99.A", region: "19" },
  { indicator: "MLO.CO2", region: "15001" },
];

/** Newest observations drawn in an example's sparkline. */
const SPARKLINE_POINTS = 60;

export type LandingExample = {
  /** The request that returns `body` (path and query, no base URL). */
  path: string;
  name: string;
  regionLabel: string;
  regionType: string;
  /** The publishing source's name. */
  source: string | null;
  latest: LatestObservation;
  /** `{ data, meta }`, the body of GET `path`. */
  body: { data: LatestObservation; meta: ReturnType<typeof latestMeta> };
  /** Values of the newest observations, oldest first, for the sparkline. */
  recent: number[];
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

async function example(ctx: ReadContext, sourceNames: Map<string, string>, e: { indicator: string; region: string }): Promise<LandingExample | null> {
  const target = await resolveSeriesTarget(ctx, { code: e.indicator, region: e.region });
  if (target.kind !== "stored") return null;
  const latest = await getLatest(ctx, target);
  if (!latest) return null;
  const rows = (await seriesData(ctx, target)).rows;
  const recent = rows.filter((r) => r.value !== null).slice(-SPARKLINE_POINTS).map((r) => r.value as number);
  return {
    path: latestPath(e.indicator, e.region),
    name: target.indicator.name,
    regionLabel: await regionLabel(ctx, target.region),
    regionType: target.region.type,
    source: target.indicator.sourceSlug ? (sourceNames.get(target.indicator.sourceSlug) ?? target.indicator.sourceSlug) : null,
    latest,
    body: { data: latest, meta: latestMeta(target, true) },
    recent,
  };
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
    const indicators = (await listIndicators(ctx, { include_inactive: false, limit: 0, offset: 0 }, ctx.now())).meta.total;
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
