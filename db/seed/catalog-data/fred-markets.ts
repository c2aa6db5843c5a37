// FRED's national US market series (fred.ts lists them with the other families): interest rates, Treasury yields
// and the yield curve, the dollar, inflation expectations, policy rates and the Federal Reserve's balance sheet.
import type { IndicatorSeed } from "./types";
import { FRB, fred } from "./fred-spec";

/** Rates, yields, the dollar, breakevens, policy rates and the Fed's balance sheet. */
export const FRED_MARKETS: readonly IndicatorSeed[] = [
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
];
