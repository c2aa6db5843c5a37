// What the ask answer rules read (answer-rules.ts): the data interface, dates, the series a spec names at a place
// (concepts resolved by the catalog's rule), 12-month changes and the named episodes. Plain arithmetic, no I/O.
import { CONCEPTS, type RegionKind } from "../../src/domain/concepts";

export type Obs = { date: string; value: number };
export type Place = { code: string; name: string; kind: string; parent: string | null };
export type FlowRow = {
  origin: string;
  destination: string;
  measure: string;
  dataset: string;
  periodStart: string;
  periodEnd: string;
  value: number;
};

/** What the rules read. Observations ascending by date, latest vintage, no missing values. */
export interface AskData {
  series(code: string, region: string): Promise<Obs[]>;
  /** The series' last three years (before the newest date it holds anywhere) at every place of a kind (within a parent
   * region), by place code; places without it are absent. */
  panel(code: string, kind: string, parent?: string): Promise<Map<string, Obs[]>>;
  place(code: string): Promise<Place | null>;
  places(kind: string, parent?: string): Promise<Place[]>;
  unit(code: string): Promise<string | null>;
  /** Non-suppressed flow rows leaving (`out`) or entering (`in`) a region, every dataset and period. */
  flows(region: string, direction: "out" | "in"): Promise<FlowRow[]>;
}

// ---- dates and series ---------------------------------------------------------------------------------------------
export const monthBack = (date: string, n: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 10);
};
const dayBack = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
export const at = (s: Obs[], date: string) => s.find((o) => o.date === date)?.value;
/** The value `months` before `date`: that date exactly, else (daily and weekly series) the nearest earlier within 6 days. */
export function valueBack(s: Obs[], date: string, months: number): number | undefined {
  const target = monthBack(date, months);
  const floor = dayBack(target, 6);
  for (let i = s.length - 1; i >= 0; i--) if (s[i].date <= target) return s[i].date >= floor ? s[i].value : undefined;
  return undefined;
}
/** A period argument: `12m`, `3m`, `1q`, `1y` (or a bare month count) in months. */
export const periodMonths = (arg: string) => {
  const m = /^(\d+)([mqy]?)$/.exec(arg);
  if (!m) throw new Error(`bad period ${arg}`);
  return Number(m[1]) * ({ "": 1, m: 1, q: 3, y: 12 } as const)[m[2] as "" | "m" | "q" | "y"];
};
/** A date argument: YYYY (an annual period), YYYY-MM or YYYY-MM-DD. */
export const dateArg = (arg: string) => (arg.length === 4 ? `${arg}-01-01` : arg.length === 7 ? `${arg}-01` : arg);
export const pctChange = (now: number | undefined, then: number | undefined) =>
  now === undefined || then === undefined || then === 0 ? undefined : (now / then - 1) * 100;
export const yoySeries = (s: Obs[]): Obs[] =>
  s.flatMap((o) => {
    const y = pctChange(o.value, at(s, monthBack(o.date, 12)));
    return y === undefined ? [] : [{ date: o.date, value: y }];
  });

export type Spec = { base: string; yoy: boolean };
export const parseSpec = (text: string): Spec => {
  const m = /^yoy\((.+)\)$/.exec(text);
  return m ? { base: m[1], yoy: true } : { base: text, yoy: false };
};
const isConcept = (code: string) => Object.hasOwn(CONCEPTS, code) && CONCEPTS[code].type === "series";

/** The catalog code a spec reads at a place: the code itself, or the concept's freshest curated series held there. */
export async function codeAt(data: AskData, base: string, region: string, kind?: string): Promise<string | null> {
  if (!isConcept(base)) return base;
  const concept = CONCEPTS[base];
  if (concept.type !== "series") return null;
  const k = (kind ?? (await data.place(region))?.kind) as RegionKind | undefined;
  let best: { code: string; last: string } | null = null;
  for (const c of (k && concept.levels[k]) || []) {
    const last = (await data.series(c.indicator, region)).at(-1)?.date;
    if (last && (!best || last > best.last)) best = { code: c.indicator, last };
  }
  return best?.code ?? null;
}
export async function seriesOf(data: AskData, spec: Spec, region: string): Promise<Obs[]> {
  const code = await codeAt(data, spec.base, region);
  const s = code ? await data.series(code, region) : [];
  return spec.yoy ? yoySeries(s) : s;
}
/** A rate, share or spread (its change is a difference in points, never a percent change). */
export async function isRate(data: AskData, spec: Spec, region: string): Promise<boolean> {
  if (spec.yoy) return true;
  const code = await codeAt(data, spec.base, region);
  return /^(percent|percentage points)\b/.test((code && (await data.unit(code))) ?? "");
}

// ---- episodes -----------------------------------------------------------------------------------------------------
/**
 * Named episodes. A recession is a run of months the NBER indicator (USREC) marks 1, read from the stored data; the
 * early-1980s recessions are the span from the 1980 run to the end of the 1981-82 one. After a recession a lagging
 * series (unemployment, payrolls) still moves: any margin of 6 to 24 months after its last month is accepted, so each
 * recession gives several windows. The 2021-22 inflation surge is the two calendar years, no margin.
 */
const EPISODES: Record<string, { from: string; through?: string } | { fixed: [string, string] }> = {
  early1980s: { from: "1980-04-01", through: "1982-06-01" },
  great_recession: { from: "2008-12-01" },
  covid: { from: "2020-04-01" },
  surge2021: { fixed: ["2021-01-01", "2022-12-31"] },
};
export const EPISODE_MARGINS = [6, 12, 18, 24];
const monthAhead = (date: string, n: number) => monthBack(date, -n);

export async function episodeWindows(data: AskData, episode: string): Promise<[string, string][]> {
  if (episode === "all") return [["0000-01-01", "9999-12-31"]];
  const e = EPISODES[episode];
  if (!e) throw new Error(`unknown episode ${episode}`);
  if ("fixed" in e) return [e.fixed];
  const usrec = await data.series("USREC", "US");
  const runOf = (month: string) => {
    const i = usrec.findIndex((o) => o.date === month && o.value === 1);
    if (i < 0) return null;
    let [a, b] = [i, i];
    while (a > 0 && usrec[a - 1].value === 1) a--;
    while (b < usrec.length - 1 && usrec[b + 1].value === 1) b++;
    return [usrec[a].date, usrec[b].date] as const;
  };
  const first = runOf(e.from);
  const last = runOf(e.through ?? e.from);
  if (!first || !last) return [];
  return EPISODE_MARGINS.map((m) => [first[0], monthAhead(last[1], m)]);
}
/** The extreme of a series within each window of an episode (distinct answers only). */
export async function episodeExtremes(data: AskData, s: Obs[], episode: string, dir: "max" | "min"): Promise<Obs[]> {
  const out: Obs[] = [];
  for (const [from, to] of await episodeWindows(data, episode)) {
    const inside = s.filter((o) => o.date >= from && o.date <= to);
    if (inside.length === 0) continue;
    const best = inside.reduce((a, b) => ((dir === "max" ? b.value > a.value : b.value < a.value) ? b : a));
    if (!out.some((o) => o.date === best.date)) out.push(best);
  }
  return out;
}
