// fred/series/observations as a pure function: the series' stored revisions and a parsed query in, the rows and
// the header fields of FRED's answer out. The order of work is FRED's: the series as of a real-time state, then
// frequency aggregation, then the units transformation (on the aggregated values, as printed), then the
// observation_start/observation_end cut, the sort and the page. `count` is the number of rows before the page.
import { aggregate, checkFrequency, type FredFrequency, type FredPoint } from "./frequency";
import { FRED_ERRORS, type FredError, type FredFileType } from "./errors";
import type { ObservationsQuery } from "./query";
import { applyUnits, formatDecimal, unitsDecimals } from "./units";
import {
  atVintageDates,
  byRealtimePeriod,
  byVintageDate,
  initialRelease,
  RevisionHistory,
  type Compute,
  type PeriodRow,
  type VintageRow,
} from "./vintages";

export type FredSeriesData = { id: string; native: FredFrequency; decimals: number; history: RevisionHistory };

export type ObservationsAnswer = {
  realtime_start: string;
  realtime_end: string;
  observation_start: string;
  observation_end: string;
  units: string;
  output_type: 1 | 2 | 3 | 4;
  file_type: FredFileType;
  order_by: "observation_date";
  sort_order: "asc" | "desc";
  count: number;
  offset: number;
  limit: number;
} & (
  | { kind: "periods"; rows: PeriodRow[] }
  | { kind: "vintages"; rows: VintageRow[]; seriesId: string; vintages: string[] }
);

/** What one state of the series prints: aggregation, then units, every value a string ("." when missing). */
export function printer(q: ObservationsQuery, s: FredSeriesData): Compute | FredError {
  let target: FredFrequency = s.native;
  let aggregated = false;
  if (q.frequency) {
    const check = checkFrequency(s.native, q.frequency);
    if (!check.ok) return FRED_ERRORS.frequency(check.reason);
    aggregated = check.aggregate;
    if (aggregated) target = q.frequency;
  }
  const decimals = unitsDecimals(q.units, s.decimals);
  return (points: FredPoint[]) => {
    const values = aggregated ? aggregate(points, s.native, target, q.aggregationMethod, s.decimals) : points;
    return applyUnits(values, q.units, target.code).map((p) => ({
      date: p.date,
      value: p.value === null ? "." : formatDecimal(p.value, decimals),
    }));
  };
}

export function fredObservations(q: ObservationsQuery, s: FredSeriesData): ObservationsAnswer | FredError {
  const compute = printer(q, s);
  if (typeof compute !== "function") return compute;
  const inRange = (r: { date: string }) => r.date >= q.observationStart && r.date <= q.observationEnd;
  const page = <R extends { date: string }>(rows: R[]) => {
    const kept = rows.filter(inRange);
    if (q.sortOrder === "desc") kept.reverse();
    return { count: kept.length, rows: kept.slice(q.offset, q.offset + q.limit) };
  };
  const head = (count: number) => ({
    realtime_start: q.realtimeStart,
    realtime_end: q.realtimeEnd,
    observation_start: q.observationStart,
    observation_end: q.observationEnd,
    units: q.units,
    output_type: q.outputType,
    file_type: q.fileType,
    order_by: "observation_date" as const,
    sort_order: q.sortOrder,
    count,
    offset: q.offset,
    limit: q.limit,
  });
  if (q.outputType === 2 || q.outputType === 3) {
    const vintages = q.vintageDates ?? s.history.vintagesIn(q.realtimeStart, q.realtimeEnd);
    const { count, rows } = page(byVintageDate(s.history, compute, vintages, q.outputType === 3));
    return { ...head(count), kind: "vintages", rows, seriesId: s.id, vintages };
  }
  const all =
    q.outputType === 4
      ? initialRelease(s.history, compute, q.vintageDates ? q.vintageDates[q.vintageDates.length - 1] : q.realtimeEnd)
      : q.vintageDates
        ? atVintageDates(s.history, compute, q.vintageDates)
        : byRealtimePeriod(s.history, compute, q.realtimeStart, q.realtimeEnd);
  const { count, rows } = page(all);
  return { ...head(count), kind: "periods", rows };
}

/** The column name FRED gives a vintage in output types 2 and 3: SERIES_YYYYMMDD. */
export function vintageColumn(seriesId: string, vintage: string): string {
  return `${seriesId}_${vintage.replaceAll("-", "")}`;
}
