// A chart of one or more series as a Vega-Lite spec (compiled and rendered to SVG by the chart service). Pure:
// series in, spec and accessible text out. The words are chart-text.ts's, where everything goes is chart-layout.ts's
// (in pixels: the spec draws the layout as it is, with no scale or axis of Vega's own), and the recession periods are
// grey bands from a 0/1 monthly indicator (FRED's USREC): a run of 1s from month a to month b is the band
// [a, first day after b], clipped to the window drawn.
import type { TextItem } from "./chart-frame";
import { chartLayout, type ChartLayout } from "./chart-layout";
import type { Band, ChartInput, ChartPoint } from "./chart-text";

export { chartFit } from "./chart-layout";
export { chartText, escapeXml, formatPeriod, formatValue, placeHeading } from "./chart-text";
export type { Band, ChartInput, ChartPoint, ChartSeries } from "./chart-text";

/** Helvetica and the fonts drawn with its metrics (text-width.ts measures text with them). */
export const CHART_FONT = "Helvetica, Arial, Liberation Sans, Arimo, sans-serif";

/** The first day of the month after `date`'s month. */
function nextMonth(date: string): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/** Recession bands from a monthly 0/1 indicator (points in date order), clipped to [from, to]. */
export function recessionBands(indicator: readonly ChartPoint[], from: string, to: string): Band[] {
  const out: Band[] = [];
  let start: string | null = null;
  let last = "";
  for (const p of indicator) {
    if (p.value === 1) {
      start ??= p.date;
      last = p.date;
    } else if (start !== null) {
      out.push({ start, end: nextMonth(last) });
      start = null;
    }
  }
  if (start !== null) out.push({ start, end: nextMonth(last) });
  return out
    .filter((b) => b.end > from && b.start <= to)
    .map((b) => ({ start: b.start < from ? from : b.start, end: b.end > to ? to : b.end }));
}

/** Pixels to a hundredth: the SVG carries no more digits than a screen can show. */
const r = (v: number) => Math.round(v * 100) / 100;
const pixel = (field: string) => ({ field, type: "quantitative", scale: null });
const at = { x: pixel("x"), y: pixel("y") };
const colored = { color: { field: "color", type: "nominal", scale: null } };

function textLayers(texts: TextItem[]): Record<string, unknown>[] {
  const styles = new Map<string, TextItem[]>();
  for (const t of texts) {
    const key = `${t.bold}|${t.align}|${t.halo ?? false}`;
    styles.set(key, [...(styles.get(key) ?? []), t]);
  }
  return [...styles.values()].map((items) => {
    const { bold, align, halo } = items[0]!;
    // A white halo under a label keeps it legible where it crosses a line.
    const paint = halo ? { stroke: "white", strokeWidth: 4, strokeJoin: "round", fill: "white" } : {};
    return {
      data: { values: items.map((t) => ({ x: r(t.x), y: r(t.y), text: t.text, size: t.size, color: t.color })) },
      mark: { type: "text", align, baseline: "alphabetic", fontWeight: bold ? "bold" : "normal", ...paint },
      encoding: { ...at, text: { field: "text" }, size: pixel("size"), ...(halo ? {} : colored) },
    };
  });
}

/** The Vega-Lite spec drawing `layout` (a plain JSON object). */
export function layoutSpec(layout: ChartLayout): Record<string, unknown> {
  const rules = (kind: "grid" | "axis", color: string) => ({
    data: {
      values: layout.rules
        .filter((x) => x.kind === kind)
        .map((x) => ({ x: r(x.x), y: r(x.y), x2: r(x.x2), y2: r(x.y2) })),
    },
    mark: { type: "rule", color, strokeWidth: 1 },
    encoding: { ...at, x2: { field: "x2" }, y2: { field: "y2" } },
  });
  const layers: Record<string, unknown>[] = [];
  if (layout.bands.length) {
    layers.push({
      data: { values: layout.bands.map((b) => ({ x: r(b.x), x2: r(b.x2), y: r(b.y), y2: r(b.y2) })) },
      mark: { type: "rect", color: "#9e9e9e", opacity: 0.28 },
      encoding: { ...at, x2: { field: "x2" }, y2: { field: "y2" } },
    });
  }
  layers.push(rules("grid", "#e6e6e6"), rules("axis", "#888"));
  // A missing value breaks the line: each run of values between missing ones is a path of its own.
  const points = layout.lines.flatMap((l) => {
    let run = 0;
    return l.points.flatMap((p, k) => {
      if (p.y === null) return [];
      if (k > 0 && l.points[k - 1]!.y === null) run++;
      return [{ path: `${l.series}.${run}`, x: r(p.x), y: r(p.y), color: l.color }];
    });
  });
  layers.push({
    data: { values: points },
    mark: { type: "line", strokeWidth: 1.8 },
    encoding: { ...at, detail: { field: "path", type: "nominal" }, ...colored },
  });
  const dots = (values: { x: number; y: number; color: string }[], size: number) => ({
    data: { values: values.map((d) => ({ x: r(d.x), y: r(d.y), color: d.color })) },
    mark: { type: "point", filled: true, size, opacity: 1 },
    encoding: { ...at, ...colored },
  });
  layers.push(dots(layout.markers, 36));
  if (layout.symbols.length) layers.push(dots(layout.symbols, 64));
  layers.push(...textLayers(layout.texts));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: layout.width,
    height: layout.height,
    autosize: { type: "none" },
    padding: 0,
    background: "white",
    // The picture is one image, named and described by its <title> and <desc>: no ARIA labels on each mark.
    config: { font: CHART_FONT, view: { stroke: null }, aria: false },
    layer: layers,
  };
}

/** The Vega-Lite spec of the chart. */
export function chartSpec(input: ChartInput): Record<string, unknown> {
  return layoutSpec(chartLayout(input));
}
