// FRED's national US series of output, spending, money and the business cycle, and of prices (fred.ts lists them
// with the other families).
import type { IndicatorSeed } from "./types";
import { BEA, BLS, CENSUS, FRB, fred } from "./fred-spec";

/** Output, spending, money and the business cycle. */
export const FRED_MACRO: readonly IndicatorSeed[] = [
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
];

/** Consumer and producer prices. */
export const FRED_PRICES: readonly IndicatorSeed[] = [
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
];
