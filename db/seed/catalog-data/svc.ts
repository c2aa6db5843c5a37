// Derived original series computed by this service (prefix `svc:`, premium). Each description states the formula
// (meta.derived.formula appears verbatim in it) and the inputs; meta.derived.inputs lists the input codes. The
// computations live in src/domain/derived.ts.
import type { SourceCatalog } from "./types";

export const svcCatalog: SourceCatalog = {
  source: {
    slug: "svc",
    name: "Derived series (this service)",
    provider: null,
    category: null,
    docsUrl: null,
    attribution:
      "Computed by this service from the input series named in each indicator; cite those series' sources too.",
    license: "Derived series; inputs keep their sources' terms",
  },
  indicators: [
    {
      code: "svc:sahm_rule",
      name: "Sahm Rule Recession Indicator",
      description:
        "Three-month moving average of the national unemployment rate (UNRATE) minus its minimum over the prior 12 months: " +
        "sahm(t) = avg3(UNRATE)[t] - min(avg3(UNRATE)[t-12..t-1]), where avg3(UNRATE)[t] is the mean of months t-2, t-1 and t. A reading of 0.50 percentage " +
        "points or more has marked the early months of every US recession since 1970 (Sahm, 2019). Input: fred:UNRATE.",
      category: "macro",
      subcategory: "business-cycle",
      unit: "percentage points",
      frequency: "monthly",
      upIsGood: false,
      regionKinds: ["country"],
      defaultRegionCode: "US",
      accessTier: "premium",
      meta: {
        derived: { inputs: ["UNRATE"], formula: "avg3(UNRATE)[t] - min(avg3(UNRATE)[t-12..t-1])", threshold: 0.5 },
      },
    },
    {
      code: "svc:real_avg_hourly_earnings",
      name: "Real Average Hourly Earnings, Production and Nonsupervisory Employees",
      description:
        "Average hourly earnings of production and nonsupervisory employees (AHETPI) deflated by the CPI-U (CPIAUCSL), in " +
        "1982-1984 dollars: real = AHETPI / CPIAUCSL * 100, both of the same month. Inputs: fred:AHETPI, fred:CPIAUCSL.",
      category: "labor",
      subcategory: "earnings",
      unit: "1982-1984 dollars per hour",
      frequency: "monthly",
      upIsGood: true,
      regionKinds: ["country"],
      defaultRegionCode: "US",
      accessTier: "premium",
      meta: {
        derived: { inputs: ["AHETPI", "CPIAUCSL"], formula: "AHETPI / CPIAUCSL * 100" },
      },
    },
    {
      code: "svc:home_affordability_ratio",
      name: "Home Value to Income Ratio",
      description:
        "Median value of owner-occupied homes divided by median household income, same ACS 5-year vintage and place: " +
        "ratio = B25077_001E / B19013_001E. Higher means less affordable. Inputs: census:B25077_001E, census:B19013_001E.",
      category: "housing",
      subcategory: "affordability",
      unit: "ratio",
      frequency: "annual",
      upIsGood: false,
      regionKinds: ["state", "county"],
      defaultRegionCode: "06",
      accessTier: "premium",
      meta: {
        derived: { inputs: ["B25077_001E", "B19013_001E"], formula: "B25077_001E / B19013_001E" },
        per_region: true,
      },
    },
    {
      code: "svc:unemployment_gap",
      name: "Local Unemployment Gap vs National",
      description:
        "The area's LAUS unemployment rate minus the national unemployment rate, same period: gap = area LAUS rate - UNRATE, " +
        "where the area rate is LASST03 for states and LAUCN03 for counties. Positive means the area has higher unemployment than the nation. County " +
        "rates are not seasonally adjusted while UNRATE is, so county gaps carry seasonal swings. Inputs: bls:LASST03 " +
        "(state) or bls:LAUCN03 (county), fred:UNRATE.",
      category: "labor",
      subcategory: "unemployment",
      unit: "percentage points",
      frequency: "monthly",
      upIsGood: false,
      regionKinds: ["state", "county"],
      defaultRegionCode: "06",
      accessTier: "premium",
      meta: {
        derived: {
          inputs: ["LASST03", "LAUCN03", "UNRATE"],
          inputs_by_region_kind: { state: ["LASST03", "UNRATE"], county: ["LAUCN03", "UNRATE"] },
          formula: "area LAUS rate - UNRATE",
        },
        per_region: true,
      },
    },
  ],
};
