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

export type { IndicatorSeed, RegionKind, SourceCatalog, SourceSeed } from "./types";
export { CPS_INDUSTRY_CODES } from "./bls";

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
];
