// The pure parts of ask: reading a question (topics, places, time phrases), the deterministic composer and the
// number verifier, with values worked out by hand.
import { describe, expect, test } from "bun:test";
import { regionList } from "../../db/seed/regions";
import { composeAnswer } from "../../src/domain/ask/compose";
import { foldPlural, parseQuestion, placeLookup } from "../../src/domain/ask/parse";
import { numbersInProse, numbersInResults, verifyNumbers } from "../../src/domain/ask/verify";
import { buildRegionIndex } from "../../src/domain/regions";
import { formatWindow } from "../../src/domain/window";

const index = buildRegionIndex(regionList());
const read = (q: string, todayYear = 2026) =>
  parseQuestion(q, {
    todayYear,
    lookupPlace: placeLookup(index),
  });
const topics = (q: string) => read(q).topics.map((t) => t.id);

describe("topics", () => {
  test("synonyms name one topic; the longest phrase wins", () => {
    expect(topics("What is the jobless rate?")).toEqual(["unemployment_rate"]);
    expect(topics("core inflation")).toEqual(["core_inflation"]);
    expect(topics("how is inflation")).toEqual(["inflation"]);
    expect(topics("home prices in Ohio")).toEqual(["home_values"]);
    expect(topics("oil prices")).toEqual(["oil"]);
    expect(topics("initial jobless claims")).toEqual(["claims"]);
  });
  test("plurals fold; several topics keep the question's order; a group stands for its members", () => {
    expect(foldPlural("claims")).toBe("claim");
    expect(foldPlural("counties")).toBe("county");
    expect(foldPlural("us")).toBe("us");
    expect(foldPlural("illinois")).toBe("illinois");
    expect(topics("wages and job openings")).toEqual(["wages", "job_openings"]);
    expect(topics("how is the labor market")).toEqual(["unemployment_rate", "payrolls", "job_openings", "claims", "wages"]);
  });
  test("no topic: the meaningful words are left for the catalog search", () => {
    const p = read("what is the crime rate in Chicago?");
    expect(p.topics).toEqual([]);
    // Chicago follows "in" but is no place of the catalog: unplaced, so the answer never falls back to the nation.
    expect(p.rest).toEqual(["crime"]);
    expect(p.unplaced).toEqual(["Chicago"]);
    expect(read("").topics).toEqual([]);
  });
});

describe("places", () => {
  test("states, counties and countries by name, code and USPS abbreviation", () => {
    expect(read("unemployment in Texas").places).toEqual(["48"]);
    expect(read("unemployment in TX").places).toEqual(["48"]);
    expect(read("population of Los Angeles County").places).toEqual(["06037"]);
    expect(read("population of Los Angeles").places).toEqual(["06037"]);
    expect(read("jobless rate in Harris County, Texas").places).toEqual(["48201"]);
    expect(read("gdp of germany").places).toEqual(["DE"]);
    expect(read("population of the UK").places).toEqual(["GB"]);
  });
  test("several places in the question's order, each once; the nation by its names", () => {
    expect(read("unemployment in California vs Texas vs California").places).toEqual(["06", "48"]);
    expect(read("inflation in the U.S.").places).toEqual(["US"]);
    expect(read("unemployment rate in the united states").places).toEqual(["US"]);
    expect(read("nationwide unemployment").places).toEqual(["US"]);
  });
  test("short words are codes only in capitals; numbers are never places", () => {
    // "in", "me", "or", "us" in lower case are words.
    expect(read("tell me about unemployment in 2019 or so").places).toEqual([]);
    expect(read("tell us the unemployment rate").places).toEqual([]);
    // A code as responses write it means itself, as in the data routes: IN is India; in lower case, Indiana.
    expect(read("unemployment in IN").places).toEqual(["IN"]);
    expect(read("unemployment in IN").codes).toEqual({ IN: { other: "18", text: "IN" } });
    expect(read("unemployment in in", 2026).places).toEqual([]);
    expect(read("unemployment in US-IN").places).toEqual(["18"]);
    expect(read("jobless rate in tx").places).toEqual(["48"]);
    // All capitals: no word can be told from a code.
    expect(read("WHAT IS UNEMPLOYMENT IN TEXAS").places).toEqual(["48"]);
    expect(read("WHAT IS UNEMPLOYMENT IN IN").places).toEqual([]);
  });
  test("a name of several counties is reported with its candidates", () => {
    const p = read("unemployment in Cook County");
    expect(p.places).toEqual([]);
    expect(p.ambiguous).toEqual([{ text: "Cook County", candidates: ["13075", "17031", "27031"] }]);
    expect(read("unemployment in Cook County, IL").places).toEqual(["17031"]);
  });
});

describe("time phrases", () => {
  const w = (q: string, year = 2026) => {
    const p = read(q, year);
    return p.window ? formatWindow(p.window) : null;
  };
  test("spans", () => {
    expect(w("unemployment over the last 5 years")).toBe("5y");
    expect(w("unemployment over the past decade")).toBe("10y");
    expect(w("unemployment in the last six months")).toBe("6m");
    expect(w("claims over the past 3 weeks")).toBe("21d");
    expect(w("gdp over the last two quarters")).toBe("6m");
    expect(w("inflation over the past year")).toBe("1y");
    expect(w("inflation this year")).toBe("1y");
    expect(w("unemployment rate")).toBeNull();
  });
  test("since a year counts that year and today's: 2020 to 2026 is 7 years", () => {
    expect(w("unemployment since 2020")).toBe("7y");
    expect(w("unemployment since 2026")).toBe("1y");
    expect(w("unemployment since 2020", 2030)).toBe("11y");
    // A year still to come is no window.
    expect(w("unemployment since 2027")).toBeNull();
  });
  test("all time", () => {
    expect(w("highest unemployment rate ever")).toBe("all");
    expect(w("unemployment all time")).toBe("all");
    expect(w("long term trend of payrolls")).toBe("all");
  });
  test("time words are not places or topics: 'in 2019' is no county", () => {
    const p = read("unemployment in 2019");
    expect(p.places).toEqual([]);
    expect(p.window && formatWindow(p.window)).toBe("8y");
  });
});

describe("verifier", () => {
  test("numbers in prose, with the tolerance of their written precision", () => {
    expect(numbersInProse("3.9% in 2018")).toEqual([
      { text: "3.9", value: 3.9, tolerance: 0.05 },
      { text: "2018", value: 2018, tolerance: 0.5 },
    ]);
    expect(numbersInProse("$4.46 trillion and 9,757,179 persons, the 3rd highest, -0.2 points")).toEqual([
      { text: "$4.46 trillion", value: 4.46e12, tolerance: 0.005e12 },
      { text: "9,757,179", value: 9757179, tolerance: 0.5 },
      { text: "3rd", value: 3, tolerance: 0.5 },
      { text: "-0.2", value: -0.2, tolerance: 0.05 },
    ]);
    // Digits inside names are not numbers.
    expect(numbersInProse("U6RATE and T10Y2Y")).toEqual([]);
  });
  test("numbers in results: fields, and numbers written in text (dates give year, month, day)", () => {
    expect(numbersInResults({ value: 3.9, date: "2018-01-01", window: "10y", nested: [{ n: 2 }] }).sort((a, b) => a - b)).toEqual([-1, 1, 2, 3.9, 10, 2018]);
  });
  test("a rounded, rescaled or signless statement of a result is grounded; an invented one is not", () => {
    const results = [{ value: 4456081016705.1, period_start: "2023-01-01" }, { value: 159_557, unit: "thousands of persons" }, { delta: -0.25 }];
    expect(verifyNumbers("GDP was $4.46 trillion in 2023.", results)).toEqual({ grounded: true, checked: 2, unsupported: [] });
    expect(verifyNumbers("Payrolls were 159.6 million persons; they fell 0.3 points.", results).grounded).toBe(true);
    expect(verifyNumbers("Payrolls were 159,557 thousand.", results).grounded).toBe(true);
    const bad = verifyNumbers("GDP was $4.46 trillion in 2023, up 7.2% from 2022.", results);
    expect(bad).toEqual({ grounded: false, checked: 4, unsupported: ["7.2", "2022"] });
    // Just past the written precision: 4.47 trillion is 0.014 trillion away (tolerance 0.005).
    expect(verifyNumbers("$4.47 trillion", results).grounded).toBe(false);
    expect(verifyNumbers("no numbers at all", results)).toEqual({ grounded: true, checked: 0, unsupported: [] });
  });
});

describe("episodes, kinds of places, the real measure, the ends of a move", () => {
  test("an episode's words are taken before topics: 'the Great Recession' is no recession topic; 'covid' names one only after a word of time", () => {
    const great = read("peak unemployment during the Great Recession");
    expect([great.episode, great.topics.map((t) => t.id)]).toEqual(["great recession", ["unemployment_rate"]]);
    expect(read("unemployment peak in the early 80s recessions").episode).toBe("early 80s recession");
    expect(read("how high did unemployment go during covid").episode).toBe("the pandemic");
    expect(read("covid cases in texas").episode).toBeNull();
    expect(read("unemployment in the 2001 recession").episode).toBe("2001 recession");
    expect(read("what happened in the last recession").episode).toBe("last recession");
    expect(read("is the us in a recession").episode).toBeNull();
  });
  test("kind words no place name took are a set of places; 'in the country' is the nation", () => {
    expect(read("highest unemployment county in florida").kinds).toEqual(["county"]);
    expect(read("fastest growing economy in the world").kinds).toEqual(["world"]);
    expect(read("unemployment in Harris County, Texas").kinds).toEqual([]);
    expect(read("highest unemployment in the country").kinds).toEqual([]);
  });
  test("the real measure, the word before a place, a topic read as the closest held", () => {
    const real = read("inflation-adjusted gdp of the us");
    expect([real.real, real.topics.map((t) => t.id)]).toEqual([true, ["gdp"]]);
    expect(read("where are people from Cook County, IL moving to").before).toEqual({ "17031": "from" });
    expect(read("where do people moving to Texas come from").before).toEqual({ "48": "to" });
    const mortgage = read("what are 30 year mortgage rates");
    expect([mortgage.topics.map((t) => t.id), mortgage.nearest.map((n) => n.text)]).toEqual([["ten_year"], ["30 year mortgage rates"]]);
  });
  test("a code is read as the data routes read it: CA is Canada, US-CA and 'ca' California; the other reading is kept", () => {
    expect(read("unemployment rate in CA").places).toEqual(["CA"]);
    expect(read("unemployment rate in CA").codes).toEqual({ CA: { other: "06", text: "CA" } });
    expect(read("unemployment rate in US-CA").places).toEqual(["06"]);
    expect(read("unemployment rate in ca").places).toEqual(["06"]);
    expect(read("unemployment rate in ca").codes).toEqual({ "06": { other: "CA", text: "ca" } });
    expect(read("unemployment rate in TX").codes).toEqual({});
  });
});

describe("composer", () => {
  test("each lead, its facts and peers, then the notes on places, then the signals", () => {
    const text = composeAnswer({
      sections: [
        { lead: "The unemployment rate in Texas was 3.9% in 2018.", facts: ["Fact one."], peers: ["For comparison in 2018, the unemployment rate was 3.89% in the United States and 3.90% in Texas."] },
        { lead: "No value of the population is held for Texas.", facts: [], peers: [] },
      ],
      notes: ["(\u201ctexsa\u201d was read as Texas.)"],
      signals: ["A signal."],
    });
    expect(text).toBe(
      "The unemployment rate in Texas was 3.9% in 2018. Fact one. For comparison in 2018, the unemployment rate was 3.89% in the United States and 3.90% in Texas. " +
        "No value of the population is held for Texas. (\u201ctexsa\u201d was read as Texas.) A signal.",
    );
  });
});
