// Ranking questions of ask ("which state has the highest unemployment rate", "top 5 counties in Texas by
// population"): every place of the kind (all states, all counties of a state or of the country, all countries) read
// at one period in two statements (the period most of them hold: db/repos commonLatestDate; their values on it:
// readPeerValues), never one read per place, kept until the indicator's series change (place-values.ts). The series is the concept's (src/domain/concepts.ts) or the topic's for
// that kind, the first curated one held, so a fresher series answers as soon as it is held. The read is cited as
// `rank_regions`, with the period and the replay of each named place's value through /v1/observations.
// Ranked by growth ("fastest growing state", "shrank the most"): each place's growth as its values allow
// (value-kinds.ts): the percent change of a level from the same period a year before (a second read of every place
// at that date), a published change as it stands, a rate's difference in points. "Best" and "worst" follow the
// indicator's polarity (up_is_good): the best unemployment rate is the lowest.
import type { IndicatorRow } from "../../db/repos/catalog";
import type { Direction } from "../domain/ask/intent";
import type { Topic } from "../domain/ask/lexicon";
import { TOPIC_WORDS } from "../domain/ask/topic-words";
import { rankLead } from "../domain/ask/rank";
import { inUnit, type Threshold } from "../domain/place-sets";
import { addMonths } from "../domain/calendar";
import { formatDate } from "../domain/prose";
import { growthMethod } from "../domain/value-kinds";
import type { Frequency } from "../domain/calendar";
import { getConcept, pluralKind, type RegionKind } from "../domain/concepts";
import { capitalise } from "../domain/prose";
import type { Citation } from "../schemas/ask";
import { findIndicator } from "./concepts";
import { regionIndex, type RegionRow } from "./regions";
import type { ReadContext } from "./series-read";
import { placeOf } from "./signals";
import { commonDate, placeValues } from "./place-values";
import { seriesLabel } from "./ask-views";
import { valueSpecOf } from "../domain/value-kinds";

export type RankPlan = {
  topic: Topic;
  indicator: IndicatorRow;
  concept: string | null;
  placeKind: RegionKind;
  parent: RegionRow | null;
  dir: Direction;
  count: number;
  /** Keep the places past it, in the series' unit ("above 5%"); null: rank them all. */
  filter: Threshold | null;
  /** Ranked by each place's growth over a year instead of its value. */
  byGrowth: boolean;
  /** The period every place is read at, and how many places hold the series. */
  date: string;
  held: number;
};

/** The curated series of a topic for a place kind, in order of preference. */
function curated(
  topic: Topic,
  kind: RegionKind,
): { codes: { indicator: string; source?: string }[]; concept: string | null } {
  if (topic.byKind?.[kind]) return { codes: topic.byKind[kind]!.map((indicator) => ({ indicator })), concept: null };
  const concept = topic.concept ? getConcept(topic.concept) : null;
  if (concept?.type === "series" && concept.levels[kind])
    return { codes: [...concept.levels[kind]!], concept: concept.code };
  return { codes: [], concept: null };
}

/** The ranking's series and period, or why there is none (no_coverage: not offered for the kind; no_data: not held). */
export async function planRank(
  ctx: ReadContext,
  args: {
    topics: readonly Topic[];
    placeKind: RegionKind;
    parent: RegionRow | null;
    dir: Direction;
    count: number;
    filter: Threshold | null;
    byGrowth: boolean;
    polar?: "best" | "worst";
    at?: string | null;
  },
): Promise<RankPlan | { status: "no_coverage" | "no_data"; message: string }> {
  const kinds = pluralKind(args.placeKind);
  let offered: Topic | null = null;
  for (const topic of args.topics) {
    const { codes, concept } = curated(topic, args.placeKind);
    // The curated series held by the most places of the scope (a ranking of countries is not one of the US alone);
    // on a tie, the first curated.
    let best: RankPlan | null = null;
    for (const c of codes) {
      const indicator = await findIndicator(ctx, c.indicator, c.source);
      if (!indicator) continue;
      // A ranking reads every place: never over part of a family still being stored.
      ctx.caches.catalog.loading.assertServed(ctx.caches.catalog.loading.loadingFamilyOf(indicator));
      const scope = { indicatorId: indicator.id, regionType: args.placeKind, parentCode: args.parent?.code ?? null };
      const common = await commonDate(ctx, scope);
      if (!common || (best && common.held <= best.held)) continue;
      const filter = args.filter ? inUnit(args.filter, indicator.unit) : null;
      const dir = args.polar ? polarDirection(args.polar, indicator.upIsGood) : args.dir;
      // A named year: its period (an annual series' year, else its last month), never past the newest all hold.
      const named = args.at ? (indicator.frequency === "annual" ? `${args.at}-01-01` : `${args.at}-12-01`) : null;
      const date = named && named < common.date ? named : common.date;
      best = {
        topic,
        indicator,
        concept,
        placeKind: args.placeKind,
        parent: args.parent,
        dir,
        count: args.count,
        filter,
        byGrowth: args.byGrowth,
        date,
        held: common.held,
      };
    }
    if (best) return best;
    offered ??= codes.length ? topic : null;
  }
  // Offered for the kind but held nowhere: no_data (a later load may answer it).
  if (offered)
    return {
      status: "no_data",
      message: `${capitalise(TOPIC_WORDS[offered.id]?.label ?? offered.id)} is offered for ${kinds} but not held for any of them yet.`,
    };
  const what =
    args.topics.map((t) => TOPIC_WORDS[t.id]?.label ?? t.id.replace(/_/g, " ")).join(", ") || "this question";
  return { status: "no_coverage", message: `No series ranks ${kinds} by ${what}.` };
}

/** "Best" is the highest of a series whose rise is good news, the lowest otherwise; "worst" the reverse. */
export function polarDirection(polar: "best" | "worst", upIsGood: boolean | null): Direction {
  // A series without polarity (prices) reads "worst" as its highest, as people mean it of inflation.
  const best: Direction = upIsGood === true ? "max" : "min";
  return polar === "best" ? best : best === "max" ? "min" : "max";
}

/** Each place's value, or its growth over a year (see the file comment), with the label and unit it is said in. */
async function rankedValues(
  ctx: ReadContext,
  plan: RankPlan,
): Promise<{ values: { region: string; value: number }[]; label: string; unit: string | null; from: string | null }> {
  const parentCode = plan.parent?.code ?? null;
  const read = (date: string) =>
    placeValues(ctx, { indicatorId: plan.indicator.id, regionType: plan.placeKind, parentCode }, date);
  const spec = valueSpecOf(plan.indicator);
  const label = seriesLabel(plan.indicator.code, plan.indicator.name, plan.topic, spec);
  const now = await read(plan.date);
  const method = growthMethod(spec).method;
  if (!plan.byGrowth || method === "stated" || method === "none")
    return { values: now, label, unit: plan.indicator.unit, from: null };
  const from = addMonths(plan.date, -12);
  const before = new Map((await read(from)).map((v) => [v.region, v.value]));
  const words = TOPIC_WORDS[plan.topic.id];
  const grown = now.flatMap((v) => {
    const b = before.get(v.region);
    if (b === undefined || (method === "percent_change" && b <= 0)) return [];
    return [
      {
        region: v.region,
        value:
          method === "percent_change"
            ? Number((((v.value - b) / b) * 100).toFixed(2))
            : Number((v.value - b).toFixed(6)),
      },
    ];
  });
  const name =
    method === "percent_change"
      ? (words?.growthName?.replace(/ \(.*\)$/, "") ?? `${label.replace(/^the /, "")} growth`)
      : `change in ${label.replace(/^the /, "")}`;
  return {
    values: grown,
    label: `${name} from ${formatDate(from, plan.indicator.frequency as Frequency)}`,
    unit: method === "percent_change" ? "percent" : plan.indicator.unit,
    from,
  };
}

/** Reads every place at the plan's period (one statement; two for growth) and ranks them. */
export async function runRank(
  ctx: ReadContext,
  plan: RankPlan,
): Promise<{ text: string; citation: Citation; result: unknown }> {
  const index = await regionIndex(ctx);
  const { values, label, unit, from } = await rankedValues(ctx, plan);
  const ranked = values.map((v) => ({
    code: v.region,
    place: placeOf(index.byCode.get(v.region)!, index.byCode),
    value: v.value,
  }));
  const scope = plan.parent ? `${pluralKind(plan.placeKind)} of ${plan.parent.name}` : pluralKind(plan.placeKind);
  const lead = rankLead({
    label,
    unit,
    frequency: plan.indicator.frequency as Frequency,
    date: plan.date,
    scope,
    values: ranked,
    missing: Math.max(0, plan.held - ranked.length),
    dir: plan.dir,
    count: plan.count,
    filter: plan.filter,
  });
  const source = plan.indicator.sourceSlug;
  const args = {
    indicator: plan.indicator.code,
    ...(source ? { source } : {}),
    type: plan.placeKind,
    ...(plan.parent ? { parent: plan.parent.code } : {}),
    date: plan.date,
    ...(from ? { compared_with: from } : {}),
    order: plan.dir === "max" ? "desc" : "asc",
    ...(plan.filter ? { comparison: plan.filter.op, threshold: plan.filter.value } : {}),
  };
  const replay = lead.top
    .map(
      (t) =>
        `${t.place} ${t.value} (GET /v1/observations?indicator=${plan.indicator.code}&region=${t.code}&start_date=${from ?? plan.date}&end_date=${plan.date})`,
    )
    .join("; ");
  const order = plan.filter
    ? `${plan.filter.op} ${plan.filter.value}, ${plan.filter.op.startsWith(">") ? "highest" : "lowest"} first`
    : plan.dir === "max"
      ? "highest first"
      : "lowest first";
  const summary = `${ranked.length} ${scope} read at ${plan.date}${ranked.length < plan.held ? ` (${plan.held - ranked.length} hold no value then)` : ""}; ${order}: ${replay}.`;
  return {
    text: lead.text,
    citation: { tool: "rank_regions", args, summary },
    result: { ...lead.figures, ...(from ? { compared_with: from } : {}), values: lead.top.map((t) => t.value) },
  };
}
