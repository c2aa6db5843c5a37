// The files of the real data snapshot (db/seed/snapshot/, origin and licence in the README beside each), imported as
// files so `bun build --compile` embeds them (the import is a path, a $bunfs path in the binary), grouped by vintage
// with the time each vintage was published or taken, as its README gives it (null where it gives none).
import fredAHETPI from "./snapshot/fred-macro-us/AHETPI.csv.gz" with { type: "file" };
import fredCIVPART from "./snapshot/fred-macro-us/CIVPART.csv.gz" with { type: "file" };
import fredCPIAUCSL from "./snapshot/fred-macro-us/CPIAUCSL.csv.gz" with { type: "file" };
import fredCPILFESL from "./snapshot/fred-macro-us/CPILFESL.csv.gz" with { type: "file" };
import fredDCOILWTICO from "./snapshot/fred-macro-us/DCOILWTICO.csv.gz" with { type: "file" };
import fredDGS10 from "./snapshot/fred-macro-us/DGS10.csv.gz" with { type: "file" };
import fredDGS2 from "./snapshot/fred-macro-us/DGS2.csv.gz" with { type: "file" };
import fredDTWEXBGS from "./snapshot/fred-macro-us/DTWEXBGS.csv.gz" with { type: "file" };
import fredFEDFUNDS from "./snapshot/fred-macro-us/FEDFUNDS.csv.gz" with { type: "file" };
import fredGDP from "./snapshot/fred-macro-us/GDP.csv.gz" with { type: "file" };
import fredGDPC1 from "./snapshot/fred-macro-us/GDPC1.csv.gz" with { type: "file" };
import fredHOUST from "./snapshot/fred-macro-us/HOUST.csv.gz" with { type: "file" };
import fredICSA from "./snapshot/fred-macro-us/ICSA.csv.gz" with { type: "file" };
import fredINDPRO from "./snapshot/fred-macro-us/INDPRO.csv.gz" with { type: "file" };
import fredJTSJOL from "./snapshot/fred-macro-us/JTSJOL.csv.gz" with { type: "file" };
import fredM2SL from "./snapshot/fred-macro-us/M2SL.csv.gz" with { type: "file" };
import fredPAYEMS from "./snapshot/fred-macro-us/PAYEMS.csv.gz" with { type: "file" };
import fredPCEPILFE from "./snapshot/fred-macro-us/PCEPILFE.csv.gz" with { type: "file" };
import fredRSXFS from "./snapshot/fred-macro-us/RSXFS.csv.gz" with { type: "file" };
import fredT10Y2Y from "./snapshot/fred-macro-us/T10Y2Y.csv.gz" with { type: "file" };
import fredU6RATE from "./snapshot/fred-macro-us/U6RATE.csv.gz" with { type: "file" };
import fredUNRATE from "./snapshot/fred-macro-us/UNRATE.csv.gz" with { type: "file" };
import fredUSREC from "./snapshot/fred-macro-us/USREC.csv.gz" with { type: "file" };
import fred26CCSA from "./snapshot/fred-national-2026-vintage/CCSA.csv.gz" with { type: "file" };
import fred26CPIAUCSL from "./snapshot/fred-national-2026-vintage/CPIAUCSL.csv.gz" with { type: "file" };
import fred26CPILFESL from "./snapshot/fred-national-2026-vintage/CPILFESL.csv.gz" with { type: "file" };
import fred26DFEDTARL from "./snapshot/fred-national-2026-vintage/DFEDTARL.csv.gz" with { type: "file" };
import fred26DFEDTARU from "./snapshot/fred-national-2026-vintage/DFEDTARU.csv.gz" with { type: "file" };
import fred26DGS10 from "./snapshot/fred-national-2026-vintage/DGS10.csv.gz" with { type: "file" };
import fred26FEDFUNDS from "./snapshot/fred-national-2026-vintage/FEDFUNDS.csv.gz" with { type: "file" };
import fred26ICSA from "./snapshot/fred-national-2026-vintage/ICSA.csv.gz" with { type: "file" };
import fred26INDPRO from "./snapshot/fred-national-2026-vintage/INDPRO.csv.gz" with { type: "file" };
import fred26IORB from "./snapshot/fred-national-2026-vintage/IORB.csv.gz" with { type: "file" };
import fred26JTSJOL from "./snapshot/fred-national-2026-vintage/JTSJOL.csv.gz" with { type: "file" };
import fred26PAYEMS from "./snapshot/fred-national-2026-vintage/PAYEMS.csv.gz" with { type: "file" };
import fred26PCEPILFE from "./snapshot/fred-national-2026-vintage/PCEPILFE.csv.gz" with { type: "file" };
import fred26PPIACO from "./snapshot/fred-national-2026-vintage/PPIACO.csv.gz" with { type: "file" };
import fred26RSAFS from "./snapshot/fred-national-2026-vintage/RSAFS.csv.gz" with { type: "file" };
import fred26T10Y2Y from "./snapshot/fred-national-2026-vintage/T10Y2Y.csv.gz" with { type: "file" };
import fred26T10YIE from "./snapshot/fred-national-2026-vintage/T10YIE.csv.gz" with { type: "file" };
import fred26T5YIE from "./snapshot/fred-national-2026-vintage/T5YIE.csv.gz" with { type: "file" };
import fred26TREAST from "./snapshot/fred-national-2026-vintage/TREAST.csv.gz" with { type: "file" };
import fred26UNRATE from "./snapshot/fred-national-2026-vintage/UNRATE.csv.gz" with { type: "file" };
import fred26WALCL from "./snapshot/fred-national-2026-vintage/WALCL.csv.gz" with { type: "file" };
import fred26WRESBAL from "./snapshot/fred-national-2026-vintage/WRESBAL.csv.gz" with { type: "file" };
import blsStateUnemployedFile from "./snapshot/bls-state-unemployment-monthly/State_level_unemployment.csv.gz" with {
  type: "file",
};
import lausStatesFile from "./snapshot/bls-laus-state-monthly/ststdsadata.csv.gz" with { type: "file" };
import lausStateRatesFile from "./snapshot/bls-laus-state-monthly/stateUnemployment.csv.gz" with { type: "file" };
import ers2018File from "./snapshot/ers-county-unemployment/Unemployment.csv.gz" with { type: "file" };
import ers2023File from "./snapshot/laus-county-annual/Unemployment2023.csv.gz" with { type: "file" };
import lausCounty2024File from "./snapshot/laus-county-annual/laucnty24.csv.gz" with { type: "file" };
import qcew2024File from "./snapshot/qcew-county-annual/qcew-2024-annual-total.csv.gz" with { type: "file" };
import qcew2025File from "./snapshot/qcew-county-annual/qcew-2025-annual-total.csv.gz" with { type: "file" };
import pep2020File from "./snapshot/census-pep-county/co-est2020-alldata.csv.gz" with { type: "file" };
import pep2024File from "./snapshot/census-pep-county/co-est2024-alldata.csv.gz" with { type: "file" };
import wbGdpFile from "./snapshot/worldbank-country/gdp.csv.gz" with { type: "file" };
import wbPopulationFile from "./snapshot/worldbank-country/population.csv.gz" with { type: "file" };
import wb25fp_cpi_totl_zg from "./snapshot/worldbank-wdi-2025/fp.cpi.totl.zg.csv.gz" with { type: "file" };
import wb25ny_gdp_mktp_cd from "./snapshot/worldbank-wdi-2025/ny.gdp.mktp.cd.csv.gz" with { type: "file" };
import wb25ny_gdp_mktp_kd_zg from "./snapshot/worldbank-wdi-2025/ny.gdp.mktp.kd.zg.csv.gz" with { type: "file" };
import wb25ny_gdp_pcap_cd from "./snapshot/worldbank-wdi-2025/ny.gdp.pcap.cd.csv.gz" with { type: "file" };
import wb25sl_uem_totl_zs from "./snapshot/worldbank-wdi-2025/sl.uem.totl.zs.csv.gz" with { type: "file" };
import wb25sp_pop_totl from "./snapshot/worldbank-wdi-2025/sp.pop.totl.csv.gz" with { type: "file" };

/** A file of the snapshot and when its vintage was published (or, where its README gives no date, taken). */
export type VintageFile = { path: string; sourceUpdatedAt: string | null };
const at = (path: string, sourceUpdatedAt: string | null): VintageFile => ({ path, sourceUpdatedAt });

/** FRED national series: the January-2026 vintage (fred-macro-us, fetched 2026-01-02), by FRED id. */
export const FRED_2026_01: Record<string, VintageFile> = {
  AHETPI: at(fredAHETPI, "2026-01-02T00:00:00Z"),
  CIVPART: at(fredCIVPART, "2026-01-02T00:00:00Z"),
  CPIAUCSL: at(fredCPIAUCSL, "2026-01-02T00:00:00Z"),
  CPILFESL: at(fredCPILFESL, "2026-01-02T00:00:00Z"),
  DCOILWTICO: at(fredDCOILWTICO, "2026-01-02T00:00:00Z"),
  DGS10: at(fredDGS10, "2026-01-02T00:00:00Z"),
  DGS2: at(fredDGS2, "2026-01-02T00:00:00Z"),
  DTWEXBGS: at(fredDTWEXBGS, "2026-01-02T00:00:00Z"),
  FEDFUNDS: at(fredFEDFUNDS, "2026-01-02T00:00:00Z"),
  GDP: at(fredGDP, "2026-01-02T00:00:00Z"),
  GDPC1: at(fredGDPC1, "2026-01-02T00:00:00Z"),
  HOUST: at(fredHOUST, "2026-01-02T00:00:00Z"),
  ICSA: at(fredICSA, "2026-01-02T00:00:00Z"),
  INDPRO: at(fredINDPRO, "2026-01-02T00:00:00Z"),
  JTSJOL: at(fredJTSJOL, "2026-01-02T00:00:00Z"),
  M2SL: at(fredM2SL, "2026-01-02T00:00:00Z"),
  PAYEMS: at(fredPAYEMS, "2026-01-02T00:00:00Z"),
  PCEPILFE: at(fredPCEPILFE, "2026-01-02T00:00:00Z"),
  RSXFS: at(fredRSXFS, "2026-01-02T00:00:00Z"),
  T10Y2Y: at(fredT10Y2Y, "2026-01-02T00:00:00Z"),
  U6RATE: at(fredU6RATE, "2026-01-02T00:00:00Z"),
  UNRATE: at(fredUNRATE, "2026-01-02T00:00:00Z"),
  USREC: at(fredUSREC, "2026-01-02T00:00:00Z"),
};
/** FRED national series: the June-2026 vintage (fred-national-2026-vintage, refreshed 2026-06-05), by FRED id. */
export const FRED_2026_06: Record<string, VintageFile> = {
  CCSA: at(fred26CCSA, "2026-06-05T00:00:00Z"),
  CPIAUCSL: at(fred26CPIAUCSL, "2026-06-05T00:00:00Z"),
  CPILFESL: at(fred26CPILFESL, "2026-06-05T00:00:00Z"),
  DFEDTARL: at(fred26DFEDTARL, "2026-06-05T00:00:00Z"),
  DFEDTARU: at(fred26DFEDTARU, "2026-06-05T00:00:00Z"),
  DGS10: at(fred26DGS10, "2026-06-05T00:00:00Z"),
  FEDFUNDS: at(fred26FEDFUNDS, "2026-06-05T00:00:00Z"),
  ICSA: at(fred26ICSA, "2026-06-05T00:00:00Z"),
  INDPRO: at(fred26INDPRO, "2026-06-05T00:00:00Z"),
  IORB: at(fred26IORB, "2026-06-05T00:00:00Z"),
  JTSJOL: at(fred26JTSJOL, "2026-06-05T00:00:00Z"),
  PAYEMS: at(fred26PAYEMS, "2026-06-05T00:00:00Z"),
  PCEPILFE: at(fred26PCEPILFE, "2026-06-05T00:00:00Z"),
  PPIACO: at(fred26PPIACO, "2026-06-05T00:00:00Z"),
  RSAFS: at(fred26RSAFS, "2026-06-05T00:00:00Z"),
  T10Y2Y: at(fred26T10Y2Y, "2026-06-05T00:00:00Z"),
  T10YIE: at(fred26T10YIE, "2026-06-05T00:00:00Z"),
  T5YIE: at(fred26T5YIE, "2026-06-05T00:00:00Z"),
  TREAST: at(fred26TREAST, "2026-06-05T00:00:00Z"),
  UNRATE: at(fred26UNRATE, "2026-06-05T00:00:00Z"),
  WALCL: at(fred26WALCL, "2026-06-05T00:00:00Z"),
  WRESBAL: at(fred26WRESBAL, "2026-06-05T00:00:00Z"),
};

/** BLS LAUS, states, monthly SA. */
export const LAUS_STATES = {
  /** LASST04 only, 50 states, 1976-01..2020-05 (data updated early 2020; no release date given). */
  unemployed2020: at(blsStateUnemployedFile, null),
  /** LASST03..06, every state and DC, 1976-01..2025-08 (the September-2025 release, before the 2026 revision). */
  all2025: at(lausStatesFile, "2025-09-19T00:00:00Z"),
  /** LASST03, 2025-01..2026-06, from the BLS API on 2026-07-23 (after the 2026 annual revision). */
  rates2026: at(lausStateRatesFile, "2026-07-23T00:00:00Z"),
};

/** BLS LAUS annual averages, states and counties. */
export const LAUS_ANNUAL = {
  /** USDA ERS edition 2007-2018, data as of 2020-02-05. */
  ers2018: at(ers2018File, "2020-02-05T00:00:00Z"),
  /** USDA ERS edition 2000-2023, data as of 2025-01-31. */
  ers2023: at(ers2023File, "2025-01-31T00:00:00Z"),
  /** BLS laucnty24, 2024 annual averages as re-issued on 2026-04-08. */
  county2024: at(lausCounty2024File, "2026-04-08T00:00:00Z"),
};

/** BLS QCEW annual averages (total covered, all industries), taken 2026-08-18. */
export const QCEW_ANNUAL = [at(qcew2024File, "2026-08-18T00:00:00Z"), at(qcew2025File, "2026-08-18T00:00:00Z")];

/** Census PEP county files by vintage (release dates of the estimates). */
export const PEP_VINTAGES: Record<number, VintageFile> = {
  2020: at(pep2020File, "2021-05-27T00:00:00Z"),
  2024: at(pep2024File, "2025-03-13T00:00:00Z"),
};

/** World Bank WDI: the datahub GDP and population files (to 2023 / 2024; no release date given). */
export const WORLD_BANK_EARLIER: Record<string, VintageFile> = {
  "NY.GDP.MKTP.CD": at(wbGdpFile, null),
  "SP.POP.TOTL": at(wbPopulationFile, null),
};
/** World Bank WDI to 2025 (datasets/world-development-indicators, automated update of 2026-07-01), by indicator id. */
export const WORLD_BANK_2025: Record<string, VintageFile> = {
  "FP.CPI.TOTL.ZG": at(wb25fp_cpi_totl_zg, "2026-07-01T00:00:00Z"),
  "NY.GDP.MKTP.CD": at(wb25ny_gdp_mktp_cd, "2026-07-01T00:00:00Z"),
  "NY.GDP.MKTP.KD.ZG": at(wb25ny_gdp_mktp_kd_zg, "2026-07-01T00:00:00Z"),
  "NY.GDP.PCAP.CD": at(wb25ny_gdp_pcap_cd, "2026-07-01T00:00:00Z"),
  "SL.UEM.TOTL.ZS": at(wb25sl_uem_totl_zs, "2026-07-01T00:00:00Z"),
  "SP.POP.TOTL": at(wb25sp_pop_totl, "2026-07-01T00:00:00Z"),
};
