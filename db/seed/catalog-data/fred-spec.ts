// The builders of the FRED catalog's entries (fred.ts): one national US series per call, with its producing agency
// in meta.upstream.original_source (FRED asks for "Source: <agency> via FRED" attribution); the CES supersector
// series carry their BLS id in meta.upstream.bls_series_id.
import type { Category, Frequency } from "../../schema/catalog";
import { US_ONLY, type IndicatorSeed } from "./types";

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

export function fred(code: string, s: FredSpec): IndicatorSeed {
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

export const BLS = "U.S. Bureau of Labor Statistics";
export const BEA = "U.S. Bureau of Economic Analysis";
export const FRB = "Board of Governors of the Federal Reserve System";
export const CENSUS = "U.S. Census Bureau";
export const OMB = "U.S. Office of Management and Budget";
export const TREASURY = "U.S. Department of the Treasury, Fiscal Service";
export const EIA = "U.S. Energy Information Administration";

/** CES "All Employees" supersector series (thousands of persons, SA), as vega-datasets' us-employment.csv holds them. */
export function ces(code: string, blsSeriesId: string, sector: string, description: string): IndicatorSeed {
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
