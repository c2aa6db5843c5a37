// The first start's data, in families stored one after the other, what people ask first first: the US headline
// series, then the states' monthly unemployment, then the rest. A family is served once the whole of it is stored
// (a ranking over half the states would be wrong, not slow); until then its catalog coverage says it is loading and
// its data routes answer 503 with Retry-After (src/services/data-loading.ts).
//
// A family names the catalog indicators it stores (by source and code), so a reader knows, before the family is
// stored, which requests must wait for it; the seed refuses a series outside its family's list (db/seed/snapshot.ts).
// The first family is the catalog itself (regions, sources, indicators); the last three are not series of the
// snapshot either: the migration flows, the derived svc: series (computed from the others), and the signals detected
// over everything with the public briefings' first runs.
import { FRED_2026_01, FRED_2026_06, WORLD_BANK_2025, WORLD_BANK_EARLIER } from "./snapshot-manifest";

export type DataFamilyId =
  | "catalog"
  | "us-national"
  | "state-unemployment"
  | "us-daily"
  | "countries"
  | "county-wages"
  | "population"
  | "county-unemployment"
  | "samples"
  | "flows"
  | "derived"
  | "signals";

export type DataFamily = {
  id: DataFamilyId;
  /** What a person is told is loading. */
  label: string;
  /** The catalog indicators it stores, by source slug (none for flows and signals; every svc: one for derived). */
  indicators: Readonly<Record<string, readonly string[]>>;
};

const fred = [...new Set([...Object.keys(FRED_2026_01), ...Object.keys(FRED_2026_06)])];
/** The daily FRED series: four fifths of the national rows, after the monthly, quarterly and weekly headline ones. */
const fredDaily = [
  "DGS10",
  "DGS2",
  "T10Y2Y",
  "T10YIE",
  "T5YIE",
  "DCOILWTICO",
  "DTWEXBGS",
  "DFEDTARL",
  "DFEDTARU",
  "IORB",
];
const worldBank = [...new Set([...Object.keys(WORLD_BANK_EARLIER), ...Object.keys(WORLD_BANK_2025)])];
const measures = ["03", "04", "05", "06"];

/** In the order the first start stores them. */
export const DATA_FAMILIES: readonly DataFamily[] = [
  // The regions, sources and indicators: what every other family is described by (the server serves once it is stored).
  { id: "catalog", label: "the regions and the catalog", indicators: {} },
  {
    id: "us-national",
    label: "the US headline series (FRED: monthly, quarterly and weekly)",
    indicators: { fred: fred.filter((c) => !fredDaily.includes(c)) },
  },
  {
    id: "state-unemployment",
    label: "the states' monthly unemployment (BLS LAUS)",
    indicators: { bls: measures.map((m) => `LASST${m}`) },
  },
  { id: "us-daily", label: "the US daily rates and prices (FRED)", indicators: { fred: fredDaily } },
  { id: "countries", label: "the countries' series (World Bank)", indicators: { worldbank: worldBank } },
  {
    id: "county-wages",
    label: "employment and wages by state and county (BLS QCEW)",
    indicators: { bls: ["ENU10010", "ENU20010", "ENU50010"] },
  },
  {
    id: "population",
    label: "population by state and county (Census PEP)",
    indicators: {
      census: ["POPESTIMATE", "NPOPCHG", "BIRTHS", "DEATHS", "NATURALCHG", "INTERNATIONALMIG", "DOMESTICMIG", "NETMIG"],
    },
  },
  {
    id: "county-unemployment",
    label: "annual unemployment by state and county (BLS LAUS)",
    indicators: { bls: measures.flatMap((m) => [`LAUST${m}A`, `LAUCN${m}A`]) },
  },
  {
    id: "samples",
    label: "the kept vega-datasets samples",
    indicators: {
      scripps: ["MLO.CO2", "MLO.CO2.SA"],
      eia: ["ELEC.GEN.FOS-99.A", "ELEC.GEN.NUC-99.A", "ELEC.GEN.REN-99.A"],
      cdc: ["Q036"],
      gapminder: ["life_expectancy_years", "children_per_woman_total_fertility"],
      fred: ["FYFR"],
    },
  },
  { id: "flows", label: "the migration flows", indicators: {} },
  { id: "derived", label: "the derived svc: series", indicators: {} },
  { id: "signals", label: "the signals and the public briefings' first runs", indicators: {} },
];

export const DATA_FAMILY_IDS: readonly DataFamilyId[] = DATA_FAMILIES.map((f) => f.id);

/** `source:code` -> the family storing it; an indicator in two families is a mistake in the table above. */
function familiesByIndicator(families: readonly DataFamily[]): ReadonlyMap<string, DataFamilyId> {
  const out = new Map<string, DataFamilyId>();
  for (const f of families) {
    for (const [source, codes] of Object.entries(f.indicators)) {
      for (const code of codes) {
        const key = `${source}:${code}`;
        if (out.has(key)) throw new Error(`data families: ${key} is in "${out.get(key)}" and "${f.id}"`);
        out.set(key, f.id);
      }
    }
  }
  return out;
}

const BY_INDICATOR = familiesByIndicator(DATA_FAMILIES);

/** The family that stores an indicator on the first start, or null (held only when fetched or imported). */
export function familyOfIndicator(sourceSlug: string | null, code: string): DataFamilyId | null {
  if (sourceSlug === "svc") return "derived";
  return BY_INDICATOR.get(`${sourceSlug}:${code}`) ?? null;
}
