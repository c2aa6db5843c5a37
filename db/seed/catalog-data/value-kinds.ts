// What every curated entry's values are (src/domain/value-kinds.ts): the seed stores it in meta.values, refuses an
// entry missing here or a kind its unit contradicts, and ask, insights and the landing cards choose their arithmetic
// from it. One table, by kind, so a reader sees at a glance which series are already rates or changes.
import type { ValueSpec } from "../../../src/domain/value-kinds";

const LAUS = (mm: string) => [`LASST${mm}`, `LAUCN${mm}`, `LAUST${mm}A`, `LAUCN${mm}A`];
const CPS_INDUSTRIES = ["28615", "32230", "32231", "32232", "32235", "32236", "32237", "32238", "32239", "32240", "32241", "32242", "35109", "35181"];

const LEVELS = [
  // National accounts, spending, money, sales, orders, government finance (FRED)
  "GDP", "GDPC1", "PCE", "RSXFS", "RSAFS", "M2SL", "DGORDER", "FYFR", "GFDEBTN", "BABATOTALSAUS",
  // Payroll employment by sector, CPS levels, claims, openings, earnings (FRED)
  "CLF16OV", "CE16OV", "PAYEMS", "USPRIV", "USGOOD", "SRVPRD", "CES0800000001", "USMINE", "USCONS", "MANEMP", "DMANEMP",
  "NDMANEMP", "USTPU", "USWTRADE", "USTRADE", "CES4300000001", "CES4422000001", "USINFO", "USFIRE", "USPBS", "USEHS",
  "USLAH", "USSERV", "USGOVT", "ICSA", "CCSA", "JTSJOL", "AHETPI",
  // Balance sheets, prices in dollars, housing (FRED)
  "WALCL", "WRESBAL", "TREAST", "DCOILWTICO", "OILPRICE", "GASREGW", "HOUST", "PERMIT", "CBBTCUSD", "CBETHUSD",
  // LAUS persons, CPS unemployment levels by industry, QCEW (BLS)
  ...LAUS("04"), ...LAUS("05"), ...LAUS("06"), ...CPS_INDUSTRIES.map((id) => `LNU030${id}`), "ENU10010", "ENU20010", "ENU50010",
  // Census: population, births and deaths in a year, ACS medians, movers
  "POPESTIMATE", "BIRTHS", "DEATHS", "B19013_001E", "B25077_001E", "B25064_001E", "MOVEDIN", "MOVEDOUT",
  // World Bank, EIA, Scripps, Gapminder, svc
  "SP.POP.TOTL", "NY.GDP.MKTP.CD", "NY.GDP.PCAP.CD", "SL.TLF.TOTL.IN", "SP.DYN.LE00.IN", "IC.BUS.NREG", "EG.USE.PCAP.KG.OE",
  "ELEC.GEN.FOS-99.A", "ELEC.GEN.NUC-99.A", "ELEC.GEN.REN-99.A", "PET.RWTC.D", "MLO.CO2", "MLO.CO2.SA",
  "life_expectancy_years", "population_total", "svc:real_avg_hourly_earnings",
];

const INDEXES = ["INDPRO", "CPIAUCSL", "CPILFESL", "PCEPI", "PPIACO", "PCEPILFE", "DTWEXBGS"];

const RATES = [
  "UNRATE", "U6RATE", "CIVPART", "LNU04032231", "FEDFUNDS", "DGS10", "DGS2", "T10Y2Y", "T10YIE", "T5YIE", "DFEDTARU", "DFEDTARL", "IORB",
  ...LAUS("03"), ...CPS_INDUSTRIES.map((id) => `LNU040${id}`),
  "SL.UEM.TOTL.ZS", "SH.XPD.CHEX.GD.ZS", "SE.XPD.TOTL.GD.ZS", "SE.TER.ENRR", "GC.DOD.TOTL.GD.ZS", "SP.DYN.TFRT.IN",
  "Q036", "children_per_woman_total_fertility", "svc:sahm_rule", "svc:home_affordability_ratio", "svc:unemployment_gap",
];

/** Changes already computed, each over a year: annual % growth and inflation, a year's population change and net flows. */
const YEARLY_CHANGES = ["NY.GDP.MKTP.KD.ZG", "FP.CPI.TOTL.ZG", "NPOPCHG", "NATURALCHG", "INTERNATIONALMIG", "DOMESTICMIG", "NETMIG", "MOVEDNET", "FYFSD"];

const BINARY = ["USREC"];

export const VALUE_SPECS: ReadonlyMap<string, ValueSpec> = new Map<string, ValueSpec>([
  ...LEVELS.map((c) => [c, { kind: "level" }] as const),
  ...INDEXES.map((c) => [c, { kind: "index" }] as const),
  ...RATES.map((c) => [c, { kind: "rate" }] as const),
  ...YEARLY_CHANGES.map((c) => [c, { kind: "change", spanMonths: 12 }] as const),
  ...BINARY.map((c) => [c, { kind: "binary" }] as const),
]);
