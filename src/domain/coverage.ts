// What the catalog says about an indicator's coverage, before anyone pays: how many of the regions it is offered for
// the store holds, over which dates, and what happens for the others.
// - regions_offered: every region of the indicator's kinds when it is published per region (meta.per_region),
//   otherwise its one default region.
// - other_regions: "none" when every offered region is held; "fetch_on_request" when a configured upstream connector
//   serves the rest (a read answers 202 and a retry returns the data); "computed_from_inputs" for svc: series, which
//   exist wherever their inputs are held; "not_available" otherwise (an operator can load them with `svc import`);
//   "loading" while the service's first start is still storing the indicator's data (whatever is held so far is not
//   served until all of it is: the counts say what is stored).
import { pluralKind } from "./concepts";

export type OtherRegions = "none" | "fetch_on_request" | "computed_from_inputs" | "not_available" | "loading";

export type HeldSummary = { regionsHeld: number; start: string | null; end: string | null; lastUpdated: string | null };

export type CoverageSubject = {
  code: string;
  perRegion: boolean;
  regionKinds: readonly string[];
  defaultRegionCode: string | null;
  derived: boolean;
  /** The upstream that can fetch regions not held (a connector id), or null. */
  fetchVia: string | null;
  /** What the first start is still storing of it (src/services/data-loading.ts), or null once it is served. */
  loading?: string | null;
};

export type CoverageFacts = {
  regions_held: number;
  regions_offered: number;
  start: string | null;
  end: string | null;
  last_updated: string | null;
  other_regions: OtherRegions;
  fetch_via: string | null;
  note: string;
};

export const NO_HOLDINGS: HeldSummary = { regionsHeld: 0, start: null, end: null, lastUpdated: null };

/** Whether an indicator is published per region (the catalog rule is meta.per_region; some entries carry it under meta.upstream). */
export function isPerRegion(meta: Record<string, unknown>): boolean {
  const m = meta as { per_region?: unknown; upstream?: { per_region?: unknown } };
  return m.per_region === true || m.upstream?.per_region === true;
}

const count = (n: number) => n.toLocaleString("en-US");

/** The regions an indicator is offered for, counted from the number of regions of each kind. */
export function regionsOffered(s: CoverageSubject, regionsByKind: ReadonlyMap<string, number>): number {
  if (!s.perRegion) return s.defaultRegionCode ? 1 : 0;
  return s.regionKinds.reduce((n, k) => n + (regionsByKind.get(k) ?? 0), 0);
}

function kindsText(s: CoverageSubject, offered: number): string {
  if (!s.perRegion) return s.defaultRegionCode ?? "its region";
  const kinds = s.regionKinds.map(pluralKind);
  return `${count(offered)} ${kinds.length > 1 ? `${kinds.slice(0, -1).join(", ")} and ${kinds[kinds.length - 1]}` : kinds[0]}`;
}

/** The `svc import` command that loads one region of the indicator from a CSV file. */
export function importCommand(code: string, region: string): string {
  return `svc import FILE.csv --indicator ${code} --region ${region}`;
}

export function describeCoverage(
  s: CoverageSubject,
  held: HeldSummary,
  regionsByKind: ReadonlyMap<string, number>,
): CoverageFacts {
  const offered = regionsOffered(s, regionsByKind);
  const heldN = held.regionsHeld;
  if (s.loading) {
    return {
      regions_held: heldN,
      regions_offered: offered,
      start: held.start,
      end: held.end,
      last_updated: held.lastUpdated,
      other_regions: "loading",
      fetch_via: null,
      note: `Loading: the service is storing ${s.loading} (its first start); its data routes answer 503 with Retry-After until all of it is stored, seconds from now.`,
    };
  }
  const other: OtherRegions =
    heldN >= offered ? "none" : s.derived ? "computed_from_inputs" : s.fetchVia ? "fetch_on_request" : "not_available";
  const span = held.start && held.end ? `, ${held.start} to ${held.end}` : "";
  const heldText =
    heldN === 0
      ? "Not held yet"
      : heldN >= offered
        ? `Held for ${s.perRegion ? `all ${kindsText(s, offered)}` : kindsText(s, offered)}${span}`
        : `Held for ${count(heldN)} of ${kindsText(s, offered)}${span}`;
  const example = s.defaultRegionCode ?? "REGION";
  const rest = {
    none: "",
    fetch_on_request: `; the others are fetched from ${s.fetchVia} on first request (202 with Retry-After, then a retry returns the data)`,
    computed_from_inputs: "; computed by the service wherever its inputs are held",
    not_available: `; ${heldN === 0 ? "it" : "the others"} cannot be fetched by this deployment: an operator loads a region with \`${importCommand(s.code, example)}\``,
  }[other];
  return {
    regions_held: heldN,
    regions_offered: offered,
    start: held.start,
    end: held.end,
    last_updated: held.lastUpdated,
    other_regions: other,
    fetch_via: other === "fetch_on_request" ? s.fetchVia : null,
    note: `${heldText}${rest}.`,
  };
}
