// The curated catalog: every source module, in the order sources are listed.
import { blsCatalog } from "./bls";
import { cdcCatalog } from "./cdc";
import { censusCatalog } from "./census";
import { eiaCatalog } from "./eia";
import { fredCatalog } from "./fred";
import { gapminderCatalog } from "./gapminder";
import { scrippsCatalog } from "./scripps";
import { svcCatalog } from "./svc";
import { worldbankCatalog } from "./worldbank";
import type { SourceCatalog } from "./types";
import { VALUE_SPECS } from "./value-kinds";

export type { IndicatorSeed, RegionKind, SourceCatalog, SourceSeed } from "./types";
export { CPS_INDUSTRY_CODES } from "./bls";

/** Each entry with what its values are (value-kinds.ts); an entry missing there keeps none, which the seed refuses. */
const withValues = (c: SourceCatalog): SourceCatalog => ({
  source: c.source,
  indicators: c.indicators.map((i) => (VALUE_SPECS.has(i.code) ? { ...i, values: VALUE_SPECS.get(i.code) } : i)),
});

export const CATALOG: readonly SourceCatalog[] = [
  fredCatalog,
  blsCatalog,
  censusCatalog,
  worldbankCatalog,
  eiaCatalog,
  cdcCatalog,
  scrippsCatalog,
  gapminderCatalog,
  svcCatalog,
].map(withValues);
