// Direction, thresholds, growth over a span, moves between places and the catalog's vocabulary (src/domain/direction.ts,
// src/domain/ask/moves.ts, lead.ts, flows-lead.ts, vocabulary.ts), on the shipped FRED files and hand-made rows: the
// answer word first, the change over the stated period in points for a rate and in percent for a level.
import { describe, expect, test } from "bun:test";
import { moveOver, pointAtOrBefore, signOf } from "../../src/domain/direction";
import { leadSentence, type View } from "../../src/domain/ask/lead";
import { directionLead, thresholdLead } from "../../src/domain/ask/moves";
import { flowsLead } from "../../src/domain/ask/flows-lead";
import { vocabularyMatches } from "../../src/domain/ask/vocabulary";
import { fredRows, fredValue } from "../support/snapshot";

const view = (o: Partial<View> & Pick<View, "label" | "unit" | "points" | "values">): View => ({
  growthLabel: null,
  place: "the United States",
  frequency: "monthly",
  state: null,
  jobs: false,
  ...o,
});
const unrate = fredRows("UNRATE");
const payems = fredRows("PAYEMS");
const cpi = fredRows("CPIAUCSL");

describe("moves over a span", () => {
  const pts = [
    { date: "2025-01-01", value: 4 },
    { date: "2025-06-01", value: 4.2 },
    { date: "2026-01-01", value: 4.1 },
  ];
  test("from the newest value at or before the span's start; a percent only of a level or an index", () => {
    expect(pointAtOrBefore(pts, "2025-07-15")).toEqual({ date: "2025-06-01", value: 4.2 });
    expect(pointAtOrBefore(pts, "2024-12-31")).toBeNull();
    expect(moveOver(pts, { kind: "rate" }, { decimals: 1 })).toMatchObject({
      dir: "up",
      from: { date: "2025-01-01" },
      percent: null,
      months: 12,
    });
    expect(moveOver(pts, { kind: "level" }, { decimals: 1 })!.percent).toBeCloseTo(2.5, 10);
    expect(moveOver(pts, { kind: "rate" }, { months: 6, decimals: 1 })).toMatchObject({
      dir: "down",
      from: { date: "2025-06-01", value: 4.2 },
    });
    // 4.0 to 4.04 rounds to no change at one decimal: flat.
    expect(
      moveOver(
        [
          { date: "2025-01-01", value: 4 },
          { date: "2026-01-01", value: 4.04 },
        ],
        { kind: "rate" },
        { decimals: 1 },
      )!.dir,
    ).toBe("flat");
    expect(moveOver(pts.slice(2), { kind: "rate" }, { decimals: 1 })).toBeNull();
    expect([signOf(7.57, 2), signOf(-0.001, 2), signOf(-0.3, 2)]).toEqual(["up", "flat", "down"]);
  });
  test("the unemployment rate from May 2025 to May 2026: unchanged at 4.3%, 'Flat' first; asked 'is it rising': No", () => {
    expect([fredValue(unrate, "2025-05-01"), fredValue(unrate, "2026-05-01")]).toEqual([4.3, 4.3]);
    const v = view({ label: "the unemployment rate", unit: "percent", values: { kind: "rate" }, points: unrate });
    expect(
      directionLead(v, { kind: "direction", months: null }, false, false, { ofGrowth: false, asksChange: false }).text,
    ).toBe("Flat: the unemployment rate in the United States was unchanged from May 2025 to May 2026, at 4.3%.");
    expect(
      directionLead(v, { kind: "direction", months: null }, true, false, { ofGrowth: false, asksChange: false }).text,
    ).toStartWith("No: ");
    // Over 3 months: 4.4% in February 2026 to 4.3%: down 0.1 points.
    const three = directionLead(v, { kind: "direction", months: 3 }, false, false, {
      ofGrowth: false,
      asksChange: false,
    });
    expect(fredValue(unrate, "2026-02-01")).toBe(4.4);
    expect(three.text).toBe(
      "Down: the unemployment rate in the United States fell 0.1 percentage points from February 2026 to May 2026, to 4.3%.",
    );
  });
  test("payrolls over 12 months: up, by a percent and the difference in thousands", () => {
    const [from, to] = [fredValue(payems, "2025-05-01")!, fredValue(payems, "2026-05-01")!];
    const v = view({
      label: "nonfarm payrolls",
      unit: "thousands of persons",
      values: { kind: "level" },
      points: payems,
    });
    const lead = directionLead(v, { kind: "direction", months: null }, true, true, {
      ofGrowth: false,
      asksChange: false,
    });
    // "Is the economy losing jobs?" asks about a fall: the rise answers no.
    expect(lead.text).toStartWith("No: nonfarm payrolls in the United States rose ");
    expect(lead.figures).toMatchObject({ from, to, percent: Number((((to - from) / from) * 100).toFixed(1)) });
  });
  test("inflation's own direction is its 12-month change against the one a year before", () => {
    const yoy = (d: string, back: string) => (fredValue(cpi, d)! / fredValue(cpi, back)! - 1) * 100;
    const v = view({
      label: "the consumer price index",
      growthLabel: "inflation",
      unit: "index 1982-1984=100",
      values: { kind: "index" },
      points: cpi,
    });
    const lead = directionLead(v, { kind: "direction", months: null }, false, false, {
      ofGrowth: true,
      asksChange: true,
    });
    const [then, now] = [yoy("2025-04-01", "2024-04-01"), yoy("2026-04-01", "2025-04-01")];
    expect(lead.text).toBe(
      `Up: inflation in the United States rose ${(Math.round(now * 10) / 10 - Math.round(then * 10) / 10).toFixed(1)} percentage points from April 2025 to April 2026, to ${now.toFixed(1)}%.`,
    );
  });
  test("a published change asked about what it measures ('is India's economy growing'): the sign of the newest value", () => {
    const v = view({
      label: "real GDP growth",
      place: "India",
      frequency: "annual",
      unit: "percent",
      values: { kind: "change", spanMonths: 12 },
      points: [
        { date: "2024-01-01", value: 7.09927893176518 },
        { date: "2025-01-01", value: 7.56666179284244 },
      ],
    });
    expect(
      directionLead(v, { kind: "direction", months: null }, true, false, { ofGrowth: false, asksChange: false }).text,
    ).toBe("Yes: real GDP growth in India was 7.57% in 2025, an increase.");
    // Asked about the growth itself ("is India's growth slowing"): its own move, 7.10 to 7.57, up.
    expect(
      directionLead(v, { kind: "direction", months: null }, true, true, { ofGrowth: false, asksChange: true }).text,
    ).toStartWith("No: real GDP growth in India rose 0.47 percentage points from 2024 to 2025");
  });
});

describe("a threshold of one place, growth over a span", () => {
  test("'is the unemployment rate under 5 percent': yes, 4.3%", () => {
    const v = view({ label: "the unemployment rate", unit: "percent", values: { kind: "rate" }, points: unrate });
    expect(thresholdLead(v, { kind: "threshold", op: "<", value: 5 }, true, false).text).toBe(
      "Yes: the unemployment rate in the United States was 4.3% in May 2026, below 5%.",
    );
    expect(thresholdLead(v, { kind: "threshold", op: ">", value: 4.5 }, true, false).text).toStartWith("No: ");
  });
  test("real GDP's growth over the last quarter, also at an annual rate", () => {
    const gdp = [
      { date: "2025-04-01", value: 23770.976 },
      { date: "2025-07-01", value: 24024.957 },
    ];
    const v = view({
      label: "real GDP",
      growthName: "real GDP growth (adjusted for inflation)",
      frequency: "quarterly",
      unit: "billions of chained 2017 dollars, SAAR",
      values: { kind: "level" },
      points: gdp,
    });
    const lead = leadSentence(v, { kind: "growth", at: null, months: 3 }, false);
    // 24024.957 / 23770.976 = 1.010685 -> 1.1%; annualized 1.010685^4 - 1 = 4.3%.
    expect(lead.text).toBe(
      "Real GDP growth (adjusted for inflation) in the United States was 1.1% in the third quarter of 2025 (4.3% at an annual rate), the change of real GDP from the second quarter of 2025.",
    );
    expect(lead.figures).toMatchObject({ percent: 1.1, annualized: 4.3, months: 3 });
  });
});

describe("moves between places, and the catalog's own words", () => {
  const row = (o: string, d: string, value: number | null) => ({
    origin: { code: o, name: o },
    destination: { code: d, name: d },
    value,
  });
  test("out of a place: the largest destinations, a place's own row left out", () => {
    const lead = flowsLead({
      way: "out",
      place: "San Francisco County, California",
      measure: "exemptions",
      periodStart: "2014-01-01",
      periodEnd: "2015-12-31",
      datasets: ["irs-soi-county"],
      count: 2,
      rows: [
        row("SF", "SF", 600000),
        row("SF", "San Mateo", 6551),
        row("SF", "Alameda", 6312),
        row("SF", "Marin", 1948),
      ],
    });
    expect(lead.text).toBe(
      "Of the people who moved out of San Francisco County, California from 2014 to 2015, the most went to San Mateo (6,551 people (tax exemptions)), then Alameda (6,312) (IRS SOI county-to-county migration data).",
    );
    expect(lead.figures).toMatchObject({ "1:San Mateo": 6551, "2:Alameda": 6312 });
  });
  test("into a place and between two: ACS movers in a year", () => {
    expect(
      flowsLead({
        way: "in",
        place: "Texas",
        measure: "movers",
        periodStart: "2019-01-01",
        periodEnd: "2019-12-31",
        datasets: ["acs-state-to-state-1y"],
        count: 1,
        rows: [row("California", "Texas", 82235)],
      }).text,
    ).toBe(
      "Of the people who moved into Texas in 2019, the most came from California (82,235 people) (Census ACS 1-year state-to-state migration flows).",
    );
    expect(
      flowsLead({
        way: "between",
        place: "California",
        other: "Texas",
        measure: "movers",
        periodStart: "2019-01-01",
        periodEnd: "2019-12-31",
        datasets: ["acs-state-to-state-1y"],
        count: 1,
        rows: [row("California", "Texas", 82235)],
      }).text,
    ).toBe("82,235 people moved from California to Texas in 2019 (Census ACS 1-year state-to-state migration flows).");
  });
  test("words found in a name or unit, the description only ordering; a word found nowhere finds nothing", () => {
    const entries = [
      {
        code: "AHETPI",
        name: "Average Hourly Earnings of Production and Nonsupervisory Employees",
        unit: "dollars per hour",
        description: "What workers earn per hour.",
        held: true,
        regionKinds: ["country"],
      },
      {
        code: "M2SL",
        name: "M2 Money Stock",
        unit: "billions of dollars",
        description: "Money stock, including money market funds.",
        held: true,
        regionKinds: ["country"],
      },
      {
        code: "SP.DYN.TFRT.IN",
        name: "Fertility rate, total",
        unit: "births per woman",
        description: "Children a woman would bear.",
        held: true,
        regionKinds: ["country"],
      },
    ];
    expect(vocabularyMatches(["earn", "hour", "average"], entries, null).map((e) => e.code)).toEqual(["AHETPI"]);
    expect(vocabularyMatches(["stock", "market"], entries, null)).toEqual([]);
    expect(vocabularyMatches(["births", "woman"], entries, "country").map((e) => e.code)).toEqual(["SP.DYN.TFRT.IN"]);
    expect(vocabularyMatches(["be"], entries, null)).toEqual([]);
  });
});
