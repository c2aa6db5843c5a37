// Where a chart's parts go (src/domain/chart-layout.ts), for the cases people misread: different units, long legends
// and titles, few points, small sizes. Every layout is checked whole: each text box (measured with the chart font's
// widths) inside the picture and clear of every other.
import { describe, expect, test } from "bun:test";
import { MARGIN, MIN_PANEL } from "../../src/domain/chart-frame";
import { chartLayout, type ChartLayout } from "../../src/domain/chart-layout";
import { newestText, type ChartInput, type ChartSeries } from "../../src/domain/chart-text";
import type { TextRole } from "../../src/domain/chart-frame";
import { ASCENT, DESCENT, textWidth } from "../../src/domain/text-width";

const months = (from: string, values: (number | null)[]) =>
  values.map((value, k) => {
    const i = Number(from.slice(0, 4)) * 12 + Number(from.slice(5, 7)) - 1 + k;
    return { date: `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}-01`, value };
  });
const wave = (n: number, base: number, amp: number) =>
  Array.from({ length: n }, (_, k) => base + amp * Math.sin(k / 7));
const series = (s: Partial<ChartSeries> & { name: string; unit: string; values: number[] }): ChartSeries => ({
  label: s.name,
  place: "the United States",
  frequency: "monthly",
  points: months("2015-01", s.values),
  ...s,
});
const ATTRIBUTION = "Source: U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis.";
const chart = (s: ChartSeries[], o: Partial<ChartInput> = {}): ChartInput => ({
  series: s,
  attribution: ATTRIBUTION,
  recessions: [],
  width: 800,
  height: 400,
  ...o,
});

const UNRATE = series({ name: "Unemployment Rate", unit: "percent", values: wave(137, 5, 1.5) });
const PAYEMS = series({
  name: "All Employees, Total Nonfarm",
  unit: "thousands of persons",
  values: wave(137, 150000, 8000),
});
const CPI = series({
  name: "Consumer Price Index for All Urban Consumers: All Items in U.S. City Average",
  shortName: "Consumer Price Index",
  unit: "index 1982-1984=100",
  values: wave(137, 300, 30),
});

type Box = { text: string; left: number; right: number; top: number; bottom: number };
/** Each text's box as a browser draws it; a halo and its label are one box. */
function boxes(l: ChartLayout): Box[] {
  return l.texts
    .filter((t) => !t.halo)
    .map((t) => {
      const w = textWidth(t.text, t.size, t.bold);
      const left = t.align === "left" ? t.x : t.align === "right" ? t.x - w : t.x - w / 2;
      return { text: t.text, left, right: left + w, top: t.y - ASCENT * t.size, bottom: t.y + DESCENT * t.size };
    });
}
function expectReadable(l: ChartLayout) {
  expect(l.fits).toBe(true);
  const b = boxes(l);
  const outside = b.filter(
    (x) => x.left < MARGIN - 0.01 || x.right > l.width - MARGIN + 0.01 || x.top < 0 || x.bottom > l.height,
  );
  expect(outside).toEqual([]);
  const overlaps: string[] = [];
  for (let i = 0; i < b.length; i++) {
    for (let j = i + 1; j < b.length; j++) {
      const [p, q] = [b[i]!, b[j]!];
      if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom)
        overlaps.push(`${p.text} / ${q.text}`);
    }
  }
  expect(overlaps).toEqual([]);
  expect(l.texts.some((t) => t.text.includes("…"))).toBe(false);
}
/** How much of its panel a series' line spans, top to bottom (1: all of it). */
function spanOf(l: ChartLayout, k: number, panelHeight: number): number {
  const ys = l.lines[k]!.points.flatMap((p) => (p.y === null ? [] : [p.y]));
  return (Math.max(...ys) - Math.min(...ys)) / panelHeight;
}
const texts = (l: ChartLayout, role: TextRole) => l.texts.filter((t) => !t.halo && t.role === role).map((t) => t.text);

describe("different units never share an axis", () => {
  test("two units: an axis each, left and right, each named over it; neither line is flattened", () => {
    const l = chartLayout(chart([UNRATE, PAYEMS]));
    expectReadable(l);
    const right = l.texts.filter((t) => t.x > l.plot.right);
    expect(right.map((t) => t.text)).toContain("thousands of persons");
    expect(right.filter((t) => /^\d{3},000$/.test(t.text)).length).toBeGreaterThanOrEqual(3);
    expect(l.texts.find((t) => t.text === "percent")!.x).toBe(MARGIN);
    // Each line spans its axis but for the 5% either side.
    expect(l.panels.length).toBe(1);
    for (const k of [0, 1]) expect(spanOf(l, k, l.panels[0]!.bottom - l.panels[0]!.top)).toBeCloseTo(1 / 1.1, 2);
    // The legend says which axis each is read on.
    expect(texts(l, "legend").join(" ")).toContain(`Unemployment Rate (left) ${newestText(UNRATE)}`);
    expect(texts(l, "legend").join(" ")).toContain(`All Employees, Total Nonfarm (right) ${newestText(PAYEMS)}`);
  });
  test("three units: a panel each, named over it, sharing the dates; each line spans its own panel", () => {
    const l = chartLayout(chart([UNRATE, PAYEMS, CPI]));
    expectReadable(l);
    for (const unit of ["percent", "thousands of persons", "index 1982-1984=100"])
      expect(l.texts.find((t) => t.text === unit)!.x).toBe(MARGIN);
    expect(l.panels.length).toBe(3);
    l.panels.forEach((p, k) => {
      expect(p.bottom - p.top).toBeGreaterThanOrEqual(MIN_PANEL);
      if (k > 0) expect(p.top).toBeGreaterThan(l.panels[k - 1]!.bottom);
      expect(spanOf(l, k, p.bottom - p.top)).toBeCloseTo(1 / 1.1, 2);
    });
  });
});

describe("legends and labels fit or wrap", () => {
  const STATES = [
    "California",
    "Texas",
    "New York",
    "District of Columbia",
    "Florida",
    "Illinois",
    "Pennsylvania",
    "Ohio",
    "Georgia",
    "North Carolina",
  ];
  const places = STATES.map((place, k) =>
    series({
      name: "Unemployment Rate by State (LAUS, seasonally adjusted)",
      label: place,
      place,
      unit: "percent",
      values: wave(66, 4 + k / 5, 1),
    }),
  );
  test("ten places: every entry whole, with its newest value, in columns; none cut", () => {
    for (const [width, height] of [
      [800, 400],
      [400, 400],
      [250, 500],
    ] as const) {
      const l = chartLayout(chart(places, { width, height }));
      expectReadable(l);
      const legend = texts(l, "legend").join(" ");
      for (const s of places) expect(legend).toContain(`${s.label} ${newestText(s)}`);
      expect(l.symbols.length).toBe(10);
    }
  });
  test("long names wrap between words inside the legend's columns", () => {
    const long = [
      PAYEMS,
      series({
        name: "Unemployment Level - Mining, Quarrying, and Oil and Gas Extraction, Private Wage and Salary Workers",
        unit: "thousands of persons",
        values: wave(137, 60, 20),
      }),
    ];
    const l = chartLayout(chart(long, { width: 400, height: 300 }));
    expectReadable(l);
    const legend = texts(l, "legend");
    expect(legend.join(" ")).toBe(long.map((s) => `${s.name} ${newestText(s)}`).join(" "));
    expect(legend.length).toBeGreaterThan(2);
  });
  test("one series: its newest value beside its newest point, inside the plot, even at the plot's top right", () => {
    const rising = series({
      name: "Resident Population Estimate",
      unit: "persons",
      values: Array.from({ length: 24 }, (_, k) => 9_700_000 + 1000 * k),
    });
    const l = chartLayout(chart([rising], { width: 400, height: 250 }));
    expectReadable(l);
    const label = boxes(l).find((b) => b.text === "9,723,000 (Dec 2016)")!;
    expect(label.left).toBeGreaterThanOrEqual(l.plot.left);
    expect(label.top).toBeGreaterThanOrEqual(l.plot.top);
    expect(label.bottom).toBeLessThanOrEqual(l.plot.bottom);
    expect(l.texts.filter((t) => t.text === "9,723,000 (Dec 2016)").map((t) => t.halo)).toEqual([true, false]);
  });
});

describe("the newest value's label is clear of its line where there is room", () => {
  /** Points of the line (sampled every pixel along each segment) inside the label's box. */
  function crossings(l: ChartLayout): number {
    const box = boxes(l).find((b) => l.texts.some((t) => t.role === "newest" && t.text === b.text))!;
    const pts = l.lines[0]!.points.filter((p) => p.y !== null) as { x: number; y: number }[];
    let n = 0;
    for (let k = 1; k < pts.length; k++) {
      const [p, q] = [pts[k - 1]!, pts[k]!];
      const steps = Math.ceil(Math.hypot(q.x - p.x, q.y - p.y));
      for (let i = 0; i <= steps; i++) {
        const [x, y] = [p.x + ((q.x - p.x) * i) / steps, p.y + ((q.y - p.y) * i) / steps];
        if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) n++;
      }
    }
    return n;
  }
  for (const [shape, values] of [
    ["rising steeply to the top right", Array.from({ length: 24 }, (_, k) => 100 + k * k)],
    ["falling to the bottom right", Array.from({ length: 24 }, (_, k) => 1000 - 30 * k)],
    ["a V ending at the top", Array.from({ length: 24 }, (_, k) => Math.abs(k - 12))],
  ] as const) {
    test(shape, () => {
      const l = chartLayout(
        chart([series({ name: "Payroll Jobs", unit: "thousands", values: [...values] })], { width: 760, height: 340 }),
      );
      expectReadable(l);
      expect(crossings(l)).toBe(0);
    });
  }
});

describe("titles, ticks and sizes", () => {
  test("a long title breaks between words; longer than two lines, it is said with the short names", () => {
    const l = chartLayout(chart([CPI], { width: 600, height: 300 }));
    expectReadable(l);
    expect(texts(l, "title")).toEqual([
      "Consumer Price Index for All Urban Consumers: All Items in U.S. City",
      "Average: United States",
    ]);
    const small = chartLayout(chart([CPI, UNRATE], { width: 400, height: 300 }));
    expectReadable(small);
    expect(texts(small, "title").join(" ")).toBe("Consumer Price Index, Unemployment Rate: United States");
  });
  test("dates follow the coarsest frequency: an annual series of two points is labelled with its two years", () => {
    const two = series({
      name: "Resident Population Estimate",
      unit: "persons",
      frequency: "annual",
      values: [],
      points: [
        { date: "2023-01-01", value: 9_731_000 },
        { date: "2024-01-01", value: 9_757_179 },
      ],
    });
    const l = chartLayout(chart([two]));
    expectReadable(l);
    expect(texts(l, "date-axis")).toEqual(["2023", "2024"]);
    // The line runs the whole plot: no band left empty on its right.
    expect(l.lines[0]!.points.map((p) => p.x)).toEqual([l.plot.left, l.plot.right]);
    expect(l.width - l.plot.right).toBeLessThan(30);
  });
  test("one point: a period either side, its date the tick", () => {
    const one = series({
      name: "Unemployment Rate",
      unit: "percent",
      values: [],
      points: [{ date: "2009-09-01", value: 12.4 }],
    });
    const l = chartLayout(chart([one], { width: 300, height: 200 }));
    expectReadable(l);
    // August 2009 to October 2009: September 1 is 31 of the 61 days in.
    expect(l.lines[0]!.points[0]!.x).toBeCloseTo(l.plot.left + (31 / 61) * (l.plot.right - l.plot.left), 6);
    expect(texts(l, "date-axis")).toEqual(["Aug 2009", "Sep", "Oct"]);
  });
  test("too small: the height at which it fits, exact to the pixel; a pixel less does not", () => {
    const ten = Array.from({ length: 10 }, (_, k) =>
      series({ name: `Series ${k}`, unit: `unit ${k}`, values: wave(60, 10 * (k + 1), 3) }),
    );
    const l = chartLayout(chart(ten, { height: 300 }));
    expect(l.fits).toBe(false);
    expect(l.height).toBe(l.neededHeight);
    expect(chartLayout(chart(ten, { height: l.neededHeight })).fits).toBe(true);
    expect(chartLayout(chart(ten, { height: l.neededHeight - 1 })).fits).toBe(false);
    expectReadable(chartLayout(chart(ten, { height: l.neededHeight })));
  });
  test("the smallest chart (200 x 200) of one US series fits, in the compact type", () => {
    const l = chartLayout(
      chart([UNRATE], { width: 200, height: 200, recessions: [{ start: "2020-03-01", end: "2020-05-01" }] }),
    );
    expectReadable(l);
    expect(Math.min(...l.texts.map((t) => t.size))).toBe(10);
  });
  test("a landing card's bare chart (250 x 200): no title, text at 12 px, the plot the card's width", () => {
    const l = chartLayout(chart([UNRATE], { width: 250, height: 200, bare: true }));
    expectReadable(l);
    expect(new Set(l.texts.map((t) => t.size))).toEqual(new Set([12]));
    expect([texts(l, "title"), texts(l, "subtitle")]).toEqual([[], []]);
    expect(l.width - l.plot.right).toBeLessThan(30);
  });
});
