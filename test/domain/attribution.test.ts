// Source attribution (src/domain/attribution.ts), from catalog entries as the seed writes them.
import { expect, test } from "bun:test";
import { sourceAttribution } from "../../src/domain/attribution";

const FRED = { name: "FRED, Federal Reserve Bank of St. Louis", provider: "Federal Reserve Bank of St. Louis" };
const BLS = { name: "U.S. Bureau of Labor Statistics", provider: "U.S. Department of Labor" };

test("a FRED re-publication names the producing agency and FRED", () => {
  expect(
    sourceAttribution(
      {
        code: "UNRATE",
        sourceSlug: "fred",
        meta: { upstream: { original_source: "U.S. Bureau of Labor Statistics" } },
      },
      FRED,
    ),
  ).toEqual({
    source: "fred",
    agency: "U.S. Bureau of Labor Statistics",
    text: "Source: U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis.",
    license: null,
  });
});

test("an agency's own series names the agency; a licence is stated", () => {
  expect(sourceAttribution({ code: "LASST03", sourceSlug: "bls", meta: {} }, BLS)).toEqual({
    source: "bls",
    agency: "U.S. Bureau of Labor Statistics",
    text: "Source: U.S. Bureau of Labor Statistics.",
    license: null,
  });
  expect(
    sourceAttribution(
      { code: "life_expectancy_years", sourceSlug: "gapminder", meta: { license: "CC BY 4.0" } },
      { name: "Gapminder Foundation", provider: "Gapminder Foundation" },
    ).text,
  ).toBe("Source: Gapminder Foundation. Licensed under CC BY 4.0.");
});

test("a derived series names its inputs", () => {
  const unrate = {
    code: "UNRATE",
    sourceSlug: "fred",
    meta: { upstream: { original_source: "U.S. Bureau of Labor Statistics" } },
  };
  expect(
    sourceAttribution({ code: "svc:sahm_rule", sourceSlug: "svc", meta: {} }, null, [{ entry: unrate, source: FRED }]),
  ).toEqual({
    source: "svc",
    agency: "this service",
    text: "Computed by this service from UNRATE (U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis).",
    license: null,
  });
});
