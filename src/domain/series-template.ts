// Per-region upstream ids from the catalog's templates (db/seed/catalog-data/types.ts): a family published once per
// area stores `meta.upstream.series_id_template`, e.g. "LASST{fips2}0000000000003", and the id for one region is the
// template with its placeholders filled:
//   {fips2} the state's 2-digit FIPS code          -> a state template
//   {usps}  the state's postal abbreviation ("CA")  -> a state template
//   {fips5} the county's 5-digit FIPS code          -> a county template
//   {iso2}  the country's ISO 3166-1 alpha-2 code    -> a country template
//   {iso3}  the country's first alpha-3 alias        -> a country template
// The placeholders say which kind of region the template is for: a state template is never filled for a county
// (whose state FIPS would silently give the state's series), and a template mixing kinds fills for none.

export type TemplateRegion = {
  code: string;
  type: string;
  fipsState: string | null;
  fipsCounty: string | null;
  aliases: readonly string[];
};

const KIND: Record<string, "state" | "county" | "country"> = {
  fips2: "state",
  usps: "state",
  fips5: "county",
  iso2: "country",
  iso3: "country",
};

const PLACEHOLDER = /\{([a-z0-9]+)\}/g;

/** The region kind a template is for (null: no placeholder, or an unknown or mixed set of them). */
export function templateKind(template: string): "state" | "county" | "country" | null {
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
  if (names.length === 0) return null;
  // {fips2} beside {fips5} is the county's state part: still a county template.
  const kinds = new Set(names.map((n) => (n === "fips2" && names.includes("fips5") ? "county" : KIND[n])));
  if (kinds.has(undefined as never) || kinds.size !== 1) return null;
  return [...kinds][0]!;
}

function value(name: string, r: TemplateRegion): string | null {
  switch (name) {
    case "fips2":
      return r.fipsState && /^\d{2}$/.test(r.fipsState) ? r.fipsState : null;
    case "fips5":
      return r.fipsState && r.fipsCounty && /^\d{5}$/.test(r.fipsState + r.fipsCounty)
        ? r.fipsState + r.fipsCounty
        : null;
    case "usps":
      return r.aliases.find((a) => /^[A-Z]{2}$/.test(a)) ?? null;
    case "iso2":
      return /^[A-Z]{2}$/.test(r.code) ? r.code : null;
    case "iso3":
      return r.aliases.find((a) => /^[A-Z]{3}$/.test(a)) ?? null;
    default:
      return null;
  }
}

/** The template filled for `region`, or null when the template is not for that kind of region or a part is unknown. */
export function fillSeriesTemplate(template: string, region: TemplateRegion): string | null {
  const kind = templateKind(template);
  if (kind === null || kind !== region.type) return null;
  let missing = false;
  const out = template.replace(PLACEHOLDER, (_, name: string) => {
    const v = value(name, region);
    if (v === null) missing = true;
    return v ?? "";
  });
  return missing ? null : out;
}
