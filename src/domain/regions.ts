// Region input normalisation: what people type -> one canonical region code (pure; rows passed in).
// Definitions:
// - key: the input with diacritics folded, lowercased, apostrophes dropped and every other run of
//   non-alphanumerics made one space. "Los Angeles County, CA", "los-angeles-county-ca" and
//   "LOS ANGELES COUNTY CA" share one key, so slugs and names need no separate handling.
// - digits: a 1-digit input is a state FIPS without its leading zero ("6" = "06"), a 4-digit input a
//   county FIPS without it ("6037" = "06037"), as spreadsheets and integer FIPS columns write them.
//   3 digits are ISO 3166-1 numeric country codes ("840" = US).
// - kinds: callers that know which region kinds fit (an indicator offered for states and counties only)
//   pass them, and only regions of those kinds are candidates: with a LAUS series "IN" is Indiana, with a
//   World Bank series it is India.
// - priority, best first (a key that matches several regions at its best rank is ambiguous):
//   first: a canonical code exactly as responses write it always means itself, so a code read back
//     from a response round-trips ("DE" is Germany, "CA" Canada, unless kinds exclude countries)
//   0 USPS abbreviation of a state and "US-XX", in any case ("NY", "ca", "US-CA"; "CA" when countries
//     are not candidates)
//   1 codes in any other case, ISO alpha-3 and numeric aliases
//   2 slug
//   3 state name                                      -> "georgia" is the state; the country is
//                                                        "georgia-country", "GEO" or "GE"
//   4 county name with state: "Los Angeles County, CA" or "..., California"
//   5 country name and its other English names ("Russia", "UK")
//   6 county name without its kind, with state: "Los Angeles, CA" ("Baltimore, MD" is ambiguous:
//     Baltimore County and Baltimore city)
//   7 county name alone, when unique in the country: "Los Angeles County" (not "Cook County": IL, GA, MN)
// - retired: a county code removed by COUNTY_CHANGES is not found, but the lookup says what replaced it.
// - search (region lists): the key of the search text occurring in the keys of a region's code, name, slug or
//   aliases; unlike a lookup it may match any number of regions.
import { COUNTY_CHANGES, type CountyChange, type RegionType } from "./region-list";

export type IndexedRegion = {
  code: string;
  type: string;
  name: string;
  slug: string;
  parentCode: string | null;
  aliases: string[];
};

export type MatchRank = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;
export const MATCH_RANK_NAMES: Record<MatchRank, string> = {
  0: "usps",
  1: "code",
  2: "slug",
  3: "state_name",
  4: "county_name",
  5: "country_name",
  6: "county_short_name",
  7: "county_bare_name",
};

type Entry = { rank: MatchRank | -1; codes: string[] };

export type RegionIndex<R extends IndexedRegion = IndexedRegion> = {
  byCode: Map<string, R>;
  keys: Map<string, Entry[]>;
  /** Canonical codes exactly as written in responses (case-sensitive): checked before every rank. */
  exact: Map<string, string>;
};

export type LookupOptions = { kinds?: readonly string[] };

export type RegionLookup =
  | {
      kind: "found";
      code: string;
      via: string /** Other regions the same input names at a lower priority. */;
      shadowed: string[];
    }
  | { kind: "ambiguous"; candidates: string[] }
  | { kind: "not_found"; retired?: RetiredCode };

export type RetiredCode = { code: string; year: number; reason: string; replacedBy: string[] };

const MAX_INPUT_LENGTH = 200;

export function regionKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/**
 * What a region list search looks in: the keys of the region's code, name, slug and other names (aliases), one per
 * line. A search matches when its own key occurs in this text ("angeles" finds Los Angeles County; "US-TX", "tx" and
 * "texas" find Texas), so it folds case, accents and punctuation the way lookups do.
 */
export function regionSearchText(r: IndexedRegion): string {
  return [r.code, r.name, r.slug, ...r.aliases].map(regionKey).join("\n");
}

/** Kinds of county equivalent, longest first so "City and Borough" is cut before "Borough". */
const COUNTY_KINDS = [
  " City and Borough",
  " Planning Region",
  " Census Area",
  " Municipality",
  " Borough",
  " County",
  " Parish",
  " city",
];

function countyShortName(name: string): string | null {
  for (const kind of COUNTY_KINDS)
    if (name.endsWith(kind) && name.length > kind.length) return name.slice(0, -kind.length);
  return null;
}

export function buildRegionIndex<R extends IndexedRegion>(rows: readonly R[]): RegionIndex<R> {
  const byCode = new Map<string, R>();
  const keys = new Map<string, Entry[]>();
  const exact = new Map<string, string>();
  const add = (text: string, rank: MatchRank, code: string) => {
    const key = regionKey(text);
    if (!key) return;
    let entries = keys.get(key);
    if (!entries) keys.set(key, (entries = []));
    const same = entries.find((e) => e.rank === rank);
    if (!same) entries.push({ rank, codes: [code] });
    else if (!same.codes.includes(code)) same.codes.push(code);
  };
  for (const r of rows) byCode.set(r.code, r);

  const usps = (state: R | undefined) => state?.aliases.find((a) => /^[A-Z]{2}$/.test(a)) ?? null;
  for (const r of rows) {
    add(r.code, 1, r.code);
    exact.set(r.code, r.code);
    add(r.slug, 2, r.code);
    const type = r.type as RegionType;
    if (type === "state") {
      for (const a of r.aliases) add(a, 0, r.code);
      add(r.name, 3, r.code);
    } else if (type === "country") {
      add(r.name, 5, r.code);
      for (const a of r.aliases) add(a, /^([A-Z]{3}|\d{3})$/.test(a) ? 1 : 5, r.code);
    } else if (type === "county") {
      const state = r.parentCode ? byCode.get(r.parentCode) : undefined;
      const abbr = usps(state);
      const short = countyShortName(r.name);
      for (const st of [abbr, state?.name]) {
        if (!st) continue;
        add(`${r.name} ${st}`, 4, r.code);
        if (short) add(`${short} ${st}`, 6, r.code);
      }
      add(r.name, 7, r.code);
      for (const a of r.aliases) add(a, 1, r.code);
    } else {
      for (const a of r.aliases) add(a, 1, r.code);
      add(r.name, 5, r.code);
    }
  }
  for (const entries of keys.values()) entries.sort((a, b) => a.rank - b.rank);
  return { byCode, keys, exact };
}

const RETIRED: Map<string, RetiredCode> = retiredCodes(COUNTY_CHANGES);

function retiredCodes(changes: readonly CountyChange[]): Map<string, RetiredCode> {
  const out = new Map<string, RetiredCode>();
  for (const ch of changes) {
    if (ch.kind === "remove")
      out.set(ch.code, { code: ch.code, year: ch.year, reason: ch.reason, replacedBy: [ch.mergedInto] });
    if (ch.kind === "replace") {
      for (const code of ch.from)
        out.set(code, { code, year: ch.year, reason: ch.reason, replacedBy: ch.to.map((t) => t.code) });
    }
  }
  return out;
}

/** Pads FIPS codes written without their leading zero (see the header). */
function padDigits(input: string): string {
  if (/^\d$/.test(input)) return `0${input}`;
  if (/^\d{4}$/.test(input)) return `0${input}`;
  return input;
}

export function lookupRegion(index: RegionIndex, input: string, opts: LookupOptions = {}): RegionLookup {
  const trimmed = input.trim();
  if (!trimmed || trimmed.length > MAX_INPUT_LENGTH) return { kind: "not_found" };
  const padded = padDigits(trimmed);
  const fits = (code: string) => !opts.kinds || opts.kinds.includes(index.byCode.get(code)!.type);
  const entries: Entry[] = [];
  const exact = index.exact.get(padded);
  if (exact && fits(exact)) entries.push({ rank: -1, codes: [exact] });
  for (const e of index.keys.get(regionKey(padded)) ?? []) {
    const codes = e.codes.filter((c) => fits(c) && c !== exact);
    if (codes.length) entries.push({ rank: e.rank, codes });
  }
  if (entries.length === 0) {
    const retired = RETIRED.get(padded);
    return retired ? { kind: "not_found", retired } : { kind: "not_found" };
  }
  const [best, ...rest] = entries;
  if (best.codes.length > 1) return { kind: "ambiguous", candidates: [...best.codes].sort() };
  const code = best.codes[0];
  const shadowed = [...new Set(rest.flatMap((e) => e.codes))].filter((c) => c !== code).sort();
  return { kind: "found", code, via: best.rank === -1 ? "code" : MATCH_RANK_NAMES[best.rank], shadowed };
}
