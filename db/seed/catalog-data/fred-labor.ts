// FRED's national US labor series (fred.ts lists them with the other families): the household and establishment
// surveys, payrolls by CES supersector, unemployment insurance claims, job openings and earnings.
import type { IndicatorSeed } from "./types";
import { BLS, ces, fred } from "./fred-spec";

/** Labor: unemployment, the labor force, payrolls (total and by supersector), claims, openings and earnings. */
export const FRED_LABOR: readonly IndicatorSeed[] = [
  fred("UNRATE", {
    name: "Unemployment Rate",
    description: `Unemployed persons aged 16 and over as a percent of the civilian labor force (Current Population Survey, household survey; BLS id LNS14000000). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "unemployment", unit: "percent", frequency: "monthly", upIsGood: false, adjustment: "SA", agency: BLS, blsSeriesId: "LNS14000000",
  }),
  fred("U6RATE", {
    name: "U-6 Unemployment Rate",
    description: `Total unemployed, plus persons marginally attached to the labor force, plus those employed part time for economic reasons, as a percent of the civilian labor force plus the marginally attached (CPS; BLS id LNS13327709). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "unemployment", unit: "percent", frequency: "monthly", upIsGood: false, adjustment: "SA", agency: BLS, blsSeriesId: "LNS13327709",
  }),
  fred("CIVPART", {
    name: "Labor Force Participation Rate",
    description: `The civilian labor force as a percent of the civilian noninstitutional population aged 16 and over (CPS; BLS id LNS11300000). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "labor-force", unit: "percent", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: BLS, blsSeriesId: "LNS11300000",
  }),
  fred("CLF16OV", {
    name: "Civilian Labor Force Level",
    description: `Persons aged 16 and over who are employed or unemployed (CPS; BLS id LNS11000000). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "labor-force", unit: "thousands of persons", frequency: "monthly", upIsGood: null, adjustment: "SA", agency: BLS, blsSeriesId: "LNS11000000",
  }),
  fred("CE16OV", {
    name: "Employment Level",
    description: `Employed persons aged 16 and over, household survey (CPS; BLS id LNS12000000). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "employment", unit: "thousands of persons", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: BLS, blsSeriesId: "LNS12000000",
  }),
  fred("PAYEMS", {
    name: "All Employees, Total Nonfarm",
    description: `Total nonfarm payroll employment ("payrolls"), from the BLS Current Employment Statistics establishment survey (BLS id CES0000000001). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "payrolls", unit: "thousands of persons", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: BLS, blsSeriesId: "CES0000000001",
  }),
  ces("USPRIV", "CES0500000001", "Total Private", "all private industries"),
  ces("USGOOD", "CES0600000001", "Goods-Producing", "goods-producing industries (mining and logging, construction, manufacturing)"),
  ces("SRVPRD", "CES0700000001", "Service-Providing", "service-providing industries, private and government"),
  ces("CES0800000001", "CES0800000001", "Private Service-Providing", "private service-providing industries"),
  ces("USMINE", "CES1000000001", "Mining and Logging", "mining and logging"),
  ces("USCONS", "CES2000000001", "Construction", "construction"),
  ces("MANEMP", "CES3000000001", "Manufacturing", "manufacturing"),
  ces("DMANEMP", "CES3100000001", "Durable Goods", "durable goods manufacturing"),
  ces("NDMANEMP", "CES3200000001", "Nondurable Goods", "nondurable goods manufacturing"),
  ces("USTPU", "CES4000000001", "Trade, Transportation, and Utilities", "trade, transportation and utilities"),
  ces("USWTRADE", "CES4142000001", "Wholesale Trade", "wholesale trade"),
  ces("USTRADE", "CES4200000001", "Retail Trade", "retail trade"),
  ces("CES4300000001", "CES4300000001", "Transportation and Warehousing", "transportation and warehousing"),
  ces("CES4422000001", "CES4422000001", "Utilities", "utilities"),
  ces("USINFO", "CES5000000001", "Information", "the information sector"),
  ces("USFIRE", "CES5500000001", "Financial Activities", "financial activities (finance, insurance, real estate)"),
  ces("USPBS", "CES6000000001", "Professional and Business Services", "professional and business services"),
  ces("USEHS", "CES6500000001", "Private Education and Health Services", "private education and health services"),
  ces("USLAH", "CES7000000001", "Leisure and Hospitality", "leisure and hospitality"),
  ces("USSERV", "CES8000000001", "Other Services", "other services"),
  ces("USGOVT", "CES9000000001", "Government", "federal, state and local government"),
  fred("ICSA", {
    name: "Initial Claims",
    description: "Initial claims for state unemployment insurance filed in the week ending Saturday, seasonally adjusted. Source: U.S. Employment and Training Administration via FRED.",
    category: "labor", subcategory: "unemployment-insurance", unit: "number", frequency: "weekly", upIsGood: false, adjustment: "SA", agency: "U.S. Employment and Training Administration",
    extra: { week_ending: "saturday" },
  }),
  fred("CCSA", {
    name: "Continued Claims (Insured Unemployment)",
    description: "Continued weeks claimed under state unemployment insurance programs in the week ending Saturday (insured unemployment), seasonally adjusted. Source: U.S. Employment and Training Administration via FRED.",
    category: "labor", subcategory: "unemployment-insurance", unit: "number", frequency: "weekly", upIsGood: false, adjustment: "SA", agency: "U.S. Employment and Training Administration",
    extra: { week_ending: "saturday" },
  }),
  fred("JTSJOL", {
    name: "Job Openings: Total Nonfarm",
    description: `Job openings on the last business day of the month, Job Openings and Labor Turnover Survey (JOLTS; BLS id JTS000000000000000JOL). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "job-openings", unit: "thousands", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: BLS, blsSeriesId: "JTS000000000000000JOL",
  }),
  fred("AHETPI", {
    name: "Average Hourly Earnings of Production and Nonsupervisory Employees, Total Private",
    description: `Average hourly earnings of production and nonsupervisory employees on private nonfarm payrolls, in current dollars (CES; BLS id CES0500000008). Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "earnings", unit: "dollars per hour", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: BLS, blsSeriesId: "CES0500000008",
  }),
  fred("LNU04032231", {
    name: "Unemployment Rate - Construction Industry, Private Wage and Salary Workers",
    description: `Unemployment rate of private wage and salary workers whose last job was in construction, not seasonally adjusted (CPS). FRED republishes the BLS series under its BLS id; the original is bls:LNU04032231. Source: ${BLS} via FRED.`,
    category: "labor", subcategory: "unemployment-by-industry", unit: "percent", frequency: "monthly", upIsGood: false, adjustment: "NSA", agency: BLS, blsSeriesId: "LNU04032231",
    extra: { republishes: "bls" },
  }),
];
