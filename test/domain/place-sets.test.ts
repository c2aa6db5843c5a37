// Places as sets (src/domain/place-sets.ts, src/domain/ask/rank.ts): order, top N with ties, thresholds read from a
// question and restated in a series' unit, on hand-made values and on the states' unemployment rates of June 2026 as
// BLS published them (bls-laus-state-monthly/stateUnemployment.csv).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { rankLead } from "../../src/domain/ask/rank";
import {
  filtered,
  inUnit,
  ordered,
  passes,
  readThreshold,
  topWithTies,
  type Ranked,
} from "../../src/domain/place-sets";

const r = (place: string, value: number): Ranked => ({ code: place.slice(0, 2).toUpperCase(), place, value });
const five = [r("Ada", 3), r("Bea", 5), r("Cy", 5), r("Dee", 4), r("Eve", 5)];

describe("order, ties, thresholds", () => {
  test("ordered by value, ties by name; the top N takes every place tied with the N-th", () => {
    expect(ordered(five, "max").map((x) => x.place)).toEqual(["Bea", "Cy", "Eve", "Dee", "Ada"]);
    expect(ordered(five, "min").map((x) => x.place)).toEqual(["Ada", "Dee", "Bea", "Cy", "Eve"]);
    expect(topWithTies(five, "max", 1).map((x) => x.place)).toEqual(["Bea", "Cy", "Eve"]);
    expect(topWithTies(five, "max", 4).map((x) => x.place)).toEqual(["Bea", "Cy", "Eve", "Dee"]);
    expect(topWithTies(five, "min", 2).map((x) => x.place)).toEqual(["Ada", "Dee"]);
    expect(topWithTies(five, "min", 9)).toHaveLength(5);
  });
  test("a threshold keeps the places strictly past it (at least / at most: or at it), in the order it points to", () => {
    expect(filtered(five, { op: ">", value: 4 }).map((x) => x.place)).toEqual(["Bea", "Cy", "Eve"]);
    expect(filtered(five, { op: ">=", value: 4 }).map((x) => x.place)).toEqual(["Bea", "Cy", "Eve", "Dee"]);
    expect(filtered(five, { op: "<", value: 4 }).map((x) => x.place)).toEqual(["Ada"]);
    expect(filtered(five, { op: "<=", value: 4 }).map((x) => x.place)).toEqual(["Ada", "Dee"]);
    expect([passes(5, { op: ">", value: 5 }), passes(5, { op: ">=", value: 5 })]).toEqual([false, true]);
  });
  test("read from a question: percents, scales, money; a span of time is no threshold", () => {
    expect(readThreshold("which states have unemployment above 5%")).toEqual({
      op: ">",
      value: 5,
      percent: true,
      scaled: false,
    });
    expect(readThreshold("counties with more than 1 million people")).toEqual({
      op: ">",
      value: 1_000_000,
      percent: false,
      scaled: true,
    });
    expect(readThreshold("counties where pay is under $50,000")).toEqual({
      op: "<",
      value: 50_000,
      percent: false,
      scaled: false,
    });
    expect(readThreshold("at least 4.5 percent")).toEqual({ op: ">=", value: 4.5, percent: true, scaled: false });
    expect(readThreshold("is inflation above the fed's 2% target")).toEqual({
      op: ">",
      value: 2,
      percent: true,
      scaled: false,
    });
    expect(readThreshold("growth over 10 years")).toBeNull();
    expect(readThreshold("what is the unemployment rate")).toBeNull();
  });
  test("restated in the series' unit: a count in thousands compares a thousandth", () => {
    expect(inUnit({ op: ">", value: 1_000_000 }, "thousands of persons")).toEqual({ op: ">", value: 1000 });
    expect(inUnit({ op: ">", value: 5 }, "percent")).toEqual({ op: ">", value: 5 });
    expect(inUnit({ op: "<", value: 2e9 }, "millions of dollars")).toEqual({ op: "<", value: 2000 });
  });
});

describe("the states in June 2026 (BLS LAUS)", () => {
  const FIPS: Record<string, string> = {};
  const values: Ranked[] = readFileSync(
    resolve(import.meta.dir, "../../../shared/data/bls-laus-state-monthly/stateUnemployment.csv"),
    "utf8",
  )
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","))
    // The 50 states and DC (the file also has Puerto Rico, which is no state region).
    .filter((c) => c[3] === "2026" && c[4] === "June" && c[0] !== "72")
    .map((c) => {
      const place = c[2].replace(/ \(S\)$/, "");
      FIPS[place] = c[0].padStart(2, "0");
      return { code: c[0].padStart(2, "0"), place, value: Number(c[5]) };
    });
  test("the file has 51 areas for June 2026", () => expect(values).toHaveLength(51));
  test("above 5%: 7 places, DC first at 6.0%, named with the period", () => {
    const lead = rankLead({
      label: "the unemployment rate",
      unit: "percent",
      frequency: "monthly",
      date: "2026-06-01",
      scope: "states",
      values,
      missing: 0,
      dir: "max",
      count: 1,
      filter: { op: ">", value: 5 },
    });
    expect(lead.text).toBe(
      "The unemployment rate was above 5% in 7 of the 50 states and DC in June 2026: District of Columbia (6.0%), California (5.2%), Connecticut (5.2%), Oregon (5.2%), Washington (5.2%), Illinois (5.1%), Nevada (5.1%).",
    );
    expect(lead.figures).toMatchObject({ matching: 7, more: 0, threshold: 5 });
  });
  test("the lowest: South Dakota at 2.0%; the three highest with ties", () => {
    expect(
      rankLead({
        label: "the unemployment rate",
        unit: "percent",
        frequency: "monthly",
        date: "2026-06-01",
        scope: "states",
        values,
        missing: 0,
        dir: "min",
        count: 1,
      }).text,
    ).toBe(
      "South Dakota had the lowest unemployment rate of the 50 states and DC in June 2026: 2.0%. Next was North Dakota at 2.3%.",
    );
    // 6.0, then four at 5.2: the top 3 takes all four tied at the edge.
    const top = rankLead({
      label: "the unemployment rate",
      unit: "percent",
      frequency: "monthly",
      date: "2026-06-01",
      scope: "states",
      values,
      missing: 0,
      dir: "max",
      count: 3,
    });
    expect(top.top.map((t) => t.place)).toEqual([
      "District of Columbia",
      "California",
      "Connecticut",
      "Oregon",
      "Washington",
    ]);
  });
  test("above a bound none passes: said so, with the nearest", () => {
    const lead = rankLead({
      label: "the unemployment rate",
      unit: "percent",
      frequency: "monthly",
      date: "2026-06-01",
      scope: "states",
      values,
      missing: 0,
      dir: "max",
      count: 1,
      filter: { op: ">", value: 8 },
    });
    expect(lead.text).toBe(
      "The unemployment rate was above 8% in none of the 50 states and DC in June 2026; the highest was District of Columbia at 6.0%.",
    );
  });
});
