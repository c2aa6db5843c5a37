// The real data snapshot shipped in db/seed/snapshot/ -> catalog series. Pure: file text in, series out. Each parser
// handles its file's real quirks; numbers go through the one parser of provider numbers (upstream-numbers.ts, which
// accepts thousands separators and padding, and reads "." and blanks as missing). Dates are period starts: YYYY-MM-DD as published for daily and
// weekly rows, YYYY-MM-01 for months, YYYY-01-01 for years. Regions are canonical codes (alpha-2 countries, 2-digit
// state and 5-digit county FIPS); a row for an area that is not a current region is reported, not guessed.
//
// - FRED CSV (`date,value`): an empty value is a missing observation and is kept as null, as FRED keeps it (the
//   October 2025 CPI and unemployment releases that never came; market holidays in daily series).
// - BLS LAUS wide file: `DATE` then one column per state series id LASST{SS}0000000000004 (number unemployed, SA);
//   a UTF-8 byte-order mark before the header.
// - USDA ERS unemployment: four title lines before the header, header names padded with spaces, numbers with
//   thousands separators and padding (" 2,175,612 "), US row 00000, state rows SS000, then counties; annual averages.
// - Census PEP co-est{vintage}-alldata: Latin-1, SUMLEV 040 (state) and 050 (county). Components of change (births,
//   deaths, migration, change) of year Y cover July 1 of Y-1 to June 30 of Y; the first year of each vintage is a
//   partial period (from the April 1 census base) and is skipped. Population is the July 1 estimate. Where vintages
//   overlap, the older vintage's value is revision 1 and the newer one's revision 2 (vintage 2024 revised 2020).
// - World Bank WDI via datahub (`Country Name,Country Code,Year,Value`, BOM): alpha-3 codes mapped to our alpha-2
//   codes; aggregates (World, income groups, regions) map to no country and are dropped.
import { parseCsvRecords } from "./csv-observations";
import { parseUpstreamNumber, UnreadableNumberError } from "./upstream-numbers";
import type { SampleRow, SampleSeries } from "./vega-samples";

export type SnapshotRow = SampleRow;
export type SnapshotSeries = SampleSeries;

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** A value field: a number, null for an empty or "." field; throws on anything else (the file is not what we think). */
function value(raw: string, where: string): number | null {
  try {
    return parseUpstreamNumber(raw);
  } catch (e) {
    if (e instanceof UnreadableNumberError) throw new Error(`${where}: not a number: ${JSON.stringify(raw)}`);
    throw e;
  }
}

/**
 * A FRED CSV download (`date,value`, `Date,Value` or `observation_date,CODE`). Missing values stay as null rows; a
 * vintage that leaves missing dates out (absent rows) simply has no row for them.
 */
export function fredCsv(
  text: string,
  code: string,
  vintage: { dataset?: string; sourceUpdatedAt?: string } = {},
): SnapshotSeries {
  const [header, ...records] = parseCsvRecords(stripBom(text));
  if (!header || header.fields.length !== 2)
    throw new Error(`${code}.csv: expected two columns, got ${header?.fields.join(",")}`);
  const rows = records
    .filter((r) => r.fields.some((f) => f !== ""))
    .map((r) => ({ date: r.fields[0], value: value(r.fields[1], `${code}.csv line ${r.line}`) }));
  return {
    dataset: vintage.dataset ?? "fred-macro-us",
    source: "fred",
    code,
    region: "US",
    rows,
    sourceUpdatedAt: vintage.sourceUpdatedAt,
  };
}

const LAUS_STATE_UNEMPLOYED = /^LASST(\d{2})0000000000004$/;

/** The wide LAUS file: number unemployed (SA) per state, one series per column, catalog code LASST04. */
export function blsStateUnemployed(text: string): SnapshotSeries[] {
  const [header, ...records] = parseCsvRecords(stripBom(text));
  if (header.fields[0] !== "DATE")
    throw new Error(`State_level_unemployment.csv: first column is ${header.fields[0]}, expected DATE`);
  const out: SnapshotSeries[] = [];
  header.fields.forEach((name, col) => {
    if (col === 0) return;
    const m = LAUS_STATE_UNEMPLOYED.exec(name.trim());
    if (!m) throw new Error(`State_level_unemployment.csv: column ${name} is not a LASST..04 series id`);
    const rows = records
      .filter((r) => r.fields[col] !== undefined && r.fields[col].trim() !== "")
      .map((r) => ({ date: r.fields[0], value: value(r.fields[col], `State_level_unemployment.csv line ${r.line}`) }));
    out.push({ dataset: "bls-state-unemployment-monthly", source: "bls", code: "LASST04", region: m[1], rows });
  });
  return out;
}

/** ERS column stem -> catalog code of the LAUS annual-average series (state codes use LAUST, county codes LAUCN). */
const ERS_MEASURES: Record<string, string> = {
  Civilian_labor_force: "06A",
  Employed: "05A",
  Unemployed: "04A",
  Unemployment_rate: "03A",
};

/**
 * An ERS county unemployment file: annual averages of labour force, employed, unemployed and the rate, for states
 * (LAUST..A) and counties (LAUCN..A): the 2007-2018 edition (header `FIPS`) and the 2000-2023 one (header
 * `FIPS_Code`, rates stored as binary floats such as 5.800000000000001, read to one decimal). The US row is skipped
 * (the national monthly series cover it). A blank cell is no observation (areas that ceased to exist have none for
 * later years).
 */
export function ersUnemployment(
  text: string,
  vintage: { dataset?: string; sourceUpdatedAt?: string } = {},
): SnapshotSeries[] {
  const records = parseCsvRecords(stripBom(text));
  const headerAt = records.findIndex((r) => ["FIPS", "FIPS_Code"].includes(r.fields[0]?.trim() ?? ""));
  if (headerAt < 0) throw new Error("Unemployment.csv: no header row starting with FIPS");
  const header = records[headerAt].fields.map((h) => h.trim());
  const columns: { col: number; stem: string; year: number }[] = [];
  header.forEach((h, col) => {
    const m = /^(.+)_(\d{4})$/.exec(h);
    if (m && ERS_MEASURES[m[1]]) columns.push({ col, stem: m[1], year: Number(m[2]) });
  });
  const out: SnapshotSeries[] = [];
  for (const r of records.slice(headerAt + 1)) {
    const fips = r.fields[0]?.trim() ?? "";
    if (!/^\d{5}$/.test(fips) || fips === "00000") continue;
    const isState = fips.endsWith("000");
    const region = isState ? fips.slice(0, 2) : fips;
    const byCode = new Map<string, SnapshotRow[]>();
    for (const c of columns) {
      const raw = r.fields[c.col] ?? "";
      if (raw.trim() === "") continue;
      const code = `${isState ? "LAUST" : "LAUCN"}${ERS_MEASURES[c.stem]}`;
      const rows = byCode.get(code) ?? [];
      const v = value(raw, `Unemployment.csv line ${r.line} ${header[c.col]}`);
      rows.push({
        date: `${c.year}-01-01`,
        value: v !== null && c.stem === "Unemployment_rate" ? Math.round(v * 10) / 10 : v,
      });
      byCode.set(code, rows);
    }
    for (const [code, rows] of byCode) {
      rows.sort((a, b) => (a.date < b.date ? -1 : 1));
      out.push({
        dataset: vintage.dataset ?? "ers-county-unemployment",
        source: "bls",
        code,
        region,
        rows,
        sourceUpdatedAt: vintage.sourceUpdatedAt,
      });
    }
  }
  return out;
}

/** PEP columns carried into the catalog (census source), population first. */
export const PEP_MEASURES = [
  "POPESTIMATE",
  "NPOPCHG",
  "BIRTHS",
  "DEATHS",
  "NATURALCHG",
  "INTERNATIONALMIG",
  "DOMESTICMIG",
  "NETMIG",
] as const;

/**
 * One PEP vintage file (decoded from Latin-1) -> series per state and county. Vintage 2020 names its columns
 * NPOPCHG_2010 where vintage 2024 writes NPOPCHG2020; both are read. The first year of the vintage's components is a
 * partial period from the census base and is skipped; population starts at that year.
 */
export function pepVintage(text: string, vintage: number, sourceUpdatedAt: string): SnapshotSeries[] {
  const [head, ...records] = parseCsvRecords(stripBom(text));
  const header = head.fields.map((h) => h.trim());
  const at = (name: string) => header.indexOf(name);
  const [sumlev, state, county] = [at("SUMLEV"), at("STATE"), at("COUNTY")];
  if (sumlev < 0 || state < 0 || county < 0)
    throw new Error(`co-est${vintage}-alldata.csv: missing SUMLEV/STATE/COUNTY`);
  const columns: { col: number; code: string; year: number }[] = [];
  header.forEach((h, col) => {
    const m = /^([A-Z]+)_?(\d{4})$/.exec(h);
    if (!m || !(PEP_MEASURES as readonly string[]).includes(m[1])) return;
    const year = Number(m[2]);
    const firstYear = vintage - (vintage === 2020 ? 10 : 4);
    if (m[1] !== "POPESTIMATE" && year === firstYear) return; // partial period from the census base
    columns.push({ col, code: m[1], year });
  });
  const out: SnapshotSeries[] = [];
  for (const r of records) {
    const level = r.fields[sumlev];
    if (level !== "040" && level !== "050") continue;
    const region = level === "040" ? r.fields[state] : `${r.fields[state]}${r.fields[county]}`;
    const byCode = new Map<string, SnapshotRow[]>();
    for (const c of columns) {
      const rows = byCode.get(c.code) ?? [];
      rows.push({
        date: `${c.year}-01-01`,
        value: value(r.fields[c.col] ?? "", `co-est${vintage}-alldata.csv line ${r.line} ${header[c.col]}`),
      });
      byCode.set(c.code, rows);
    }
    for (const [code, rows] of byCode) {
      rows.sort((a, b) => (a.date < b.date ? -1 : 1));
      out.push({ dataset: `census-pep-v${vintage}`, source: "census", code, region, rows, sourceUpdatedAt });
    }
  }
  return out;
}

/**
 * The series with every string they hold (labels, dates) copied out of the file text they were sliced from, each
 * distinct string once across calls sharing `pool`. A slice of a string keeps the whole string alive in the runtime
 * (JSC substrings), so the million dates of the snapshot held every file's text until the seed ended: hundreds of MB
 * at its peak. Values and order are unchanged; the rows are changed in place.
 */
export function ownStrings(list: SnapshotSeries[], pool: Map<string, string>): SnapshotSeries[] {
  const own = (text: string): string => {
    let copy = pool.get(text);
    if (copy === undefined) {
      // A string built from character codes has storage of its own (the pool's key is that copy, never the slice).
      copy = String.fromCharCode(...Array.from({ length: text.length }, (_, i) => text.charCodeAt(i)));
      pool.set(copy, copy);
    }
    return copy;
  };
  for (const series of list) {
    series.dataset = own(series.dataset);
    series.source = own(series.source);
    series.code = own(series.code);
    series.region = own(series.region);
    if (series.sourceUpdatedAt !== undefined) series.sourceUpdatedAt = own(series.sourceUpdatedAt);
    for (const row of series.rows) {
      row.date = own(row.date);
      if (row.sourceUpdatedAt !== undefined) row.sourceUpdatedAt = own(row.sourceUpdatedAt);
    }
  }
  return list;
}

/**
 * Several vintages of the same series merged, oldest vintage first, as ALFRED keeps them: a date a later vintage
 * publishes with another value (or newly) is added after the earlier value, so the bulk load stores the values as
 * revisions 1..n, the newest current; a date it publishes with the same value adds nothing (the value was not
 * revised), and a date it leaves out keeps the earlier value. Each row carries its vintage's publication time.
 */
export function mergeVintages(vintages: readonly SnapshotSeries[][]): SnapshotSeries[] {
  const merged = new Map<string, { series: SnapshotSeries; current: Map<string, number | null> }>();
  for (const list of vintages) {
    for (const s of list) {
      const rows = s.rows.map((r) =>
        r.sourceUpdatedAt || !s.sourceUpdatedAt ? r : { ...r, sourceUpdatedAt: s.sourceUpdatedAt },
      );
      const key = `${s.source}:${s.code}:${s.region}`;
      const seen = merged.get(key);
      if (!seen) {
        merged.set(key, { series: { ...s, rows }, current: new Map(rows.map((r) => [r.date, r.value])) });
        continue;
      }
      const revised = rows.filter((r) => !seen.current.has(r.date) || seen.current.get(r.date) !== r.value);
      for (const r of revised) seen.current.set(r.date, r.value);
      const datasets = seen.series.dataset.split("+").includes(s.dataset)
        ? seen.series.dataset
        : `${seen.series.dataset}+${s.dataset}`;
      seen.series = {
        ...seen.series,
        dataset: datasets,
        rows: [...seen.series.rows, ...revised],
        sourceUpdatedAt: s.sourceUpdatedAt ?? seen.series.sourceUpdatedAt,
      };
    }
  }
  const out = [...merged.values()].map((m) => m.series);
  for (const s of out) s.rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)); // stable: vintage order kept
  return out;
}

/**
 * A World Bank WDI long file (`Country Name,Country Code,Year,Value`) -> one series per country. `alpha3ToRegion`
 * maps ISO alpha-3 (and World Bank's own codes such as XKX) to our country codes; a code it does not map is an
 * aggregate or a territory we do not list, reported in `dropped`.
 */
export function worldBankLong(
  text: string,
  code: string,
  alpha3ToRegion: ReadonlyMap<string, string>,
  vintage: { dataset?: string; sourceUpdatedAt?: string } = {},
): { series: SnapshotSeries[]; dropped: { code: string; name: string }[] } {
  const [header, ...records] = parseCsvRecords(stripBom(text));
  const names = header.fields.map((h) => h.trim());
  if (names.join(",") !== "Country Name,Country Code,Year,Value")
    throw new Error(`${code}: unexpected header ${names.join(",")}`);
  const byRegion = new Map<string, SnapshotRow[]>();
  const dropped = new Map<string, string>();
  for (const r of records) {
    const [name, alpha3, year, raw] = r.fields;
    if (!alpha3) continue;
    const region = alpha3ToRegion.get(alpha3.trim().toUpperCase());
    if (!region) {
      dropped.set(alpha3, name);
      continue;
    }
    if (!/^\d{4}$/.test(year)) throw new Error(`${code} line ${r.line}: year ${JSON.stringify(year)}`);
    const rows = byRegion.get(region) ?? [];
    rows.push({ date: `${year}-01-01`, value: value(raw, `${code} line ${r.line}`) });
    byRegion.set(region, rows);
  }
  const series = [...byRegion].map(([region, rows]) => ({
    dataset: vintage.dataset ?? "worldbank-country",
    source: "worldbank",
    code,
    region,
    rows: rows.sort((a, b) => (a.date < b.date ? -1 : 1)),
    sourceUpdatedAt: vintage.sourceUpdatedAt,
  }));
  return {
    series,
    dropped: [...dropped].map(([c, name]) => ({ code: c, name })).sort((a, b) => (a.code < b.code ? -1 : 1)),
  };
}
