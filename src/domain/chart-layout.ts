// Where everything of a chart is drawn, in pixels of the picture (origin top left). Pure. By definition:
// - Text is measured with the chart font's own advance widths (text-width.ts), SLACK wider for fonts a little wider
//   than Helvetica; it is wrapped between words to the room it has, and never cut: a title, subtitle, heading or
//   legend entry that is long takes more lines.
// - Top to bottom: the title and subtitle (none on a bare chart), the plot, the date labels, the legend (when there
//   are several series). Every text box lies inside the picture, at least MARGIN from its edges, and no two overlap.
// - Series are grouped by unit. One unit: one axis on the left. Two: the first unit's axis on the left, the second's
//   on the right, each named above its axis (in its line's colour when it has one line), and each legend entry says
//   which axis it is read on. Three or more: one panel per unit, stacked, each named above it, sharing the dates.
// - The date axis runs from the first date drawn to the last (one date: a period either side), ticks as
//   chart-ticks.ts chooses them for the coarsest frequency drawn. Each value axis covers its series' values
//   (chart-ticks.ts), ticks 2.6 font sizes apart or more (1.5 where that would leave fewer than two), with grid lines
//   from the left axis.
// - One series: its newest point is labelled "<value> (<period>)" beside it, inside the plot, where its line crosses
//   the label least (newestLabelAt). Several: a legend of coloured entries, each with its newest value, in as many
//   columns as make it shortest.
// - A title longer than TITLE_LINES lines is said with the series' short names. A plot shorter than MIN_PANEL pixels
//   (per panel) does not fit: `neededHeight` says the height at which it does.
// The vertical budget (text measured, title and subtitle, headings, legend, each panel's height) is chart-frame.ts's;
// this module places everything in it.
import { addDays, addMonths, dayNumber, FREQUENCY_RANK, type Frequency } from "./calendar";
import {
  boxHeight,
  COLUMN_GAP,
  frame,
  headGap,
  headingHeight,
  INK,
  lineHeight,
  MARGIN,
  measure,
  MUTED,
  ROW_GAP,
  SYMBOL,
  textAt,
  TITLE_LINES,
  type Frame,
  type Group,
  type TextItem,
} from "./chart-frame";
import { dateTicks, placedLeft, valueTicks } from "./chart-ticks";
import { newest, newestText, span, type ChartInput, type ChartSeries } from "./chart-text";

export type Rule = { x: number; y: number; x2: number; y2: number; kind: "grid" | "axis" };
export type Dot = { x: number; y: number; color: string };
export type ChartLayout = {
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  /** The plot's panels, top to bottom: one, or one per unit when there are three or more. */
  panels: { top: number; bottom: number }[];
  lines: { series: number; color: string; points: { x: number; y: number | null }[] }[];
  markers: Dot[];
  bands: { x: number; x2: number; y: number; y2: number }[];
  rules: Rule[];
  texts: TextItem[];
  symbols: Dot[];
  fits: boolean;
  neededHeight: number;
};

/** The coarsest frequency drawn: ticks never finer than any series' periods. */
const coarsest = (series: ChartSeries[]) =>
  series.map((s) => s.frequency).reduce((a, b) => (FREQUENCY_RANK[b] > FREQUENCY_RANK[a] ? b : a));

function shiftPeriods(date: string, frequency: Frequency, n: number): string {
  if (frequency === "daily") return addDays(date, n);
  if (frequency === "weekly") return addDays(date, 7 * n);
  return addMonths(date, n * { monthly: 1, quarterly: 3, annual: 12 }[frequency]);
}

type Rect = { x: number; y: number; w: number; h: number };
/** What a segment of the line crossing the newest value's label costs, in pixels of distance from its point. */
const CROSSING = 30;
type Point = { x: number; y: number };

/** Whether the segment from p to q passes within 2 pixels of `r` (Liang-Barsky clipping). */
function crosses(r: Rect, p: Point, q: Point): boolean {
  const [dx, dy] = [q.x - p.x, q.y - p.y];
  let [t0, t1] = [0, 1];
  for (const [d, room] of [
    [-dx, p.x - (r.x - 2)],
    [dx, r.x + r.w + 2 - p.x],
    [-dy, p.y - (r.y - 2)],
    [dy, r.y + r.h + 2 - p.y],
  ] as const) {
    if (d === 0) {
      if (room < 0) return false;
      continue;
    }
    const t = room / d;
    if (d < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * The top left of the newest value's label (w by h): beside its point m (above or below it, left or right, up to half
 * a label's width and two lines away), inside `bounds`, where the segments of the line crossing it and its distance
 * from m cost least, a crossing as much as CROSSING pixels of distance; on a tie, left before right, above before below.
 */
function newestLabelAt(points: { x: number; y: number | null }[], m: Point, w: number, h: number, bounds: Rect): Point {
  const segments: [Point, Point][] = [];
  for (let k = 1; k < points.length; k++) {
    const [p, q] = [points[k - 1]!, points[k]!];
    if (p.y !== null && q.y !== null)
      segments.push([
        { x: p.x, y: p.y },
        { x: q.x, y: q.y },
      ]);
  }
  const candidates: Point[] = [];
  for (const side of [-1, 1]) {
    for (const shift of [0, w / 4, w / 2]) {
      const x = side < 0 ? m.x - 6 - w - shift : m.x + 6 + shift;
      for (const y of [m.y - 7 - h, m.y - 7 - 2 * h, m.y + 7, m.y + 7 + h]) candidates.push({ x, y });
      candidates.push({ x: side < 0 ? x - 3 : x + 3, y: m.y - h / 2 });
    }
  }
  const inside = (c: Point) =>
    c.x >= bounds.x && c.x + w <= bounds.x + bounds.w && c.y >= bounds.y && c.y + h <= bounds.y + bounds.h;
  const away = (c: Point) => Math.hypot(Math.max(c.x - m.x, 0, m.x - c.x - w), Math.max(c.y - m.y, 0, m.y - c.y - h));
  let best: { at: Point; cost: number } | null = null;
  for (const c of candidates.filter(inside)) {
    const cost = CROSSING * segments.filter(([p, q]) => crosses({ ...c, w, h }, p, q)).length + away(c);
    if (!best || cost < best.cost - 0.01) best = { at: c, cost };
  }
  return (
    best?.at ?? {
      x: Math.max(bounds.x, Math.min(bounds.x + bounds.w - w, m.x - 6 - w)),
      y: Math.max(bounds.y, Math.min(bounds.y + bounds.h - h, m.y - 7 - h)),
    }
  );
}

/** Everything placed in a frame that fits. */
function place(input: ChartInput, f: Frame): ChartLayout {
  const {
    W,
    T,
    s,
    groups,
    mode,
    colors,
    texts,
    dualHeadings,
    panelHeadings,
    legend,
    legendTop,
    tick,
    dateLabelTop,
    plotTop,
    plotBottom,
    n,
    between,
    panelHeight,
  } = f;
  const label = textAt(texts, s);
  const panels: { top: number; bottom: number; groups: Group[] }[] = [];
  let top = plotTop;
  for (let k = 0; k < n; k++) {
    top += headingHeight(panelHeadings[k]!, s);
    panels.push({ top, bottom: top + panelHeight, groups: mode === "panels" ? [groups[k]!] : groups });
    top += panelHeight + between;
  }

  // Value axes, and the room their labels take either side.
  const axes = groups.map((g) => {
    const values = g.series.flatMap((i) => input.series[i]!.points.flatMap((p) => (p.value === null ? [] : [p.value])));
    const [min, max] = values.length ? [Math.min(...values), Math.max(...values)] : [0, 1];
    return valueTicks(min, max, panelHeight, Math.round(2.6 * s), Math.ceil(1.5 * s));
  });
  const labelsWidth = (side: "left" | "right") =>
    Math.max(0, ...groups.flatMap((g, k) => (g.side === side ? axes[k]!.labels.map((l) => measure(l, s)) : [])));
  const [leftLabels, rightLabels] = [labelsWidth("left"), labelsWidth("right")];

  // The date axis: margins widened until its end labels fit inside the picture.
  const { from: first, to: last } = span(input);
  const frequency = coarsest(input.series);
  const [from, to] =
    first === last ? [shiftPeriods(first, frequency, -1), shiftPeriods(last, frequency, 1)] : [first, last];
  const [d0, d1] = [dayNumber(from), dayNumber(to)];
  let left = MARGIN + leftLabels + 6;
  let right = W - MARGIN - (rightLabels ? rightLabels + 6 : 0);
  const xOf = (date: string) => left + ((dayNumber(date) - d0) / (d1 - d0)) * (right - left);
  let ticks = dateTicks(from, to, frequency, xOf, s, MARGIN, W - MARGIN);
  for (let pass = 0; pass < 2 && ticks.length; pass++) {
    const over = Math.max(...ticks.map((t) => t.x + measure(t.label, s) / 2)) - (W - MARGIN);
    const under = MARGIN - Math.min(...ticks.map((t) => t.x - measure(t.label, s) / 2));
    if (over <= 0.5 && under <= 0.5) break;
    if (over > 0.5 && !rightLabels) right -= over;
    if (under > 0.5) left += under;
    ticks = dateTicks(from, to, frequency, xOf, s, MARGIN, W - MARGIN);
  }

  // Rules, value labels and headings.
  const rules: Rule[] = [];
  const yOf = (k: number, v: number) => {
    const panel = panels.find((p) => p.groups.includes(groups[k]!))!;
    const a = axes[k]!;
    return panel.bottom - ((v - a.lo) / (a.hi - a.lo)) * (panel.bottom - panel.top);
  };
  const single = (g: Group) => (g.series.length === 1 ? colors[g.series[0]!]! : MUTED);
  groups.forEach((g, k) => {
    axes[k]!.ticks.forEach((v, j) => {
      const ty = yOf(k, v);
      if (g.side === "left") rules.push({ x: left, y: ty, x2: right, y2: ty, kind: "grid" });
      const text = axes[k]!.labels[j]!;
      label("value-axis", g.side === "left" ? left - 6 : right + 6, ty - boxHeight(s) / 2, text, {
        align: g.side === "left" ? "right" : "left",
        color: mode === "dual" ? single(g) : "#333",
      });
    });
  });
  panels.forEach((p, k) => {
    rules.push({ x: left, y: p.bottom, x2: right, y2: p.bottom, kind: "axis" });
    const lines = panelHeadings[k]!;
    const headTop = p.top - headGap(s) - lines.length * lineHeight(s);
    if (mode === "panels")
      lines.forEach((l, j) =>
        label("heading", MARGIN, headTop + j * lineHeight(s), l, { color: single(p.groups[0]!) }),
      );
    if (mode === "dual") {
      dualHeadings[0]!.forEach((l, j) =>
        label("heading", MARGIN, headTop + j * lineHeight(s), l, { color: single(groups[0]!) }),
      );
      dualHeadings[1]!.forEach((l, j) =>
        label("heading", W - MARGIN, headTop + j * lineHeight(s), l, { align: "right", color: single(groups[1]!) }),
      );
    }
  });
  for (const t of ticks) {
    rules.push({ x: t.x, y: plotBottom, x2: t.x, y2: plotBottom + tick, kind: "axis" });
    const w = measure(t.label, s);
    label("date-axis", placedLeft(t.x, w, MARGIN, W - MARGIN) + w / 2, plotBottom + dateLabelTop, t.label, {
      align: "center",
      color: "#333",
    });
  }

  // Lines, bands, newest points.
  const groupOf = (i: number) => groups.findIndex((g) => g.series.includes(i));
  const lines = input.series.map((x, i) => ({
    series: i,
    color: colors[i]!,
    points: x.points.map((p) => ({ x: xOf(p.date), y: p.value === null ? null : yOf(groupOf(i), p.value) })),
  }));
  const clip = (d: string) => (d < from ? from : d > to ? to : d);
  const bands = panels.flatMap((p) =>
    input.recessions.map((b) => ({ x: xOf(clip(b.start)), x2: xOf(clip(b.end)), y: p.top, y2: p.bottom })),
  );
  const markers = input.series.flatMap((x, i) => {
    const p = newest(x);
    return p ? [{ x: xOf(p.date), y: yOf(groupOf(i), p.value!), color: colors[i]! }] : [];
  });

  // One series: its newest value beside its newest point, inside the plot, where its line crosses it least.
  if (input.series.length === 1 && markers.length) {
    const text = newestText(input.series[0]!);
    const [w, h] = [measure(text, T.value, true), boxHeight(T.value)];
    const at = newestLabelAt(lines[0]!.points, markers[0]!, w, h, {
      x: left,
      y: plotTop,
      w: W - MARGIN - left,
      h: plotBottom - plotTop,
    });
    for (const halo of [true, false])
      label("newest", at.x + w / 2, at.y, text, {
        size: T.value,
        bold: true,
        align: "center",
        color: markers[0]!.color,
        halo,
      });
  }

  // Legend entries: a dot, then the text.
  const symbols: Dot[] = [];
  if (legend) {
    let rowTop = legendTop;
    legend.entries.forEach((e, k) => {
      const [row, column] = [Math.floor(k / legend.columns), k % legend.columns];
      if (column === 0 && row > 0) rowTop += legend.rows[row - 1]! * lineHeight(s) + ROW_GAP;
      const x = MARGIN + column * (legend.width + COLUMN_GAP);
      symbols.push({ x: x + 5, y: rowTop + lineHeight(s) / 2, color: e.color });
      e.lines.forEach((l, j) =>
        label("legend", x + SYMBOL, rowTop + j * lineHeight(s) + (lineHeight(s) - boxHeight(s)) / 2, l, { color: INK }),
      );
    });
  }
  return {
    width: W,
    height: f.H,
    plot: { left, right, top: plotTop, bottom: plotBottom },
    panels: panels.map((p) => ({ top: p.top, bottom: p.bottom })),
    lines,
    markers,
    bands,
    rules,
    texts,
    symbols,
    fits: true,
    neededHeight: f.H,
  };
}

/**
 * The frame a chart is laid out in at its size: the full title when it fits in at most TITLE_LINES lines, else the
 * short one; when neither fits, the short one's (`fits` false, `neededHeight` the height at which it does).
 */
function chosenFrame(input: ChartInput): Frame {
  const full = frame(input, false, input.height);
  if (full.fits && full.titleLines <= TITLE_LINES) return full;
  const short = input.bare ? full : frame(input, true, input.height);
  if (short.fits || !full.fits) return short;
  return full;
}

/** Whether the chart fits its size, and the height at which it would: the frame alone, nothing placed in it. */
export function chartFit(input: ChartInput): { fits: boolean; neededHeight: number } {
  const { fits, neededHeight } = chosenFrame(input);
  return { fits, neededHeight };
}

/** The chart's layout at its size; when it does not fit, at the height that does, so nothing is ever drawn cut. */
export function chartLayout(input: ChartInput): ChartLayout {
  const f = chosenFrame(input);
  if (f.fits) return place(input, f);
  return { ...place(input, frame(input, f.short, f.neededHeight)), fits: false, neededHeight: f.neededHeight };
}
