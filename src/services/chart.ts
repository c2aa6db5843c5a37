// GET /v1/chart (and the landing page, briefing pages, MCP): series drawn as an SVG.
// - Each (indicator, region) pair resolves and is read exactly as GET /v1/observations reads it
//   (resolveObservations, seriesWindow: same codes, concepts, 404s and 202s, resampling, transform, date range).
// - Resolution also reads the windows, so a series with nothing in the window (404), a chart over the point cap (400)
//   or one whose title, legend and plot cannot fit its size (400 naming the height that fits) costs nothing.
// - US data is drawn over the recession periods of the held USREC series (NBER dates via FRED), read without being
//   paid for or provisioned: when it is not held, the chart has no bands.
// - Drawing: Vega-Lite compiled to Vega and rendered to SVG on the server (src/services/chart-svg.ts, on a compute
//   thread, never the thread that answers requests; src/services/chart-renders.ts bounds it per caller); the SVG is kept
//   in the series cache under a key naming every data version and the request, so a hot chart is served as stored
//   bytes and never outlives the data it draws.
import { snapChartSize } from "../domain/chart-size";
import { chartFit, placeHeading, recessionBands, type ChartInput, type ChartSeries } from "../domain/chart-spec";
import { shortNameOf } from "../domain/short-name";
import { ApiError, fail } from "../errors";
import { CHART_MAX_POINTS, CHART_MAX_SIZE, chartQuerySchema, type ChartQuery } from "../schemas/chart";
import type { CatalogSnapshot } from "./catalog-index";
import { resolveSeriesTarget } from "./concepts";
import { seriesAttribution } from "./insights";
import {
  resolveObservations,
  seriesWindow,
  type ObservationsQuery,
  type ObservationsTarget,
  type SeriesWindow,
} from "./observations";
import { regionIndex } from "./regions";
import { renderBody, type RenderedJson } from "./rendered";
import { seriesData, targetCode, targetPremium, type ReadContext, type Readable } from "./series-read";
import { placeOf } from "./signals";

export type ChartTarget = {
  query: ChartQuery;
  reads: ObservationsTarget[];
  /** The region of every series, or null when they differ. */
  region: string | null;
  premium: boolean;
};

/** The observations query one series of the chart is read with. */
function readQuery(q: ChartQuery, indicator: string, region: string | undefined): ObservationsQuery {
  return { ...q, indicator, region, include_revisions: false, limit: 0, offset: 0, order: "asc" };
}

const pairs = (q: ChartQuery) =>
  q.indicator.flatMap((code) => (q.region ?? [undefined]).map((region) => ({ code, region })));

/**
 * Every series of the chart with its heads, or the first one to provision. `bare`: drawn without its title and
 * subtitle (a card that prints them beside it). Reads only.
 */
export async function resolveChart(
  ctx: ReadContext,
  q: ChartQuery,
  opts: { bare?: boolean } = {},
): Promise<Readable<ChartTarget>> {
  const reads: ObservationsTarget[] = [];
  for (const p of pairs(q)) {
    const found = await resolveObservations(ctx, readQuery(q, p.code, p.region));
    if (found.kind === "not-held") return found;
    reads.push(found.target);
  }
  const regions = new Set(reads.map((r) => r.region.code));
  const target: ChartTarget = {
    query: q,
    reads,
    region: regions.size === 1 ? [...regions][0]! : null,
    premium: reads.some(targetPremium),
  };
  await assertFits(ctx, target, await chartSource(ctx, target, opts.bare));
  return { kind: "held", target };
}

/** A 400 naming the height that fits, for a chart whose title, legend and plot do not fit its size. */
async function assertFits(ctx: ReadContext, t: ChartTarget, source: ChartSource): Promise<void> {
  // A chart kept for these versions was drawn: it fits.
  if (ctx.caches.series.page(source.key)) return;
  const { fits, neededHeight } = chartFit(await chartInput(ctx, t, source));
  if (fits) return;
  // Heights are drawn at steps: the one to ask for is the step that holds what the chart needs.
  const step = snapChartSize(neededHeight);
  const ask =
    step <= CHART_MAX_SIZE
      ? `ask for height=${step} or more, a greater width, or fewer series`
      : "ask for a greater width or fewer series";
  fail(
    "INVALID_PARAMETER",
    `The chart's title, legend and plot do not fit ${t.query.width}×${t.query.height} pixels: at this width they need a height of ${neededHeight}; ${ask}.`,
    {
      parameter: "height",
      needed_height: step,
    },
  );
}

/** The window of every series; a 404 for one with no value in it, a 400 past the point cap. */
async function windowsOf(ctx: ReadContext, t: ChartTarget): Promise<SeriesWindow[]> {
  const windows = await Promise.all(
    t.reads.map((r, k) => seriesWindow(ctx, r, readQuery(t.query, pairs(t.query)[k]!.code, pairs(t.query)[k]!.region))),
  );
  windows.forEach((w, k) => {
    if (!w.points.some((p) => p.value !== null)) {
      const r = t.reads[k]!;
      fail(
        "RESOURCE_NOT_FOUND",
        `${targetCode(r)} in ${r.region.code} has no value between ${t.query.start_date ?? "its first date"} and ${t.query.end_date ?? "its last date"}: nothing to draw.`,
        {
          indicator: targetCode(r),
          region: r.region.code,
        },
      );
    }
  });
  const points = windows.reduce((n, w) => n + w.points.length, 0);
  if (points > CHART_MAX_POINTS) {
    fail(
      "INVALID_PARAMETER",
      `The chart would draw ${points.toLocaleString("en-US")} points; at most ${CHART_MAX_POINTS.toLocaleString("en-US")}: narrow the dates or pass a coarser frequency.`,
      {
        parameter: "start_date",
        points,
      },
    );
  }
  return windows;
}

/** US recession months (USREC), when held: its window, or null. Read without provisioning. */
async function recessions(
  ctx: ReadContext,
): Promise<{ id: string; points: { date: string; value: number | null }[] } | null> {
  const plain: ReadContext = { ...ctx, provisioning: undefined };
  try {
    const data = await seriesData(plain, await resolveSeriesTarget(plain, { code: "USREC", region: "US" }));
    return { id: data.id, points: data.points };
  } catch {
    return null;
  }
}

type ChartSource = {
  windows: SeriesWindow[];
  usrec: Awaited<ReturnType<typeof recessions>>;
  catalog: CatalogSnapshot;
  bare: boolean;
  key: string;
};

/** What a chart is drawn from (the series' windows, the recession months, the catalog) and the key it is kept under. */
async function chartSource(ctx: ReadContext, t: ChartTarget, bare: boolean | undefined): Promise<ChartSource> {
  const windows = await windowsOf(ctx, t);
  const usrec = t.region === "US" ? await recessions(ctx) : null;
  const catalog = await ctx.caches.catalog.catalog();
  const q = t.query;
  const key = [
    "chart",
    catalog.generation,
    windows.map((w) => w.id).join(","),
    usrec?.id ?? "",
    t.reads.map((r) => `${targetCode(r)}@${r.region.code}`).join(","),
    q.start_date ?? "",
    q.end_date ?? "",
    q.transform ?? "",
    q.frequency ?? "",
    q.resample_method,
    q.width,
    q.height,
    bare ? "bare" : "",
  ].join("|");
  return { windows, usrec, catalog, bare: bare ?? false, key };
}

/** What the chart draws: the series of the windows read, their source line and the recession bands behind US data. */
async function chartInput(
  ctx: ReadContext,
  t: ChartTarget,
  { windows, usrec, catalog, bare }: ChartSource,
): Promise<ChartInput> {
  const q = t.query;
  const byCode = (await regionIndex(ctx)).byCode;
  const severalPlaces = t.region === null && q.indicator.length === 1;
  const series = t.reads.map((r, k): ChartSeries => {
    const name = r.kind === "stored" ? r.indicator.name : r.concept.name;
    const place = placeOf(r.region, byCode);
    return {
      label: severalPlaces ? placeHeading(place) : name,
      name,
      shortName: r.kind === "stored" ? shortNameOf(r.indicator) : name,
      place,
      unit: windows[k]!.unit,
      frequency: q.frequency ?? r.frequency,
      points: windows[k]!.points,
    };
  });
  const attribution = [...new Set(t.reads.map((r) => seriesAttribution(catalog, r).text))].join(" ");
  const dates = windows.flatMap((w) => [w.points[0]!.date, w.points[w.points.length - 1]!.date]).sort();
  const bands = usrec ? recessionBands(usrec.points, dates[0]!, dates[dates.length - 1]!) : [];
  return {
    series,
    attribution,
    recessions: bands,
    ...(usrec?.points[0] ? { recessionsFrom: usrec.points[0].date } : {}),
    width: q.width,
    height: q.height,
    bare,
  };
}

/**
 * The chart as an SVG body, from the series' current versions (or the SVG kept for them). Drawn on the compute pool
 * (src/services/chart-renders.ts); `client`: for a client's request, whose caller (a key or a client address; null
 * under open access) is limited in the renders it has under way; without it, a page's own chart, never refused.
 */
export async function getChart(
  ctx: ReadContext,
  t: ChartTarget,
  opts: { bare?: boolean; client?: { caller: string | null } } = {},
): Promise<RenderedJson> {
  const source = await chartSource(ctx, t, opts.bare);
  const hit = ctx.caches.series.page(source.key);
  if (hit) return hit;

  const svg = await ctx.caches.charts.draw(source.key, await chartInput(ctx, t, source), opts.client ?? null);
  const body = renderBody(svg, "image/svg+xml; charset=utf-8");
  ctx.caches.series.rememberPage(source.key, body);
  return body;
}

/** A chart shown in a page (landing card, briefing page): a data: URI of the SVG, and its description for `alt`. */
export type ChartPicture = { uri: string; alt: string };

const DESC = /<desc id="chart-desc">([^<]*)<\/desc>/;
const unescapeXml = (s: string) =>
  s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e]!);

/**
 * The chart GET /v1/chart answers for `params` (its query parameters, as text), drawn for a page that has already
 * read (or paid for) the data; null when there is nothing to draw (a series not held, an empty window, past a cap).
 */
export async function chartPicture(
  ctx: ReadContext,
  params: Record<string, string>,
  opts: { bare?: boolean } = {},
): Promise<ChartPicture | null> {
  const query = chartQuerySchema.safeParse(params);
  if (!query.success) return null;
  try {
    const found = await resolveChart(ctx, query.data, opts);
    if (found.kind !== "held") return null;
    const body = await getChart(ctx, found.target, opts);
    const svg = new TextDecoder().decode(body.bytes);
    return {
      uri: `data:image/svg+xml;base64,${Buffer.from(body.bytes).toString("base64")}`,
      alt: unescapeXml(DESC.exec(svg)?.[1] ?? ""),
    };
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}
