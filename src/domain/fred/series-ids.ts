// FRED series ids for the catalog's series, and back. Every id is letters and digits, which FRED clients pass
// through unchanged.
// 1. A FRED series held for the US: its FRED id as is (UNRATE, CPIAUCSL, GDPC1).
// 2. FRED's pattern for a state series the catalog holds: the state unemployment rate (bls LASST03, seasonally
//    adjusted, monthly) is <USPS>UR (TXUR, CAUR), as on FRED.
// 3. A series whose indicator names a per-area upstream id template (meta.upstream.series_id_template with {fips2}
//    or {fips5}): that template filled, the provider's own series id (LASST480000000000004, LAUCN480010000000003).
// 4. Any other series: the indicator code with everything but letters and digits removed, upper-cased, then the
//    region code upper-cased (worldbank NY.GDP.MKTP.CD for DE: NYGDPMKTPCDDE; eia PET.RWTC.D for US: PETRWTCDUS).
//    Reading one back tries the longest code first whose remainder is a region code.
// Ids are matched without regard to case, as FRED matches them.
export type IdIndicator = { source: string; code: string; template: string | null };
export type IdRegion = { code: string; usps: string | null };

export const STATE_RATE = { source: "bls", code: "LASST03" } as const;

export function compactCode(code: string): string {
  return code.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

/** The per-area template of an indicator's meta, when it has one this scheme can fill. */
export function areaTemplate(meta: Record<string, unknown>): string | null {
  const upstream = meta.upstream as { series_id_template?: unknown } | undefined;
  const t = upstream?.series_id_template;
  return typeof t === "string" && /^[A-Za-z0-9]*\{fips[25]\}[A-Za-z0-9]*$/.test(t) ? t : null;
}

/** The FRED id of one catalog series. */
export function fredSeriesId(indicator: IdIndicator, region: IdRegion): string {
  if (indicator.source === "fred" && region.code === "US" && /^[A-Za-z0-9]+$/.test(indicator.code))
    return indicator.code;
  if (indicator.source === STATE_RATE.source && indicator.code === STATE_RATE.code && region.usps)
    return `${region.usps}UR`;
  if (indicator.template) {
    const filled = indicator.template.replace("{fips2}", region.code).replace("{fips5}", region.code);
    if (/^[A-Za-z0-9]+$/.test(filled) && filled !== indicator.template) return filled;
  }
  return `${compactCode(indicator.code)}${region.code.toUpperCase()}`;
}

/** What an id can name, most specific first; the caller keeps the first that the catalog holds. */
export type IdCandidate =
  | { kind: "fred"; code: string }
  | { kind: "state-rate"; usps: string }
  | { kind: "template"; template: string; region: string }
  | { kind: "compact"; code: string; region: string };

/**
 * The readings of `id`: `templates` are the catalog's area templates, `compactCodes` its compacted codes, and
 * `isRegion` says whether an upper-cased string is a region code.
 */
export function readSeriesId(
  id: string,
  templates: Iterable<string>,
  compactCodes: { has(code: string): boolean },
  isRegion: (code: string) => boolean,
): IdCandidate[] {
  const upper = id.toUpperCase();
  if (!/^[A-Z0-9]+$/.test(upper)) return [];
  const out: IdCandidate[] = [{ kind: "fred", code: upper }];
  const rate = /^([A-Z]{2})UR$/.exec(upper);
  if (rate) out.push({ kind: "state-rate", usps: rate[1] });
  for (const t of templates) {
    const digits = t.includes("{fips5}") ? 5 : 2;
    const [before, after] = t.toUpperCase().split(/\{FIPS[25]\}/);
    if (upper.length === before.length + digits + after.length && upper.startsWith(before) && upper.endsWith(after)) {
      const region = upper.slice(before.length, before.length + digits);
      if (/^\d+$/.test(region)) out.push({ kind: "template", template: t, region });
    }
  }
  for (let cut = upper.length - 1; cut >= 1; cut--) {
    const code = upper.slice(0, cut);
    const region = upper.slice(cut);
    if (compactCodes.has(code) && isRegion(region)) out.push({ kind: "compact", code, region });
  }
  return out;
}
