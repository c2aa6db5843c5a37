// vega-datasets files -> catalog series: the real sample a fresh database is seeded with. Pure: file contents in,
// series out. Definitions:
// - A SampleSeries is one (source, code, region) series with its rows in the catalog's unit: the file's value times
//   the catalog's scale, computed in decimal (shifting the decimal point of the printed number, so 0.097 becomes
//   exactly 9.7 percent and 3,021,487,000 thousand dollars exactly 3,021,487 million).
// - Dates are period starts: YYYY-MM-01 for monthly rows, YYYY-01-01 for annual ones.
// - Regions are canonical codes: ISO 3166-1 alpha-2 countries, 2-digit state and 5-digit county FIPS. A county whose
//   code changed without changing its area (COUNTY_CHANGES "replace" of one code by one code) is carried to its new
//   code; counties since split, merged or replaced by other areas are dropped (their value describes no current region).
//
// Files and what they hold (licences from vega-datasets' datapackage.json):
// - us-employment.csv (U.S. Government Dataset): BLS CES employment by supersector, thousands, seasonally adjusted,
//   2006-01..2015-12, downloaded 2018-11-11; `nonfarm` is PAYEMS. `nonfarm_change` is vega's own arithmetic: skipped.
// - unemployment-across-industries.json (U.S. Government Dataset): CPS unemployment by industry, 2000-01..2010-02,
//   `count` thousands and `rate` percent, not seasonally adjusted (BLS ids in CPS_INDUSTRY_CODES).
// - unemployment.tsv (U.S. Government Dataset): LAUS county unemployment rates as fractions. The file is Nathan
//   Yau's FlowingData county file (datasets.flowingdata.com/unemployment09.csv: same rates county by county) of the
//   then-latest month, September 2009, when those county figures were still preliminary; stored as such.
// - co2-concentration.csv (CC BY 4.0, Scripps CO2 Program): Mauna Loa monthly CO2 and seasonally adjusted CO2, ppm.
// - iowa-electricity.csv (U.S. Government Dataset, EIA): Iowa annual net generation by fuel group, thousand MWh.
// - obesity.json (U.S. Government Dataset, CDC BRFSS via Protovis): adult obesity by state in 1995, as fractions.
// - gapminder.json (CC BY 4.0, Gapminder): population, life expectancy and fertility, 62 countries, 1955..2005 by 5.
// - budget.json (U.S. Government Dataset, OMB FY2016 Budget): receipts by account, thousands of dollars, FY1962..
//   FY2020. Their sum per year is total federal receipts (FYFR); FY2015 on are the budget's estimates, not outcomes,
//   and the 1976 transition quarter (TQ) is no fiscal year: both skipped.
import type { CountyChange } from "./region-list";

/** `sourceUpdatedAt`: when the vintage this row comes from was published, where rows of one series differ in it. */
export type SampleRow = { date: string; value: number | null; isPreliminary?: boolean; sourceUpdatedAt?: string };
export type SampleSeries = {
  dataset: string;
  source: string;
  code: string;
  region: string;
  rows: SampleRow[];
  sourceUpdatedAt?: string;
};

/**
 * The number a decimal string denotes, times 10^power, computed on the digits (no binary rounding):
 * scaleDecimal(".097", 2) = 9.7, scaleDecimal("3,021,487,000", -3) = 3021487. Thousands separators are allowed.
 */
export function scaleDecimal(text: string, power: number): number {
  const m = /^\s*([+-]?)(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!m || (m[2] === "" && !m[3])) throw new Error(`not a decimal number: ${JSON.stringify(text)}`);
  const sign = m[1] === "-" ? "-" : "";
  let int = m[2].replace(/,/g, "");
  let frac = m[3] ?? "";
  if (power > 0) {
    frac = frac.padEnd(power, "0");
    int += frac.slice(0, power);
    frac = frac.slice(power);
  } else if (power < 0) {
    int = int.padStart(-power + 1, "0");
    frac = int.slice(int.length + power) + frac;
    int = int.slice(0, int.length + power);
  }
  const value = Number(`${sign}${int || "0"}.${frac || "0"}`);
  return value === 0 ? 0 : value;
}

/** A JSON number as printed (JavaScript prints the shortest string that round-trips, e.g. 0.187). */
function printed(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  const s = String(n);
  if (/e/i.test(s)) throw new Error(`number ${s} is outside the plain-decimal range this parser handles`);
  return s;
}

/** Rows of a simple delimited file (no quoting: the vega files used here have none), header first. */
function table(text: string, delimiter: string): { header: string[]; rows: string[][] } {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  const header = lines[0].split(delimiter).map((h) => h.trim());
  return { header, rows: lines.slice(1).map((l) => l.split(delimiter)) };
}

function column(header: string[], name: string, file: string): number {
  const i = header.indexOf(name);
  if (i < 0) throw new Error(`${file}: missing column ${name}`);
  return i;
}

const monthStart = (year: number, month: number) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-01`;
const yearStart = (year: number | string) => `${String(year).padStart(4, "0")}-01-01`;

/** us-employment.csv column -> FRED code (BLS CES "All Employees" supersector series). */
export const US_EMPLOYMENT_CODES: Record<string, string> = {
  nonfarm: "PAYEMS",
  private: "USPRIV",
  goods_producing: "USGOOD",
  service_providing: "SRVPRD",
  private_service_providing: "CES0800000001",
  mining_and_logging: "USMINE",
  construction: "USCONS",
  manufacturing: "MANEMP",
  durable_goods: "DMANEMP",
  nondurable_goods: "NDMANEMP",
  trade_transportation_utilties: "USTPU", // sic: the file's spelling
  wholesale_trade: "USWTRADE",
  retail_trade: "USTRADE",
  transportation_and_warehousing: "CES4300000001",
  utilities: "CES4422000001",
  information: "USINFO",
  financial_activities: "USFIRE",
  professional_and_business_services: "USPBS",
  education_and_health_services: "USEHS",
  leisure_and_hospitality: "USLAH",
  other_services: "USSERV",
  government: "USGOVT",
};

export function usEmployment(csv: string): SampleSeries[] {
  const { header, rows } = table(csv, ",");
  const month = column(header, "month", "us-employment.csv");
  return Object.entries(US_EMPLOYMENT_CODES).map(([col, code]) => {
    const i = column(header, col, "us-employment.csv");
    return {
      dataset: "us-employment.csv",
      source: "fred",
      code,
      region: "US",
      sourceUpdatedAt: "2018-11-11T00:00:00Z",
      rows: rows.map((r) => ({ date: isoDate(r[month], "us-employment.csv"), value: scaleDecimal(r[i], 0) })),
    };
  });
}

function isoDate(text: string, file: string): string {
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(t)) throw new Error(`${file}: bad date ${JSON.stringify(text)}`);
  return t;
}

type IndustryRow = { series: string; year: number; month: number; count: number | null; rate: number | null };

export function unemploymentAcrossIndustries(
  data: IndustryRow[],
  codes: Record<string, { rate: string; level: string }>,
): SampleSeries[] {
  const out = new Map<string, SampleSeries>();
  const get = (code: string) => {
    let s = out.get(code);
    if (!s)
      out.set(
        code,
        (s = { dataset: "unemployment-across-industries.json", source: "bls", code, region: "US", rows: [] }),
      );
    return s;
  };
  for (const r of data) {
    const c = codes[r.series];
    if (!c) throw new Error(`unemployment-across-industries.json: unknown series ${JSON.stringify(r.series)}`);
    const date = monthStart(r.year, r.month);
    get(c.level).rows.push({ date, value: r.count === null ? null : scaleDecimal(printed(r.count), 0) });
    get(c.rate).rows.push({ date, value: r.rate === null ? null : scaleDecimal(printed(r.rate), 0) });
  }
  return [...out.values()];
}

/** Old county code -> current code, for codes that changed while the area stayed the same. */
export function countyCodeRenames(changes: readonly CountyChange[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const ch of changes)
    if (ch.kind === "replace" && ch.from.length === 1 && ch.to.length === 1) out.set(ch.from[0], ch.to[0].code);
  return out;
}

export const COUNTY_UNEMPLOYMENT_DATE = "2009-09-01";

export function countyUnemployment(tsv: string, renames: Map<string, string>): SampleSeries[] {
  const { header, rows } = table(tsv, "\t");
  const id = column(header, "id", "unemployment.tsv");
  const rate = column(header, "rate", "unemployment.tsv");
  return rows.map((r) => {
    const fips = r[id].trim().padStart(5, "0");
    return {
      dataset: "unemployment.tsv",
      source: "bls",
      code: "LAUCN03",
      region: renames.get(fips) ?? fips,
      rows: [{ date: COUNTY_UNEMPLOYMENT_DATE, value: scaleDecimal(r[rate], 2), isPreliminary: true }],
    };
  });
}

export function co2Concentration(csv: string): SampleSeries[] {
  const { header, rows } = table(csv, ",");
  const date = column(header, "Date", "co2-concentration.csv");
  const series = (code: string, col: string): SampleSeries => {
    const i = column(header, col, "co2-concentration.csv");
    return {
      dataset: "co2-concentration.csv",
      source: "scripps",
      code,
      region: "15001",
      rows: rows.map((r) => ({ date: isoDate(r[date], "co2-concentration.csv"), value: scaleDecimal(r[i], 0) })),
    };
  };
  return [series("MLO.CO2", "CO2"), series("MLO.CO2.SA", "adjusted CO2")];
}

const IOWA_FUELS: Record<string, string> = {
  "Fossil Fuels": "ELEC.GEN.FOS-99.A",
  "Nuclear Energy": "ELEC.GEN.NUC-99.A",
  Renewables: "ELEC.GEN.REN-99.A",
};

export function iowaElectricity(csv: string): SampleSeries[] {
  const { header, rows } = table(csv, ",");
  const [year, source, gen] = ["year", "source", "net_generation"].map((c) =>
    column(header, c, "iowa-electricity.csv"),
  );
  const out = new Map<string, SampleSeries>();
  for (const r of rows) {
    const code = IOWA_FUELS[r[source].trim()];
    if (!code) throw new Error(`iowa-electricity.csv: unknown source ${JSON.stringify(r[source])}`);
    let s = out.get(code);
    if (!s) out.set(code, (s = { dataset: "iowa-electricity.csv", source: "eia", code, region: "19", rows: [] }));
    s.rows.push({
      date: yearStart(isoDate(r[year], "iowa-electricity.csv").slice(0, 4)),
      value: scaleDecimal(r[gen], 0),
    });
  }
  return [...out.values()];
}

export function obesity(data: { id: number; rate: number; state: string }[]): SampleSeries[] {
  return data.map((r) => ({
    dataset: "obesity.json",
    source: "cdc",
    code: "Q036",
    region: String(r.id).padStart(2, "0"),
    rows: [{ date: "1995-01-01", value: scaleDecimal(printed(r.rate), 2) }],
  }));
}

/** gapminder.json country names -> ISO 3166-1 alpha-2. */
export const GAPMINDER_COUNTRIES: Record<string, string> = {
  Afghanistan: "AF",
  Argentina: "AR",
  Australia: "AU",
  Austria: "AT",
  Bahamas: "BS",
  Bangladesh: "BD",
  Barbados: "BB",
  Belgium: "BE",
  Bolivia: "BO",
  Brazil: "BR",
  Canada: "CA",
  Chile: "CL",
  China: "CN",
  Colombia: "CO",
  "Costa Rica": "CR",
  Croatia: "HR",
  Cuba: "CU",
  "Dominican Republic": "DO",
  Ecuador: "EC",
  Egypt: "EG",
  "El Salvador": "SV",
  Finland: "FI",
  France: "FR",
  Georgia: "GE",
  Germany: "DE",
  Greece: "GR",
  Grenada: "GD",
  Haiti: "HT",
  "Hong Kong, China": "HK",
  Iceland: "IS",
  India: "IN",
  Indonesia: "ID",
  Iran: "IR",
  Iraq: "IQ",
  Ireland: "IE",
  Israel: "IL",
  Italy: "IT",
  Jamaica: "JM",
  Japan: "JP",
  Kenya: "KE",
  Lebanon: "LB",
  Mexico: "MX",
  Netherlands: "NL",
  "New Zealand": "NZ",
  Nigeria: "NG",
  "North Korea": "KP",
  Norway: "NO",
  Pakistan: "PK",
  Peru: "PE",
  Philippines: "PH",
  Poland: "PL",
  Portugal: "PT",
  Rwanda: "RW",
  "Saudi Arabia": "SA",
  "South Africa": "ZA",
  "South Korea": "KR",
  Spain: "ES",
  Switzerland: "CH",
  Turkey: "TR",
  "United Kingdom": "GB",
  "United States": "US",
  Venezuela: "VE",
};

type GapminderRow = {
  year: number;
  country: string;
  pop: number | null;
  life_expect: number | null;
  fertility: number | null;
};

export function gapminder(data: GapminderRow[]): SampleSeries[] {
  const out = new Map<string, SampleSeries>();
  const add = (code: string, region: string, date: string, v: number | null) => {
    const key = `${code}|${region}`;
    let s = out.get(key);
    if (!s) out.set(key, (s = { dataset: "gapminder.json", source: "gapminder", code, region, rows: [] }));
    s.rows.push({ date, value: v === null ? null : scaleDecimal(printed(v), 0) });
  };
  for (const r of data) {
    const iso2 = GAPMINDER_COUNTRIES[r.country];
    if (!iso2) throw new Error(`gapminder.json: no ISO code for ${JSON.stringify(r.country)}`);
    const date = yearStart(r.year);
    add("population_total", iso2, date, r.pop);
    add("life_expectancy_years", iso2, date, r.life_expect);
    add("children_per_woman_total_fertility", iso2, date, r.fertility);
  }
  return [...out.values()];
}

/** The last fiscal year of actual outcomes in the FY2016 budget (published February 2015). */
export const BUDGET_LAST_ACTUAL_YEAR = 2014;

export function federalReceipts(data: Record<string, string | number>[]): SampleSeries[] {
  const years = Object.keys(data[0] ?? {})
    .filter((k) => /^\d{4}$/.test(k) && Number(k) <= BUDGET_LAST_ACTUAL_YEAR)
    .sort();
  const rows = years.map((y) => {
    // Sum in integer thousands of dollars (exact), then express in millions.
    let thousands = 0;
    for (const account of data) thousands += scaleDecimal(String(account[y]), 0);
    if (!Number.isSafeInteger(thousands)) throw new Error(`budget.json: FY${y} sum is not an exact integer`);
    return { date: yearStart(y), value: scaleDecimal(String(thousands), -3) };
  });
  return [{ dataset: "budget.json", source: "fred", code: "FYFR", region: "US", rows }];
}
