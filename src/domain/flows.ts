// Origin-destination flows (GET /v1/flows). Definitions:
// - A flow record is one directed edge: `value` of `measure` moved from `origin` to `destination` (region codes:
//   2-digit state FIPS, 5-digit county FIPS) over [period_start, period_end], from one dataset of one source, with a
//   margin of error where the dataset publishes one (null otherwise). A null value is a suppressed cell.
// - Measures follow the sources: `movers` (Census ACS: persons aged 1 and over who lived in the origin one year
//   before and in the destination at the survey), `returns`, `exemptions` and `agi` (IRS SOI: tax returns, ~households;
//   personal exemptions, ~persons; adjusted gross income of those returns, thousands of US dollars).
// - Periods: an ACS 1-year release of year Y covers [Y-01-01, Y-12-31] (the survey year; "one year ago" reaches back
//   into Y-1). An IRS SOI year pair YYZZ compares the addresses on returns filed in 20YY and in 20ZZ: [20YY-01-01,
//   20ZZ-12-31]. Pairs from 90 on are 19xx (the files start with 9091).
// - Choosing what to serve (chooseFlowSlice): with `measure` omitted, the first of FLOW_MEASURES available for the
//   filters (movers, returns, exemptions, agi), so rows of different units are never ranked together; with `period`
//   omitted, the latest period_start available for the filters and measure. `period` is a period_start (YYYY-MM-DD) or
//   a year (YYYY: the latest period starting in it).

export type FlowMeasure = "movers" | "returns" | "exemptions" | "agi";

export const FLOW_MEASURES: Readonly<Record<FlowMeasure, { unit: string; description: string }>> = {
  movers: {
    unit: "persons",
    description:
      "persons aged 1 and over who lived in the origin one year before and in the destination at the survey (Census ACS)",
  },
  returns: {
    unit: "returns",
    description:
      "individual income tax returns whose address moved from the origin to the destination, about households (IRS SOI)",
  },
  exemptions: {
    unit: "exemptions",
    description: "personal exemptions claimed on those returns, about persons (IRS SOI)",
  },
  agi: { unit: "thousands of US dollars", description: "adjusted gross income reported on those returns (IRS SOI)" },
};
export const FLOW_MEASURE_NAMES = Object.keys(FLOW_MEASURES) as FlowMeasure[];

export type FlowSource = "census" | "irs-soi";

/** Datasets a flow can come from: their source and a name for people. */
export const FLOW_DATASETS = {
  "acs-state-to-state-1y": { source: "census", name: "Census ACS 1-year state-to-state migration flows" },
  "irs-soi-county": { source: "irs-soi", name: "IRS SOI county-to-county migration data" },
} as const satisfies Record<string, { source: FlowSource; name: string }>;
export type FlowDataset = keyof typeof FLOW_DATASETS;

export type FlowRecord = {
  dataset: FlowDataset;
  measure: FlowMeasure;
  origin: string;
  destination: string;
  periodStart: string;
  periodEnd: string;
  value: number | null;
  moe: number | null;
};

/** A malformed flow file: what is wrong and where (1-based line of the text). */
export class FlowFileError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number | null = null,
  ) {
    super(line === null ? reason : `line ${line}: ${reason}`);
  }
}

/** The period of an IRS SOI year pair ("1415" -> 2014-01-01 .. 2015-12-31); null when it is not one. */
export function irsYearPairPeriod(pair: string): { start: string; end: string } | null {
  const m = /^(\d{2})(\d{2})$/.exec(pair);
  if (!m) return null;
  const yy = Number(m[1]);
  const zz = Number(m[2]);
  if ((yy + 1) % 100 !== zz) return null;
  const y1 = yy >= 90 ? 1900 + yy : 2000 + yy;
  return { start: `${y1}-01-01`, end: `${y1 + 1}-12-31` };
}

/** Records whose origin and destination are both known regions, and how many records named each unknown code. */
export function keepKnownRegions(
  records: readonly FlowRecord[],
  known: ReadonlySet<string>,
): { kept: FlowRecord[]; unknown: Map<string, number> } {
  const kept: FlowRecord[] = [];
  const unknown = new Map<string, number>();
  for (const r of records) {
    const missing = [r.origin, r.destination].filter((c) => !known.has(c));
    if (missing.length === 0) kept.push(r);
    for (const c of missing) unknown.set(c, (unknown.get(c) ?? 0) + 1);
  }
  return { kept, unknown };
}

/** One (measure, period) of one dataset held for some filters. */
export type FlowSlice = { measure: FlowMeasure; periodStart: string; periodEnd: string; dataset: FlowDataset };

export type FlowChoice =
  | { ok: true; measure: FlowMeasure; periodStart: string; periodEnd: string; datasets: FlowDataset[] }
  | {
      ok: false;
      reason: "no_flows" | "no_measure" | "no_period";
      message: string;
      measures: FlowMeasure[];
      periods: string[];
    };

export function chooseFlowSlice(
  available: readonly FlowSlice[],
  want: { measure?: FlowMeasure; period?: string },
): FlowChoice {
  const measures = FLOW_MEASURE_NAMES.filter((m) => available.some((s) => s.measure === m));
  if (measures.length === 0)
    return { ok: false, reason: "no_flows", message: "No flows are held for these filters.", measures, periods: [] };
  const measure = want.measure ?? measures[0]!;
  const ofMeasure = available.filter((s) => s.measure === measure);
  if (ofMeasure.length === 0) {
    return {
      ok: false,
      reason: "no_measure",
      message: `No '${measure}' flows are held for these filters (measures held: ${measures.join(", ")}).`,
      measures,
      periods: [],
    };
  }
  const periods = [...new Set(ofMeasure.map((s) => s.periodStart))].sort();
  let start: string | undefined;
  if (want.period === undefined) start = periods[periods.length - 1];
  else if (/^\d{4}$/.test(want.period)) start = periods.filter((p) => p.startsWith(`${want.period}-`)).pop();
  else start = periods.find((p) => p === want.period);
  if (start === undefined) {
    return {
      ok: false,
      reason: "no_period",
      message: `No '${measure}' flows starting ${want.period!.length === 4 ? "in" : "on"} ${want.period} are held for these filters (periods held: ${periods.join(", ")}).`,
      measures,
      periods,
    };
  }
  const slices = ofMeasure.filter((s) => s.periodStart === start);
  // One period_start may close at different ends in different datasets: the longest window is reported.
  const periodEnd = slices
    .map((s) => s.periodEnd)
    .sort()
    .pop()!;
  return {
    ok: true,
    measure,
    periodStart: start,
    periodEnd,
    datasets: [...new Set(slices.map((s) => s.dataset))].sort(),
  };
}
