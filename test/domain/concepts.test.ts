import { describe, expect, test } from "bun:test";
import {
  CONCEPTS,
  blockedInputMessage,
  notOfferedMessage,
  closestLevel,
  conceptLevels,
  getConcept,
  isConceptCode,
  notCuratedMessage,
  resolveConceptLevel,
} from "../../src/domain/concepts";

describe("concept table", () => {
  test("holds the spec's concepts", () => {
    expect(Object.keys(CONCEPTS).sort()).toEqual(
      [
        "employed",
        "employment_rate",
        "gdp",
        "labor_force",
        "median_home_value",
        "median_income",
        "population",
        "unemployment_rate",
      ].sort(),
    );
    expect(isConceptCode("population")).toBe(true);
    expect(isConceptCode("POPULATION")).toBe(true);
    expect(isConceptCode("toString")).toBe(false);
    expect(isConceptCode("UNRATE")).toBe(false);
    expect(getConcept("Gdp")?.code).toBe("gdp");
  });
  test("employment_rate exists where both its inputs do", () => {
    const rate = CONCEPTS.employment_rate;
    const both = conceptLevels(CONCEPTS.employed).filter((k) => conceptLevels(CONCEPTS.labor_force).includes(k));
    expect(conceptLevels(rate)).toEqual(both);
  });
});

describe("resolution by region kind", () => {
  test("a curated level resolves to its series", () => {
    const r = resolveConceptLevel(CONCEPTS.median_home_value, "county");
    expect(r.ok && r.type === "series" && r.candidates).toEqual([{ indicator: "B25077_001E", source: "census" }]);
  });
  test("country unemployment prefers UNRATE, then the World Bank rate", () => {
    const r = resolveConceptLevel(CONCEPTS.unemployment_rate, "country");
    expect(r.ok && r.type === "series" && r.candidates.map((c) => c.indicator)).toEqual(["UNRATE", "SL.UEM.TOTL.ZS"]);
  });
  test("a derived concept resolves its inputs at the same level", () => {
    const r = resolveConceptLevel(CONCEPTS.employment_rate, "state");
    if (!r.ok || r.type !== "derived") throw new Error("expected derived");
    expect(r.inputs.map((i) => [i.role, i.candidates])).toEqual([
      [
        "employed",
        [
          { indicator: "LASST05", source: "bls" },
          { indicator: "LAUST05A", source: "bls" },
        ],
      ],
      [
        "labor_force",
        [
          { indicator: "LASST06", source: "bls" },
          { indicator: "LAUST06A", source: "bls" },
        ],
      ],
    ]);
  });
  test("an uncurated level names the levels that have it and the closest", () => {
    const r = resolveConceptLevel(CONCEPTS.median_home_value, "country");
    expect(r).toMatchObject({ ok: false, available: ["state", "county"], closest: "state" });
    if (!r.ok)
      expect(r.message).toBe(
        "median_home_value is available for states and counties, not countries; the closest level is states.",
      );
  });
  test("an unknown region type is not curated", () => {
    const r = resolveConceptLevel(CONCEPTS.population, "msa");
    expect(r.ok).toBe(false);
  });
});

describe("closest level and wording", () => {
  test("distance on country > state > county, ties to the coarser level", () => {
    expect(closestLevel("county", ["country"])).toBe("country");
    expect(closestLevel("county", ["country", "state"])).toBe("state");
    expect(closestLevel("state", ["country", "county"])).toBe("country");
    expect(closestLevel("country", ["county"])).toBe("county");
    expect(closestLevel("country", [])).toBeNull();
  });
  test("messages", () => {
    expect(notCuratedMessage("gdp", "county", ["country"], "country")).toBe(
      "gdp is available for countries, not counties; the closest level is countries.",
    );
    expect(
      notCuratedMessage("x", "state", ["country", "state", "county"].filter((k) => k !== "state") as any, "country"),
    ).toBe("x is available for countries and counties, not states; the closest level is countries.");
    expect(notCuratedMessage("x", "county", [], null)).toBe("x is not curated for any region level.");
    expect(
      blockedInputMessage(
        "employment_rate",
        { role: "labor_force", indicators: ["LAUCN06"] },
        "Kalawao County, Hawaii (15005)",
      ),
    ).toBe(
      "employment_rate cannot be computed for Kalawao County, Hawaii (15005): its input labor_force (LAUCN06) has no data for that region.",
    );
    expect(notOfferedMessage("employed", [{ indicator: "CE16OV", source: "fred" }], "France (FR)")).toBe(
      "employed has no curated series for France (FR): fred:CE16OV is not offered for that region.",
    );
  });
});
