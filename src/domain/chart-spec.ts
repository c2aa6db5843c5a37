// A chart of one or more series as a Vega-Lite spec (compiled and rendered to SVG by src/services/chart.ts). Pure:
// series in, spec and accessible text out. What a chart shows, by definition:
// - a title (the series' name, or the indicator and places compared), a subtitle (the unit) and, under the plot, the
//   source and attribution line;
// - one line per series (a legend when there are several); a null value breaks the line rather than bridging it;
// - the newest valued point of each series marked and labelled "<value> (<period>)", the period written as people
//   read it for the frequency ("May 2026", "2026 Q2", "2026", "May 4, 2026");
// - recession periods as grey bands, from a 0/1 monthly indicator (FRED's USREC): a run of 1s from month a to month b
//   is the band [a, first day after b], clipped to the window drawn;
// - dates labelled by year over long windows, by month and year over short ones.
// The SVG's <title> and <desc> (chartText) name the series, places, period and newest values.
import type { Frequency } from "./calendar";

export type ChartPoint = { date: string; value: number | null };
export type ChartSeries = {
  /** What the legend calls it: the place when one indicator is compared across places, else the indicator. */
  label: string;
  name: string;
  place: string;
  unit: string | null;
  frequency: Frequency;
  points: ChartPoint[];
};
export type Band = { start: string; end: string };
/** `recessionsFrom`: the first month the recession indicator covers (no band can be drawn before it). */
/** `bare`: no title, subtitle or source line drawn (a card that prints them beside the chart); <title> and <desc> stay. */
export type ChartInput = { series: ChartSeries[]; attribution: string; recessions: Band[]; recessionsFrom?: string; width: number; height: number; bare?: boolean };

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A period as people read it at its frequency: "May 2026", "2026 Q2", "2026", "May 4, 2026" (weekly and daily). */
export function formatPeriod(date: string, frequency: Frequency): string {
  const [y, m, d] = [date.slice(0, 4), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
  if (frequency === "annual") return y;
  if (frequency === "quarterly") return `${y} Q${Math.floor((m - 1) / 3) + 1}`;
  if (frequency === "monthly") return `${MONTHS[m - 1]} ${y}`;
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** A number as a label: at most 2 decimals (3 significant digits for small magnitudes), thousands grouped. */
export function formatValue(v: number): string {
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  return v.toLocaleString("en-US", { maximumFractionDigits: abs >= 10_000 ? 0 : digits });
}

/** Text for XML character data and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

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
  return out.filter((b) => b.end > from && b.start <= to).map((b) => ({ start: b.start < from ? from : b.start, end: b.end > to ? to : b.end }));
}

function newest(s: ChartSeries): ChartPoint | null {
  for (let k = s.points.length - 1; k >= 0; k--) if (s.points[k]!.value !== null) return s.points[k]!;
  return null;
}

const newestLabel = (s: ChartSeries, p: ChartPoint) => `${formatValue(p.value!)} (${formatPeriod(p.date, s.frequency)})`;
const newestText = (s: ChartSeries) => {
  const p = newest(s);
  return p ? newestLabel(s, p) : "no value";
};

/** The first and last dates drawn, over every series. */
function span(input: ChartInput): { from: string; to: string } {
  const dates = input.series.flatMap((s) => (s.points.length ? [s.points[0]!.date, s.points[s.points.length - 1]!.date] : []));
  return { from: dates.reduce((a, b) => (b < a ? b : a)), to: dates.reduce((a, b) => (b > a ? b : a)) };
}

const distinct = <T>(xs: T[]) => [...new Set(xs)];

/** A place as a heading or legend names it: "United States", not "the United States". */
export const placeHeading = (place: string) => place.replace(/^the /, "");

/** The title, the subtitle lines, and the <title> and <desc> of the SVG (plain text: the SVG writer escapes it). */
export function chartText(input: ChartInput): { title: string; subtitle: string[]; desc: string } {
  const names = distinct(input.series.map((s) => s.name));
  const places = distinct(input.series.map((s) => placeHeading(s.place)));
  // One place: "Name: Place". Several: the places are the legend's, and the subtitle's.
  const title = places.length === 1 ? `${names.join(", ")}: ${places[0]}` : names.join(", ");
  const units = distinct(input.series.map((s) => s.unit ?? "no unit")).join(" / ");
  const { from, to } = span(input);
  const f = input.series[0]!.frequency;
  const latest = input.series.map((s) => `${s.label} ${newestText(s)}`);
  const n = input.recessions.length;
  const since = input.recessionsFrom && input.recessionsFrom > from ? `, held from ${formatPeriod(input.recessionsFrom, "monthly")}` : "";
  const shaded = n > 0 ? `Shaded: US recessions (NBER, FRED USREC${since}).` : "";
  const desc = `Line chart of ${input.series.map((s) => `${s.name} in ${s.place}`).join("; ")}, ${formatPeriod(from, f)} to ${formatPeriod(to, f)}. Newest: ${latest.join("; ")}.${shaded ? ` ${shaded.replace("Shaded: US recessions", `Shaded: ${n} US recession period${n > 1 ? "s" : ""}`)}` : ""} ${input.attribution}`;
  const subtitle = [places.length > 1 ? `${places.join(", ")} · ${units}` : units, input.attribution, ...(shaded ? [shaded] : [])];
  return { title, subtitle, desc };
}

/**
 * `text` in lines that fit `width` pixels as Vega measures text without a canvas (0.8 em a character): a line too
 * long for it would make the plot shrink to fit.
 */
export function wrapText(text: string, width: number, fontSize: number): string[] {
  const max = Math.max(10, Math.floor(width / (0.8 * fontSize)));
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Years on the axis over windows of more than 4 years, months and years below. */
function dateFormat(from: string, to: string): string {
  return Number(to.slice(0, 4)) - Number(from.slice(0, 4)) > 4 ? "%Y" : "%b %Y";
}

/** The Vega-Lite spec of the chart (a plain JSON object). */
export function chartSpec(input: ChartInput): Record<string, unknown> {
  const { title, subtitle } = chartText(input);
  const room = input.width - 30;
  const { from, to } = span(input);
  const several = input.series.length > 1;
  // Several lines: each legend entry carries its newest value ("Texas 4.3 (Jun 2026)"), where labels by the lines' ends
  // would overlap; one line: the label sits by its end.
  const key = (s: ChartSeries) => (several ? `${s.label} ${newestText(s)}` : s.label);
  const values = input.series.flatMap((s) => s.points.map((p) => ({ date: p.date, value: p.value, series: key(s) })));
  const labels = input.series.flatMap((s) => {
    const p = newest(s);
    return p ? [{ date: p.date, value: p.value, series: key(s), label: newestLabel(s, p) }] : [];
  });
  const x = { field: "date", type: "temporal", title: null, scale: { domain: [from, to] }, axis: { format: dateFormat(from, to), labelOverlap: true, grid: false, tickCount: Math.max(2, Math.floor(input.width / 90)) } };
  const y = { field: "value", type: "quantitative", title: null, scale: { zero: false, padding: 10 }, axis: { tickCount: Math.max(3, Math.floor(input.height / 60)) } };
  const color = several
    ? { field: "series", type: "nominal", sort: input.series.map(key), legend: { orient: "bottom", title: null, direction: "horizontal", columns: Math.max(1, Math.floor(input.width / 230)), labelLimit: 220 } }
    : { value: "#1f5fa8" };
  const layers: Record<string, unknown>[] = [];
  if (input.recessions.length > 0) {
    layers.push({
      data: { values: input.recessions },
      mark: { type: "rect", color: "#9e9e9e", opacity: 0.28, clip: true },
      encoding: { x: { field: "start", type: "temporal" }, x2: { field: "end" } },
    });
  }
  layers.push({ data: { values }, mark: { type: "line", strokeWidth: 1.8, invalid: "break-paths-show-domains" }, encoding: { x, y, color } });
  layers.push({ data: { values: labels }, mark: { type: "point", filled: true, size: 36, opacity: 1 }, encoding: { x, y, color } });
  if (!several) {
    // A white halo under the label keeps it legible where it crosses the line.
    const label = { type: "text", align: "right", baseline: "bottom", dx: -4, dy: -8, fontSize: 12, fontWeight: "bold" };
    layers.push({ data: { values: labels }, mark: { ...label, stroke: "white", strokeWidth: 4, strokeJoin: "round", fill: "white" }, encoding: { x, y, text: { field: "label" } } });
    layers.push({ data: { values: labels }, mark: label, encoding: { x, y, text: { field: "label" }, color } });
  }
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: input.width,
    height: input.height,
    autosize: { type: "fit", contains: "padding" },
    padding: { left: 8, right: 12, top: 8, bottom: 8 },
    background: "white",
    title: input.bare ? undefined : { text: wrapText(title, room, 15), subtitle: subtitle.flatMap((line) => wrapText(line, room, 11)), subtitleFontSize: 11, subtitleColor: "#555", anchor: "start", fontSize: 15 },
    config: { font: "Helvetica, Arial, sans-serif", view: { stroke: null }, axis: { labelFontSize: 11, labelColor: "#333", domainColor: "#888", tickColor: "#888", gridColor: "#e6e6e6" } },
    layer: layers,
  };
}
