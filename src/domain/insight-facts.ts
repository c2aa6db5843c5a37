// How each insight fact is built from a series' window, as insights.ts defines it: the fact, its typed params, its
// template and text, and its salience. Pure.
import { linearRegression } from "simple-statistics";
import { dayNumber } from "./calendar";
import { formatDate, formatPercent, ordinal, periodNoun, toneOf, type Direction, type Tone } from "./prose";
import { clean, robustScale } from "./robust";
import { fact, type Ctx, type FactKind, type InsightFact, type PeerValues } from "./insight-context";

export const TREND_MIN_R2 = 0.1;
export const DAYS_PER_YEAR = 365.2425;
const MIN_MOVES_TO_JUDGE = 5;
const UNUSUAL_MOVE_Z = 3.5;

const cred = (n: number) => n / (n + 5);

function pct(x: number, base: number): number | null {
  return base > 0 ? clean(((x - base) / base) * 100) : null;
}

const directionOf = (dx: number): Direction | "flat" => (dx > 0 ? "up" : dx < 0 ? "down" : "flat");
const toneFor = (dir: Direction | "flat", upIsGood: boolean | null): Tone =>
  toneOf(dir === "flat" ? null : dir, upIsGood);

export function trendFact(c: Ctx): InsightFact {
  const t0 = dayNumber(c.pts[0].date);
  const xy = c.pts.map((p) => [(dayNumber(p.date) - t0) / DAYS_PER_YEAR, p.value]);
  const { m, b } = linearRegression(xy);
  const mean = c.pts.reduce((a, p) => a + p.value, 0) / c.n;
  let ssRes = 0;
  let ssTot = 0;
  for (const [x, y] of xy) {
    ssRes += (y - (m * x + b)) ** 2;
    ssTot += (y - mean) ** 2;
  }
  const r2 = ssTot === 0 ? 0 : Math.max(0, 1 - ssRes / ssTot);
  let percentPerYear: number | null = null;
  if (!c.rate && c.pts.every((p) => p.value > 0)) {
    const fit = linearRegression(xy.map(([x, y]) => [x, Math.log(y)]));
    percentPerYear = clean((Math.exp(fit.m) - 1) * 100);
  }
  const direction: Direction | "flat" = r2 < TREND_MIN_R2 || m === 0 ? "flat" : m > 0 ? "up" : "down";
  const tone = toneFor(direction, c.s.upIsGood);
  const params = {
    subject: c.subject,
    method: "ordinary least squares of value on time in years",
    direction,
    slope_per_year: clean(m),
    percent_per_year: percentPerYear,
    r_squared: clean(r2),
    observations: c.n,
    start_date: c.pts[0].date,
    end_date: c.latest.date,
    period: c.period,
    tone,
  };
  const display = {
    subject: c.subject,
    slope_per_year: c.d(m),
    percent_per_year: percentPerYear === null ? "" : formatPercent(Math.abs(percentPerYear)),
    r_squared: r2.toFixed(2),
    observations: String(c.n),
    frequency: c.s.frequency,
    period: c.period,
    assessment: tone === "positive" ? ", an improving trend" : tone === "negative" ? ", a worsening trend" : "",
  };
  const how = "(least-squares fit over {observations} {frequency} observations, R² {r_squared})";
  const template =
    direction === "flat"
      ? `{subject} has shown no clear trend {period} ${how}.`
      : percentPerYear !== null
        ? `{subject} has ${direction === "up" ? "grown" : "declined"} by about {percent_per_year} a year {period} ({slope_per_year} a year){assessment} ${how}.`
        : `{subject} has ${direction === "up" ? "risen" : "fallen"} by about {slope_per_year} a year {period}{assessment} ${how}.`;
  return fact("trend", params, template, display, 0.6 * r2 * cred(c.n));
}

export function latestDeltaFact(c: Ctx): InsightFact {
  const prev = c.pts[c.n - 2];
  const change = clean(c.latest.value - prev.value);
  const moves: number[] = [];
  for (let i = 1; i < c.n - 1; i++) moves.push(c.pts[i].value - c.pts[i - 1].value);
  const scale = moves.length >= MIN_MOVES_TO_JUDGE ? robustScale(moves) : null;
  const z = scale ? clean((change - scale.centre) / scale.scale) : null;
  // A rate or a computed change is never given a percent change, in the text or the params.
  const changePercent = c.rate ? null : pct(c.latest.value, prev.value);
  const direction = directionOf(change);
  const params = {
    subject: c.subject,
    date: c.latest.date,
    value: c.latest.value,
    previous_date: prev.date,
    previous_value: prev.value,
    change,
    change_percent: changePercent,
    direction,
    robust_z: z,
    tone: toneFor(direction, c.s.upIsGood),
  };
  const display = {
    subject: c.subject,
    date: c.at(c.latest.date),
    value: c.v(c.latest.value),
    previous_date: c.at(prev.date),
    previous_value: c.v(prev.value),
    change: c.d(change),
    change_percent: changePercent === null ? "" : formatPercent(Math.abs(changePercent)),
    unusual:
      z !== null && Math.abs(z) >= UNUSUAL_MOVE_Z
        ? `, an unusually large move for this series (${Math.abs(z).toFixed(1)} times its typical deviation)`
        : "",
  };
  const verb = direction === "up" ? "rose" : "fell";
  const template =
    direction === "flat"
      ? "{subject} was unchanged at {value} {date}."
      : !c.rate && changePercent !== null
        ? `{subject} ${verb} {change_percent} ({change}) to {value} {date}, from {previous_value} {previous_date}{unusual}.`
        : `{subject} ${verb} {change} to {value} {date}, from {previous_value} {previous_date}{unusual}.`;
  const salience = z === null ? 0.1 : 1 / (1 + Math.exp(-1.5 * (Math.abs(z) - 2)));
  return fact("latest_delta", params, template, display, salience);
}

export function watermarkFact(c: Ctx, side: "high" | "low"): InsightFact {
  const better = side === "high" ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
  let mark = c.pts[0];
  for (const p of c.pts) if (better(p.value, mark.value)) mark = p;
  const others = c.n - 1;
  let beyond = 0;
  for (let i = 0; i < others; i++) if (better(c.latest.value, c.pts[i].value)) beyond++;
  const q = others > 0 ? beyond / others : 0;
  const atMark = c.latest.value === mark.value;
  const distance = clean(Math.abs(c.latest.value - mark.value));
  const distancePercent = !c.rate && mark.value > 0 ? clean((distance / mark.value) * 100) : null;
  // A value at the window's extreme is the worst or best reading when the indicator has a polarity.
  const tone = atMark ? toneOf(side === "high" ? "up" : "down", c.s.upIsGood) : "neutral";
  const kind: FactKind = side === "high" ? "watermark_high_distance" : "watermark_low_distance";
  const params = {
    subject: c.subject,
    value: c.latest.value,
    date: c.latest.date,
    [side]: mark.value,
    [`${side}_date`]: mark.date,
    distance,
    distance_percent: distancePercent,
    at_extreme: atMark,
    new_extreme: atMark && mark.date === c.latest.date,
    share_beyond: clean(q),
    period: c.period,
    tone,
  };
  const display = {
    subject: c.subject,
    value: c.v(c.latest.value),
    date: c.at(c.latest.date),
    [side]: c.v(mark.value),
    [`${side}_date`]: c.at(mark.date),
    distance: c.d(distance),
    distance_percent: distancePercent === null ? "" : ` (${formatPercent(distancePercent)})`,
    period: c.period,
    assessment:
      tone === "positive"
        ? ": the best reading in that time"
        : tone === "negative"
          ? ": the worst reading in that time"
          : "",
  };
  const word = side === "high" ? "highest" : "lowest";
  const template = !atMark
    ? `{subject}, at {value} {date}, is {distance}{distance_percent} ${side === "high" ? "below" : "above"} the ${word} reading {period}, {${side}} {${side}_date}.`
    : mark.date === c.latest.date
      ? `{subject}, at {value} {date}, is at its ${word} {period}{assessment}.`
      : `{subject}, at {value} {date}, matches its ${word} {period}, first reached {${side}_date}{assessment}.`;
  return fact(kind, params, template, display, q ** 4 * cred(c.n));
}

type Run = { length: number; direction: Direction; start: string; end: string };

export function longestRunFact(c: Ctx): InsightFact {
  let longest = null as Run | null;
  let cur = null as Run | null;
  for (let i = 1; i < c.n; i++) {
    const dir = directionOf(c.pts[i].value - c.pts[i - 1].value);
    if (dir === "flat") cur = null;
    else {
      const prev: Run | null = cur;
      cur =
        prev && prev.direction === dir
          ? { length: prev.length + 1, direction: dir, start: prev.start, end: c.pts[i].date }
          : { length: 1, direction: dir, start: c.pts[i].date, end: c.pts[i].date };
    }
    // `>=`: on a tie the most recent run is the longest.
    if (cur && (!longest || cur.length >= longest.length)) longest = cur;
  }
  const current = cur && cur.end === c.latest.date ? cur : null;
  const isCurrent = !!longest && !!current && longest.start === current.start;
  const unit = periodNoun(c.s.frequency);
  const params = {
    subject: c.subject,
    longest_length: longest?.length ?? 0,
    longest_direction: longest?.direction ?? null,
    longest_start: longest?.start ?? null,
    longest_end: longest?.end ?? null,
    current_length: current?.length ?? 0,
    current_direction: current?.direction ?? null,
    current_is_longest: isCurrent,
    period: c.period,
    tone: current ? toneOf(current.direction, c.s.upIsGood) : "neutral",
  };
  const display = {
    subject: c.subject,
    longest_length: String(longest?.length ?? 0),
    longest_start: longest ? formatDate(longest.start, c.s.frequency) : "",
    longest_end: longest ? formatDate(longest.end, c.s.frequency) : "",
    current_length: String(current?.length ?? 0),
    current_start: current ? formatDate(current.start, c.s.frequency) : "",
    latest_date: formatDate(c.latest.date, c.s.frequency),
    period: c.period,
  };
  const plural = periodNoun(c.s.frequency, 2);
  const moves = (d: Direction, n: number) => `${d === "up" ? "rise" : "fall"}${n === 1 ? "" : "s"}`;
  const verb = (d: Direction) => (d === "up" ? "risen" : "fallen");
  let template: string;
  if (!longest) template = "{subject} has not changed {period}.";
  else if (isCurrent && longest.length === 1)
    template = `{subject} has not risen or fallen two ${plural} in a row {period}.`;
  else if (isCurrent) {
    template = `{subject} has ${verb(longest.direction)} for {current_length} consecutive ${plural}, from {current_start} to {latest_date}: its longest run of ${moves(longest.direction, 2)} {period}.`;
  } else {
    const now = !current
      ? "{subject} was unchanged in the latest reading"
      : current.length === 1
        ? `{subject} has ${verb(current.direction)} in the latest ${unit}`
        : `{subject} has ${verb(current.direction)} for {current_length} ${plural} in a row`;
    const span = longest.length === 1 ? "in {longest_start}" : "from {longest_start} to {longest_end}";
    template = `${now}; its longest run {period} was {longest_length} consecutive ${moves(longest.direction, longest.length)}, ${span}.`;
  }
  const len = isCurrent ? longest!.length : (longest?.length ?? 0);
  const base = len > 2 ? 1 - 0.5 ** (len - 2) : 0;
  return fact("longest_run", params, template, display, (isCurrent ? 1 : 0.2) * base * cred(c.n));
}

export function peerRankFact(c: Ctx, peers: PeerValues): InsightFact | null {
  const N = peers.values.length;
  const own = peers.values.find((p) => p.region === peers.region);
  if (N < 2 || !own || peers.date !== c.latest.date) return null;
  const higher = peers.values.filter((p) => p.value > own.value).length;
  const lower = peers.values.filter((p) => p.value < own.value).length;
  const tied = N - higher - lower > 1;
  // Competition ranking from the nearer end: "3rd highest" or "2nd lowest".
  const fromTop = higher + 1;
  const fromBottom = lower + 1;
  const position: "highest" | "lowest" = fromTop <= fromBottom ? "highest" : "lowest";
  const rank = position === "highest" ? fromTop : fromBottom;
  const e = 1 - (2 * Math.min(fromTop - 1, N - fromTop)) / (N - 1);
  const tone = rank === 1 ? toneOf(position === "highest" ? "up" : "down", c.s.upIsGood) : "neutral";
  const params = {
    subject: c.subject,
    value: own.value,
    date: peers.date,
    rank_from_top: fromTop,
    rank,
    position,
    of: N,
    peers: peers.noun,
    tied,
    tone,
  };
  const display = {
    subject: c.subject,
    value: c.v(own.value),
    date: c.at(peers.date),
    rank: `${tied ? "tied for " : ""}the ${rank === 1 ? "" : `${ordinal(rank)} `}${position}`,
    of: String(N),
    peers: peers.noun,
    assessment: tone === "positive" ? ": the best among them" : tone === "negative" ? ": the worst among them" : "",
  };
  const template = "{subject}, at {value}, was {rank} among {peers} {date}{assessment}.";
  return fact("peer_rank", params, template, display, e ** 4 * cred(N));
}
