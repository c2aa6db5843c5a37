// IRS SOI county-to-county migration rows as flow records (src/domain/flows.ts). Columns are found by header name,
// so both shapes read alike:
// - the national files countyinflowYYZZ.csv (`y2_statefips,y2_countyfips,y1_statefips,y1_countyfips,y1_state,
//   y1_countyname,n1,n2,agi`) and countyoutflowYYZZ.csv (y1 and y2 swapped); the year pair comes from the file name;
// - a combined per-county file with a `year` column (YYZZ) and no names
//   (`id,year,y1_statefips,y1_countyfips,y2_statefips,y2_countyfips,n1,n2,agi,pop`).
// y1 is the address on the earlier return (the origin), y2 on the later one (the destination). Each row gives three
// records: returns (n1), exemptions (n2) and agi (thousands of dollars). Codes are zero-padded (2 + 3 digits).
// Not places, never emitted: the totals (state code 96 = US and foreign, 97 = US, with county 000/001/003 = all,
// same state, different state; 98 = foreign), the "other flows" that fold the edges below the disclosure threshold
// (57 foreign, 58 same state, 59 different state or region), any county 000, and the row whose origin is its
// destination (the non-migrants). A value of -1 is suppressed (null), not a number; AGI may be negative (losses). A row repeated with the same
// values is read once (the real combined San Francisco file repeats ten 1314 rows); with other values it is an error.
import { CsvObservationsError, parseCsvRecords } from "./csv-observations";
import { FlowFileError, irsYearPairPeriod, type FlowMeasure, type FlowRecord } from "./flows";

export const IRS_COUNTY_DATASET = "irs-soi-county" as const;

const PSEUDO_STATES = new Set(["57", "58", "59", "96", "97", "98"]);

/** Whether an IRS state and county code pair is a total or an "other flows" bucket rather than a county. */
export function isIrsPseudoArea(statefips: string, countyfips: string): boolean {
  return PSEUDO_STATES.has(statefips) || countyfips === "000";
}

export type IrsSoiParse = {
  flows: FlowRecord[];
  /** Rows that were not an edge between two counties, and suppressed values. */
  skipped: { pseudo: number; nonMigrants: number; repeated: number };
  suppressed: number;
};

const REQUIRED = ["y1_statefips", "y1_countyfips", "y2_statefips", "y2_countyfips", "n1", "n2", "agi"] as const;
const MEASURES: [column: "n1" | "n2" | "agi", measure: FlowMeasure][] = [
  ["n1", "returns"],
  ["n2", "exemptions"],
  ["agi", "agi"],
];

const pad = (raw: string, width: number, what: string, line: number) => {
  const s = raw.trim();
  if (!/^\d+$/.test(s) || s.length > width)
    throw new FlowFileError(`${what} '${raw}' is not a ${width}-digit FIPS code`, line);
  return s.padStart(width, "0");
};

/** `yearPair`: the file's YYZZ when its rows have no `year` column (the national files). */
export function parseIrsSoiCountyFlows(text: string, opts: { yearPair?: string } = {}): IrsSoiParse {
  let rows;
  try {
    rows = parseCsvRecords(text);
  } catch (e) {
    if (e instanceof CsvObservationsError) throw new FlowFileError(e.reason, e.line);
    throw e;
  }
  if (rows.length === 0) throw new FlowFileError("empty file");
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  const missing = REQUIRED.filter((n) => col(n) < 0);
  if (missing.length > 0)
    throw new FlowFileError(`missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, rows[0]!.line);
  const yearCol = col("year");
  if (yearCol < 0 && opts.yearPair === undefined)
    throw new FlowFileError("no year column: pass the file's year pair (YYZZ, from countyinflowYYZZ.csv)");
  const filePeriod = opts.yearPair === undefined ? null : irsYearPairPeriod(opts.yearPair);
  if (opts.yearPair !== undefined && !filePeriod) throw new FlowFileError(`'${opts.yearPair}' is not a year pair YYZZ`);

  const out: IrsSoiParse = { flows: [], skipped: { pseudo: 0, nonMigrants: 0, repeated: 0 }, suppressed: 0 };
  const edges = new Map<string, string>();
  for (const { fields, line } of rows.slice(1)) {
    if (fields.length < header.length)
      throw new FlowFileError(`expected ${header.length} fields, found ${fields.length}`, line);
    const f = (name: string) => fields[col(name)]!;
    const y1s = pad(f("y1_statefips"), 2, "y1_statefips", line);
    const y1c = pad(f("y1_countyfips"), 3, "y1_countyfips", line);
    const y2s = pad(f("y2_statefips"), 2, "y2_statefips", line);
    const y2c = pad(f("y2_countyfips"), 3, "y2_countyfips", line);
    if (isIrsPseudoArea(y1s, y1c) || isIrsPseudoArea(y2s, y2c)) {
      out.skipped.pseudo++;
      continue;
    }
    const origin = y1s + y1c;
    const destination = y2s + y2c;
    if (origin === destination) {
      out.skipped.nonMigrants++;
      continue;
    }
    let period = filePeriod;
    if (yearCol >= 0) {
      const pair = fields[yearCol]!.trim().padStart(4, "0");
      period = irsYearPairPeriod(pair);
      if (!period) throw new FlowFileError(`year '${fields[yearCol]}' is not a year pair YYZZ`, line);
      if (filePeriod && filePeriod.start !== period.start)
        throw new FlowFileError(`year ${pair} differs from the file's year pair ${opts.yearPair}`, line);
    }
    const edge = `${origin}>${destination}@${period!.start}`;
    const values = MEASURES.map(([column]) => f(column).trim()).join(",");
    const seen = edges.get(edge);
    if (seen === values) {
      out.skipped.repeated++;
      continue;
    }
    if (seen !== undefined)
      throw new FlowFileError(
        `the flow ${origin} -> ${destination} of ${period!.start.slice(0, 4)} is listed twice, with different values`,
        line,
      );
    edges.set(edge, values);
    // n1 = -1 marks a suppressed row (all three are -1). Counts are never negative, so -1 is suppressed there; AGI
    // may be negative (net losses), so its -1 is a number unless the row is suppressed.
    const rowSuppressed = f("n1").trim() === "-1";
    for (const [column, measure] of MEASURES) {
      const raw = f(column).trim();
      let value: number | null;
      if (raw === "-1" && (column !== "agi" || rowSuppressed)) {
        value = null;
        out.suppressed++;
      } else if (column === "agi" ? /^-?\d+$/.test(raw) : /^\d+$/.test(raw)) value = Number(raw);
      else
        throw new FlowFileError(
          `${column} '${raw}' is neither ${column === "agi" ? "an amount" : "a count"} nor -1 (suppressed)`,
          line,
        );
      out.flows.push({
        dataset: IRS_COUNTY_DATASET,
        measure,
        origin,
        destination,
        periodStart: period!.start,
        periodEnd: period!.end,
        value,
        moe: null,
      });
    }
  }
  return out;
}
