// The seed snapshot's files as the repository ships them (db/seed/snapshot/*.gz), for tests that check stored values
// against the raw data with their own arithmetic.
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { csvFields } from "./upstream-data";

export function snapshotText(path: string, encoding: "utf8" | "latin1" = "utf8"): string {
  return gunzipSync(readFileSync(resolve(import.meta.dir, "../../db/seed/snapshot", path))).toString(encoding);
}

export type FredRow = { date: string; value: number | null };

/** One vintage's FRED file as shipped (`date,value` with blanks, or `Date,Value` with absent rows); [] if not in it. */
export function fredVintageRows(vintage: "fred-macro-us" | "fred-national-2026-vintage", code: string): FredRow[] {
  let text: string;
  try {
    text = snapshotText(`${vintage}/${code}.csv.gz`);
  } catch {
    return [];
  }
  const [header, ...lines] = text.trim().split(/\r?\n/);
  if (header.toLowerCase() !== "date,value") throw new Error(`${vintage}/${code}.csv: unexpected header ${header}`);
  return lines.map((line) => {
    const [date, raw] = line.split(",");
    return { date, value: raw === "" ? null : Number(raw) };
  });
}

/**
 * The current value of every date of a FRED series across the two shipped vintages, worked out here: the June-2026
 * vintage's value where it has the date, else the January-2026 one's (a blank there is null: a gap, a market holiday).
 */
export function fredRows(code: string): FredRow[] {
  const current = new Map<string, number | null>();
  for (const r of fredVintageRows("fred-macro-us", code)) current.set(r.date, r.value);
  for (const r of fredVintageRows("fred-national-2026-vintage", code)) current.set(r.date, r.value);
  if (current.size === 0) throw new Error(`no shipped FRED file for ${code}`);
  return [...current]
    .map(([date, value]) => ({ date, value }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The value a FRED file publishes for `date` (null for an empty value); throws when the file has no such row. */
export function fredValue(rows: readonly FredRow[], date: string): number | null {
  const row = rows.find((r) => r.date === date);
  if (!row) throw new Error(`no row dated ${date}`);
  return row.value;
}

/**
 * svc:sahm_rule by its definition over the shipped UNRATE file, or over `u` (consecutive months): m3 = mean of a month
 * and the two before it, all present; sahm = m3 minus the smallest m3 of the 12 months before (those that exist); null
 * without either.
 */
export function sahmSeries(u: readonly FredRow[] = fredRows("UNRATE")): FredRow[] {
  const m3 = u.map((_, i) =>
    i >= 2 && u[i].value !== null && u[i - 1].value !== null && u[i - 2].value !== null
      ? (u[i].value! + u[i - 1].value! + u[i - 2].value!) / 3
      : null,
  );
  return u.map((r, i) => {
    const prior = m3.slice(Math.max(0, i - 12), i).filter((v): v is number => v !== null);
    return { date: r.date, value: m3[i] === null || prior.length === 0 ? null : m3[i]! - Math.min(...prior) };
  });
}

/** The newest month of svc:sahm_rule with a value. */
export function sahmLatest(): { date: string; value: number } {
  return sahmSeries()
    .filter((x): x is { date: string; value: number } => x.value !== null)
    .at(-1)!;
}

/**
 * A shipped World Bank file (`Country Name,Country Code,Year,Value`): one country's rows by alpha-3 code, by year.
 * `gdp` and `population` are the earlier datahub files; a WDI code (`SP.POP.TOTL`) reads the WDI 2025 vintage.
 */
export function worldBankRows(
  file: "gdp" | "population" | string,
  alpha3: string,
): { year: number; value: number | null }[] {
  const path = file.includes(".")
    ? `worldbank-wdi-2025/${file.toLowerCase()}.csv.gz`
    : `worldbank-country/${file}.csv.gz`;
  return snapshotText(path)
    .split(/\r?\n/)
    .map((line) => /,([A-Z0-9]{3}),(\d{4}),([^,]*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[1] === alpha3)
    .map((m) => ({ year: Number(m[2]), value: m[3] === "" ? null : Number(m[3]) }))
    .sort((a, b) => a.year - b.year);
}

/**
 * One cell of a shipped ERS unemployment file (Latin-1, title lines above a header starting with FIPS or FIPS_Code,
 * padded header names, numbers with thousands separators): the row of a 5-digit FIPS code (state rows end in 000).
 * The 2000-2023 edition (laus-county-annual) is the current one; the 2007-2018 edition is the earlier vintage.
 */
export function ersValue(fips: string, column: string, edition: "2018" | "2023" = "2023"): number | null {
  const path =
    edition === "2023" ? "laus-county-annual/Unemployment2023.csv.gz" : "ers-county-unemployment/Unemployment.csv.gz";
  const lines = snapshotText(path, "latin1").split(/\r?\n/);
  const at = lines.findIndex((l) => l.startsWith("FIPS,") || l.startsWith("FIPS_Code,"));
  const header = csvFields(lines[at]).map((h) => h.trim());
  const row = lines
    .slice(at + 1)
    .map(csvFields)
    .find((f) => f[0] === fips);
  const col = header.indexOf(column);
  if (!row || col < 0) throw new Error(`${path}: no ${column} for ${fips}`);
  const raw = row[col].trim().replace(/,/g, "");
  return raw === "" ? null : Number(raw);
}
