// Gapminder Foundation: long-run country series. Codes are Gapminder's indicator ids (the names of its published
// indicator files and DDF concepts). Gapminder fills gaps with estimates and uses current borders; values are
// annual (the bundled sample holds every fifth year, 1955-2005). CC BY 4.0: cite "Free data from Gapminder.org".
import type { IndicatorSeed, SourceCatalog } from "./types";

function gm(
  code: string,
  name: string,
  description: string,
  category: "health" | "demographics",
  subcategory: string,
  unit: string,
  upIsGood: boolean | null,
  doc: string,
): IndicatorSeed {
  return {
    code,
    name,
    description: `${description} Gapminder indicator ${code}, documentation ${doc}.`,
    category,
    subcategory,
    unit,
    frequency: "annual",
    upIsGood,
    regionKinds: ["country"],
    defaultRegionCode: "US",
    meta: {
      per_region: true,
      upstream: { api: "gapminder", indicator: code, documentation: doc },
      license: "CC BY 4.0",
    },
  };
}

export const gapminderCatalog: SourceCatalog = {
  source: {
    slug: "gapminder",
    name: "Gapminder Foundation",
    provider: "Gapminder Foundation",
    category: "demographics",
    docsUrl: "https://www.gapminder.org/data/documentation/",
    attribution: "Free data from Gapminder.org (CC BY 4.0).",
    license: "CC BY 4.0",
  },
  indicators: [
    gm(
      "life_expectancy_years",
      "Life Expectancy at Birth (Gapminder)",
      "Average years a newborn would live if current mortality patterns held, per country.",
      "health",
      "life-expectancy",
      "years",
      true,
      "https://www.gapminder.org/data/documentation/gd004/",
    ),
    // Superseded by worldbank:SP.POP.TOTL (annual to 2024 for every country); kept listed for include_inactive.
    {
      ...gm(
        "population_total",
        "Population (Gapminder)",
        "Total population per country, current borders. Inactive: use worldbank SP.POP.TOTL (or the population concept).",
        "demographics",
        "population",
        "persons",
        null,
        "https://www.gapminder.org/data/documentation/gd003/",
      ),
      isActive: false,
    },
    gm(
      "children_per_woman_total_fertility",
      "Babies per Woman (Gapminder)",
      "Total fertility rate: children a woman would have over her lifetime at the age-specific fertility rates of the year.",
      "demographics",
      "fertility",
      "births per woman",
      null,
      "https://www.gapminder.org/data/documentation/gd008/",
    ),
  ],
};
