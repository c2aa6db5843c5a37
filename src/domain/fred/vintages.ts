// Real-time periods (ALFRED) from stored revisions.
// - Each stored revision of an observation was first known on its vintage date (the day its source file was
//   published, else the day it was recorded). It holds from that date until the day before the observation's
//   next vintage, or 9999-12-31 while it is the newest.
// - The series as of day D is, for every date, its newest revision with a vintage date on or before D; dates
//   first published after D are not in it.
// - A real-time window [start, end] is cut into the spans between the vintage dates inside it; each span is one
//   state of the series. Output type 1 gives one row per date and span, with consecutive spans that print the
//   same value joined; output types 2 and 3 give one column per vintage date (the one in effect at the window's
//   start, then each one inside it), 3 keeping only new and revised values; output type 4 gives each date's
//   first release, as its first vintage printed it.
import { addDays } from "../calendar";
import type { FredPoint } from "./frequency";
import { LATEST_DATE } from "./query";

export type RevisionRow = { date: string; value: number | null; vintage: string };
/** One printed value: value null is FRED's ".". */
export type PrintedPoint = { date: string; value: string };
/** The series' printed values as of one state: aggregation and units applied, full history. */
export type Compute = (points: FredPoint[]) => PrintedPoint[];

export type PeriodRow = { realtime_start: string; realtime_end: string; date: string; value: string };
export type VintageRow = { date: string; values: Map<string, string> };

/** Revisions grouped by date, each date's list ordered by vintage (rows must come ordered by date, revision). */
export class RevisionHistory {
  private readonly byDate: { date: string; versions: { value: number | null; vintage: string }[] }[] = [];
  readonly vintages: string[];

  constructor(rows: readonly RevisionRow[]) {
    const seen = new Set<string>();
    for (const r of rows) {
      let last = this.byDate[this.byDate.length - 1];
      if (!last || last.date !== r.date) {
        last = { date: r.date, versions: [] };
        this.byDate.push(last);
      }
      last.versions.push({ value: r.value, vintage: r.vintage });
      seen.add(r.vintage);
    }
    for (const d of this.byDate)
      d.versions.sort((a, b) => (a.vintage < b.vintage ? -1 : a.vintage > b.vintage ? 1 : 0));
    this.vintages = [...seen].sort();
  }

  /** The series as known on `day`. */
  asOf(day: string): FredPoint[] {
    const out: FredPoint[] = [];
    for (const d of this.byDate) {
      let pick: { value: number | null } | null = null;
      for (const v of d.versions) if (v.vintage <= day) pick = v;
      if (pick) out.push({ date: d.date, value: pick.value });
    }
    return out;
  }

  /** The vintage in effect on `start` (if any) and every vintage after it up to `end`. */
  vintagesIn(start: string, end: string): string[] {
    const inside = this.vintages.filter((v) => v > start && v <= end);
    const before = this.vintages.filter((v) => v <= start);
    return before.length > 0 ? [before[before.length - 1], ...inside] : inside;
  }
}

const dayBefore = (d: string) => addDays(d, -1);

/** Output type 1 over [start, end]. Rows ordered by date, then real-time start. */
export function byRealtimePeriod(history: RevisionHistory, compute: Compute, start: string, end: string): PeriodRow[] {
  const cuts = [start, ...history.vintages.filter((v) => v > start && v <= end)];
  const open = new Map<string, PeriodRow>();
  const rows: PeriodRow[] = [];
  cuts.forEach((from, i) => {
    const to = i + 1 < cuts.length ? dayBefore(cuts[i + 1]) : end;
    for (const p of compute(history.asOf(from))) {
      const prev = open.get(p.date);
      if (prev && prev.value === p.value && prev.realtime_end === dayBefore(from)) {
        prev.realtime_end = to;
        continue;
      }
      const row = { realtime_start: from, realtime_end: to, date: p.date, value: p.value };
      open.set(p.date, row);
      rows.push(row);
    }
  });
  return rows.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.realtime_start < b.realtime_start ? -1 : 1,
  );
}

/** Output type 1 at given vintage dates: the series as of each, each row's real-time period that one day. */
export function atVintageDates(history: RevisionHistory, compute: Compute, dates: readonly string[]): PeriodRow[] {
  const rows: PeriodRow[] = [];
  for (const d of dates)
    for (const p of compute(history.asOf(d)))
      rows.push({ realtime_start: d, realtime_end: d, date: p.date, value: p.value });
  return rows.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.realtime_start < b.realtime_start ? -1 : 1,
  );
}

/** Output types 2 (all observations) and 3 (new and revised only), one column per vintage date; a column a row lacks prints "." in type 2. */
export function byVintageDate(
  history: RevisionHistory,
  compute: Compute,
  vintages: readonly string[],
  changedOnly: boolean,
): VintageRow[] {
  const rows = new Map<string, VintageRow>();
  const previous = new Map<string, string>();
  for (const v of vintages) {
    const printed = new Map(compute(history.asOf(v)).map((p) => [p.date, p.value]));
    for (const [date, value] of printed) {
      const row = rows.get(date) ?? { date, values: new Map() };
      if (!changedOnly || previous.get(date) !== value) row.values.set(v, value);
      if (row.values.size > 0) rows.set(date, row);
      previous.set(date, value);
    }
  }
  return [...rows.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** Output type 4: each date's first release, held until its printed value first changed. */
export function initialRelease(history: RevisionHistory, compute: Compute, end: string): PeriodRow[] {
  const first = new Map<string, PeriodRow>();
  for (const v of history.vintages) {
    if (v > end) break;
    for (const p of compute(history.asOf(v))) {
      const row = first.get(p.date);
      if (!row) first.set(p.date, { realtime_start: v, realtime_end: LATEST_DATE, date: p.date, value: p.value });
      else if (row.realtime_end === LATEST_DATE && row.value !== p.value) row.realtime_end = dayBefore(v);
    }
  }
  return [...first.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}
