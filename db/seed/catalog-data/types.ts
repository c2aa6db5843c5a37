// Shapes of the curated catalog (a data module per source here; FRED's in parts by theme) and the rules entries follow.
//
// - code: the provider's own identifier (FRED series id, World Bank indicator id, Census variable, ...). For a family
//   published once per area (LAUS, PEP, ACS, EIA by state) the code is the provider's series-id scheme with the area
//   part removed, and meta.upstream.series_id_template says how to rebuild the per-area id ({fips2}, {fips5}, {usps},
//   {iso2}, {iso3} are region placeholders).
// - id: a name-based UUID (v5) of `${source}:${code}`, identical on every database (db/seed/catalog.ts).
// - region_kinds: the kinds of region the indicator is offered for. With meta.per_region = true it is offered for
//   every region of those kinds (the upstream is keyed by area); without it, for its default region only (a
//   national series, a single station).
// - default_region_code: the US for national series; for per-area families the US when the provider offers it,
//   otherwise the most populous state (06) or county (06037); a series held for one place defaults to that place.
// - frequency: one of FREQUENCIES (db/schema/catalog.ts), the provider's native frequency.
// - unit: what a stored value means, lower case, with the adjustment when it matters ("billions of dollars, SAAR").
// - up_is_good: true when a rise is good news (payrolls), false when bad (unemployment), null when neutral (prices).
// - subcategory: kebab-case, taxonomy only.
// - meta.short_name: what a landing card, a legend or a short title calls the entry, stored by the seed from
//   short-names.ts; an entry without one is called by the rule of src/domain/short-name.ts.
// - meta.republishes: this entry is a re-publication (FRED carrying a BLS id) of the named source's series with the
//   same code; when a code is ambiguous and no source is given, the original publisher is preferred.
// - meta.derived (svc: entries): { inputs: [codes], formula }, and the description states both.
// - values: what the values are (a level, an index, a rate or share, a change over a span, a 0/1 state), from
//   value-kinds.ts; stored as meta.values.
import type { AccessTier, Category, Frequency } from "../../schema/catalog";
import type { ValueSpec } from "../../../src/domain/value-kinds";

export type RegionKind = "country" | "state" | "county";

export type SourceSeed = {
  slug: string;
  name: string;
  provider: string | null;
  category: Category | null;
  docsUrl: string | null;
  /** The credit line the source asks for, served in the source's metadata. */
  attribution: string;
  /** The terms the data are under ("Public domain (US government work)", "CC BY 4.0"). */
  license: string;
  isActive?: boolean;
};

export type IndicatorSeed = {
  code: string;
  name: string;
  description: string;
  category: Category;
  subcategory: string;
  unit: string;
  frequency: Frequency;
  upIsGood: boolean | null;
  regionKinds: RegionKind[];
  defaultRegionCode: string;
  accessTier?: AccessTier;
  isActive?: boolean;
  /** What the values are (value-kinds.ts states it for every curated entry; the seed stores it in meta.values). */
  values?: ValueSpec;
  meta: Record<string, unknown>;
};

/** A source's curated indicators. */
export type SourceCatalog = { source: SourceSeed; indicators: IndicatorSeed[] };

/** National US series: offered for the United States only. */
export const US_ONLY = { regionKinds: ["country"] as RegionKind[], defaultRegionCode: "US" };
