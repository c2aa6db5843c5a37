// The first sentence of an ask answer (pure): it answers the question that was asked (intent.ts) with the number, the
// place and the period, computed from a series' points. Each lead also returns the figures it computed, which the
// caller puts in the tool results (the 12-month change, the difference, the peak), so the verifier checks them like
// any other number, and the caller's citation names the read that replays them.
// - growth: the 12-month percent change (transform=yoy of /v1/observations): "Inflation in the United States was
//   2.7% in November 2025 (the 12-month change of the consumer price index)."
// - change: the difference against the period before (or the span asked): "The US economy added 64,000 jobs in
//   November 2025 (nonfarm payrolls, 159.6 million)."
// - extreme: the highest or lowest value held (of the 12-month change for a growth topic), with the newest after it.
// - yes/no (recession: the NBER indicator read as yes/no; yield curve: inverted when the spread is below zero; a
//   change: its sign) opens with "Yes" or "No".
// - compare: the places' values at the same period (the newest they all have, at the coarsest frequency, averaged
//   over complete periods); a place with no value for that period is said to have none, never paired with another period.
import type { Frequency } from "../calendar";
import { atDate, capitalise, decimalsOf, formatChange, formatDate, formatPercent, formatValue } from "../prose";
import type { Point } from "../series";
import { percentChange } from "../transforms";
import type { Direction, Intent } from "./intent";

export type View = {
  /** How people name the series: "the unemployment rate", "nonfarm payrolls". */
  label: string;
  /** The name of its 12-month change when that is a thing of its own ("inflation", "core CPI inflation"). */
  growthLabel: string | null;
  place: string;
  frequency: Frequency;
  unit: string | null;
  points: readonly Point[];
  /** A yes/no state the series reads: a 0/1 recession indicator, an inversion below zero. */
  state: "recession" | "inversion" | null;
  /** Counts in thousands of jobs read as jobs added or lost. */
  jobs: boolean;
  /** The series is itself a change over its period (population change): "did it grow" reads its sign. */
  delta: boolean;
};

export type Lead = { text: string; figures: Record<string, number | string> };

type Valued = { date: string; value: number };
const valued = (points: readonly Point[]): Valued[] => points.filter((p): p is Valued => p.value !== null && Number.isFinite(p.value));
const fmt = (v: View, x: number) => formatValue(x, v.unit, decimalsOf([x]));
const round = (x: number, d: number) => Number(x.toFixed(d));
const subject = (v: View) => capitalise(`${v.label} in ${v.place}`);
/** "Nonfarm payrolls … were", "the unemployment rate … was". */
const was = (label: string) => (/(payrolls|openings|starts|claims|earnings|sales|births|deaths)$/.test(label) ? "were" : "was");

/** The point of a period: a date (its period at the series' frequency), or a year ("2019"). */
function pointAt(points: readonly Valued[], at: string, frequency: Frequency): Valued | null {
  if (at.length === 4) {
    const year = points.filter((p) => p.date.startsWith(at));
    if (year.length === 0) return null;
    if (frequency === "annual") return year[0];
    return { date: `${at}-01-01`, value: year.reduce((s, p) => s + p.value, 0) / year.length };
  }
  const key = frequency === "annual" ? at.slice(0, 4) : frequency === "quarterly" ? `${at.slice(0, 5)}${String(Math.floor((Number(at.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, "0")}` : at.slice(0, 7);
  return points.find((p) => p.date.startsWith(key)) ?? null;
}

const periodOf = (v: View, at: string, p: Valued) => (at.length === 4 && v.frequency !== "annual" ? `on average in ${at}` : atDate(p.date, v.frequency));

/** The 12-month percent change series (what /v1/observations returns with transform=yoy), or null when undefined. */
export function yoySeries(v: View): Valued[] | null {
  if (v.frequency === "daily" || v.frequency === "weekly") return null;
  return valued(percentChange(valued(v.points), v.frequency, "yoy"));
}

function noValue(v: View, at: string | null): Lead {
  return { text: `${subject(v)} has no value ${at ? `for ${at.length === 4 ? at : formatDate(at, v.frequency)}` : "held"}.`, figures: {} };
}

function levelLead(v: View, at: string | null): Lead {
  const pts = valued(v.points);
  const p = at ? pointAt(pts, at, v.frequency) : (pts.at(-1) ?? null);
  if (!p) return noValue(v, at);
  const value = at?.length === 4 && v.frequency !== "annual" ? round(p.value, 2) : p.value;
  return { text: `${subject(v)} ${was(v.label)} ${fmt(v, value)} ${at ? periodOf(v, at, p) : atDate(p.date, v.frequency)}.`, figures: { value, date: p.date } };
}

function growthLead(v: View, at: string | null): Lead {
  const yoy = yoySeries(v);
  if (!yoy || yoy.length === 0) return levelLead(v, at);
  const p = at ? pointAt(yoy, at.length === 4 ? `${at}-12-01` : at, v.frequency) : yoy.at(-1)!;
  if (!p) return noValue(v, at);
  const pct = round(p.value, 1);
  const when = atDate(p.date, v.frequency);
  if (v.growthLabel) return { text: `${capitalise(`${v.growthLabel} in ${v.place}`)} was ${formatPercent(pct)} ${when} (the 12-month change of ${v.label}).`, figures: { yoy_percent: pct, date: p.date, months: 12 } };
  const verb = pct >= 0 ? "grew" : "fell";
  return { text: `${subject(v)} ${verb} ${formatPercent(Math.abs(pct))} in the 12 months to ${formatDate(p.date, v.frequency)}.`, figures: { yoy_percent: pct, date: p.date, months: 12 } };
}

const MONTHS_BACK = (date: string, n: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 10);
};

const yesOrNo = (yesNo: boolean, up: boolean, down: boolean) => (yesNo ? (up !== down ? "Yes: " : "No: ") : "");
/** "Yes: " before a sentence: its "The" in lower case (a place's name keeps its capital). */
const after = (prefix: string, text: string) => (prefix && text.startsWith("The ") ? `${prefix}t${text.slice(1)}` : `${prefix}${text}`);

/** A series that is itself a change: its value for the period, read as growth or decline. */
function deltaLead(v: View, at: string | null, yesNo: boolean, down: boolean): Lead {
  const pts = valued(v.points);
  const p = at ? pointAt(pts, at, v.frequency) : (pts.at(-1) ?? null);
  if (!p) return noValue(v, at);
  const what = p.value > 0 ? "an increase" : p.value < 0 ? "a decrease" : "no change";
  return { text: after(yesOrNo(yesNo, p.value > 0, down), `${subject(v)} ${was(v.label)} ${fmt(v, p.value)} ${atDate(p.date, v.frequency)} (${what}).`), figures: { value: p.value, date: p.date } };
}

function changeLead(v: View, intent: Extract<Intent, { kind: "change" }>, yesNo: boolean, down: boolean): Lead {
  if (v.delta) return deltaLead(v, intent.at, yesNo, down);
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
  }
  else start = pts[pts.indexOf(end) - 1] ?? null;
  if (!start) return levelLead(v, intent.at);
  if (intent.at?.length === 4 && v.frequency !== "annual") end = pts.filter((p) => p.date.startsWith(intent.at!)).at(-1)!;
  const dx = end.value - start.value;
  const d = Math.max(decimalsOf([end.value, start.value]), 0);
  const diff = round(dx, d);
  const span = start === pts[pts.indexOf(end) - 1] ? atDate(end.date, v.frequency) : `from ${formatDate(start.date, v.frequency)} to ${formatDate(end.date, v.frequency)}`;
  const figures = { change: diff, from: start.value, to: end.value, start: start.date, end: end.date };
  if (v.jobs) {
    const jobs = Math.round(Math.abs(dx) * 1000);
    const verb = dx >= 0 ? "added" : "lost";
    return { text: `${yesOrNo(yesNo, dx > 0, down)}${capitalise(v.place)} ${verb} ${jobs.toLocaleString("en-US")} jobs ${span} (${v.label}, ${fmt(v, end.value)}).`, figures: { ...figures, jobs } };
  }
  const verb = diff === 0 ? `${was(v.label)} unchanged` : dx > 0 ? "rose" : "fell";
  const by = diff === 0 ? "" : ` by ${formatChange(dx, v.unit, d)}`;
  return { text: after(yesOrNo(yesNo, dx > 0, down), `${subject(v)} ${verb}${by} ${span}, ${diff === 0 ? "at" : "to"} ${fmt(v, end.value)}.`), figures };
}

function extremeLead(v: View, dir: Direction, since: string | null): Lead {
  const growth = v.growthLabel ? yoySeries(v) : null;
  const series = growth ?? valued(v.points);
  const within = since ? series.filter((p) => p.date >= `${since}-01-01`) : series;
  if (within.length === 0) return noValue(v, since);
  const best = within.reduce((a, b) => ((dir === "max" ? b.value > a.value : b.value < a.value) ? b : a));
  const last = series.at(-1)!;
  const name = growth ? capitalise(`${v.growthLabel} in ${v.place}`) : subject(v);
  const show = (x: number) => (growth ? formatPercent(round(x, 1)) : fmt(v, x));
  const scope = since ? `Since ${since}, ` : "";
  const held = since ? "" : ` in the data held (from ${formatDate(series[0].date, v.frequency)})`;
  const word = dir === "max" ? (growth ? "peaked at" : `${was(v.label)} highest at`) : growth ? "bottomed at" : `${was(v.label)} lowest at`;
  const peak = growth ? round(best.value, 1) : best.value;
  const now = growth ? round(last.value, 1) : last.value;
  const subjectText = since ? name.charAt(0).toLowerCase() + name.slice(1) : name;
  return {
    text: `${scope}${subjectText} ${word} ${show(best.value)} ${atDate(best.date, v.frequency)}${held}; ${!growth && was(v.label) === "were" ? "they were" : "it was"} ${show(last.value)} ${atDate(last.date, v.frequency)}.`,
    figures: { extreme: peak, extreme_date: best.date, latest: now, date: last.date, ...(since ? { since } : { from: series[0].date }) },
  };
}

function stateLead(v: View): Lead | null {
  const last = valued(v.points).at(-1);
  if (!last) return null;
  if (v.state === "recession") {
    const yes = last.value === 1;
    return { text: `${yes ? "Yes" : "No"}: by the NBER's recession dates, ${v.place} ${yes ? "was" : "was not"} in a recession ${atDate(last.date, v.frequency)}, the newest month dated (the NBER dates recessions months after they start).`, figures: { recession: yes ? 1 : 0, date: last.date } };
  }
  const inverted = last.value < 0;
  return { text: `${inverted ? "Yes" : "No"}: the yield curve ${inverted ? "was inverted" : "was not inverted"} ${atDate(last.date, v.frequency)}, with the 10-year Treasury yield ${formatChange(last.value, "percentage points", decimalsOf([last.value]))} ${inverted ? "below" : "above"} the 2-year.`, figures: { spread: last.value, date: last.date } };
}

/** The lead sentence of one series for a question's intent. */
export function leadSentence(v: View, intent: Intent, yesNo: boolean, down = false): Lead {
  if (v.state) {
    const s = stateLead(v);
    if (s) return s;
  }
  switch (intent.kind) {
    case "growth":
      return growthLead(v, intent.at);
    case "change":
      return changeLead(v, intent, yesNo, down);
    case "extreme":
      return extremeLead(v, intent.dir, intent.since);
    default:
      return v.growthLabel ? growthLead(v, intent.kind === "level" ? intent.at : null) : levelLead(v, intent.kind === "level" ? intent.at : null);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Like with like

const COARSENESS: Frequency[] = ["daily", "weekly", "monthly", "quarterly", "annual"];
const BUCKET: Record<string, (d: string) => string> = {
  monthly: (d) => d.slice(0, 7),
  quarterly: (d) => `${d.slice(0, 5)}Q${Math.floor((Number(d.slice(5, 7)) - 1) / 3) + 1}`,
  annual: (d) => d.slice(0, 4),
};
const PER_BUCKET: Record<string, Record<string, number>> = { monthly: { monthly: 1, quarterly: 3, annual: 12 }, quarterly: { quarterly: 1, annual: 4 }, annual: { annual: 1 } };

/** A series' values by period of `to` (a coarser frequency averaged over complete periods only). */
function byPeriod(v: View, to: Frequency): Map<string, { date: string; value: number }> {
  const out = new Map<string, { date: string; value: number; n: number }>();
  for (const p of valued(v.points)) {
    const k = BUCKET[to](p.date);
    const cur = out.get(k) ?? { date: p.date, value: 0, n: 0 };
    cur.value += p.value;
    cur.n++;
    out.set(k, cur);
  }
  const need = PER_BUCKET[v.frequency]?.[to] ?? 1;
  const done = new Map<string, { date: string; value: number }>();
  for (const [k, b] of out) if (b.n >= need) done.set(k, { date: b.date, value: need === 1 ? b.value : round(b.value / b.n, 2) });
  return done;
}

export type Compared = { place: string; value: number | null };

/** The places' values at the newest period they all have (see the file comment); null when no period is common. */
export function samePeriod(views: readonly View[]): { frequency: Frequency; period: string; date: string; values: Compared[]; newest: { place: string; date: string }[] } | null {
  const coarsest = views.map((v) => v.frequency).reduce((a, b) => (COARSENESS.indexOf(b) > COARSENESS.indexOf(a) ? b : a));
  const to: Frequency = coarsest === "daily" || coarsest === "weekly" ? "monthly" : coarsest;
  const maps = views.map((v) => byPeriod(v, to));
  const newest = views.map((v) => ({ place: v.place, date: valued(v.points).at(-1)?.date ?? "" }));
  const common = [...maps[0].keys()].filter((k) => maps.every((m) => m.has(k))).sort();
  if (common.length === 0) return null;
  const k = common.at(-1)!;
  const date = maps[0].get(k)!.date;
  return { frequency: to, period: k, date, values: views.map((v, i) => ({ place: v.place, value: maps[i].get(k)!.value })), newest };
}

/** The places' newest values when they differ from the compared period ("Newest values: Texas 3.9% in 2018; …"). */
export function newestNote(views: readonly View[], comparedDate: string | null): string {
  const newest = views.map((v) => ({ v, p: valued(v.points).at(-1) })).filter((x) => x.p && x.p.date !== comparedDate);
  if (newest.length === 0) return "";
  return `Newest values: ${newest.map((x) => `${x.v.place} ${fmt(x.v, x.p!.value)} ${atDate(x.p!.date, x.v.frequency)}`).join("; ")}.`;
}

/** "Is unemployment higher in Texas or California?": the comparison at one period, the higher named first. */
export function compareLead(views: readonly View[], dir: Direction | null, yesNo: boolean): Lead & { date: string | null } {
  const same = samePeriod(views);
  const label = views[0].label;
  if (!same) {
    const parts = views.map((v) => `${v.place} ${valued(v.points).length ? `to ${formatDate(valued(v.points).at(-1)!.date, v.frequency)}` : "none"}`);
    return { text: `No period has values of ${label} for all of ${views.map((v) => v.place).join(", ")} (held: ${parts.join("; ")}), so they are not compared.`, figures: {}, date: null };
  }
  const when = atDate(same.date, same.frequency);
  const sorted = same.values.map((c, i) => ({ ...c, view: views[i] })).sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  const d = decimalsOf(same.values.map((c) => c.value!));
  const show = (v: View, x: number) => formatValue(x, v.unit, d);
  const figures: Record<string, number | string> = { period: same.period };
  sorted.forEach((s, i) => (figures[`value_${i + 1}`] = s.value!));
  if (views.length === 2) {
    const [hi, lo] = sorted;
    const equal = hi.value === lo.value;
    const asked = dir === "min" ? lo : hi;
    const yes = yesNo && dir ? (asked.place === views[0].place ? "Yes: " : "No: ") : "";
    const lead = yes ? label : capitalise(label);
    if (equal) return { text: `${yes}${lead} ${was(label)} the same in ${hi.place} and ${lo.place} ${when}: ${show(hi.view, hi.value!)}.`, figures, date: same.date };
    return { text: `${yes}${lead} ${was(label)} higher in ${hi.place} (${show(hi.view, hi.value!)}) than in ${lo.place} (${show(lo.view, lo.value!)}) ${when}.`, figures, date: same.date };
  }
  return { text: `${capitalise(label)} ${when}, highest first: ${sorted.map((s) => `${s.place} ${show(s.view, s.value!)}`).join(", ")}.`, figures, date: same.date };
}

/** A peer beside a place (a briefing's nation beside a state): at the same period, or said to have none. */
export function peerSentence(main: View, peer: View): Lead {
  const same = samePeriod([main, peer]);
  if (!same) {
    const at = valued(main.points).at(-1);
    const newest = valued(peer.points).at(-1);
    if (!at || !newest) return { text: "", figures: {} };
    return {
      text: `${capitalise(peer.place)} has no value of ${peer.label} for ${formatDate(at.date, main.frequency)} to set beside ${main.place}'s; its newest is ${fmt(peer, newest.value)} ${atDate(newest.date, peer.frequency)}.`,
      figures: { peer_newest: newest.value, peer_date: newest.date },
    };
  }
  const [m, p] = same.values;
  const d = decimalsOf([m.value!, p.value!]);
  return { text: `For comparison ${atDate(same.date, same.frequency)}, ${peer.label} ${was(peer.label)} ${formatValue(p.value!, peer.unit, d)} in ${peer.place} and ${formatValue(m.value!, main.unit, d)} in ${main.place}.`, figures: { peer: p.value!, main: m.value!, period: same.period } };
}

/**
 * "Are wages keeping up with inflation?": two 12-month changes at the newest month both have, the faster named, and
 * yes when the first series asked about grew at least as fast as the second.
 */
export function growthRace(a: View, b: View): Lead | null {
  const ya = yoySeries(a);
  const yb = yoySeries(b);
  if (!ya || !yb) return null;
  const common = ya.filter((p) => yb.some((q) => q.date === p.date)).at(-1);
  if (!common) return null;
  const pa = round(common.value, 1);
  const pb = round(yb.find((q) => q.date === common.date)!.value, 1);
  const when = formatDate(common.date, a.frequency);
  const nameB = b.growthLabel ?? `${b.label}`;
  const ahead = pa >= pb;
  return {
    text: `${ahead ? "Yes" : "No"}: in the 12 months to ${when}, ${a.label} grew ${formatPercent(pa)}, ${pa === pb ? "as fast as" : ahead ? "faster than" : "slower than"} ${nameB} (${formatPercent(pb)}).`,
    figures: { first: pa, second: pb, date: common.date, months: 12 },
  };
}
