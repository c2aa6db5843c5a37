// Signals (spec "Signal (interval)", "Signal interval" state table): detected intervals of type acceleration,
// extreme or trend_break, built from the detectors' verdicts on each observation (signal-detectors.ts).
//
// The interval state machine, per series and type, over the observations in date order:
// - an interval opens at the first observation where the condition holds (valid_from = its date);
// - it stays open (valid_to null) while the condition holds in the same direction;
// - when the condition stops holding, it closes: valid_to = the date of the first observation where it no longer
//   holds;
// - when the direction flips, it closes at the flip and a new interval, in the new direction, opens at the same date.
// So `valid_from` is always the start of the current run, and an interval still holding at the latest observation
// is open. An interval's strength is the strongest its run reached; its evidence is that of its strongest
// observation (the latest of equals), plus `last_date`, the latest observation that confirmed it. The same data
// always give the same intervals: re-detection on unchanged data is a no-op for the store (services/signals.ts).
//
// Contradictions: one series never has two open intervals pointing opposite ways (an extreme jump up beside a trend
// bending down). Precedence: extreme, then trend_break, then acceleration (the reading of the newest observation
// itself before the reading of its trend, before the reading of the trend's pace); the open interval that yields is
// closed at the newest observation (valid_to = its last_date) and names the one that prevailed in
// evidence.superseded_by. Same-direction intervals of different types agree and stay open together.
//
// Vocabulary: a glyph per type and direction, and a label and tone that account for the indicator's polarity
// (prose.ts toneOf): rising unemployment is bad news, rising employment good. The named rules (Sahm, yield-curve
// inversion) are recession warnings whatever the series' polarity. Words match strength: the intense words of an
// extreme ("Alarming jump", "Exceptional gain", "Sharp drop") are for strong intervals only; weak and neutral ones
// read "Unusual ...".
import type { Frequency } from "./calendar";
import {
  atDate,
  capitalise,
  decimalsOf,
  formatChange,
  formatDate,
  formatPercent,
  formatSignedChange,
  formatValue,
  indicatorPhrase,
  periodNoun,
  toneOf,
  type Direction,
  type Tone,
} from "./prose";
import {
  accelerationStates,
  extremeStates,
  strengthRank,
  trendBreakStates,
  type SeriesProfile,
  type State,
  type StateSeries,
  type Strength,
  type Valued,
} from "./signal-detectors";
import { inversionStates, namedRuleFor, sahmStates, type NamedRule } from "./signal-rules";
import type { Point } from "./series";

export { STRENGTHS, strengthRank, type SeriesProfile, type Strength } from "./signal-detectors";

export const SIGNAL_TYPES = ["acceleration", "extreme", "trend_break"] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];

/** One detected interval, with dates (YYYY-MM-DD) of observations. */
export type Episode = {
  type: SignalType;
  direction: Direction;
  strength: Strength;
  validFrom: string;
  validTo: string | null;
  evidence: Record<string, unknown>;
};

/** Every interval the detectors find in the series, by type then date. */
export function detectEpisodes(points: readonly Point[], profile: SeriesProfile): Episode[] {
  const pts = points.filter((p): p is Point & Valued => p.value !== null && Number.isFinite(p.value));
  if (pts.length < 2) return [];
  // Log changes need positive levels; a series that reaches zero or below is judged in differences.
  const p = profile.additive || pts.some((x) => x.value <= 0) ? { ...profile, additive: true } : profile;
  // The data's own precision travels with the evidence, so sentences read values as the source publishes them.
  const decimals = decimalsOf(pts.map((x) => x.value));
  const out: Episode[] = [];
  for (const type of SIGNAL_TYPES)
    for (const e of intervalsFrom(type, statesFor(type, pts, p)))
      out.push({ ...e, evidence: { ...e.evidence, decimals } });
  return resolveContradictions(out);
}

/** Precedence of types when open intervals of one series contradict (file comment): lower wins. */
export const TYPE_PRECEDENCE: Record<SignalType, number> = { extreme: 0, trend_break: 1, acceleration: 2 };

/**
 * Closes every open interval that points against a prevailing open one of the same series (file comment). The
 * prevailing one: the first by type precedence, then strength, then the later start. Returns a new list (same order).
 */
export function resolveContradictions(episodes: readonly Episode[]): Episode[] {
  const open = episodes.filter((e) => e.validTo === null);
  if (open.length < 2 || open.every((e) => e.direction === open[0].direction)) return [...episodes];
  const winner = [...open].sort(
    (a, b) =>
      TYPE_PRECEDENCE[a.type] - TYPE_PRECEDENCE[b.type] ||
      strengthRank(b.strength) - strengthRank(a.strength) ||
      (a.validFrom < b.validFrom ? 1 : a.validFrom > b.validFrom ? -1 : 0),
  )[0];
  return episodes.map((e) =>
    e.validTo === null && e.direction !== winner.direction
      ? {
          ...e,
          validTo: String(e.evidence.last_date ?? e.validFrom),
          evidence: { ...e.evidence, superseded_by: winner.type },
        }
      : e,
  );
}

function statesFor(type: SignalType, pts: readonly Valued[], profile: SeriesProfile): StateSeries {
  const rule = namedRuleFor(profile, type);
  if (rule === "sahm_rule") return sahmStates(pts);
  if (rule === "yield_curve_inversion") return inversionStates(pts, profile.frequency);
  if (type === "extreme") return extremeStates(pts, profile);
  if (type === "acceleration") return accelerationStates(pts, profile);
  return trendBreakStates(pts, profile);
}

/** The state machine of the file comment, over one type's verdicts. */
export function intervalsFrom(type: SignalType, series: Pick<StateSeries, "dates" | "states">): Episode[] {
  const { dates, states } = series;
  const out: Episode[] = [];
  let open: { from: string; direction: Direction; peak: NonNullable<State>; last: string } | null = null;
  const close = (to: string | null) => {
    if (!open) return;
    out.push({
      type,
      direction: open.direction,
      strength: open.peak.strength,
      validFrom: open.from,
      validTo: to,
      evidence: { ...open.peak.evidence, last_date: open.last },
    });
    open = null;
  };
  for (let i = 0; i < dates.length; i++) {
    const s = states[i];
    if (open && (!s || s.direction !== open.direction)) close(dates[i]);
    if (!s) continue;
    if (!open) open = { from: dates[i], direction: s.direction, peak: s, last: dates[i] };
    else {
      open.last = dates[i];
      if (
        strengthRank(s.strength) > strengthRank(open.peak.strength) ||
        (s.strength === open.peak.strength && s.score >= open.peak.score)
      )
        open.peak = s;
    }
  }
  close(null);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary and prose

export type Vocabulary = { glyph: string; label: string; tone: Tone };

const GLYPH: Record<SignalType, Record<Direction, string>> = {
  acceleration: { up: "⇈", down: "⇊" },
  extreme: { up: "▲", down: "▼" },
  trend_break: { up: "↗", down: "↘" },
};

// Label by type, direction and tone (positive: good news for this indicator; negative: bad; neutral: no polarity).
// An extreme's label for weak and neutral strength; STRONG_EXTREME below for strong ones.
const LABEL: Record<SignalType, Record<Direction, Record<Tone, string>>> = {
  extreme: {
    up: { positive: "Unusual gain", negative: "Unusual jump", neutral: "Unusual rise" },
    down: { positive: "Unusual improvement", negative: "Unusual drop", neutral: "Unusual fall" },
  },
  acceleration: {
    up: { positive: "Growth picking up", negative: "Worsening faster", neutral: "Speeding up" },
    down: { positive: "Pressure easing", negative: "Growth slowing", neutral: "Slowing down" },
  },
  trend_break: {
    up: { positive: "Upturn", negative: "Turn for the worse", neutral: "Turned upward" },
    down: { positive: "Turn for the better", negative: "Downturn", neutral: "Turned downward" },
  },
};

const STRONG_EXTREME: Record<Direction, Record<Tone, string>> = {
  up: { positive: "Exceptional gain", negative: "Alarming jump", neutral: "Exceptional rise" },
  down: { positive: "Exceptional improvement", negative: "Sharp drop", neutral: "Exceptional fall" },
};

const RULE_LABEL: Record<NamedRule, string> = {
  sahm_rule: "Sahm rule recession signal",
  yield_curve_inversion: "Yield curve inverted",
};

export function vocabulary(
  e: Pick<Episode, "type" | "direction" | "strength" | "evidence">,
  upIsGood: boolean | null,
): Vocabulary {
  const { type, direction } = e;
  const rule = e.evidence.rule as NamedRule | undefined;
  if (rule && RULE_LABEL[rule]) return { glyph: GLYPH[type][direction], label: RULE_LABEL[rule], tone: "negative" };
  const tone = toneOf(direction, upIsGood);
  const label =
    type === "extreme" && e.strength === "strong" ? STRONG_EXTREME[direction][tone] : LABEL[type][direction][tone];
  return { glyph: GLYPH[type][direction], label, tone };
}

/** Salience of a signal in an insights response: its strength, on the facts' 0..1 scale. */
export const SIGNAL_SALIENCE: Record<Strength, number> = { weak: 0.4, neutral: 0.65, strong: 0.9 };

/** What a signal sentence names: the indicator and place, and the series' frequency and unit. */
export type SignalSubject = { indicatorName: string; place: string; frequency: Frequency; unit: string | null };

const num = (x: unknown) => (typeof x === "number" ? x : Number(x));

/**
 * The sentence of an interval, with "since <date>" from the current run's start when open, "from <date> to
 * <date>" when closed. Dates read at the frequency the detector worked at (monthly means for daily acceleration).
 */
export function signalText(e: Episode, s: SignalSubject): string {
  const ev = e.evidence;
  const what = `${indicatorPhrase(s.indicatorName)} in ${s.place}`;
  const f: Frequency = ev.span_frequency
    ? (ev.span_frequency as Frequency)
    : typeof ev.measure === "string" && /^monthly/.test(ev.measure)
      ? "monthly"
      : s.frequency;
  const when =
    e.validTo === null
      ? `since ${formatDate(e.validFrom, f)}`
      : `from ${formatDate(e.validFrom, f)} to ${formatDate(e.validTo, f)}`;
  // Values and moves at the data's precision (evidence.decimals); computed averages and growth rates with 2 decimals,
  // signed where they are compared.
  const decimals = typeof ev.decimals === "number" ? ev.decimals : 2;
  const v = (x: unknown) => formatValue(num(x), s.unit, decimals);
  const d = (x: unknown) => formatChange(num(x), s.unit, decimals);
  const signed = (x: unknown, percent: boolean) =>
    percent ? formatPercent(num(x)) : formatSignedChange(num(x), s.unit, Math.max(2, decimals));
  const open = e.validTo === null;
  if (ev.rule === "sahm_rule") {
    const m3 = formatValue(num(ev.three_month_average), s.unit, decimals + 1);
    const low = formatValue(num(ev.low_of_previous_12_months), s.unit, decimals + 1);
    return `The Sahm rule ${open ? "has signalled" : "signalled"} a recession ${when} for ${what}: at its peak the three-month average unemployment rate, ${m3}, was ${num(ev.statistic).toFixed(2)} percentage points above its low of the previous 12 months (${low}); the rule triggers at 0.50.`;
  }
  if (ev.rule === "yield_curve_inversion") {
    return `${capitalise(what)} ${open ? "has been" : "was"} inverted (below zero) ${when}; at its deepest it reached ${v(ev.statistic)} ${atDate(String(ev.deepest_date), s.frequency)}.`;
  }
  const label = vocabulary(e, null).label.toLowerCase();
  if (e.type === "extreme") {
    const move = ev.measure === "percent_change" ? formatPercent(Math.abs(num(ev.move))) : d(ev.move);
    const peak = String(ev.date ?? e.validFrom);
    return `${capitalise(label)} in ${what} ${when}: ${e.direction === "up" ? "up" : "down"} ${move} ${atDate(peak, s.frequency)} from ${v(ev.from_value)}, a robust z-score of ${num(ev.z).toFixed(1)} against the previous ${ev.baseline_moves} ${periodNoun(s.frequency)}-on-${periodNoun(s.frequency)} moves.`;
  }
  if (e.type === "acceleration") {
    const percent = ev.growth === "year_over_year_percent";
    const span = `${ev.span_periods} ${periodNoun(f, num(ev.span_periods))}`;
    const verb =
      e.direction === "up"
        ? open
          ? "has been speeding up"
          : "sped up"
        : open
          ? "has been slowing down"
          : "slowed down";
    const subject = percent ? `Growth in ${what}` : `The year-over-year change in ${what}`;
    return `${subject} ${verb} ${when}: it went from ${signed(ev.growth_before, percent)} to ${signed(ev.growth_now, percent)} over ${span} (robust z-score ${num(ev.z).toFixed(1)}).`;
  }
  const percent = /percent/.test(String(ev.measure));
  const bent = `${open ? "has bent" : "bent"} ${e.direction === "up" ? "upward" : "downward"}`;
  return `The trend of ${what} ${bent} ${when}${ev.turning_point ? ", a turning point" : ""}: its average ${String(ev.measure).replace(/ \(log\)$/, "")} went from ${signed(ev.mean_before, percent)} to ${signed(ev.mean_after, percent)} (PELT changepoint search).`;
}

/**
 * What an open interval of a series behind schedule adds to its sentence (src/domain/freshness.ts): it is open in the
 * data, but the data end long ago, so it is history, never news. Empty for a closed interval or a current series.
 */
export function staleNote(e: Episode, frequency: Frequency, current: boolean): string {
  if (e.validTo !== null || current) return "";
  const last = String(e.evidence.last_date ?? e.validFrom);
  return ` Its data end in ${formatDate(last, frequency)}, behind schedule for a ${frequency} series: not current news.`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reconciliation with the store

export type StoredEpisode = Episode & { id: string };
export type EpisodeChanges = {
  insert: Episode[];
  update: { id: string; episode: Episode }[];
  remove: string[];
  unchanged: number;
};

/** JSON with object keys sorted: equal values give equal text whatever order a store returned the keys in. */
export function stableJson(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(",")}}`;
}

/** evidence.withdrawn of an open interval that revised data no longer support. */
export const WITHDRAWN = "revised data no longer support it";

/**
 * What a store must do to hold exactly `computed` for one series: an interval is identified by its type and start;
 * one whose direction, strength, end or evidence changed is updated (an open interval extended by a new observation
 * always is: its evidence's last_date moved). One no longer found (revised data, a newer vintage): an open one is
 * closed at the last observation that had confirmed it and kept, marked evidence.withdrawn (it was announced as news,
 * so its withdrawal is shown, never silently erased); a closed one is removed (history as the data now tell it).
 * Unchanged data give no change at all.
 */
/** One series to detect: its observations, its catalog profile and the intervals stored for it. */
export type SeriesToDetect = { points: readonly Point[]; profile: SeriesProfile; stored: readonly StoredEpisode[] };

/**
 * What each series' store must do (reconcileEpisodes of what detectEpisodes finds), in the order given: a batch of
 * plain data in and out, so it may run on a worker thread (src/services/compute-tasks.ts) as well as here.
 */
export function detectSeriesChanges(batch: readonly SeriesToDetect[]): EpisodeChanges[] {
  return batch.map((s) => reconcileEpisodes(s.stored, detectEpisodes(s.points, s.profile)));
}

export function reconcileEpisodes(stored: readonly StoredEpisode[], computed: readonly Episode[]): EpisodeChanges {
  const key = (e: Episode) => `${e.type}|${e.validFrom}`;
  const byKey = new Map(stored.map((s) => [key(s), s]));
  const out: EpisodeChanges = { insert: [], update: [], remove: [], unchanged: 0 };
  const seen = new Set<string>();
  for (const e of computed) {
    const k = key(e);
    seen.add(k);
    const s = byKey.get(k);
    if (!s) out.insert.push(e);
    else if (
      s.direction !== e.direction ||
      s.strength !== e.strength ||
      s.validTo !== e.validTo ||
      stableJson(s.evidence) !== stableJson(e.evidence)
    ) {
      out.update.push({ id: s.id, episode: e });
    } else out.unchanged++;
  }
  for (const s of stored) {
    if (seen.has(key(s))) continue;
    if (s.evidence.withdrawn !== undefined) out.unchanged++;
    else if (s.validTo === null) {
      const { id, ...episode } = s;
      out.update.push({
        id,
        episode: {
          ...episode,
          validTo: String(s.evidence.last_date ?? s.validFrom),
          evidence: { ...s.evidence, withdrawn: WITHDRAWN },
        },
      });
    } else out.remove.push(s.id);
  }
  return out;
}
