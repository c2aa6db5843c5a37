// FRED (Federal Reserve Bank of St. Louis): the national US series. Codes are FRED series ids; each entry names the
// agency that produces the data (FRED asks for "Source: <agency> via FRED" attribution). All are offered for the US
// only. The 21 CES supersector series carry their BLS id in meta.upstream.bls_series_id (PAYEMS = CES0000000001).
// LNU04032231 is the one FRED series here that keeps the BLS id as its FRED id: it is also curated under `bls`
// (bls.ts), which makes it the catalog's real case of one code published by two sources.
// This module is the source and its list, in one order; the entries are kept by family (fred-economy.ts,
// fred-labor.ts, fred-markets.ts, fred-sectors.ts) and built by fred-spec.ts.
import { FRED_MACRO, FRED_PRICES } from "./fred-economy";
import { FRED_LABOR } from "./fred-labor";
import { FRED_MARKETS } from "./fred-markets";
import { FRED_SECTORS } from "./fred-sectors";
import type { SourceCatalog } from "./types";

export const fredCatalog: SourceCatalog = {
  source: {
    slug: "fred",
    name: "FRED, Federal Reserve Bank of St. Louis",
    provider: "Federal Reserve Bank of St. Louis",
    category: "macro",
    docsUrl: "https://fred.stlouisfed.org/docs/api/fred/",
    attribution:
      "Source: the producing agency named in each series (BLS, BEA, Federal Reserve Board, Census, EIA, ...) via FRED, Federal Reserve Bank of St. Louis.",
    license: "Public domain (U.S. government work); copyrighted FRED series are not carried",
  },
  // In this order: macro, labor, prices, markets, then energy, housing, crypto, government finance and business.
  indicators: [...FRED_MACRO, ...FRED_LABOR, ...FRED_PRICES, ...FRED_MARKETS, ...FRED_SECTORS],
};
