// Short names of curated entries, by code (the seed stores one as meta.short_name): what a landing card, a chart's
// legend or a title short of room calls the entry. Every entry whose name the rule of src/domain/short-name.ts
// cannot shorten to SHORT_NAME_MAX characters has one here (the seed refuses the catalog otherwise), and a few whose
// rule-made name would drop what tells them apart (the family of LAUS measures, the CPS industries).
import type { IndicatorSeed } from "./types";

const LAUS_MEASURES: Record<string, string> = {
  "03": "Unemployment Rate",
  "04": "Unemployed Persons",
  "05": "Employed Persons",
  "06": "Civilian Labor Force",
};
const LAUS = Object.entries(LAUS_MEASURES).flatMap(([mm, name]): [string, string][] => [
  [`LASST${mm}`, name],
  [`LAUCN${mm}`, name],
  [`LAUST${mm}A`, `${name}, Annual Average`],
  [`LAUCN${mm}A`, `${name}, Annual Average`],
]);

/** CPS industry and class-of-worker series (bls.ts), by the id's last five digits. */
const CPS_INDUSTRIES: Record<string, string> = {
  "28615": "Government",
  "32230": "Mining, Oil and Gas",
  "32231": "Construction",
  "32232": "Manufacturing",
  "32235": "Retail and Wholesale",
  "32236": "Transport, Utilities",
  "32237": "Information",
  "32238": "Financial Activities",
  "32239": "Business Services",
  "32240": "Education and Health",
  "32241": "Leisure, Hospitality",
  "32242": "Other Services",
  "35109": "Agriculture",
  "35181": "Self-Employed",
};
const CPS = Object.entries(CPS_INDUSTRIES).flatMap(([id, industry]): [string, string][] => [
  [`LNU040${id}`, `Unemployment Rate: ${industry}`],
  [`LNU030${id}`, `Unemployment Level: ${industry}`],
]);

export const SHORT_NAMES: ReadonlyMap<string, string> = new Map<string, string>([
  // FRED
  ["RSAFS", "Retail and Food Services Sales"],
  ["USREC", "US Recessions (NBER)"],
  ["USTPU", "All Employees, Trade, Transp., Utilities"],
  ["CES4300000001", "All Employees, Transp. and Warehousing"],
  ["USPBS", "All Employees, Prof. and Business Svcs."],
  ["USEHS", "All Employees, Private Educ. and Health"],
  ["AHETPI", "Avg. Hourly Earnings, Nonsupervisory"],
  ["CPIAUCSL", "Consumer Price Index"],
  ["CPILFESL", "CPI Less Food and Energy"],
  ["PCEPI", "PCE Price Index"],
  ["PPIACO", "Producer Price Index: All Commodities"],
  ["PCEPILFE", "PCE Price Index Less Food and Energy"],
  ["DGS10", "10-Year Treasury Yield"],
  ["DGS2", "2-Year Treasury Yield"],
  ["T10Y2Y", "10-Year Minus 2-Year Treasury Yield"],
  ["WALCL", "Federal Reserve Total Assets"],
  ["WRESBAL", "Reserve Balances at the Fed"],
  ["TREAST", "Fed Holdings of Treasury Securities"],
  ["DCOILWTICO", "WTI Crude Oil Price"],
  ["OILPRICE", "WTI Spot Oil Price (discontinued)"],
  ["HOUST", "Housing Starts"],
  ["PERMIT", "Building Permits"],
  ["BABATOTALSAUS", "Business Applications"],
  // BLS (LNU04032231 is also FRED's)
  ...LAUS,
  ...CPS,
  ["ENU10010", "Employment (QCEW)"],
  ["ENU20010", "Establishments (QCEW)"],
  ["ENU50010", "Average Annual Pay (QCEW)"],
  // Census, World Bank, EIA, this service
  ["B19013_001E", "Median Household Income"],
  ["B25077_001E", "Median Home Value"],
  ["SE.XPD.TOTL.GD.ZS", "Government expenditure on education"],
  ["EG.USE.PCAP.KG.OE", "Energy use per person"],
  ["ELEC.GEN.FOS-99.A", "Electricity from Fossil Fuels"],
  ["ELEC.GEN.NUC-99.A", "Electricity from Nuclear"],
  ["ELEC.GEN.REN-99.A", "Electricity from Renewables"],
  ["svc:real_avg_hourly_earnings", "Real Hourly Earnings, Nonsupervisory"],
]);

/** The entry as the seed stores it: with its short name, when it has one, in meta.short_name. */
export function withShortName(i: IndicatorSeed): IndicatorSeed {
  const short = SHORT_NAMES.get(i.code);
  return short ? { ...i, meta: { ...i.meta, short_name: short } } : i;
}
