// Short names (src/domain/short-name.ts): stated, or derived from the name by its rule.
import { describe, expect, test } from "bun:test";
import { deriveShortName, SHORT_NAME_MAX, shortNameOf } from "../../src/domain/short-name";

describe("short names", () => {
  test("a name of at most 40 characters is its own short name; one character more is shortened if the rule can", () => {
    const forty = "x".repeat(SHORT_NAME_MAX);
    expect(deriveShortName(forty)).toBe(forty);
    expect(deriveShortName(`${forty}y`)).toBe(`${forty}y`);
    expect(deriveShortName("Unemployment Rate by State (LAUS, seasonally adjusted)")).toBe(
      "Unemployment Rate by State",
    );
    expect(deriveShortName("Energy use (kg of oil equivalent per capita)")).toBe("Energy use");
  });
  test("never cut to a part that could name another series: a name the rule cannot shorten stays whole", () => {
    const name = "Assets: Total Assets: Total Assets (Less Eliminations from Consolidation): Wednesday Level";
    expect(deriveShortName(name)).toBe(name);
  });
  test("a stated short name wins; a blank or non-string one is ignored", () => {
    expect(
      shortNameOf({
        name: "Consumer Price Index for All Urban Consumers",
        meta: { short_name: "Consumer Price Index" },
      }),
    ).toBe("Consumer Price Index");
    expect(
      shortNameOf({ name: "Unemployment Rate by County (LAUS, not seasonally adjusted)", meta: { short_name: " " } }),
    ).toBe("Unemployment Rate by County");
    expect(shortNameOf({ name: "Resident Population Estimate", meta: { short_name: 3 } })).toBe(
      "Resident Population Estimate",
    );
    expect(shortNameOf({ name: "Resident Population Estimate", meta: null })).toBe("Resident Population Estimate");
  });
});
