// What a series' values are and the arithmetic that follows (src/domain/value-kinds.ts), with the World Bank's own
// figures from the shipped files: a change already computed (GDP growth, inflation as annual %) is answered as
// published, never with the growth of the growth; a rate moves in percentage points, never by a percent.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { growthSeries, leadSentence, type View } from "../../src/domain/ask/lead";
import {
  describeValues,
  growthMethod,
  inferValueSpec,
  percentChangeApplies,
  valueSpecOf,
  valueSpecProblems,
  valuesMeta,
} from "../../src/domain/value-kinds";
import { VALUE_SPECS } from "../../db/seed/catalog-data/value-kinds";

const WDI = resolve(import.meta.dir, "../../../shared/data/worldbank-wdi-2025");
/** A country's annual series from a WDI file (Country Name,Country Code,Year,Value), dated YYYY-01-01. */
function wdi(folder: string, iso3: string): { date: string; value: number }[] {
  return readFileSync(resolve(WDI, folder, "data.csv"), "utf8")
    .split("\n")
    .filter((l) => l.includes(`,${iso3},`))
    .map((l) => l.split(","))
    .map((c) => ({ date: `${c.at(-2)}-01-01`, value: Number(c.at(-1)) }));
}

const view = (o: Partial<View> & Pick<View, "label" | "unit" | "values" | "points">): View => ({
  growthLabel: null,
  place: "India",
  frequency: "annual",
  state: null,
  jobs: false,
  ...o,
});

describe("what the values are", () => {
  test("read from the unit when an entry states nothing", () => {
    expect(
      ["percent", "percent of GDP", "percentage points", "ratio", "births per woman"].map(
        (u) => inferValueSpec(u).kind,
      ),
    ).toEqual(["rate", "rate", "rate", "rate", "rate"]);
    expect(inferValueSpec("index 1982-1984=100")).toEqual({ kind: "index" });
    expect(inferValueSpec("binary (1 = recession)")).toEqual({ kind: "binary" });
    expect(inferValueSpec("thousands of persons")).toEqual({ kind: "level" });
    expect(inferValueSpec(null)).toEqual({ kind: "level" });
  });
  test("an entry's stated values win over its unit; a change keeps its span", () => {
    expect(valueSpecOf({ unit: "percent", meta: { values: valuesMeta({ kind: "change", spanMonths: 12 }) } })).toEqual({
      kind: "change",
      spanMonths: 12,
    });
    expect(valueSpecOf({ unit: "persons", meta: { values: { kind: "change", span_months: 12 } } })).toEqual({
      kind: "change",
      spanMonths: 12,
    });
    expect(valueSpecOf({ unit: "percent", meta: { values: { kind: "nonsense" } } })).toEqual({ kind: "rate" });
    expect(valueSpecOf({ unit: "percent", meta: {} })).toEqual({ kind: "rate" });
  });
  test("growth: a percent change of a level or an index only; a change as published; a rate's difference", () => {
    expect(growthMethod({ kind: "level" })).toEqual({ method: "percent_change", months: 12 });
    expect(growthMethod({ kind: "index" })).toEqual({ method: "percent_change", months: 12 });
    expect(growthMethod({ kind: "change", spanMonths: 12 })).toEqual({ method: "stated", months: 12 });
    expect(growthMethod({ kind: "rate" })).toEqual({ method: "difference", months: 12 });
    expect(growthMethod({ kind: "binary" })).toEqual({ method: "none" });
    expect(
      ["level", "index", "rate", "change", "binary"].map((kind) => percentChangeApplies({ kind } as never)),
    ).toEqual([true, true, false, false, false]);
  });
  test("a stated kind its unit contradicts is refused", () => {
    expect(valueSpecProblems({ kind: "rate" }, "percent")).toEqual([]);
    expect(valueSpecProblems({ kind: "change", spanMonths: 12 }, "persons")).toEqual([]);
    expect(valueSpecProblems({ kind: "level" }, "percent")).toEqual(["unit 'percent' is a rate, stated as a level"]);
    expect(valueSpecProblems({ kind: "index" }, "dollars")).toEqual(["an index needs an index unit, not 'dollars'"]);
    expect(valueSpecProblems({ kind: "level" }, "index 2017=100")).toEqual([
      "unit 'index 2017=100' is an index, stated as level",
    ]);
    expect(valueSpecProblems({ kind: "change" }, "percent")).toEqual(["a change needs its span in months"]);
    expect(valueSpecProblems({ kind: "rate", spanMonths: 12 }, "percent")).toEqual(["only a change has a span"]);
  });
  test("the catalog's table: the World Bank's growth and inflation are changes over a year, the unemployment rate a rate, CPI an index", () => {
    expect(VALUE_SPECS.get("NY.GDP.MKTP.KD.ZG")).toEqual({ kind: "change", spanMonths: 12 });
    expect(VALUE_SPECS.get("FP.CPI.TOTL.ZG")).toEqual({ kind: "change", spanMonths: 12 });
    expect(VALUE_SPECS.get("NPOPCHG")).toEqual({ kind: "change", spanMonths: 12 });
    expect(VALUE_SPECS.get("UNRATE")).toEqual({ kind: "rate" });
    expect(VALUE_SPECS.get("CPIAUCSL")).toEqual({ kind: "index" });
    expect(VALUE_SPECS.get("GDPC1")).toEqual({ kind: "level" });
    expect(VALUE_SPECS.get("USREC")).toEqual({ kind: "binary" });
    expect(describeValues({ kind: "rate" }, "percent")).toBe(
      "A rate or share: its change is a difference in percentage points, never a percent change.",
    );
  });
});

describe("answers from the World Bank's own figures (worldbank-wdi-2025)", () => {
  const change = { kind: "change", spanMonths: 12 } as const;
  test("India's GDP growth 2025 is 7.57% as published, not the 6.6% growth of the growth rate", () => {
    const points = wdi("ny.gdp.mktp.kd.zg", "IND");
    expect(points.at(-1)).toEqual({ date: "2025-01-01", value: 7.56666179284244 });
    const v = view({ label: "real GDP growth", unit: "percent", values: change, points });
    const lead = leadSentence(v, { kind: "growth", at: null }, false);
    expect(lead.text).toBe("Real GDP growth in India was 7.57% in 2025 (over the year, as published).");
    expect(lead.computed).toBe("value");
    // What the old arithmetic gave: 7.5667 / 7.0993 - 1 = 6.58%.
    expect(((7.56666179284244 / 7.09927893176518 - 1) * 100).toFixed(1)).toBe("6.6");
    expect(lead.text).not.toContain("6.6");
    // Its growth series is the values themselves.
    expect(growthSeries(v)!.at(-1)!.value).toBe(7.56666179284244);
  });
  test("Brazil's inflation 2025 is 5.02%, Georgia's 3.87% (not 14.9% and 248.7%)", () => {
    const brazil = view({
      label: "inflation",
      growthLabel: "inflation",
      place: "Brazil",
      unit: "percent",
      values: change,
      points: wdi("fp.cpi.totl.zg", "BRA"),
    });
    expect(leadSentence(brazil, { kind: "level", at: null }, false).text).toBe(
      "Inflation in Brazil was 5.02% in 2025 (over the year, as published).",
    );
    const georgia = view({
      label: "inflation",
      growthLabel: "inflation",
      place: "Georgia",
      unit: "percent",
      values: change,
      points: wdi("fp.cpi.totl.zg", "GEO"),
    });
    expect(leadSentence(georgia, { kind: "growth", at: null }, false).text).toBe(
      "Inflation in Georgia was 3.87% in 2025 (over the year, as published).",
    );
    expect(leadSentence(georgia, { kind: "growth", at: "2023" }, false).text).toBe(
      "Inflation in Georgia was 2.49% in 2023 (over the year, as published).",
    );
  });
  test("a rate's growth is its difference in percentage points: India's unemployment rate", () => {
    const points = wdi("sl.uem.totl.zs", "IND");
    const [before, last] = points.slice(-2);
    const v = view({ label: "the unemployment rate", unit: "percent", values: { kind: "rate" }, points });
    const lead = leadSentence(v, { kind: "growth", at: null }, false);
    expect(lead.computed).toBe("difference");
    expect(lead.figures.change).toBe(Number((last.value - before.value).toFixed(3)));
    expect(growthSeries(v)).toBeNull();
  });
});
