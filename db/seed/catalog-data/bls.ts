// BLS (U.S. Bureau of Labor Statistics): LAUS state and county labour-market measures, and CPS unemployment by
// industry (the series vega-datasets' unemployment-across-industries.json was built from).
//
// LAUS code choice. A LAUS series id is `LA` + seasonal code (S adjusted, U not) + a 15-character area code + a
// 2-digit measure (03 unemployment rate, 04 unemployed, 05 employed, 06 labor force):
//   state  LASST{fips2}00000000000{mm}   e.g. LASST060000000000003 (California, rate, SA)
//   county LAUCN{fips5}00000000{mm}      e.g. LAUCN060370000000003 (Los Angeles County, rate, NSA)
// One indicator per measure and area type, coded as the series id with the area digits removed: LASST03 ... LASST06,
// LAUCN03 ... LAUCN06. The code keeps the provider's scheme (program, adjustment, area type, measure) and
// meta.upstream.series_id_template rebuilds the per-area id. States are seasonally adjusted, the headline BLS
// publishes for them; counties exist only not seasonally adjusted, so the two families are separate indicators
// rather than one series mixing adjusted and unadjusted values.
//
// CPS industry codes are the BLS series ids themselves (LNU04... rate, LNU03... level, not seasonally adjusted),
// as listed in vega-datasets' scripts/make-unemployment-across-industries.py.
import type { IndicatorSeed, SourceCatalog } from "./types";
import { US_ONLY } from "./types";

const LAUS_MEASURES = [
  {
    mm: "03",
    key: "unemployment_rate",
    name: "Unemployment Rate",
    unit: "percent",
    upIsGood: false,
    what: "unemployed persons as a percent of the civilian labor force",
  },
  {
    mm: "04",
    key: "unemployed",
    name: "Unemployed Persons",
    unit: "persons",
    upIsGood: false,
    what: "the number of unemployed persons",
  },
  {
    mm: "05",
    key: "employed",
    name: "Employed Persons",
    unit: "persons",
    upIsGood: true,
    what: "the number of employed persons (by place of residence)",
  },
  {
    mm: "06",
    key: "labor_force",
    name: "Civilian Labor Force",
    unit: "persons",
    upIsGood: null,
    what: "the civilian labor force (employed plus unemployed, by place of residence)",
  },
] as const;

function lausState(m: (typeof LAUS_MEASURES)[number]): IndicatorSeed {
  return {
    code: `LASST${m.mm}`,
    name: `${m.name} by State (LAUS, seasonally adjusted)`,
    description:
      `Local Area Unemployment Statistics: ${m.what} in each state and DC, seasonally adjusted. ` +
      `Per-state BLS series id LASST{fips2}00000000000${m.mm} (California: LASST0600000000000${m.mm}).`,
    category: "labor",
    subcategory: m.mm === "03" || m.mm === "04" ? "unemployment" : m.mm === "05" ? "employment" : "labor-force",
    unit: m.unit,
    frequency: "monthly",
    upIsGood: m.upIsGood,
    regionKinds: ["state"],
    defaultRegionCode: "06",
    meta: {
      measure: m.key,
      per_region: true,
      upstream: {
        api: "bls",
        program: "LAUS",
        series_id_template: `LASST{fips2}00000000000${m.mm}`,
        seasonal_adjustment: "SA",
        measure_code: m.mm,
      },
    },
  };
}

function lausCounty(m: (typeof LAUS_MEASURES)[number]): IndicatorSeed {
  return {
    code: `LAUCN${m.mm}`,
    name: `${m.name} by County (LAUS, not seasonally adjusted)`,
    description:
      `Local Area Unemployment Statistics: ${m.what} in each county or county equivalent, not seasonally adjusted ` +
      `(BLS publishes county estimates unadjusted only). Per-county BLS series id LAUCN{fips5}00000000${m.mm} ` +
      `(Los Angeles County: LAUCN0603700000000${m.mm}).`,
    category: "labor",
    subcategory: m.mm === "03" || m.mm === "04" ? "unemployment" : m.mm === "05" ? "employment" : "labor-force",
    unit: m.unit,
    frequency: "monthly",
    upIsGood: m.upIsGood,
    regionKinds: ["county"],
    defaultRegionCode: "06037",
    meta: {
      measure: m.key,
      per_region: true,
      upstream: {
        api: "bls",
        program: "LAUS",
        series_id_template: `LAUCN{fips5}00000000${m.mm}`,
        seasonal_adjustment: "NSA",
        measure_code: m.mm,
      },
    },
  };
}

/**
 * LAUS annual averages (BLS period M13) for states and counties, not seasonally adjusted: the figures BLS publishes
 * once a year for every area, and what the USDA ERS county file in the seed snapshot carries for 2007-2018. Coded as
 * the monthly families with an `A` suffix, as FRED codes annual LAUS series (LAUCN060370000000003A); states use the
 * unadjusted LAUST ids, since annual averages are computed from unadjusted months.
 */
function lausAnnual(m: (typeof LAUS_MEASURES)[number], kind: "state" | "county"): IndicatorSeed {
  const state = kind === "state";
  const template = state ? `LAUST{fips2}00000000000${m.mm}` : `LAUCN{fips5}00000000${m.mm}`;
  return {
    code: `${state ? "LAUST" : "LAUCN"}${m.mm}A`,
    name: `${m.name} by ${state ? "State" : "County"}, Annual Average (LAUS)`,
    description:
      `Local Area Unemployment Statistics: ${m.what} in each ${state ? "state and DC" : "county or county equivalent"}, ` +
      `annual average of the unadjusted monthly estimates. Per-area BLS series id ${template} (annual average period M13).`,
    category: "labor",
    subcategory: m.mm === "03" || m.mm === "04" ? "unemployment" : m.mm === "05" ? "employment" : "labor-force",
    unit: m.unit,
    frequency: "annual",
    upIsGood: m.upIsGood,
    regionKinds: [kind],
    defaultRegionCode: state ? "06" : "06037",
    meta: {
      measure: m.key,
      per_region: true,
      upstream: {
        api: "bls",
        program: "LAUS",
        series_id_template: template,
        seasonal_adjustment: "NSA",
        measure_code: m.mm,
        annual_average: true,
      },
    },
  };
}

/**
 * QCEW annual averages, total covered employment and wages, all industries, all ownerships: counted by place of work
 * from unemployment-insurance records (a count of jobs, not of employed residents as in LAUS). BLS series ids
 * ENU{area}{datatype}{size}{ownership}{industry}: datatype 1 employment, 2 establishments, 5 average annual pay; size 0
 * all sizes, ownership 0 total covered, industry 10 all industries. Coded, as LAUS, with the area digits removed.
 */
const QCEW_MEASURES = [
  {
    datatype: "1",
    name: "Employment (QCEW, total covered, annual average)",
    unit: "jobs",
    upIsGood: true,
    subcategory: "employment",
    what: "the annual average of monthly employment covered by unemployment insurance, counted where people work",
  },
  {
    datatype: "2",
    name: "Establishments (QCEW, total covered, annual average)",
    unit: "establishments",
    upIsGood: true,
    subcategory: "business-establishments",
    what: "the annual average of quarterly counts of establishments covered by unemployment insurance",
  },
  {
    datatype: "5",
    name: "Average Annual Pay (QCEW, total covered)",
    unit: "U.S. dollars per job",
    upIsGood: true,
    subcategory: "wages",
    what: "total annual wages divided by annual average employment, in current dollars",
  },
] as const;

function qcew(m: (typeof QCEW_MEASURES)[number]): IndicatorSeed {
  const code = `ENU${m.datatype}0010`;
  return {
    code,
    name: `${m.name} by County and State`,
    description:
      `Quarterly Census of Employment and Wages: ${m.what}, all industries and ownerships, in each county and state. ` +
      `Per-area BLS series id ENU{fips5}${m.datatype}0010 (a state's area code is its FIPS followed by 000; Los Angeles County: ENU06037${m.datatype}0010). ` +
      `Cells BLS does not disclose are missing, never zero.`,
    category: m.datatype === "2" ? "business" : "labor",
    subcategory: m.subcategory,
    unit: m.unit,
    frequency: "annual",
    upIsGood: m.upIsGood,
    regionKinds: ["state", "county"],
    defaultRegionCode: "06037",
    meta: {
      per_region: true,
      upstream: {
        api: "bls",
        program: "QCEW",
        series_id_template: `ENU{fips5}${m.datatype}0010`,
        ownership: "total covered",
        industry: "10 Total, all industries",
      },
    },
  };
}

/** CPS unemployment by industry and class of worker (Employment Situation table A-14), not seasonally adjusted. */
const CPS_INDUSTRIES = [
  { id: "28615", label: "Government Wage and Salary Workers", vega: "Government" },
  {
    id: "32230",
    label: "Mining, Quarrying, and Oil and Gas Extraction, Private Wage and Salary Workers",
    vega: "Mining and Extraction",
  },
  { id: "32231", label: "Construction Industry, Private Wage and Salary Workers", vega: "Construction" },
  { id: "32232", label: "Manufacturing Industry, Private Wage and Salary Workers", vega: "Manufacturing" },
  {
    id: "32235",
    label: "Wholesale and Retail Trade, Private Wage and Salary Workers",
    vega: "Wholesale and Retail Trade",
  },
  {
    id: "32236",
    label: "Transportation and Utilities, Private Wage and Salary Workers",
    vega: "Transportation and Utilities",
  },
  { id: "32237", label: "Information Industry, Private Wage and Salary Workers", vega: "Information" },
  { id: "32238", label: "Financial Activities Industry, Private Wage and Salary Workers", vega: "Finance" },
  {
    id: "32239",
    label: "Professional and Business Services, Private Wage and Salary Workers",
    vega: "Business services",
  },
  {
    id: "32240",
    label: "Education and Health Services, Private Wage and Salary Workers",
    vega: "Education and Health",
  },
  { id: "32241", label: "Leisure and Hospitality, Private Wage and Salary Workers", vega: "Leisure and hospitality" },
  { id: "32242", label: "Other Services, Private Wage and Salary Workers", vega: "Other" },
  { id: "35109", label: "Agriculture and Related Private Wage and Salary Workers", vega: "Agriculture" },
  { id: "35181", label: "Self-Employed Workers, Unincorporated, and Unpaid Family Workers", vega: "Self-employed" },
] as const;

/** vega-datasets series name -> [rate code, level code]; used by the sample loader. */
export const CPS_INDUSTRY_CODES: Record<string, { rate: string; level: string }> = Object.fromEntries(
  CPS_INDUSTRIES.map((i) => [i.vega, { rate: `LNU040${i.id}`, level: `LNU030${i.id}` }]),
);

function cpsIndustry(i: (typeof CPS_INDUSTRIES)[number], kind: "rate" | "level"): IndicatorSeed {
  const code = kind === "rate" ? `LNU040${i.id}` : `LNU030${i.id}`;
  return {
    code,
    name: `${kind === "rate" ? "Unemployment Rate" : "Unemployment Level"} - ${i.label}`,
    description:
      (kind === "rate"
        ? `Unemployed persons whose last job was in this industry or class of worker, as a percent of that group's labor force`
        : `Number of unemployed persons whose last job was in this industry or class of worker`) +
      ` (${i.label}); Current Population Survey, not seasonally adjusted.`,
    category: "labor",
    subcategory: "unemployment-by-industry",
    unit: kind === "rate" ? "percent" : "thousands of persons",
    frequency: "monthly",
    upIsGood: false,
    ...US_ONLY,
    meta: { upstream: { api: "bls", program: "CPS", series_id: code, seasonal_adjustment: "NSA" } },
  };
}

export const blsCatalog: SourceCatalog = {
  source: {
    slug: "bls",
    name: "U.S. Bureau of Labor Statistics",
    provider: "U.S. Department of Labor",
    category: "labor",
    docsUrl: "https://www.bls.gov/developers/",
    attribution:
      "Source: U.S. Bureau of Labor Statistics, Local Area Unemployment Statistics (LAUS; county annual averages 2000-2023 as compiled by USDA Economic Research Service) and Quarterly Census of Employment and Wages (QCEW).",
    license: "Public domain (U.S. government work)",
  },
  indicators: [
    ...LAUS_MEASURES.map(lausState),
    ...LAUS_MEASURES.map(lausCounty),
    ...LAUS_MEASURES.map((m) => lausAnnual(m, "state")),
    ...LAUS_MEASURES.map((m) => lausAnnual(m, "county")),
    ...CPS_INDUSTRIES.flatMap((i) => [cpsIndustry(i, "rate"), cpsIndustry(i, "level")]),
    ...QCEW_MEASURES.map(qcew),
  ],
};
