// FRED (Federal Reserve Bank of St. Louis): the national US series. Codes are FRED series ids; each entry names the
// agency that produces the data (FRED asks for "Source: <agency> via FRED" attribution). All are offered for the US
// only. The 21 CES supersector series carry their BLS id in meta.upstream.bls_series_id (PAYEMS = CES0000000001).
// LNU04032231 is the one FRED series here that keeps the BLS id as its FRED id: it is also curated under `bls`
// (bls.ts), which makes it the catalog's real case of one code published by two sources.
import type { Category, Frequency } from "../../schema/catalog";
import { US_ONLY, type IndicatorSeed, type SourceCatalog } from "./types";

type Adjustment = "SA" | "NSA" | "SAAR";

type FredSpec = {
  name: string;
  description: string;
  category: Category;
  subcategory: string;
  unit: string;
  frequency: Frequency;
  upIsGood: boolean | null;
  adjustment: Adjustment;
  agency: string;
  blsSeriesId?: string;
  isActive?: boolean;
  extra?: Record<string, unknown>;
};

function fred(code: string, s: FredSpec): IndicatorSeed {
  return {
    code,
    name: s.name,
    description: s.description,
    category: s.category,
    subcategory: s.subcategory,
    unit: s.unit,
    frequency: s.frequency,
    upIsGood: s.upIsGood,
    ...US_ONLY,
    isActive: s.isActive ?? true,
    meta: {
      upstream: {
        api: "fred",
        series_id: code,
        seasonal_adjustment: s.adjustment,
        original_source: s.agency,
        ...(s.blsSeriesId ? { bls_series_id: s.blsSeriesId } : {}),
      },
      ...s.extra,
    },
  };
}

const BLS = "U.S. Bureau of Labor Statistics";
const BEA = "U.S. Bureau of Economic Analysis";
const FRB = "Board of Governors of the Federal Reserve System";
const CENSUS = "U.S. Census Bureau";
const OMB = "U.S. Office of Management and Budget";
const TREASURY = "U.S. Department of the Treasury, Fiscal Service";
const EIA = "U.S. Energy Information Administration";

/** CES "All Employees" supersector series (thousands of persons, SA), as vega-datasets' us-employment.csv holds them. */
function ces(code: string, blsSeriesId: string, sector: string, description: string): IndicatorSeed {
  return fred(code, {
    name: `All Employees, ${sector}`,
    description: `Payroll employment in ${description}, from the BLS Current Employment Statistics (establishment survey). Source: ${BLS} via FRED (BLS id ${blsSeriesId}).`,
    category: "labor",
    subcategory: "payrolls-by-sector",
    unit: "thousands of persons",
    frequency: "monthly",
    upIsGood: true,
    adjustment: "SA",
    agency: BLS,
    blsSeriesId,
  });
}

export const fredCatalog: SourceCatalog = {
  source: {
    slug: "fred",
    name: "FRED, Federal Reserve Bank of St. Louis",
    provider: "Federal Reserve Bank of St. Louis",
    category: "macro",
    docsUrl: "https://fred.stlouisfed.org/docs/api/fred/",
    attribution: "Source: the producing agency named in each series (BLS, BEA, Federal Reserve Board, Census, EIA, ...) via FRED, Federal Reserve Bank of St. Louis.",
    license: "Public domain (U.S. government work); copyrighted FRED series are not carried",
  },
  indicators: [
    // --- macro -----------------------------------------------------------------------------------------------
    fred("GDP", {
      name: "Gross Domestic Product",
      description: `Nominal US gross domestic product: the market value of all final goods and services produced in the United States, at a seasonally adjusted annual rate. Source: ${BEA} via FRED.`,
      category: "macro", subcategory: "output", unit: "billions of dollars, SAAR", frequency: "quarterly", upIsGood: true, adjustment: "SAAR", agency: BEA,
    }),
    fred("GDPC1", {
      name: "Real Gross Domestic Product",
      description: `US gross domestic product adjusted for inflation (chained 2017 dollars), at a seasonally adjusted annual rate. Source: ${BEA} via FRED.`,
      category: "macro", subcategory: "output", unit: "billions of chained 2017 dollars, SAAR", frequency: "quarterly", upIsGood: true, adjustment: "SAAR", agency: BEA,
    }),
    fred("PCE", {
      name: "Personal Consumption Expenditures",
      description: `Household spending on goods and services in current dollars, at a seasonally adjusted annual rate (NIPA table 2.8.5). Source: ${BEA} via FRED.`,
      category: "macro", subcategory: "consumption", unit: "billions of dollars, SAAR", frequency: "monthly", upIsGood: true, adjustment: "SAAR", agency: BEA,
    }),
    fred("INDPRO", {
      name: "Industrial Production: Total Index",
      description: `Real output of US manufacturing, mining and electric and gas utilities (G.17 release). Source: ${FRB} via FRED.`,
      category: "macro", subcategory: "production", unit: "index 2017=100", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: FRB,
    }),
    fred("RSXFS", {
      name: "Advance Retail Sales: Retail Trade",
      description: `Monthly sales of US retail trade businesses excluding food services, in current dollars (Advance Monthly Retail Trade Survey). Source: ${CENSUS} via FRED.`,
      category: "macro", subcategory: "retail-sales", unit: "millions of dollars", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: CENSUS,
    }),
    fred("RSAFS", {
      name: "Advance Retail Sales: Retail Trade and Food Services",
      description: `Monthly sales of US retail trade and food services businesses, in current dollars (Advance Monthly Retail Trade Survey). Source: ${CENSUS} via FRED.`,
      category: "macro", subcategory: "retail-sales", unit: "millions of dollars", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: CENSUS,
    }),
    fred("M2SL", {
      name: "M2 Money Stock",
      description: `M2: currency, demand and other checkable deposits, savings deposits, small time deposits and retail money market funds (H.6 release). Source: ${FRB} via FRED.`,
      category: "macro", subcategory: "money-supply", unit: "billions of dollars", frequency: "monthly", upIsGood: null, adjustment: "SA", agency: FRB,
    }),
    fred("USREC", {
      name: "NBER based Recession Indicator for the United States",
      description: "1 for months from the period following an NBER business-cycle peak through the trough, 0 otherwise (NBER Business Cycle Dating Committee dates). Source: Federal Reserve Bank of St. Louis from NBER dates.",
      category: "macro", subcategory: "business-cycle", unit: "binary (1 = recession)", frequency: "monthly", upIsGood: false, adjustment: "NSA", agency: "National Bureau of Economic Research",
    }),

    // --- labor -----------------------------------------------------------------------------------------------
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

    // --- prices ----------------------------------------------------------------------------------------------
    fred("CPIAUCSL", {
      name: "Consumer Price Index for All Urban Consumers: All Items in U.S. City Average",
      description: `CPI-U, all items, US city average: the price level of a fixed basket of consumer goods and services (BLS id CUSR0000SA0). Source: ${BLS} via FRED.`,
      category: "prices", subcategory: "consumer-prices", unit: "index 1982-1984=100", frequency: "monthly", upIsGood: null, adjustment: "SA", agency: BLS, blsSeriesId: "CUSR0000SA0",
    }),
    fred("CPILFESL", {
      name: "Consumer Price Index for All Urban Consumers: All Items Less Food and Energy in U.S. City Average",
      description: `Core CPI-U: all items less food and energy, US city average (BLS id CUSR0000SA0L1E). Source: ${BLS} via FRED.`,
      category: "prices", subcategory: "consumer-prices", unit: "index 1982-1984=100", frequency: "monthly", upIsGood: null, adjustment: "SA", agency: BLS, blsSeriesId: "CUSR0000SA0L1E",
    }),
    fred("PCEPI", {
      name: "Personal Consumption Expenditures: Chain-type Price Index",
      description: `The PCE price index, the Federal Reserve's preferred inflation gauge (NIPA table 2.8.4). Source: ${BEA} via FRED.`,
      category: "prices", subcategory: "consumer-prices", unit: "index 2017=100", frequency: "monthly", upIsGood: null, adjustment: "SA", agency: BEA,
    }),
    fred("PPIACO", {
      name: "Producer Price Index by Commodity: All Commodities",
      description: `Average change over time in the selling prices received by domestic producers for all commodities, not seasonally adjusted (BLS id WPU00000000). Source: ${BLS} via FRED.`,
      category: "prices", subcategory: "producer-prices", unit: "index 1982=100", frequency: "monthly", upIsGood: null, adjustment: "NSA", agency: BLS, blsSeriesId: "WPU00000000",
    }),
    fred("PCEPILFE", {
      name: "Personal Consumption Expenditures Excluding Food and Energy (Chain-Type Price Index)",
      description: `Core PCE price index: PCE prices excluding food and energy. Source: ${BEA} via FRED.`,
      category: "prices", subcategory: "consumer-prices", unit: "index 2017=100", frequency: "monthly", upIsGood: null, adjustment: "SA", agency: BEA,
    }),

    // --- markets ---------------------------------------------------------------------------------------------
    fred("FEDFUNDS", {
      name: "Federal Funds Effective Rate",
      description: `Monthly average of the daily effective federal funds rate, the overnight interbank rate the FOMC targets (H.15 release). Source: ${FRB} via FRED.`,
      category: "markets", subcategory: "interest-rates", unit: "percent", frequency: "monthly", upIsGood: null, adjustment: "NSA", agency: FRB,
    }),
    fred("DGS10", {
      name: "Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity",
      description: `10-year Treasury constant-maturity yield, quoted on an investment basis, business days (H.15 release). Source: ${FRB} via FRED.`,
      category: "markets", subcategory: "treasury-yields", unit: "percent", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: FRB,
    }),
    fred("DGS2", {
      name: "Market Yield on U.S. Treasury Securities at 2-Year Constant Maturity",
      description: `2-year Treasury constant-maturity yield, quoted on an investment basis, business days (H.15 release). Source: ${FRB} via FRED.`,
      category: "markets", subcategory: "treasury-yields", unit: "percent", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: FRB,
    }),
    fred("T10Y2Y", {
      name: "10-Year Treasury Constant Maturity Minus 2-Year Treasury Constant Maturity",
      description: "The 10-year minus 2-year Treasury yield spread (DGS10 - DGS2); negative values mark an inverted yield curve. Source: Federal Reserve Bank of St. Louis from H.15 data.",
      category: "markets", subcategory: "yield-curve", unit: "percentage points", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: "Federal Reserve Bank of St. Louis",
    }),
    fred("DTWEXBGS", {
      name: "Nominal Broad U.S. Dollar Index",
      description: `Trade-weighted value of the US dollar against the currencies of a broad group of major trading partners (H.10 release). Source: ${FRB} via FRED.`,
      category: "markets", subcategory: "currencies", unit: "index Jan 2006=100", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: FRB,
    }),

    fred("T10YIE", {
      name: "10-Year Breakeven Inflation Rate",
      description: "Market-implied expected inflation over the next 10 years: the 10-year nominal Treasury yield minus the 10-year TIPS real yield, business days. Source: Federal Reserve Bank of St. Louis from H.15 data.",
      category: "markets", subcategory: "inflation-expectations", unit: "percent", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: "Federal Reserve Bank of St. Louis",
    }),
    fred("T5YIE", {
      name: "5-Year Breakeven Inflation Rate",
      description: "Market-implied expected inflation over the next 5 years: the 5-year nominal Treasury yield minus the 5-year TIPS real yield, business days. Source: Federal Reserve Bank of St. Louis from H.15 data.",
      category: "markets", subcategory: "inflation-expectations", unit: "percent", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: "Federal Reserve Bank of St. Louis",
    }),
    fred("DFEDTARU", {
      name: "Federal Funds Target Range - Upper Limit",
      description: `Upper limit of the FOMC's target range for the federal funds rate, daily since the range was introduced on 2008-12-16. Source: ${FRB} via FRED.`,
      category: "markets", subcategory: "policy-rates", unit: "percent", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: FRB,
    }),
    fred("DFEDTARL", {
      name: "Federal Funds Target Range - Lower Limit",
      description: `Lower limit of the FOMC's target range for the federal funds rate, daily since the range was introduced on 2008-12-16. Source: ${FRB} via FRED.`,
      category: "markets", subcategory: "policy-rates", unit: "percent", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: FRB,
    }),
    fred("IORB", {
      name: "Interest Rate on Reserve Balances",
      description: `Rate the Federal Reserve pays on reserve balances held by depository institutions, daily since 2021-07-29. Source: ${FRB} via FRED.`,
      category: "markets", subcategory: "policy-rates", unit: "percent", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: FRB,
    }),
    fred("WALCL", {
      name: "Assets: Total Assets: Total Assets (Less Eliminations from Consolidation): Wednesday Level",
      description: `Total assets of the Federal Reserve banks (the size of the Fed's balance sheet), Wednesday level (H.4.1 release). Source: ${FRB} via FRED.`,
      category: "macro", subcategory: "central-bank-balance-sheet", unit: "millions of dollars", frequency: "weekly", upIsGood: null, adjustment: "NSA", agency: FRB,
      extra: { week_ending: "wednesday" },
    }),
    fred("WRESBAL", {
      name: "Reserve Balances with Federal Reserve Banks",
      description: `Reserve balances that depository institutions hold at the Federal Reserve banks, week average (H.4.1 release). Source: ${FRB} via FRED.`,
      category: "macro", subcategory: "central-bank-balance-sheet", unit: "millions of dollars", frequency: "weekly", upIsGood: null, adjustment: "NSA", agency: FRB,
      extra: { week_ending: "wednesday" },
    }),
    fred("TREAST", {
      name: "Assets: Securities Held Outright: U.S. Treasury Securities: Wednesday Level",
      description: `US Treasury securities held outright by the Federal Reserve banks, Wednesday level (H.4.1 release). Source: ${FRB} via FRED.`,
      category: "macro", subcategory: "central-bank-balance-sheet", unit: "millions of dollars", frequency: "weekly", upIsGood: null, adjustment: "NSA", agency: FRB,
      extra: { week_ending: "wednesday" },
    }),

    // --- energy ----------------------------------------------------------------------------------------------
    fred("DCOILWTICO", {
      name: "Crude Oil Prices: West Texas Intermediate (WTI) - Cushing, Oklahoma",
      description: `WTI crude oil spot price at Cushing, Oklahoma, business days (EIA series RWTC). Source: ${EIA} via FRED.`,
      category: "energy", subcategory: "oil", unit: "dollars per barrel", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: EIA,
    }),
    fred("OILPRICE", {
      name: "Spot Oil Price: West Texas Intermediate (DISCONTINUED)",
      description: "Monthly WTI spot price from the Wall Street Journal; FRED discontinued the series in 2013 (last observation July 2013) in favour of DCOILWTICO. Kept inactive for history. Source: Dow Jones & Company via FRED.",
      category: "energy", subcategory: "oil", unit: "dollars per barrel", frequency: "monthly", upIsGood: null, adjustment: "NSA", agency: "Dow Jones & Company", isActive: false,
      extra: { discontinued: "2013-07-01", replaced_by: "DCOILWTICO" },
    }),
    fred("GASREGW", {
      name: "US Regular All Formulations Gas Price",
      description: `Average US retail price of regular gasoline, all formulations, weekly (Monday survey). Source: ${EIA} via FRED.`,
      category: "energy", subcategory: "gasoline", unit: "dollars per gallon", frequency: "weekly", upIsGood: null, adjustment: "NSA", agency: EIA,
    }),

    // --- housing ---------------------------------------------------------------------------------------------
    fred("HOUST", {
      name: "New Privately-Owned Housing Units Started: Total Units",
      description: `Housing starts: new privately owned housing units on which construction began, at a seasonally adjusted annual rate. Source: ${CENSUS} and HUD via FRED.`,
      category: "housing", subcategory: "housing-starts", unit: "thousands of units, SAAR", frequency: "monthly", upIsGood: true, adjustment: "SAAR", agency: CENSUS,
    }),
    fred("PERMIT", {
      name: "New Privately-Owned Housing Units Authorized in Permit-Issuing Places: Total Units",
      description: `Building permits for new privately owned housing units, at a seasonally adjusted annual rate. Source: ${CENSUS} and HUD via FRED.`,
      category: "housing", subcategory: "building-permits", unit: "thousands of units, SAAR", frequency: "monthly", upIsGood: true, adjustment: "SAAR", agency: CENSUS,
    }),

    // --- crypto ----------------------------------------------------------------------------------------------
    fred("CBBTCUSD", {
      name: "Coinbase Bitcoin",
      description: "Bitcoin price in US dollars on the Coinbase exchange, daily (every day, 5 PM PST). Source: Coinbase via FRED.",
      category: "crypto", subcategory: "bitcoin", unit: "U.S. dollars", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: "Coinbase",
    }),
    fred("CBETHUSD", {
      name: "Coinbase Ethereum",
      description: "Ether price in US dollars on the Coinbase exchange, daily (every day, 5 PM PST). Source: Coinbase via FRED.",
      category: "crypto", subcategory: "ethereum", unit: "U.S. dollars", frequency: "daily", upIsGood: null, adjustment: "NSA", agency: "Coinbase",
    }),

    // --- government finance ----------------------------------------------------------------------------------
    fred("FYFR", {
      name: "Federal Receipts",
      description: `Total US federal government receipts (on- and off-budget) per fiscal year, from OMB Historical Tables (table 1.1). Dated by fiscal year: FY2014 is 2014-01-01. Source: ${OMB} via FRED.`,
      category: "government-finance", subcategory: "federal-receipts", unit: "millions of dollars", frequency: "annual", upIsGood: null, adjustment: "NSA", agency: OMB,
      extra: { period: "fiscal-year" },
    }),
    fred("FYFSD", {
      name: "Federal Surplus or Deficit [-]",
      description: `US federal budget balance per fiscal year (receipts minus outlays; negative = deficit), OMB Historical Tables. Dated by fiscal year. Source: ${OMB} via FRED.`,
      category: "government-finance", subcategory: "budget-balance", unit: "millions of dollars", frequency: "annual", upIsGood: true, adjustment: "NSA", agency: OMB,
      extra: { period: "fiscal-year" },
    }),
    fred("GFDEBTN", {
      name: "Federal Debt: Total Public Debt",
      description: `Total public debt outstanding of the US federal government at quarter end (debt held by the public plus intragovernmental holdings). Source: ${TREASURY} via FRED.`,
      category: "government-finance", subcategory: "federal-debt", unit: "millions of dollars", frequency: "quarterly", upIsGood: null, adjustment: "NSA", agency: TREASURY,
    }),

    // --- business --------------------------------------------------------------------------------------------
    fred("BABATOTALSAUS", {
      name: "Business Applications: Total for All NAICS in the United States",
      description: `Applications for an Employer Identification Number (IRS form SS-4) indicating new business formation, Business Formation Statistics. Source: ${CENSUS} via FRED.`,
      category: "business", subcategory: "business-formation", unit: "number", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: CENSUS,
    }),
    fred("DGORDER", {
      name: "Manufacturers' New Orders: Durable Goods",
      description: `Value of new orders for durable manufactured goods, Manufacturers' Shipments, Inventories, and Orders survey (M3). Source: ${CENSUS} via FRED.`,
      category: "business", subcategory: "orders", unit: "millions of dollars", frequency: "monthly", upIsGood: true, adjustment: "SA", agency: CENSUS,
    }),
  ],
};
