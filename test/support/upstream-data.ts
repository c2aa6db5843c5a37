// Real published values for the fake upstream, read from ../shared/data (absent on a fresh clone: each loader
// returns null and the tests that need it skip). Every value here is what the provider published; only the
// envelope is the fake's.
//   fredCsv         fred-macro-us/{ID}.csv (FRED downloads: date,value; an empty value is FRED's ".")
//   blsStateMonthly bls-state-unemployment-monthly: LASST{ss}0000000000004, SA, 1976-01..2020-05
//   ersCountyAnnual ers-county-unemployment: LAUS annual averages 2007-2018 for every county (USDA ERS copy), as
//                   BLS M13 data of LAUCN{fips5}00000000{03..06}
//   worldBankCsv    worldbank-country/{gdp,population}.csv, with the World Bank's own ids for the aggregates kept
import countryCodes from "i18n-iso-countries/codes.json";
import { readFileSync } from "node:fs";
import type { BlsDatum, WbRow } from "./fake-upstream-answers";
import { sharedDataPath } from "./shared-data";

/** Splits one CSV line (double-quoted fields may hold commas and doubled quotes). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") out.push(cur), (cur = "");
    else cur += c;
  }
  out.push(cur);
  return out;
}

function lines(path: string): string[] {
  return readFileSync(path, "utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
}

export function fredCsv(id: string): { date: string; value: string }[] | null {
  const p = sharedDataPath("fred-macro-us", `${id}.csv`);
  if (!p) return null;
  return lines(p)
    .slice(1)
    .map((l) => {
      const [date, value] = l.split(",");
      return { date, value: value === "" || value === undefined ? "." : value };
    });
}

export function blsStateMonthly(): Map<string, BlsDatum[]> | null {
  const p = sharedDataPath("bls-state-unemployment-monthly", "State_level_unemployment.csv");
  if (!p) return null;
  const [header, ...rows] = lines(p).map((l) => l.split(","));
  const out = new Map<string, BlsDatum[]>();
  header.slice(1).forEach((id, j) => {
    out.set(
      id,
      rows.map((r) => ({ year: r[0].slice(0, 4), period: `M${r[0].slice(5, 7)}`, value: r[j + 1] })),
    );
  });
  return out;
}

const ERS_MEASURES = [
  ["03", "Unemployment_rate"],
  ["04", "Unemployed"],
  ["05", "Employed"],
  ["06", "Civilian_labor_force"],
] as const;

/** County LAUS annual averages (M13), keyed by BLS series id. */
export function ersCountyAnnual(): Map<string, BlsDatum[]> | null {
  const p = sharedDataPath("ers-county-unemployment", "Unemployment.csv");
  if (!p) return null;
  const all = lines(p);
  const headerAt = all.findIndex((l) => l.startsWith("FIPS,"));
  const header = csvFields(all[headerAt]).map((h) => h.trim());
  const out = new Map<string, BlsDatum[]>();
  for (const line of all.slice(headerAt + 1)) {
    const f = csvFields(line);
    const fips = f[0].trim();
    if (!/^\d{5}$/.test(fips) || fips.endsWith("000")) continue;
    for (const [mm, column] of ERS_MEASURES) {
      const data: BlsDatum[] = [];
      for (let year = 2007; year <= 2018; year++) {
        const i = header.indexOf(`${column}_${year}`);
        const raw = i >= 0 ? f[i].trim().replace(/,/g, "") : "";
        if (raw !== "") data.push({ year: String(year), period: "M13", value: raw });
      }
      if (data.length) out.set(`LAUCN${fips}00000000${mm}`, data);
    }
  }
  return out;
}

/** The World Bank's ids of some aggregates that the WDI files carry (they are not countries). */
const WB_AGGREGATES: Record<string, string> = {
  WLD: "1W",
  EUU: "EU",
  EMU: "XC",
  ARB: "1A",
  HIC: "XD",
  LIC: "XM",
  OED: "OE",
  SSF: "ZG",
  EAS: "Z4",
  ECS: "Z7",
  LCN: "ZJ",
  MEA: "ZQ",
  NAC: "XU",
  SAS: "8S",
};

export function worldBankCsv(file: "gdp" | "population"): WbRow[] | null {
  const p = sharedDataPath("worldbank-country", `${file}.csv`);
  if (!p) return null;
  const iso2 = new Map((countryCodes as string[][]).map(([a2, a3]) => [a3, a2]));
  iso2.set("XKX", "XK");
  const out: WbRow[] = [];
  for (const line of lines(p).slice(1)) {
    const f = csvFields(line);
    const [name, iso3, year, value] = [f[0], f[1], f[2], f[3]];
    const id = iso2.get(iso3) ?? WB_AGGREGATES[iso3];
    if (!id) continue;
    out.push({ iso2: id, iso3, name, date: year, value: value === "" ? null : Number(value) });
  }
  return out;
}
