// Panels: several series aligned on one grid of dates (GET /v1/panel). Definitions:
// - Plan. Without `frequency`, a panel whose series share one frequency aligns at that native frequency; a panel of
//   mixed frequencies is resampled to the coarsest of them. With `frequency`, every series is resampled to it (a
//   series coarser than it is a RuleError: resampling never upsamples). Weekly series end on different weekdays
//   (ICSA on Saturday, GASREGW on Monday), so a panel whose coarsest series is weekly needs frequency=monthly or
//   coarser. Resampling is src/domain/resample.ts (calendar buckets, newest incomplete bucket dropped), the same
//   resampler as GET /v1/observations; a series already at the target passes through it unchanged.
// - Grid. Every series is keyed by calendar period of the panel's frequency (native points by the period their
//   date falls in, the latest-dated point standing for a period; buckets by their period), and each date of the
//   panel is its period's first day, the label resampled buckets carry. A period belongs to the requested range
//   when it overlaps [start, end].
// - missing=drop keeps the periods where every series has a value (the arrays then hold no null). missing=ffill keeps
//   the periods where any series has a value; a series without a value there carries its last earlier value
//   forward (from before the range too), and is null before its first value (leading gaps stay null).
// - Capacity: dates x series at most PANEL_MAX_POINTS; more is a RuleError that says how many points it would hold.
import { FREQUENCY_RANK, FREQUENCY_UNIT, periodIndex, periodStartOfIndex, type Frequency } from "./calendar";
import { checkResample, resample, type ResampleMethod, type ResampleTarget } from "./resample";
import { RuleError, type Point } from "./series";

export const PANEL_MAX_SERIES = 10;
export const PANEL_MAX_POINTS = 5_000;

export type PanelMissing = "drop" | "ffill";
export const PANEL_MISSING: readonly PanelMissing[] = ["drop", "ffill"];

/** How the series are put on one grid: at their shared native frequency, or resampled to `frequency`. */
export type PanelPlan = { frequency: Frequency; resampled: boolean };

export type PanelSeriesInput = { key: string; frequency: Frequency; points: readonly Point[] };

/** A series the panel resampled (its native frequency differs from the panel's). */
export type PanelResampled = { source_frequency: Frequency; dropped_period_start: string | null };

export type Panel = {
  dates: string[];
  /** One array per input, in input order, each as long as `dates`. */
  values: (number | null)[][];
  /** By key: the series that were resampled. */
  resampled: Record<string, PanelResampled>;
};

export type PanelOptions = {
  plan: PanelPlan;
  method: ResampleMethod;
  missing: PanelMissing;
  start?: string;
  end?: string;
  maxPoints?: number;
};

const coarser = (a: Frequency, b: Frequency) => (FREQUENCY_RANK[b] > FREQUENCY_RANK[a] ? b : a);

export function planPanel(
  series: readonly { key: string; frequency: Frequency }[],
  requested?: ResampleTarget,
): PanelPlan {
  if (series.length === 0) throw new RuleError("A panel needs at least one series.", { parameter: "indicators" });
  if (requested) {
    for (const s of series) {
      try {
        checkResample(s.frequency, requested);
      } catch (e) {
        if (!(e instanceof RuleError)) throw e;
        throw new RuleError(`${s.key}: ${e.message}`, { ...e.details, indicator: s.key });
      }
    }
    return { frequency: requested, resampled: true };
  }
  const coarsest = series.map((s) => s.frequency).reduce(coarser);
  const same = series.every((s) => s.frequency === coarsest);
  if (coarsest === "weekly") {
    const weekly = series.filter((s) => s.frequency === "weekly").map((s) => s.key);
    throw new RuleError(
      `${same ? "A panel of weekly series" : `A panel whose coarsest series is weekly (${weekly.join(", ")})`} needs frequency=monthly, quarterly or annual: ` +
        "weekly series end on different weekdays, so their dates do not line up.",
      { parameter: "frequency", weekly },
    );
  }
  return { frequency: coarsest, resampled: !same };
}

/** period index -> value of one series on the panel's grid, and which series were resampled. */
function gridOf(
  input: PanelSeriesInput,
  opts: PanelOptions,
  resampled: Record<string, PanelResampled>,
): Map<number, number | null> {
  const unit = FREQUENCY_UNIT[opts.plan.frequency];
  const out = new Map<number, number | null>();
  if (!opts.plan.resampled) {
    // Ascending input: a later point of the same period replaces an earlier one.
    for (const p of input.points) out.set(periodIndex(p.date, unit), p.value);
    return out;
  }
  const res = resample(input.points, input.frequency, opts.plan.frequency as ResampleTarget, opts.method);
  for (const b of res.buckets) out.set(periodIndex(b.period_start, unit), b.value);
  if (input.frequency !== opts.plan.frequency) {
    resampled[input.key] = {
      source_frequency: input.frequency,
      dropped_period_start: res.dropped?.period_start ?? null,
    };
  }
  return out;
}

export function alignPanel(inputs: readonly PanelSeriesInput[], opts: PanelOptions): Panel {
  const unit = FREQUENCY_UNIT[opts.plan.frequency];
  const resampled: Record<string, PanelResampled> = {};
  const grids = inputs.map((s) => gridOf(s, opts, resampled));
  // Periods overlapping [start, end] are exactly those whose index lies between the indexes of start and end.
  const lo = opts.start ? periodIndex(opts.start, unit) : -Infinity;
  const hi = opts.end ? periodIndex(opts.end, unit) : Infinity;
  const valued = (g: Map<number, number | null>, i: number) => g.get(i) != null;

  let periods: number[];
  let values: (number | null)[][];
  if (opts.missing === "drop") {
    periods =
      grids.length === 0
        ? []
        : [...grids[0].keys()]
            .filter((i) => i >= lo && i <= hi && grids.every((g) => valued(g, i)))
            .sort((a, b) => a - b);
    values = grids.map((g) => periods.map((i) => g.get(i)!));
  } else {
    const all = new Set<number>();
    for (const g of grids) for (const [i, v] of g) if (v !== null) all.add(i);
    const union = [...all].sort((a, b) => a - b);
    periods = union.filter((i) => i >= lo && i <= hi);
    values = grids.map((g) => {
      const row: (number | null)[] = [];
      let carried: number | null = null;
      for (const i of union) {
        const v = g.get(i);
        if (v != null) carried = v;
        if (i >= lo && i <= hi) row.push(carried);
      }
      return row;
    });
  }

  const max = opts.maxPoints ?? PANEL_MAX_POINTS;
  const points = periods.length * inputs.length;
  if (points > max) {
    throw new RuleError(
      `This panel would hold ${points.toLocaleString("en-US")} points (${periods.length.toLocaleString("en-US")} dates x ${inputs.length} series); ` +
        `a panel holds at most ${max.toLocaleString("en-US")}. Pass a narrower date range (start_date, end_date)` +
        `${opts.plan.frequency === "annual" ? "" : ", a coarser frequency"} or fewer indicators.`,
      { parameter: "start_date", points, max_points: max, dates: periods.length, series: inputs.length },
    );
  }
  return { dates: periods.map((i) => periodStartOfIndex(i, unit)), values, resampled };
}
