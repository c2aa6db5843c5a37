// The first sentence of an ask answer (pure): it answers the question that was asked (intent.ts) with the number, the
// place and the period, computed from a series' points with the arithmetic its values allow (value-kinds.ts). Each
// lead also returns the figures it computed, which the caller puts in the tool results (the 12-month change, the
// difference, the peak), so the verifier checks them like any other number, and `computed` says which arithmetic ran.
// - growth, by what the values are: a level or an index, its percent change over 12 months (transform=yoy of
//   /v1/observations): "Inflation in the United States was 2.7% in November 2025 (the 12-month change of the
//   consumer price index)"; a change already computed (GDP growth, annual %), the value as published: "Real GDP
//   growth in India was 7.57% in 2025"; a rate, its difference over 12 months in percentage points.
// - change: the difference against the period before (or the span asked): "The US economy added 64,000 jobs in
//   November 2025 (nonfarm payrolls, 159.6 million)." A value that is itself a change is read as it stands.
// - extreme: the highest or lowest value held (of the growth for a growth topic), with the newest after it.
// - yes/no (recession: the NBER indicator read as yes/no; yield curve: inverted when the spread is below zero; a
//   change: its sign) opens with "Yes" or "No".
// Direction, episodes and peaks: moves.ts. Comparisons: compare.ts.
import type { Frequency } from "../calendar";
import { atDate, capitalise, decimalsOf, formatChange, formatDate, formatPercent, formatValue } from "../prose";
import type { Point } from "../series";
import { percentChange } from "../transforms";
import { growthMethod, type ValueSpec } from "../value-kinds";
import type { Direction, Intent } from "./intent";

export type View = {
  /** How people name the series: "the unemployment rate", "nonfarm payrolls"; for a change, the change: "inflation". */
  label: string;
  /** The name of its growth when that is what the topic means, answered by default ("inflation", "core CPI inflation"). */
  growthLabel: string | null;
  /** How its growth is named in a growth answer ("real GDP growth", "nominal GDP growth"); null: "<label> grew". */
  growthName?: string | null;
  place: string;
  frequency: Frequency;
  unit: string | null;
  points: readonly Point[];
  /** What the values are: the arithmetic allowed. */
  values: ValueSpec;
  /** A yes/no state the series reads: a 0/1 recession indicator, an inversion below zero. */
  state: "recession" | "inversion" | null;
  /** Counts in thousands of jobs read as jobs added or lost. */
  jobs: boolean;
  /** Peaks after an episode ends (unemployment after a recession): an episode's window gets its margin. */
  lagging?: boolean;
  /** The catalog category, for which episodes concern it (episodes.ts). */
  category?: string | null;
};

/** `computed`: the arithmetic the lead ran on the series (a rate or a change is never given a percent change). */
export type Lead = {
  text: string;
  figures: Record<string, number | string>;
  computed?: "value" | "percent_change" | "difference" | "extreme" | "state";
};

export type Valued = { date: string; value: number };
export const valued = (points: readonly Point[]): Valued[] =>
  points.filter((p): p is Valued => p.value !== null && Number.isFinite(p.value));
export const fmt = (v: View, x: number) => formatValue(x, v.unit, decimalsOf([x]));
export const round = (x: number, d: number) => Number(x.toFixed(d));
export const subject = (v: View) => capitalise(`${v.label} in ${v.place}`);
/** "Nonfarm payrolls … were", "the unemployment rate … was". */
export const was = (label: string) =>
  /(payrolls|openings|starts|claims|earnings|sales|births|deaths|jobs)$/.test(label) && !/^the number of /.test(label)
    ? "were"
    : "was";
/** A change as published, to two decimals at most ("7.57%", not "7.56666179284244%"). */
export const shownChange = (x: number) => round(x, Math.min(2, decimalsOf([x])));

/** The point of a period: a date (its period at the series' frequency), or a year ("2019"). */
export function pointAt(points: readonly Valued[], at: string, frequency: Frequency): Valued | null {
  if (at.length === 4) {
    const year = points.filter((p) => p.date.startsWith(at));
    if (year.length === 0) return null;
    if (frequency === "annual") return year[0];
    return { date: `${at}-01-01`, value: year.reduce((s, p) => s + p.value, 0) / year.length };
  }
  const key =
    frequency === "annual"
      ? at.slice(0, 4)
      : frequency === "quarterly"
        ? `${at.slice(0, 5)}${String(Math.floor((Number(at.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, "0")}`
        : at.slice(0, 7);
  return points.find((p) => p.date.startsWith(key)) ?? null;
}

const periodOf = (v: View, at: string, p: Valued) =>
  at.length === 4 && v.frequency !== "annual" ? `on average in ${at}` : atDate(p.date, v.frequency);

/**
 * The series' growth as its values allow (value-kinds.ts growthMethod): the 12-month percent change of a level or an
 * index (what /v1/observations returns with transform=yoy), the values themselves when they are a change already,
 * null for a rate or a 0/1 state, and for daily or weekly data (no 12-month comparator at native frequency).
 */
export function growthSeries(v: View): Valued[] | null {
  const m = growthMethod(v.values);
  if (m.method === "stated") return valued(v.points);
  if (m.method !== "percent_change" || v.frequency === "daily" || v.frequency === "weekly") return null;
  return valued(percentChange(valued(v.points), v.frequency, "yoy"));
}

/** Whether the growth is computed here as a percent change (and so shown to one decimal, cited with transform=yoy). */
export const growthComputed = (v: View) => growthMethod(v.values).method === "percent_change";

function noValue(v: View, at: string | null): Lead {
  return {
    text: `${subject(v)} has no value ${at ? `for ${at.length === 4 ? at : formatDate(at, v.frequency)}` : "held"}.`,
    figures: {},
  };
}

function levelLead(v: View, at: string | null): Lead {
  const pts = valued(v.points);
  const p = at ? pointAt(pts, at, v.frequency) : (pts.at(-1) ?? null);
  if (!p) return noValue(v, at);
  const value = at?.length === 4 && v.frequency !== "annual" ? round(p.value, 2) : p.value;
  return {
    text: `${subject(v)} ${was(v.label)} ${fmt(v, value)} ${at ? periodOf(v, at, p) : atDate(p.date, v.frequency)}.`,
    figures: { value, date: p.date },
    computed: "value",
  };
}

function growthLead(v: View, at: string | null, months: number | null = null): Lead {
  const method = growthMethod(v.values);
  if (method.method === "difference")
    return changeLead(v, { kind: "change", at, months: months ?? 12, since: null }, false, false);
  if (method.method === "stated") return statedLead(v, at);
  if (months && months !== 12 && !at) return spanGrowthLead(v, months);
  const yoy = growthSeries(v);
  if (!yoy || yoy.length === 0) return levelLead(v, at);
  const p = at ? pointAt(yoy, at.length === 4 ? `${at}-12-01` : at, v.frequency) : yoy.at(-1)!;
  if (!p) return noValue(v, at);
  const pct = round(p.value, 1);
  const when = atDate(p.date, v.frequency);
  const figures = { yoy_percent: pct, date: p.date, months: 12 };
  if (v.growthLabel)
    return {
      text: `${capitalise(`${v.growthLabel} in ${v.place}`)} was ${formatPercent(pct)} ${when} (the 12-month change of ${v.label}).`,
      figures,
      computed: "percent_change",
    };
  if (v.growthName)
    return {
      text: `${capitalise(`${v.growthName} in ${v.place}`)} was ${formatPercent(pct)} in the 12 months to ${formatDate(p.date, v.frequency)} (the change of ${v.label} from a year earlier).`,
      figures,
      computed: "percent_change",
    };
  const verb = pct >= 0 ? "grew" : "fell";
  return {
    text: `${subject(v)} ${verb} ${formatPercent(Math.abs(pct))} in the 12 months to ${formatDate(p.date, v.frequency)}.`,
    figures,
    computed: "percent_change",
  };
}

/**
 * Growth over a span other than a year ("last quarter", "the past six months"): the percent change from the value
 * that span before the newest; a quarterly series' one-quarter change also at an annual rate ((1 + p)^4 - 1), as
 * national accounts report it.
 */
function spanGrowthLead(v: View, months: number): Lead {
  const pts = valued(v.points);
  const end = pts.at(-1);
  const start = end ? pts.filter((p) => p.date <= MONTHS_BACK(end.date, months)).at(-1) : undefined;
  if (!end || !start || start.value <= 0) return levelLead(v, null);
  const pct = (end.value / start.value - 1) * 100;
  const shown = round(pct, 1);
  const figures: Record<string, number | string> = {
    percent: shown,
    from: start.value,
    to: end.value,
    start: start.date,
    end: end.date,
    months,
  };
  const annual =
    v.frequency === "quarterly" && months === 3 ? round(((end.value / start.value) ** 4 - 1) * 100, 1) : null;
  if (annual !== null) figures.annualized = annual;
  const name = capitalise(`${v.growthName ?? `${v.label.replace(/^the /, "")} growth`} in ${v.place}`);
  const over =
    annual !== null
      ? atDate(end.date, v.frequency)
      : `over the ${months} months to ${formatDate(end.date, v.frequency)}`;
  const rate = annual !== null ? ` (${formatPercent(annual)} at an annual rate)` : "";
  return {
    text: `${name} was ${formatPercent(shown)} ${over}${rate}, the change of ${v.label} from ${formatDate(start.date, v.frequency)}.`,
    figures,
    computed: "percent_change",
  };
}

/** A change already computed over its span, read as it stands: "Real GDP growth in India was 7.57% in 2025." */
function statedLead(v: View, at: string | null): Lead {
  const pts = valued(v.points);
  const p = at ? pointAt(pts, at, v.frequency) : (pts.at(-1) ?? null);
  if (!p) return noValue(v, at);
  const value = shownChange(p.value);
  const span = v.values.spanMonths ?? 12;
  const over = span === 12 ? (v.frequency === "annual" ? "over the year" : "over 12 months") : `over ${span} months`;
  return {
    text: `${subject(v)} was ${fmt(v, value)} ${atDate(p.date, v.frequency)} (${over}, as published).`,
    figures: { value: p.value, date: p.date, span_months: span },
    computed: "value",
  };
}

const MONTHS_BACK = (date: string, n: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 10);
};

export const yesOrNo = (yesNo: boolean, up: boolean, down: boolean) => (yesNo ? (up !== down ? "Yes: " : "No: ") : "");
/**
 * "Yes: " before a sentence that opens with the series' name: its first letter as the label writes it ("real GDP",
 * "inflation"; "GDP" keeps its capitals); a sentence opening with a place keeps its capital.
 */
export const after = (prefix: string, text: string, label?: string) =>
  !prefix
    ? text
    : (label ? /^[a-z]/.test(label.replace(/^the /, "")) || label.startsWith("the ") : text.startsWith("The "))
      ? `${prefix}${text.charAt(0).toLowerCase()}${text.slice(1)}`
      : `${prefix}${text}`;

/** A series that is itself a change: its value for the period, read as growth or decline. */
function deltaLead(v: View, at: string | null, yesNo: boolean, down: boolean): Lead {
  const pts = valued(v.points);
  const p = at ? pointAt(pts, at, v.frequency) : (pts.at(-1) ?? null);
  if (!p) return noValue(v, at);
  const what = p.value > 0 ? "an increase" : p.value < 0 ? "a decrease" : "no change";
  return {
    text: after(
      yesOrNo(yesNo, p.value > 0, down),
      `${subject(v)} ${was(v.label)} ${fmt(v, p.value)} ${atDate(p.date, v.frequency)} (${what}).`,
      v.label,
    ),
    figures: { value: p.value, date: p.date },
    computed: "value",
  };
}

function changeLead(v: View, intent: Extract<Intent, { kind: "change" }>, yesNo: boolean, down: boolean): Lead {
  // A change already computed is read as it stands, unless asked over a longer span (since 2020: a difference).
  if (v.values.kind === "change" && !intent.since && (intent.months ?? 0) <= (v.values.spanMonths ?? 12))
    return deltaLead(v, intent.at, yesNo, down);
  const pts = valued(v.points);
  if (pts.length < 2) return levelLead(v, null);
  let end = intent.at ? pointAt(pts, intent.at, v.frequency) : pts.at(-1)!;
  if (!end) return noValue(v, intent.at);
  let start: Valued | null;
  if (intent.since) start = pts.find((p) => p.date >= `${intent.since}-01-01`) ?? null;
  else if (intent.months) {
    // The value at the span's start: that period's, or (daily and weekly data) the newest one before it.
    const from = MONTHS_BACK(end.date, intent.months);
    start = pts.filter((p) => p.date <= from).at(-1) ?? null;
  } else start = pts[pts.indexOf(end) - 1] ?? null;
  if (!start) return levelLead(v, intent.at);
  if (intent.at?.length === 4 && v.frequency !== "annual")
    end = pts.filter((p) => p.date.startsWith(intent.at!)).at(-1)!;
  const dx = end.value - start.value;
  const d = Math.max(decimalsOf([end.value, start.value]), 0);
  const diff = round(dx, d);
  const span =
    start === pts[pts.indexOf(end) - 1]
      ? atDate(end.date, v.frequency)
      : `from ${formatDate(start.date, v.frequency)} to ${formatDate(end.date, v.frequency)}`;
  const figures = { change: diff, from: start.value, to: end.value, start: start.date, end: end.date };
  if (v.jobs) {
    const jobs = Math.round(Math.abs(dx) * 1000);
    const verb = dx >= 0 ? "added" : "lost";
    return {
      text: `${yesOrNo(yesNo, dx > 0, down)}${capitalise(v.place)} ${verb} ${jobs.toLocaleString("en-US")} jobs ${span} (${v.label}, ${fmt(v, end.value)}).`,
      figures: { ...figures, jobs },
      computed: "difference",
    };
  }
  const verb = diff === 0 ? `${was(v.label)} unchanged` : dx > 0 ? "rose" : "fell";
  // An index's points mean nothing alone: its change is a percent change, the points beside it.
  const pct = v.values.kind === "index" && start.value > 0 ? (end.value / start.value - 1) * 100 : null;
  // A level's change is in its unit, its percent beside it; a rate's is in points only.
  const share =
    v.values.kind === "level" && start.value > 0
      ? ` (${formatPercent(Math.abs((end.value / start.value - 1) * 100))})`
      : "";
  const by =
    diff === 0
      ? ""
      : pct !== null
        ? ` ${formatPercent(Math.abs(pct))} (${formatChange(dx, v.unit, d)})`
        : ` by ${formatChange(dx, v.unit, d)}${share}`;
  return {
    text: after(
      yesOrNo(yesNo, dx > 0, down),
      `${subject(v)} ${verb}${by} ${span}, ${diff === 0 ? "at" : "to"} ${fmt(v, end.value)}.`,
      v.label,
    ),
    figures:
      pct !== null
        ? { ...figures, percent: pct }
        : share
          ? { ...figures, percent: (end.value / start.value - 1) * 100 }
          : figures,
    computed: pct !== null ? "percent_change" : "difference",
  };
}

function extremeLead(v: View, dir: Direction, since: string | null, at: string | null = null): Lead {
  const growth = v.growthLabel ? growthSeries(v) : null;
  const series = growth ?? valued(v.points);
  const within = at
    ? series.filter((p) => p.date.startsWith(at))
    : since
      ? series.filter((p) => p.date >= `${since}-01-01`)
      : series;
  if (within.length === 0) return noValue(v, at ?? since);
  const best = within.reduce((a, b) => ((dir === "max" ? b.value > a.value : b.value < a.value) ? b : a));
  const last = series.at(-1)!;
  // A growth computed here reads to one decimal; a published change to two at most.
  const computed = growth !== null && growthComputed(v);
  const show = (x: number) =>
    computed ? formatPercent(round(x, 1)) : fmt(v, v.values.kind === "change" ? shownChange(x) : x);
  const name = growth ? capitalise(`${v.growthLabel} in ${v.place}`) : subject(v);
  const scope = at ? `In ${at}, ` : since ? `Since ${since}, ` : "";
  const held = since || at ? "" : ` in the data held (from ${formatDate(series[0].date, v.frequency)})`;
  const word =
    dir === "max"
      ? growth
        ? "peaked at"
        : `${was(v.label)} highest at`
      : growth
        ? "bottomed at"
        : `${was(v.label)} lowest at`;
  const peak = computed ? round(best.value, 1) : best.value;
  const now = computed ? round(last.value, 1) : last.value;
  const subjectText = scope ? after("-", name, v.growthLabel ?? v.label).slice(1) : name;
  return {
    text: `${scope}${subjectText} ${word} ${show(best.value)} ${atDate(best.date, v.frequency)}${held}; ${!growth && was(v.label) === "were" ? "they were" : "it was"} ${show(last.value)} ${atDate(last.date, v.frequency)}.`,
    figures: {
      extreme: peak,
      extreme_date: best.date,
      latest: now,
      date: last.date,
      ...(at ? { year: at } : since ? { since } : { from: series[0].date }),
    },
    computed: computed ? "percent_change" : "extreme",
  };
}

function stateLead(v: View): Lead | null {
  const last = valued(v.points).at(-1);
  if (!last) return null;
  if (v.state === "recession") {
    const yes = last.value === 1;
    return {
      text: `${yes ? "Yes" : "No"}: by the NBER's recession dates, ${v.place} ${yes ? "was" : "was not"} in a recession ${atDate(last.date, v.frequency)}, the newest month dated (the NBER dates recessions months after they start).`,
      figures: { recession: yes ? 1 : 0, date: last.date },
      computed: "state",
    };
  }
  const inverted = last.value < 0;
  return {
    text: `${inverted ? "Yes" : "No"}: the yield curve ${inverted ? "was inverted" : "was not inverted"} ${atDate(last.date, v.frequency)}, with the 10-year Treasury yield ${formatChange(last.value, "percentage points", decimalsOf([last.value]))} ${inverted ? "below" : "above"} the 2-year.`,
    figures: { spread: last.value, date: last.date },
    computed: "state",
  };
}

/** The lead sentence of one series for a level, growth, change or extreme question (moves.ts: the others). */
export function leadSentence(v: View, intent: Intent, yesNo: boolean, down = false): Lead {
  if (v.state) {
    const s = stateLead(v);
    if (s) return s;
  }
  switch (intent.kind) {
    case "growth": {
      // "Are housing starts down from a year ago?": the yes or no of the fall asked, first.
      const lead = growthLead(v, intent.at, intent.months ?? null);
      const pct = Number(lead.figures.yoy_percent ?? lead.figures.percent ?? lead.figures.value);
      return yesNo && down && lead.computed !== undefined && Number.isFinite(pct)
        ? { ...lead, text: after(yesOrNo(true, pct > 0, true), lead.text, v.growthLabel ?? v.growthName ?? v.label) }
        : lead;
    }
    case "change":
      return changeLead(v, intent, yesNo, down);
    case "extreme":
      return extremeLead(v, intent.dir, intent.since, intent.at ?? null);
    default:
      return v.growthLabel
        ? growthLead(v, intent.kind === "level" ? intent.at : null)
        : levelLead(v, intent.kind === "level" ? intent.at : null);
  }
}
