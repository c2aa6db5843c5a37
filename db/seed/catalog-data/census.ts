// U.S. Census Bureau: Population Estimates Program (PEP) population and components of change, American Community
// Survey (ACS 5-year) income, home value and rent, and ACS county-to-county migration flows.
//
// Code choice. PEP codes are the column stems of the county/state "alldata" files (co-est{vintage}-alldata.csv),
// whose columns are the stem plus the year (POPESTIMATE2024, NETMIG2024); meta.upstream.column_template rebuilds
// them. ACS codes are the Census API variable names (B19013_001E: table B19013, line 001, E = estimate).
// Flow codes are the variables of the ACS flows API (MOVEDIN, MOVEDOUT, MOVEDNET).
// PEP and ACS publish states and counties (ACS also the nation, not requested here): region kinds state + county,
// default California (06), the most populous state. Annual values are dated YYYY-01-01; PEP estimates refer to
// July 1 of the year and ACS 5-year estimates to the five years ending in the labelled year (meta.reference).
import type { IndicatorSeed, SourceCatalog } from "./types";

function pep(
  code: string,
  name: string,
  what: string,
  subcategory: string,
  upIsGood: boolean | null = null,
): IndicatorSeed {
  return {
    code,
    name,
    description: `Population Estimates Program: ${what}, for each state and county. Column ${code}{yyyy} of the Census co-est{vintage}-alldata files.`,
    category: "demographics",
    subcategory,
    unit: "persons",
    frequency: "annual",
    upIsGood,
    regionKinds: ["state", "county"],
    defaultRegionCode: "06",
    meta: {
      per_region: true,
      upstream: {
        api: "census",
        program: "PEP",
        file_template: "co-est{vintage}-alldata.csv",
        column_template: `${code}{yyyy}`,
        geography: "STATE (2-digit FIPS) + COUNTY (3-digit FIPS); SUMLEV 040 state, 050 county",
      },
      reference: "July 1 estimate; components cover July 1 of the prior year to June 30",
    },
  };
}

function acs(
  code: string,
  name: string,
  what: string,
  category: "demographics" | "housing",
  subcategory: string,
  unit: string,
  upIsGood: boolean | null,
): IndicatorSeed {
  return {
    code,
    name,
    description: `American Community Survey 5-year estimate: ${what}, for each state and county. Census API variable ${code}.`,
    category,
    subcategory,
    unit,
    frequency: "annual",
    upIsGood,
    regionKinds: ["state", "county"],
    defaultRegionCode: "06",
    meta: {
      per_region: true,
      upstream: {
        api: "census",
        program: "ACS",
        dataset: "acs/acs5",
        variable: code,
        url_template: `https://api.census.gov/data/{year}/acs/acs5?get=NAME,${code}&for=county:{county3}&in=state:{fips2}`,
      },
      reference: "five-year period ending in the labelled year",
    },
  };
}

function flow(code: string, name: string, what: string): IndicatorSeed {
  return {
    code,
    name,
    description:
      `ACS county-to-county migration flows (5-year): ${what}. Values are per pair of reference county and counterpart ` +
      `(county, state or region abroad); the flows endpoint serves the pairs. Census API variable ${code} of acs/flows.`,
    category: "demographics",
    subcategory: "migration",
    unit: "persons",
    frequency: "annual",
    upIsGood: null,
    regionKinds: ["county"],
    defaultRegionCode: "06037",
    meta: {
      per_region: true,
      upstream: {
        api: "census",
        program: "ACS",
        dataset: "acs/flows",
        variable: code,
        url_template: `https://api.census.gov/data/{year}/acs/flows?get=GEOID1,GEOID2,FULL1_NAME,FULL2_NAME,${code},${code}_M&for=county:{county3}&in=state:{fips2}`,
      },
      reference: "movers in the year before the survey, 5-year period ending in the labelled year",
    },
  };
}

export const censusCatalog: SourceCatalog = {
  source: {
    slug: "census",
    name: "U.S. Census Bureau",
    provider: "U.S. Department of Commerce",
    category: "demographics",
    docsUrl: "https://www.census.gov/data/developers.html",
    attribution: "Source: U.S. Census Bureau, Population Estimates Program and American Community Survey.",
    license: "Public domain (U.S. government work)",
  },
  indicators: [
    pep("POPESTIMATE", "Resident Population Estimate", "the resident population on July 1", "population"),
    pep(
      "NPOPCHG",
      "Numeric Population Change",
      "the change in resident population over the year to July 1",
      "population-change",
    ),
    pep("BIRTHS", "Births", "births in the year to June 30", "population-components"),
    pep("DEATHS", "Deaths", "deaths in the year to June 30", "population-components"),
    pep("NATURALCHG", "Natural Change", "births minus deaths in the year to June 30", "population-components"),
    pep(
      "INTERNATIONALMIG",
      "Net International Migration",
      "net migration from abroad in the year to June 30",
      "migration",
    ),
    pep(
      "DOMESTICMIG",
      "Net Domestic Migration",
      "net migration from elsewhere in the United States in the year to June 30",
      "migration",
    ),
    pep("NETMIG", "Net Migration", "net international plus net domestic migration in the year to June 30", "migration"),
    acs(
      "B19013_001E",
      "Median Household Income in the Past 12 Months",
      "median household income in inflation-adjusted dollars of the final survey year",
      "demographics",
      "income",
      "dollars",
      true,
    ),
    acs(
      "B25077_001E",
      "Median Value of Owner-Occupied Housing Units",
      "median value of owner-occupied housing units as reported by owners",
      "housing",
      "home-values",
      "dollars",
      null,
    ),
    acs(
      "B25064_001E",
      "Median Gross Rent",
      "median monthly gross rent (contract rent plus utilities) of renter-occupied units paying cash rent",
      "housing",
      "rents",
      "dollars per month",
      null,
    ),
    flow(
      "MOVEDIN",
      "Movers Into County (ACS Flows)",
      "people aged 1 and over living in the reference county who lived in the counterpart one year earlier",
    ),
    flow(
      "MOVEDOUT",
      "Movers Out of County (ACS Flows)",
      "people aged 1 and over living in the counterpart who lived in the reference county one year earlier",
    ),
    flow(
      "MOVEDNET",
      "Net Movers (ACS Flows)",
      "movers in minus movers out between the reference county and the counterpart",
    ),
  ],
};
