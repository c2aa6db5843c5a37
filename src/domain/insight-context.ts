// What an insight fact is made of and made from (insights.ts defines each fact): its kinds and shape, the series and
// the peers it reads, and the context every fact's builder reads (the window's valued points, and how values, changes
// and dates are said). Pure.
import type { Frequency } from "./calendar";
import { atDate, decimalsOf, formatChange, formatDate, formatValue, renderTemplate, seriesSubject } from "./prose";
import type { Point } from "./series";
import { formatWindow, windowSpanPhrase, type Window } from "./window";
import { inferValueSpec, percentChangeApplies, type ValueSpec } from "./value-kinds";

export const FACT_KINDS = [
  "trend",
  "latest_delta",
  "watermark_high_distance",
  "watermark_low_distance",
  "longest_run",
  "peer_rank",
] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export type InsightFact = {
  kind: FactKind;
  params: Record<string, unknown>;
  humanTemplate: string;
  text: string;
  salience: number;
};

/** What the facts are about. `place` is the region as prose names it ("Texas", "the United States"). */
export type InsightSeries = {
  points: readonly Point[];
  frequency: Frequency;
  unit: string | null;
  upIsGood: boolean | null;
  indicatorName: string;
  place: string;
  /** What the values are (the catalog's meta.values); read from the unit when not given. */
  values?: ValueSpec;
};

/** Values of the peer regions (the region itself included) on one date; `noun` names them all: "the 50 states and DC". */
export type PeerValues = {
  date: string;
  region: string;
  noun: string;
  values: readonly { region: string; value: number }[];
};

export type Valued = { date: string; value: number };
export type Ctx = {
  s: InsightSeries;
  pts: Valued[];
  n: number;
  latest: Valued;
  decimals: number;
  rate: boolean;
  subject: string;
  /** "since the series began in January 2000" / "over the past 5 years". */
  period: string;
  window: string;
  /** Value as people read it. */
  v: (x: number) => string;
  d: (x: number) => string;
  at: (date: string) => string;
};

/** Salience kept to 0..1, at 3 decimals. */
const round3 = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

export function context(s: InsightSeries, window: Window, pts: Valued[]): Ctx {
  const decimals = decimalsOf(pts.map((p) => p.value));
  return {
    s,
    pts,
    n: pts.length,
    latest: pts[pts.length - 1],
    decimals,
    // Percent changes only of a level or an index: a rate moves in points, a computed change is not changed again.
    rate: !percentChangeApplies(s.values ?? inferValueSpec(s.unit)),
    subject: seriesSubject(s.indicatorName, s.place),
    period:
      window.kind === "all" ? `since ${formatDate(pts[0].date, s.frequency)}` : `over ${windowSpanPhrase(window)}`,
    window: formatWindow(window),
    v: (x) => formatValue(x, s.unit, decimals),
    d: (x) => formatChange(x, s.unit, decimals),
    at: (date) => atDate(date, s.frequency),
  };
}

export function fact(
  kind: FactKind,
  params: Record<string, unknown>,
  template: string,
  display: Record<string, string>,
  salience: number,
): InsightFact {
  return { kind, params, humanTemplate: template, text: renderTemplate(template, display), salience: round3(salience) };
}
