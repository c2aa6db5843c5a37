// Concepts: plain-word codes that stand for a curated series per region kind (spec "Concepts").
// - A concept resolves by the requested region's kind (country, state, county) to a curated list of
//   catalog indicators (code + source), in order of preference. Of those the store holds data of for the requested
//   region, the freshest is used (its newest period ends latest: src/domain/freshness.ts freshestIndex; ties go to
//   the order of preference); when none is held, the first one the catalog offers (which a read then provisions).
//   So UNRATE for the United States and the World Bank's modelled ILO rate for other countries; the monthly LAUS
//   rate for a state once held, else its annual average. Exact indicator codes always win over concepts: the resolver is only asked about
//   a code the catalog does not hold.
// - A concept not curated for the requested kind is refused with the closest level that has it:
//   closeness is distance on country > state > county; on a tie the coarser (containing) level wins.
// - A derived concept (employment_rate) is computed per place and per date from its input concepts,
//   each resolved at the same level; it exists at a level only when every input does.
import type { Frequency } from "./calendar";
import { employmentRate } from "./derived";
import type { Point } from "./series";

export type RegionKind = "country" | "state" | "county";
/** Coarse to fine. */
export const REGION_KINDS: readonly RegionKind[] = ["country", "state", "county"];

export type CuratedSeries = { indicator: string; source: string };

export type SeriesConcept = {
  type: "series";
  code: string;
  name: string;
  /** Per kind, the curated series in order of preference. */
  levels: Partial<Record<RegionKind, readonly CuratedSeries[]>>;
};

export type DerivedConcept = {
  type: "derived";
  code: string;
  name: string;
  unit: string;
  formula: string;
  /** Input roles, each a series concept resolved at the same level. */
  inputs: readonly { role: string; concept: string }[];
  combine(inputs: Record<string, readonly Point[]>, frequency: Frequency): Point[];
};

export type Concept = SeriesConcept | DerivedConcept;

const fred = (indicator: string): CuratedSeries => ({ indicator, source: "fred" });
const bls = (indicator: string): CuratedSeries => ({ indicator, source: "bls" });
const census = (indicator: string): CuratedSeries => ({ indicator, source: "census" });
const worldbank = (indicator: string): CuratedSeries => ({ indicator, source: "worldbank" });

export const CONCEPTS: Record<string, Concept> = {
  population: {
    type: "series",
    code: "population",
    name: "Population",
    levels: { country: [worldbank("SP.POP.TOTL")], state: [census("POPESTIMATE")], county: [census("POPESTIMATE")] },
  },
  gdp: {
    type: "series",
    code: "gdp",
    name: "Gross domestic product",
    levels: { country: [worldbank("NY.GDP.MKTP.CD")] },
  },
  median_income: {
    type: "series",
    code: "median_income",
    name: "Median household income",
    levels: { state: [census("B19013_001E")], county: [census("B19013_001E")] },
  },
  median_home_value: {
    type: "series",
    code: "median_home_value",
    name: "Median home value",
    levels: { state: [census("B25077_001E")], county: [census("B25077_001E")] },
  },
  unemployment_rate: {
    type: "series",
    code: "unemployment_rate",
    name: "Unemployment rate",
    levels: {
      country: [fred("UNRATE"), worldbank("SL.UEM.TOTL.ZS")],
      state: [bls("LASST03"), bls("LAUST03A")],
      county: [bls("LAUCN03"), bls("LAUCN03A")],
    },
  },
  labor_force: {
    type: "series",
    code: "labor_force",
    name: "Civilian labor force",
    levels: {
      country: [fred("CLF16OV"), worldbank("SL.TLF.TOTL.IN")],
      state: [bls("LASST06"), bls("LAUST06A")],
      county: [bls("LAUCN06"), bls("LAUCN06A")],
    },
  },
  employed: {
    type: "series",
    code: "employed",
    name: "Employed persons",
    levels: {
      country: [fred("CE16OV")],
      state: [bls("LASST05"), bls("LAUST05A")],
      county: [bls("LAUCN05"), bls("LAUCN05A")],
    },
  },
  employment_rate: {
    type: "derived",
    code: "employment_rate",
    name: "Employment rate (employed as a share of the labor force)",
    unit: "percent",
    formula: "employed / labor_force x 100, per place and per date",
    inputs: [
      { role: "employed", concept: "employed" },
      { role: "labor_force", concept: "labor_force" },
    ],
    combine: (inputs, frequency) => employmentRate(inputs.employed ?? [], inputs.labor_force ?? [], frequency),
  },
};

export function isConceptCode(code: string): boolean {
  return Object.hasOwn(CONCEPTS, code.toLowerCase());
}

export function getConcept(code: string): Concept | null {
  return Object.hasOwn(CONCEPTS, code.toLowerCase()) ? CONCEPTS[code.toLowerCase()] : null;
}

/** Region kinds at which the concept resolves (for a derived one: where every input does). */
export function conceptLevels(concept: Concept): RegionKind[] {
  if (concept.type === "series") return REGION_KINDS.filter((k) => (concept.levels[k]?.length ?? 0) > 0);
  return REGION_KINDS.filter((k) =>
    concept.inputs.every((i) => {
      const c = CONCEPTS[i.concept];
      return c?.type === "series" && (c.levels[k]?.length ?? 0) > 0;
    }),
  );
}

export type ConceptResolution =
  | { ok: true; type: "series"; concept: SeriesConcept; level: RegionKind; candidates: readonly CuratedSeries[] }
  | {
      ok: true;
      type: "derived";
      concept: DerivedConcept;
      level: RegionKind;
      inputs: { role: string; concept: string; candidates: readonly CuratedSeries[] }[];
    }
  | { ok: false; reason: "not_curated"; message: string; available: RegionKind[]; closest: RegionKind | null };

export function resolveConceptLevel(concept: Concept, regionKind: string): ConceptResolution {
  const available = conceptLevels(concept);
  if (!(REGION_KINDS as readonly string[]).includes(regionKind) || !available.includes(regionKind as RegionKind)) {
    const closest = closestLevel(regionKind, available);
    return {
      ok: false,
      reason: "not_curated",
      message: notCuratedMessage(concept.code, regionKind, available, closest),
      available,
      closest,
    };
  }
  const level = regionKind as RegionKind;
  if (concept.type === "series")
    return { ok: true, type: "series", concept, level, candidates: concept.levels[level]! };
  return {
    ok: true,
    type: "derived",
    concept,
    level,
    inputs: concept.inputs.map((i) => ({
      role: i.role,
      concept: i.concept,
      candidates: (CONCEPTS[i.concept] as SeriesConcept).levels[level]!,
    })),
  };
}

/** The available level nearest to `kind` (country > state > county); ties go to the coarser level. */
export function closestLevel(kind: string, available: readonly RegionKind[]): RegionKind | null {
  const rank = REGION_KINDS.indexOf(kind as RegionKind);
  if (available.length === 0) return null;
  if (rank < 0) return available[0];
  let best: RegionKind | null = null;
  let bestDistance = Infinity;
  for (const k of REGION_KINDS) {
    if (!available.includes(k)) continue;
    const d = Math.abs(REGION_KINDS.indexOf(k) - rank);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

const PLURAL: Record<string, string> = { country: "countries", state: "states", county: "counties" };

export function pluralKind(kind: string): string {
  return PLURAL[kind] ?? (kind.endsWith("y") ? `${kind.slice(0, -1)}ies` : `${kind}s`);
}

function joinAnd(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "median_home_value is available for states and counties, not countries; the closest level is states." */
export function notCuratedMessage(
  code: string,
  kind: string,
  available: readonly RegionKind[],
  closest: RegionKind | null,
): string {
  if (available.length === 0) return `${code} is not curated for any region level.`;
  const head = `${code} is available for ${joinAnd(available.map(pluralKind))}, not ${pluralKind(kind)}`;
  return closest ? `${head}; the closest level is ${pluralKind(closest)}.` : `${head}.`;
}

/** A derived concept refused because one input has no series for the place. */
export function blockedInputMessage(
  concept: string,
  input: { role: string; indicators: readonly string[] },
  regionLabel: string,
): string {
  const which = input.indicators.length ? ` (${input.indicators.join(" or ")})` : "";
  return `${concept} cannot be computed for ${regionLabel}: its input ${input.role}${which} has no data for that region.`;
}

/** A series concept whose curated series are none offered for the place. */
export function notOfferedMessage(concept: string, candidates: readonly CuratedSeries[], regionLabel: string): string {
  return `${concept} has no curated series for ${regionLabel}: ${candidates.map((c) => `${c.source}:${c.indicator}`).join(", ")} ${candidates.length > 1 ? "are" : "is"} not offered for that region.`;
}
