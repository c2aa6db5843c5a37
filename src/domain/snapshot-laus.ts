// BLS LAUS files of the snapshot -> catalog series (bls source). Pure: file text in, series out.
//
// - ststdsadata.csv (BLS "States and selected areas: employment status, seasonally adjusted", 1976-01..2025-08, the
//   vintage before BLS's 2026 annual revision): one row per area and month with population, labour force (LF),
//   employed, unemployed and the rate. Monthly state series LASST06 (LF), LASST05 (employed), LASST04 (unemployed),
//   LASST03 (rate), dated YYYY-MM-01. FIPS is text, zero-padded except one Alabama row written "1". Rates are stored as
//   binary floats (10.199999999999999) and read to one decimal, as BLS publishes them. The file's own columns can
//   disagree: in its last month (2025-08) the rate column of 13 areas does not match the levels (Nebraska 0.83 where
//   32,152 / 1,089,569 gives 3.0). The levels win: a rate more than 0.05 from 100 * unemployed / LF (to one decimal)
//   is replaced by that figure and reported. Areas that are not states (Los Angeles County "037", New York city
//   "51000") keep their file codes, which are no region's code, and are dropped by the caller as not current regions.
// - stateUnemployment.csv (BLS API, LASST{SS}0000000000003, 2025-01..2026-06, after the 2026 annual revision): the rate
//   only; GeoID is the unpadded FIPS, Month an English name, "-" a month BLS never published (October 2025).
// - laucnty24.csv (BLS "Labor Force Data by County, 2024 Annual Averages", revised 2026-04-08): a title row, a
//   header, one row per county (state and county FIPS in two columns), a source/date footer. Annual series
//   LAUCN06A..03A dated 2024-01-01.
import { parseCsvRecords } from "./csv-observations";
import { parseUpstreamNumber } from "./upstream-numbers";
import type { SnapshotRow, SnapshotSeries } from "./snapshot-files";

/** A percent to one decimal, as BLS publishes rates (10.199999999999999 -> 10.2). */
export const round1 = (x: number) => Math.round(x * 10) / 10;

/** The rate that labour force and unemployed give, to one decimal; null without both or with no labour force. */
export function rateFromLevels(unemployed: number | null, laborForce: number | null): number | null {
  if (unemployed === null || laborForce === null || laborForce <= 0) return null;
  return round1((unemployed / laborForce) * 100);
}

/** How far a published rate may sit from the levels' rate and still be the same figure (rounding of both). */
const RATE_TOLERANCE = 0.05 + 1e-9;

function num(raw: string | undefined, where: string): number | null {
  try {
    return parseUpstreamNumber(raw ?? "");
  } catch {
    throw new Error(`${where}: not a number: ${JSON.stringify(raw)}`);
  }
}

/** Finds a header's columns by name; a column the file lacks is an error naming the file. */
export function columnFinder(header: readonly string[], file: string): (name: string) => number {
  return (name) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${file}: no column "${name}" (header: ${header.join(" | ")})`);
    return i;
  };
}

export type RateCorrection = { region: string; date: string; published: number; fromLevels: number };

const STATE_MEASURES = [
  { code: "LASST06", column: "LF Total" },
  { code: "LASST05", column: "LF employment Total" },
  { code: "LASST04", column: "LF unemployment total" },
  { code: "LASST03", column: "LF unemployment rate" },
] as const;

/** ststdsadata.csv -> LASST03..06 per area, with the rates the levels overruled. */
export function lausStatesMonthly(
  text: string,
  sourceUpdatedAt?: string,
): { series: SnapshotSeries[]; corrected: RateCorrection[] } {
  const [head, ...records] = parseCsvRecords(text);
  const header = head.fields.map((h) => h.trim());
  const at = columnFinder(header, "ststdsadata.csv");
  const [fips, year, month] = [at("FIPS Code"), at("Year"), at("Month")];
  const cols = STATE_MEASURES.map((m) => ({ ...m, col: at(m.column) }));
  const byKey = new Map<string, SnapshotRow[]>();
  const corrected: RateCorrection[] = [];
  for (const r of records) {
    const f = r.fields;
    if (f.every((x) => x.trim() === "")) continue;
    const where = `ststdsadata.csv line ${r.line}`;
    const code = f[fips].trim();
    if (!/^\d{1,5}$/.test(code)) throw new Error(`${where}: FIPS ${JSON.stringify(f[fips])}`);
    // States are two digits ("1" is Alabama); Los Angeles County ("037") and New York city ("51000") keep their codes.
    const region = code.length <= 2 ? code.padStart(2, "0") : code;
    const y = f[year].trim();
    const m = f[month].trim().padStart(2, "0");
    if (!/^\d{4}$/.test(y) || !/^(0[1-9]|1[0-2])$/.test(m)) throw new Error(`${where}: period ${y}-${m}`);
    const date = `${y}-${m}-01`;
    const values = cols.map((c) => num(f[c.col], `${where} ${c.column}`));
    const [laborForce, , unemployed, published] = values;
    const fromLevels = rateFromLevels(unemployed, laborForce);
    let rate = published === null ? null : round1(published);
    if (rate !== null && fromLevels !== null && Math.abs(rate - fromLevels) > RATE_TOLERANCE) {
      corrected.push({ region, date, published: published!, fromLevels });
      rate = fromLevels;
    }
    values[3] = rate;
    cols.forEach((c, i) => {
      const key = `${c.code}:${region}`;
      const rows = byKey.get(key) ?? [];
      rows.push({ date, value: values[i] });
      byKey.set(key, rows);
    });
  }
  const series = [...byKey].map(([key, rows]) => {
    const [code, region] = key.split(":");
    rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    return { dataset: "bls-laus-state-monthly", source: "bls", code, region, rows, sourceUpdatedAt };
  });
  return { series, corrected };
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** stateUnemployment.csv -> LASST03 per state (the rate only). */
export function lausStateRates(text: string, sourceUpdatedAt?: string): SnapshotSeries[] {
  const [head, ...records] = parseCsvRecords(text);
  const header = head.fields.map((h) => h.trim());
  if (header.join(",") !== "GeoID,Series ID,Place,Year,Month,Unemployment Rate")
    throw new Error(`stateUnemployment.csv: unexpected header ${header.join(",")}`);
  const byRegion = new Map<string, SnapshotRow[]>();
  for (const { fields: f, line } of records) {
    if (f.every((x) => x.trim() === "")) continue;
    const where = `stateUnemployment.csv line ${line}`;
    const geo = f[0].trim();
    if (!/^\d{1,2}$/.test(geo)) throw new Error(`${where}: GeoID ${JSON.stringify(f[0])}`);
    const region = geo.padStart(2, "0");
    if (f[1].trim() !== `LASST${region}0000000000003`)
      throw new Error(`${where}: series ${f[1]} is not the rate of ${region}`);
    const month = MONTHS.indexOf(f[4].trim().toLowerCase()) + 1;
    if (month === 0 || !/^\d{4}$/.test(f[3].trim())) throw new Error(`${where}: period ${f[3]} ${f[4]}`);
    const value = num(f[5], where);
    const rows = byRegion.get(region) ?? [];
    rows.push({
      date: `${f[3].trim()}-${String(month).padStart(2, "0")}-01`,
      value: value === null ? null : round1(value),
    });
    byRegion.set(region, rows);
  }
  return [...byRegion].map(([region, rows]) => ({
    dataset: "bls-laus-state-rates",
    source: "bls",
    code: "LASST03",
    region,
    rows: rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
    sourceUpdatedAt,
  }));
}

const COUNTY_MEASURES = [
  { code: "LAUCN06A", column: "Labor Force" },
  { code: "LAUCN05A", column: "Employed" },
  { code: "LAUCN04A", column: "Unemployed" },
  { code: "LAUCN03A", column: "Unemployment Rate (%)" },
] as const;

/** laucnty24.csv (or another year's laucntyYY) -> LAUCN03A..06A per county for the file's year. */
export function lausCountyAnnual(text: string, sourceUpdatedAt?: string): SnapshotSeries[] {
  const records = parseCsvRecords(text);
  const headerAt = records.findIndex((r) => r.fields[0]?.trim() === "LAUS Code");
  if (headerAt < 0) throw new Error("laucnty: no header row starting with LAUS Code");
  const header = records[headerAt].fields.map((h) => h.trim());
  const at = columnFinder(header, "laucnty");
  const [state, county, year] = [at("State FIPS Code"), at("County FIPS Code"), at("Year")];
  const cols = COUNTY_MEASURES.map((m) => ({ ...m, col: at(m.column) }));
  const out: SnapshotSeries[] = [];
  for (const { fields: f, line } of records.slice(headerAt + 1)) {
    if (!/^\d{2}$/.test(f[state]?.trim() ?? "")) continue; // the blank row and the source/date footer
    const region = `${f[state].trim()}${f[county].trim()}`;
    if (!/^\d{5}$/.test(region) || !/^\d{4}$/.test(f[year].trim()))
      throw new Error(`laucnty line ${line}: area ${region} year ${f[year]}`);
    for (const c of cols) {
      const v = num(f[c.col], `laucnty line ${line} ${c.column}`);
      const value = v === null ? null : c.code === "LAUCN03A" ? round1(v) : v;
      out.push({
        dataset: "bls-laus-county-annual",
        source: "bls",
        code: c.code,
        region,
        rows: [{ date: `${f[year].trim()}-01-01`, value }],
        sourceUpdatedAt,
      });
    }
  }
  return out;
}
