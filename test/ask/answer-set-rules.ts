// Ask answer rules over sets of places (test/ask/README.md): rankings, top and bottom N, threshold filters, two places
// compared, migration flows in either direction and a county name several counties share. A set is read at one
// period, the newest held by at least half of its places, so every place is compared at the same date.
import { CONCEPTS, type RegionKind } from "../../src/domain/concepts";
import {
  at,
  parseSpec,
  seriesOf,
  yoySeries,
  type AskData,
  type FlowRow,
  type Obs,
  type Place,
  type Spec,
} from "./answer-data";
import { anyOf, escapeRegExp, firstSentence, mentions, named, namesIn, says, saysYear, type Why } from "./answer-text";

export const SET_RULES = new Set([
  "rank",
  "rankin",
  "topn",
  "above",
  "below",
  "higher",
  "flowout",
  "flowin",
  "flowtotal",
  "flowpair",
  "shared",
]);

/** Names a writer uses for a place: the catalog's, a county without "County", a country's short or common name. */
const COMMON_NAMES: Record<string, string[]> = {
  IR: ["Iran"],
  LA: ["Laos"],
  RU: ["Russia"],
  SY: ["Syria"],
  TR: ["Turkey", "Turkiye"],
  TZ: ["Tanzania"],
  CD: ["DR Congo", "Congo"],
  GB: ["UK", "Britain"],
  KP: ["North Korea"],
  KR: ["South Korea"],
  VE: ["Venezuela"],
  BO: ["Bolivia"],
  US: ["United States", "US", "U.S."],
};
export function placeNames(p: Place): string[] {
  const out = [p.name, ...(COMMON_NAMES[p.code] ?? [])];
  const bare = p.name.replace(/ (County|Parish|Borough|Census Area|City and Borough|Municipality|Municipio|city)$/, "");
  if (bare !== p.name) out.push(bare);
  if (p.kind === "country")
    for (const cut of [", ", " ("]) if (p.name.includes(cut)) out.push(p.name.slice(0, p.name.indexOf(cut)));
  return out;
}
const isNamed = (text: string, p: Place) => placeNames(p).some((n) => named(text, n));

/** The spec at every place of a kind: a code's own panel, or per place the freshest of a concept's series held there. */
async function across(data: AskData, spec: Spec, kind: string, parent?: string): Promise<Map<string, Obs[]>> {
  const concept = Object.hasOwn(CONCEPTS, spec.base) ? CONCEPTS[spec.base] : null;
  const codes =
    concept?.type === "series" ? (concept.levels[kind as RegionKind] ?? []).map((c) => c.indicator) : [spec.base];
  const out = new Map<string, Obs[]>();
  for (const code of codes)
    for (const [region, s] of await data.panel(code, kind, parent)) {
      const held = out.get(region);
      if (s.length && (!held || s.at(-1)!.date > held.at(-1)!.date)) out.set(region, s);
    }
  if (spec.yoy) for (const [region, s] of out) out.set(region, yoySeries(s));
  return out;
}
/** The newest date held by at least half of the places. */
export function commonPeriod(values: Map<string, Obs[]>): string | null {
  const count = new Map<string, number>();
  for (const s of values.values()) for (const o of s) count.set(o.date, (count.get(o.date) ?? 0) + 1);
  const dates = [...count]
    .filter(([, n]) => n * 2 >= values.size)
    .map(([d]) => d)
    .sort();
  return dates.at(-1) ?? null;
}
type Entry = { place: Place; value: number };
async function atCommonPeriod(
  data: AskData,
  spec: Spec,
  kind: string,
  parent?: string,
): Promise<{ date: string; entries: Entry[] } | null> {
  const values = await across(data, spec, kind, parent);
  const date = commonPeriod(values);
  if (!date) return null;
  const places = new Map((await data.places(kind, parent)).map((p) => [p.code, p]));
  const entries: Entry[] = [];
  for (const [region, s] of values) {
    const v = at(s, date);
    if (v !== undefined && places.has(region)) entries.push({ place: places.get(region)!, value: v });
  }
  return { date, entries };
}

export async function checkSetRule(
  kind: string,
  target: string,
  args: string[],
  answer: string,
  data: AskData,
): Promise<Why> {
  const head = firstSentence(answer);
  if (kind === "flowout" || kind === "flowin")
    return flow(data, target, kind === "flowout" ? "out" : "in", head, answer);
  if (kind === "flowtotal") return flowTotal(data, target, args[0] as "in" | "out", head, answer);
  if (kind === "flowpair") return flowPair(data, target, args[0], head, answer);
  const [specText, where] = target.split("@");
  const spec = parseSpec(specText);
  if (kind === "higher") return higher(data, spec, where.split(","), head);
  if (kind === "shared") return shared(data, spec, where, head, answer);
  // rank:SPEC@KIND:dir, rankin:SPEC@county:STATE:dir, topn:SPEC@KIND[:STATE]:dir:N, above|below:SPEC@KIND[:STATE]:X
  const n = kind === "topn" ? Number(args.pop()) : 1;
  const last = args.pop()!;
  const parent = args[0];
  const set = await atCommonPeriod(data, spec, where, parent);
  if (!set || set.entries.length === 0) return `no data: ${target} across ${where}${parent ? ` in ${parent}` : ""}`;
  const period = saysYear(head, set.date);
  if (kind === "above" || kind === "below")
    return threshold(set.entries, kind, Number(last), where, head, answer) ?? period;
  const sorted = [...set.entries].sort((a, b) => (last === "max" ? b.value - a.value : a.value - b.value));
  const count = Math.min(n, sorted.length);
  const edge = sorted[count - 1].value;
  // Places surely in the top N must all be named; of those tied at its edge, enough to make N.
  const surely = sorted.filter((e) => (last === "max" ? e.value > edge : e.value < edge));
  const tied = sorted.filter((e) => e.value === edge);
  const missing = surely.filter((e) => !isNamed(head, e.place));
  if (missing.length) return `expected ${missing.map((e) => e.place.name).join(", ")} in "${head}"`;
  if (tied.filter((e) => isNamed(head, e.place)).length < count - surely.length)
    return `expected ${count - surely.length} of ${tied.map((e) => e.place.name).join(" or ")} in "${head}"`;
  return says(head, sorted[0].value, "ranked value") ?? period;
}

/** Every place past the threshold, in the first sentence when there are at most ten (else their count there and every
 * one in the answer); a state that is not past it is not named in the first sentence; none past it: "No"/"none". */
function threshold(entries: Entry[], kind: string, x: number, where: string, head: string, answer: string): Why {
  const past = entries.filter((e) => (kind === "above" ? e.value > x : e.value < x));
  if (past.length === 0)
    return /^\s*no\b|\bnone\b|\bno (state|count|countr)/i.test(head) ? null : `expected none past ${x}: "${head}"`;
  const text = past.length <= 10 ? head : answer;
  const missing = past.filter((e) => !isNamed(text, e.place));
  if (missing.length)
    return `${missing.length} of ${past.length} past ${x} not named (${missing
      .slice(0, 5)
      .map((e) => e.place.name)
      .join(", ")})`;
  if (past.length > 10 && !mentions(head, past.length)) return `count ${past.length} not in "${head}"`;
  if (where === "state") {
    const wrong = [
      ...namesIn(
        head,
        entries.map((e) => e.place.name),
      ),
    ].filter((name) => !past.some((e) => e.place.name === name));
    if (wrong.length) return `${wrong.join(", ")} named but not past ${x}: "${head}"`;
  }
  return null;
}

/** `higher:SPEC@A,B`: at the newest period both hold, the first sentence names the higher place first with a word
 * saying higher (or the lower first with a word saying lower). */
async function higher(data: AskData, spec: Spec, codes: string[], head: string): Promise<Why> {
  const [sa, sb] = [await seriesOf(data, spec, codes[0]), await seriesOf(data, spec, codes[1])];
  const date = [...sa].reverse().find((o) => at(sb, o.date) !== undefined)?.date;
  if (!date) return "no data: no common period";
  const [pa, pb] = [(await data.place(codes[0]))!, (await data.place(codes[1]))!];
  const [hi, lo] = at(sa, date)! >= at(sb, date)! ? [pa, pb] : [pb, pa];
  const position = (p: Place) =>
    Math.min(
      ...placeNames(p)
        .map((name) => head.search(new RegExp(`(^|[^A-Za-z])${escapeRegExp(name)}($|[^A-Za-z])`)))
        .filter((i) => i >= 0),
    );
  const [ih, il] = [position(hi), position(lo)];
  if (!Number.isFinite(ih)) return `${hi.name} not named in the first sentence "${head}"`;
  const firstIsHigher = !Number.isFinite(il) || ih < il;
  const saysHigher = /\b(higher|more|bigger|larger|above|faster|yes)\b/i.test(head);
  const saysLower = /\b(lower|fewer|smaller|below|slower)\b/i.test(head);
  return (firstIsHigher ? saysHigher : saysLower) ? null : `does not say ${hi.name} is higher: "${head}"`;
}

/** The flow rows of the newest period of the newest dataset held for a place (no AGI: money, not people). */
async function newestFlows(data: AskData, region: string, direction: "out" | "in"): Promise<FlowRow[]> {
  const rows = (await data.flows(region, direction)).filter((r) => r.measure !== "agi");
  if (rows.length === 0) return [];
  const newest = rows.reduce((a, b) => (b.periodStart > a.periodStart ? b : a));
  return rows.filter((r) => r.dataset === newest.dataset && r.periodStart === newest.periodStart);
}
/**
 * `flowout:PLACE` / `flowin:PLACE`: the largest flow leaving (entering) the place in its newest slice: the first
 * sentence names the other end and its size; the answer names the period's year. For IRS data either returns
 * (households) or exemptions (persons) may be the measure read.
 */
async function flow(
  data: AskData,
  region: string,
  direction: "out" | "in",
  head: string,
  answer: string,
): Promise<Why> {
  const slice = await newestFlows(data, region, direction);
  if (slice.length === 0) return `no data: no flows ${direction} of ${region}`;
  const whys: Why[] = [];
  for (const measure of new Set(slice.map((r) => r.measure))) {
    const top = slice.filter((r) => r.measure === measure).reduce((a, b) => (b.value > a.value ? b : a));
    const other = (await data.place(direction === "out" ? top.destination : top.origin))!;
    whys.push(
      !isNamed(head, other)
        ? `expected ${other.name} (${measure} ${top.value}) in "${head}"`
        : (says(head, top.value, `${measure} to ${other.name}`) ??
            anyOf([saysYear(answer, top.periodStart), saysYear(answer, top.periodEnd)])),
    );
  }
  return anyOf(whys);
}

/** `flowtotal:PLACE:in|out`: everyone who moved in (out) from (to) the other places of the newest slice, summed, in the
 * first sentence; the answer names the period's year. */
async function flowTotal(
  data: AskData,
  region: string,
  direction: "out" | "in",
  head: string,
  answer: string,
): Promise<Why> {
  const slice = await newestFlows(data, region, direction);
  if (slice.length === 0) return `no data: no flows ${direction} of ${region}`;
  return anyOf(
    [...new Set(slice.map((r) => r.measure))].map((measure) => {
      const rows = slice.filter((r) => r.measure === measure);
      const total = rows.reduce((sum, r) => sum + r.value, 0);
      return (
        says(head, total, `${measure} ${direction} in total`) ??
        anyOf([saysYear(answer, rows[0].periodStart), saysYear(answer, rows[0].periodEnd)])
      );
    }),
  );
}

/** `flowpair:ORIGIN:DESTINATION`: the flow from one place to the other in the origin's newest slice, by either IRS
 * measure: its size in the first sentence, the period's year in the answer. */
async function flowPair(
  data: AskData,
  origin: string,
  destination: string,
  head: string,
  answer: string,
): Promise<Why> {
  const rows = (await newestFlows(data, origin, "out")).filter((r) => r.destination === destination);
  if (rows.length === 0) return `no data: no flow from ${origin} to ${destination} in its newest slice`;
  return anyOf(
    rows.map(
      (r) =>
        says(head, r.value, `${r.measure} from ${origin} to ${destination}`) ??
        anyOf([saysYear(answer, r.periodStart), saysYear(answer, r.periodEnd)]),
    ),
  );
}

/** `shared:SPEC@NAME`: of the counties called NAME, the most populous: its value (newest) and its state in the first
 * sentence; the answer also names the state of at least one other county of that name. */
async function shared(data: AskData, spec: Spec, name: string, head: string, answer: string): Promise<Why> {
  const counties = (await data.places("county")).filter((p) => p.name.toLowerCase() === name.toLowerCase());
  if (counties.length < 2) return `no data: fewer than two counties named ${name}`;
  const populations = await data.panel("POPESTIMATE", "county");
  const population = new Map(counties.map((c) => [c.code, populations.get(c.code)?.at(-1)?.value ?? -1]));
  const [chosen, ...others] = [...counties].sort((a, b) => population.get(b.code)! - population.get(a.code)!);
  const last = (await seriesOf(data, spec, chosen.code)).at(-1);
  if (!last) return `no data: ${spec.base} for ${chosen.code}`;
  const state = (await data.place(chosen.parent!))!;
  if (!named(head, state.name)) return `expected ${chosen.name}, ${state.name} in "${head}"`;
  const otherStates = await Promise.all(others.map(async (o) => (await data.place(o.parent!))!.name));
  if (!otherStates.some((s) => named(answer, s)))
    return `no other ${name} named (${otherStates.slice(0, 4).join(", ")}...)`;
  return says(head, last.value, `${spec.base} of ${chosen.name}, ${state.name}`) ?? saysYear(head, last.date);
}
