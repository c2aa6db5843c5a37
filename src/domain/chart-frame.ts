// The vertical budget of a chart's layout (chart-layout.ts places everything in it), pure: the chart's text measured
// (text-width.ts advance widths, SLACK wider) and wrapped, its typography and colours, the title and subtitle placed,
// the headings of two or more units and the legend measured, and the height left for each panel at a given height.
import { chartText, legendLabels, newestText, unitText, unitsOf, type ChartInput } from "./chart-text";
import { ASCENT, DESCENT, textWidth, wrapLines } from "./text-width";

export const MARGIN = 8;
export const MIN_PANEL = 40;
/** The most lines a title takes in its full form: a longer one is said with the series' short names. */
export const TITLE_LINES = 2;
const SLACK = 1.05;
export const INK = "#222";
export const MUTED = "#555";
const PALETTE = [
  "#4c78a8",
  "#f58518",
  "#e45756",
  "#72b7b2",
  "#54a24b",
  "#eeca3b",
  "#b279a2",
  "#ff9da6",
  "#9d755d",
  "#bab0ac",
];
const ONE_COLOR = "#1f5fa8";

type Typography = { title: number; text: number; value: number };
const NORMAL: Typography = { title: 15, text: 11, value: 12 };
const COMPACT: Typography = { title: 13, text: 10, value: 11 };
const BARE: Typography = { title: 0, text: 12, value: 12 };

export type TextRole = "title" | "subtitle" | "heading" | "value-axis" | "date-axis" | "newest" | "legend";
export type TextItem = {
  role: TextRole;
  x: number;
  y: number;
  text: string;
  size: number;
  bold: boolean;
  align: "left" | "center" | "right";
  color: string;
  halo?: boolean;
};

export const lineHeight = (size: number) => Math.ceil(size * 1.25);
export const boxHeight = (size: number) => (ASCENT + DESCENT) * size;
/** How far a label centred on a tick reaches above or below it. */
const halfBox = (size: number) => Math.ceil(boxHeight(size) / 2);
/** The room between a heading and the panel or axis it names: the top value label reaches half a line above it. */
export const headGap = (size: number) => halfBox(size) + 3;
export const headingHeight = (lines: string[], size: number) =>
  lines.length ? lines.length * lineHeight(size) + headGap(size) : 0;
const wrap = (text: string, width: number, size: number, bold = false) => wrapLines(text, width / SLACK, size, bold);
export const measure = (text: string, size: number, bold = false) => textWidth(text, size, bold) * SLACK;

type Legend = {
  height: number;
  columns: number;
  width: number;
  entries: { lines: string[]; color: string }[];
  rows: number[];
};
export const SYMBOL = 14;
export const COLUMN_GAP = 16;
export const ROW_GAP = 3;

/** The narrowest a legend column is made (a column narrower than this wraps every entry). */
const MIN_COLUMN = 90;

/** Legend entries in the columns that make it shortest (fewer wrapped lines on a tie). */
function legendLayout(entries: { text: string; color: string }[], room: number, size: number): Legend {
  let best: (Legend & { lines: number }) | null = null;
  for (
    let columns = Math.max(1, Math.min(entries.length, Math.floor((room + COLUMN_GAP) / (MIN_COLUMN + COLUMN_GAP))));
    columns >= 1;
    columns--
  ) {
    const width = (room - (columns - 1) * COLUMN_GAP) / columns;
    const laid = entries.map((e) => ({ lines: wrap(e.text, width - SYMBOL, size), color: e.color }));
    const rows: number[] = [];
    for (let k = 0; k < laid.length; k += columns)
      rows.push(Math.max(...laid.slice(k, k + columns).map((e) => e.lines.length)));
    const height = rows.reduce((a, b) => a + b, 0) * lineHeight(size) + (rows.length - 1) * ROW_GAP;
    const lines = laid.reduce((a, e) => a + e.lines.length, 0);
    if (!best || height < best.height || (height === best.height && lines < best.lines))
      best = { height, columns, width, entries: laid, rows, lines };
  }
  return best!;
}

export type Group = { unit: string; series: number[]; side: "left" | "right" };

function unitGroups(input: ChartInput): Group[] {
  const units = unitsOf(input);
  return units.map((unit, k) => ({
    unit,
    series: input.series.flatMap((s, i) => (unitText(s) === unit ? [i] : [])),
    side: units.length === 2 && k === 1 ? "right" : "left",
  }));
}

export const textAt =
  (texts: TextItem[], size: number) =>
  (role: TextRole, x: number, top: number, text: string, o: Partial<TextItem> = {}) =>
    void texts.push({
      role,
      x,
      y: top + ASCENT * (o.size ?? size),
      text,
      size,
      bold: false,
      align: "left",
      color: MUTED,
      ...o,
    });

/**
 * The vertical budget at `height`, with the title in its full or short form: the title and subtitle placed, the
 * headings and legend measured, and the height left for each panel (`fits` when it is MIN_PANEL or more).
 */
export function frame(input: ChartInput, short: boolean, height: number) {
  const W = input.width;
  const H = height;
  const T = input.bare ? BARE : Math.min(W, input.height) < 300 ? COMPACT : NORMAL;
  const s = T.text;
  const room = W - 2 * MARGIN;
  const groups = unitGroups(input);
  const mode = groups.length === 1 ? "one" : groups.length === 2 ? "dual" : "panels";
  const colors = input.series.length === 1 ? [ONE_COLOR] : input.series.map((_, k) => PALETTE[k % PALETTE.length]!);
  const texts: TextItem[] = [];
  const label = textAt(texts, s);

  // Title and subtitle.
  let y = MARGIN;
  if (!input.bare) {
    const words = chartText(input);
    for (const line of wrap(short ? words.shortTitle : words.title, room, T.title, true)) {
      label("title", MARGIN, y, line, { size: T.title, bold: true, color: INK });
      y += lineHeight(T.title);
    }
    y += 2;
    for (const line of (short ? words.shortSubtitle : words.subtitle).flatMap((l) => wrap(l, room, s))) {
      label("subtitle", MARGIN, y, line);
      y += lineHeight(s);
    }
    y += 4;
  }

  // Headings of the axes (two units) or panels (three or more).
  const headingLines = (text: string, width: number) => wrap(text, width, s);
  let dualHeadings: string[][] = [];
  if (mode === "dual") {
    const [a, b] = [groups[0]!.unit, groups[1]!.unit];
    const oneLine = measure(a, s) + measure(b, s) + COLUMN_GAP <= room;
    dualHeadings = oneLine
      ? [[a], [b]]
      : [headingLines(a, (room - COLUMN_GAP) / 2), headingLines(b, (room - COLUMN_GAP) / 2)];
  }
  const panelHeadings =
    mode === "panels"
      ? groups.map((g) => headingLines(g.unit, room))
      : mode === "dual"
        ? [dualHeadings.reduce((a, b) => (b.length > a.length ? b : a))]
        : [[]];

  // The legend at the bottom, the date labels above it.
  const labels = legendLabels(input);
  const legendEntries =
    input.series.length > 1
      ? input.series.map((x, k) => ({
          text: `${labels[k]}${mode === "dual" ? ` (${groups.find((g) => g.series.includes(k))!.side})` : ""} ${newestText(x)}`,
          color: colors[k]!,
        }))
      : [];
  const legend = legendEntries.length ? legendLayout(legendEntries, room, s) : null;
  const legendTop = H - MARGIN - (legend?.height ?? 0);
  const tick = 4;
  const dateLabelTop = tick + 4;
  const plotBottom = (legend ? legendTop - 10 : H - MARGIN) - dateLabelTop - lineHeight(s);
  // The top value label reaches half a line above the plot.
  const plotTop = Math.max(y + (panelHeadings[0]!.length ? 0 : halfBox(s) + 2), MARGIN + halfBox(s));

  // Panels: their heights, what does not fit.
  const n = panelHeadings.length;
  const between = halfBox(s) + 6;
  const free = plotBottom - plotTop - panelHeadings.reduce((a, l) => a + headingHeight(l, s), 0) - (n - 1) * between;
  const panelHeight = free / n;
  const fits = panelHeight >= MIN_PANEL;
  const neededHeight = fits ? H : Math.ceil(H + (MIN_PANEL - panelHeight) * n);
  const titleLines = texts.filter((t) => t.role === "title").length;
  return {
    short,
    W,
    H,
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
    fits,
    neededHeight,
    titleLines,
  };
}
export type Frame = ReturnType<typeof frame>;
