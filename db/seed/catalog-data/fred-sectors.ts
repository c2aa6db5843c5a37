// FRED's national US series of single sectors (fred.ts lists them with the other families): energy, housing,
// crypto, government finance and business.
import type { IndicatorSeed } from "./types";
import { CENSUS, EIA, OMB, TREASURY, fred } from "./fred-spec";

/** Energy, housing, crypto, government finance and business. */
export const FRED_SECTORS: readonly IndicatorSeed[] = [
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
];
