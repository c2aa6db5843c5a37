// Places and series side by side (pure), like with like: a comparison of places at one period, a peer beside a place
// (a briefing's nation beside a state), two growth rates raced ("are wages keeping up with inflation").
// - compare: the places' values at the same period (the newest they all have, at the coarsest frequency, averaged
//   over complete periods); a place with no value for that period is said to have none, never paired with another period.
// - growthRace: the two series' growth (growthSeries: what their values allow, value-kinds.ts) at the newest month both have.
import type { Frequency } from "../calendar";
import { atDate, capitalise, decimalsOf, formatDate, formatPercent, formatValue } from "../prose";
import type { Direction } from "./intent";
import { fmt, growthSeries, round, valued, was, type Lead, type View } from "./lead";
const COARSENESS: Frequency[] = ["daily", "weekly", "monthly", "quarterly", "annual"];
const BUCKET: Record<string, (d: string) => string> = {
  monthly: (d) => d.slice(0, 7),
  quarterly: (d) => `${d.slice(0, 5)}Q${Math.floor((Number(d.slice(5, 7)) - 1) / 3) + 1}`,
  annual: (d) => d.slice(0, 4),
};
const PER_BUCKET: Record<string, Record<string, number>> = {
  monthly: { monthly: 1, quarterly: 3, annual: 12 },
  quarterly: { quarterly: 1, annual: 4 },
  annual: { annual: 1 },
};

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
  for (const [k, b] of out)
    if (b.n >= need) done.set(k, { date: b.date, value: need === 1 ? b.value : round(b.value / b.n, 2) });
  return done;
}

export type Compared = { place: string; value: number | null };

/** The places' values at the newest period they all have (see the file comment); null when no period is common. */
export function samePeriod(views: readonly View[]): {
  frequency: Frequency;
  period: string;
  date: string;
  values: Compared[];
  newest: { place: string; date: string }[];
} | null {
  const coarsest = views
    .map((v) => v.frequency)
    .reduce((a, b) => (COARSENESS.indexOf(b) > COARSENESS.indexOf(a) ? b : a));
  const to: Frequency = coarsest === "daily" || coarsest === "weekly" ? "monthly" : coarsest;
  const maps = views.map((v) => byPeriod(v, to));
  const newest = views.map((v) => ({ place: v.place, date: valued(v.points).at(-1)?.date ?? "" }));
  const common = [...maps[0].keys()].filter((k) => maps.every((m) => m.has(k))).sort();
  if (common.length === 0) return null;
  const k = common.at(-1)!;
  const date = maps[0].get(k)!.date;
  return {
    frequency: to,
    period: k,
    date,
    values: views.map((v, i) => ({ place: v.place, value: maps[i].get(k)!.value })),
    newest,
  };
}

/** The places' newest values when they differ from the compared period ("Newest values: Texas 3.9% in 2018; …"). */
export function newestNote(views: readonly View[], comparedDate: string | null): string {
  const newest = views.map((v) => ({ v, p: valued(v.points).at(-1) })).filter((x) => x.p && x.p.date !== comparedDate);
  if (newest.length === 0) return "";
  return `Newest values: ${newest.map((x) => `${x.v.place} ${fmt(x.v, x.p!.value)} ${atDate(x.p!.date, x.v.frequency)}`).join("; ")}.`;
}

/** "Is unemployment higher in Texas or California?": the comparison at one period, the higher named first. */
export function compareLead(
  views: readonly View[],
  dir: Direction | null,
  yesNo: boolean,
): Lead & { date: string | null } {
  const same = samePeriod(views);
  const label = views[0].label;
  if (!same) {
    const parts = views.map(
      (v) =>
        `${v.place} ${valued(v.points).length ? `to ${formatDate(valued(v.points).at(-1)!.date, v.frequency)}` : "none"}`,
    );
    return {
      text: `No period has values of ${label} for all of ${views.map((v) => v.place).join(", ")} (held: ${parts.join("; ")}), so they are not compared.`,
      figures: {},
      date: null,
    };
  }
  const when = atDate(same.date, same.frequency);
  const sorted = same.values.map((c, i) => ({ ...c, view: views[i] })).sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
  // A published change reads to two decimals at most (7.57%), as its own lead does.
  const d = Math.min(
    views.some((v) => v.values.kind === "change") ? 2 : 3,
    decimalsOf(same.values.map((c) => c.value!)),
  );
  const show = (v: View, x: number) => formatValue(Number(x.toFixed(d)), v.unit, d);
  const figures: Record<string, number | string> = { period: same.period };
  sorted.forEach((s, i) => (figures[`value_${i + 1}`] = s.value!));
  if (views.length === 2) {
    const [hi, lo] = sorted;
    const equal = hi.value === lo.value;
    const asked = dir === "min" ? lo : hi;
    // Equal is neither higher nor lower: "is A higher than B" is no.
    const yes = yesNo && dir ? (asked.place === views[0].place && !equal ? "Yes: " : "No: ") : "";
    const lead = yes ? label : capitalise(label);
    if (equal)
      return {
        text: `${yes}${lead} ${was(label)} the same in ${hi.place} and ${lo.place} ${when}: ${show(hi.view, hi.value!)}.`,
        figures,
        date: same.date,
      };
    return {
      text: `${yes}${lead} ${was(label)} higher in ${hi.place} (${show(hi.view, hi.value!)}) than in ${lo.place} (${show(lo.view, lo.value!)}) ${when}.`,
      figures,
      date: same.date,
    };
  }
  return {
    text: `${capitalise(label)} ${when}, highest first: ${sorted.map((s) => `${s.place} ${show(s.view, s.value!)}`).join(", ")}.`,
    figures,
    date: same.date,
  };
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
  return {
    text: `For comparison ${atDate(same.date, same.frequency)}, ${peer.label} ${was(peer.label)} ${formatValue(p.value!, peer.unit, d)} in ${peer.place} and ${formatValue(m.value!, main.unit, d)} in ${main.place}.`,
    figures: { peer: p.value!, main: m.value!, period: same.period },
  };
}

/**
 * "Are wages keeping up with inflation?": two 12-month changes at the newest month both have, the faster named, and
 * yes when the first series asked about grew at least as fast as the second.
 */
export function growthRace(a: View, b: View): Lead | null {
  const ya = growthSeries(a);
  const yb = growthSeries(b);
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
