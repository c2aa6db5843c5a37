// Planning an ask (before the payment gate; see ask.ts): the question read (parse.ts) with the answer it wants
// (intent.ts), each topic and place resolved to a held series through the catalog and the concepts, or a free
// no_coverage / no_data answer. Places are never dropped silently: a misspelt one is read as its one close name and
// the answer says so; words where a place was named that match none make the question no_coverage, saying which;
// a name that is a state and a country (Georgia) is read by the kinds the topic covers, and the answer says which;
// a two-letter code is read as the data routes read it (CA: Canada; US-CA: California), the state when the topic is
// not covered for countries, and the answer says which and how to ask for the other; a county name several counties
// share is read as the most populous (ask-places.ts). Each topic is resolved in each place by ask-series.ts. Words no
// lexicon phrase names are read through the catalog's own vocabulary (ask-vocabulary.ts). "GDP growth" is real GDP's
// unless nominal is asked.
// Ceilings (per request): series read, tool calls and rounds; reaching one ends work early with `truncated: true`.
// A round is one batch of tool calls made together (the search, the reads, the insights, the signals).
import { readIntent, type IntentReading } from "../domain/ask/intent";
import { economySize, levelOfChange, rateMoves, realOrNominal } from "../domain/ask/topic-reading";
import { demonymName } from "../domain/ask/demonyms";
import { broadTopics, fuzzyPlaceLookup, parseQuestion, placeLookup, type ParsedQuestion } from "../domain/ask/parse";
import { TOPIC_WORDS } from "../domain/ask/topic-words";
import type { RegionKind } from "../domain/concepts";
import { formatWindow, parseWindow, type Window } from "../domain/window";
import type { AskDepth, AskResponse, Citation } from "../schemas/ask";
import { isPremiumIndicator, type Read } from "../pricing";
import { settlePlaces } from "./ask-places";
import { COVERED_HINT, topicsFromCatalog } from "./ask-vocabulary";
import { planFlows, type FlowPlan } from "./ask-flows";
import { regionIndexForAsk, resolveRegion, type RegionRow } from "./regions";
import { targetCode, targetPremium, type ReadContext } from "./series-read";
import type { LanguageModel } from "./ask-model";
import { planRank, polarDirection, type RankPlan } from "./ask-rank";
import { emptyResponse, regionOut, uniqueIndicators } from "./ask-response";
import { planPeers, planSeries, type Planned } from "./ask-series";

export type AskInput = { q: string; region?: string; window?: string; depth: AskDepth };
export type Asker = { answer(input: AskInput, opts?: { signals?: boolean }): Promise<AskResponse> };
export type AskContext = ReadContext & { model: LanguageModel | null };

/** Per-request ceilings of each depth (see the file comment). */
export const ASK_CEILINGS: Record<
  AskDepth,
  { series: number; toolCalls: number; rounds: number; facts: number; signals: number }
> = {
  default: { series: 3, toolCalls: 8, rounds: 3, facts: 2, signals: 0 },
  briefing: { series: 6, toolCalls: 24, rounds: 5, facts: 4, signals: 5 },
};
/** The window read when neither `window`, the question nor its topic names one. */
export const DEFAULT_ASK_WINDOW = "10y";

export type AskPlan =
  | { kind: "answered"; response: AskResponse }
  | {
      kind: "run";
      question: string;
      depth: AskDepth;
      series: Planned[];
      window: Window;
      resolved: AskResponse["resolved"];
      truncated: boolean;
      /** Catalog searches already made while planning (round one when present). */
      searches: { citation: Citation; result: unknown }[];
      /** The place the question is about (the first; a ranking: its scope). */
      region: string | null;
      /** What kind of answer the question wants. */
      intent: IntentReading;
      /** How places were read, said after the answer ("califronia" read as California). */
      notes: string[];
      /** A ranking across every place of a kind, instead of the series above. */
      rank: RankPlan | null;
      /** Where people moving out of a place go (or into it come from), instead of the series above. */
      flows: FlowPlan | null;
      /** The episode the question names (folded words: episodes.ts namedEpisode), or null. */
      episode: string | null;
    };

// ---------------------------------------------------------------------------------------------------------------
// Planning

export async function planQuestion(ctx: ReadContext, input: AskInput): Promise<AskPlan> {
  const depth = input.depth;
  const ceilings = ASK_CEILINGS[depth];
  const { index, fuzzyNames } = await regionIndexForAsk(ctx);
  const parsed: ParsedQuestion = parseQuestion(input.q, {
    todayYear: ctx.now().getUTCFullYear(),
    lookupPlace: placeLookup(index),
    fuzzyPlace: fuzzyPlaceLookup(index, fuzzyNames),
    demonym: (text) => demonymName(fuzzyNames, text),
  });
  const placeNotes = await settlePlaces(ctx, parsed, index, input.q);
  // The hint stands for the place when the question names none; a hint that is no region is the caller's mistake.
  const hint = input.region !== undefined ? await resolveRegion(ctx, input.region) : null;
  const placeCodes = parsed.places.length ? parsed.places : hint ? [hint.code] : parsed.ambiguous.length ? [] : ["US"];
  const places = placeCodes.map((c) => index.byCode.get(c)!).filter(Boolean);
  const topicWindow = parsed.topics.find((t) => t.window)?.window;
  const window = parseWindow(
    input.window ?? (parsed.window ? formatWindow(parsed.window) : (topicWindow ?? DEFAULT_ASK_WINDOW)),
  )!;
  const resolvedBase = { indicators: [], regions: places.map(regionOut), window: formatWindow(window) };

  // Words where a place was named that match no place: never answered for another place (the state, the nation).
  if (parsed.unplaced.length) {
    const words = parsed.unplaced.map((w) => `'${w}'`).join(", ");
    return {
      kind: "answered",
      response: emptyResponse(
        depth,
        "no_coverage",
        `Could not place ${words}: the service covers the United States, its states and counties, and countries; a city or other kind of place is not covered (name its county or state instead). ${COVERED_HINT}`,
        resolvedBase,
      ),
    };
  }
  const notes = [
    ...parsed.corrections.map((c) => `(“${c.text}” was read as ${index.byCode.get(c.code)?.name ?? c.code}.)`),
    ...placeNotes,
  ];
  for (const n of parsed.nearest)
    notes.push(`(“${n.text}” was read as ${TOPIC_WORDS[n.topic]?.label ?? n.topic}: ${n.why}.)`);

  if (parsed.ambiguous.length && places.length === 0) {
    const a = parsed.ambiguous[0];
    const names = a.candidates.map((c) => {
      const r = index.byCode.get(c)!;
      const parent = r.parentCode ? index.byCode.get(r.parentCode) : null;
      return `${r.name}${parent ? `, ${parent.name}` : ""} (${c})`;
    });
    return {
      kind: "answered",
      response: emptyResponse(
        depth,
        "no_coverage",
        `'${a.text}' names several places: ${names.join("; ")}. Name the state too, or pass region.`,
        resolvedBase,
      ),
    };
  }

  // Where people move: the flows between places, whatever topic words the question has.
  const placeKinds = places.filter((p) => p.code !== "US" || parsed.places.length > 1).map((p) => p.type as RegionKind);
  const before = parsed.places[0] ? (parsed.before[parsed.places[0]] ?? null) : null;
  const moves = readIntent(parsed.spelled, {
    places: placeKinds,
    growthTopic: false,
    changeTopic: false,
    kinds: parsed.kinds,
    before,
  });
  if (moves.intent.kind === "flows") {
    const flows = await planFlows(ctx, moves.intent.way, moves.intent.reversed ? [...places].reverse() : places);
    if ("status" in flows)
      return { kind: "answered", response: emptyResponse(depth, flows.status, flows.message, resolvedBase) };
    const regions = [flows.origin, flows.destination].filter((r) => r !== null);
    return runnable({
      input,
      depth,
      window,
      intent: moves,
      notes,
      searches: [],
      series: [],
      region: regions[0]?.code ?? null,
      indicators: [],
      regions,
      flows,
      episode: null,
    });
  }

  // Topics named by the lexicon, else what the catalog's own words find, else a broad word ("prices").
  const searches: { citation: Citation; result: unknown }[] = [];
  let topics = parsed.topics;
  if (topics.length === 0) {
    const found = await topicsFromCatalog(
      ctx,
      input.q,
      parsed.rest,
      (places[0]?.type as RegionKind | undefined) ?? null,
      ceilings.series,
    );
    searches.push(...found.searches);
    notes.push(...found.notes);
    topics = found.topics;
    if (topics.length === 0) {
      const what = parsed.rest.length ? `'${parsed.rest.join(" ")}'` : "this question";
      return {
        kind: "answered",
        response: emptyResponse(
          depth,
          "no_coverage",
          `The catalog holds no series for ${what}. ${COVERED_HINT}`,
          resolvedBase,
          { rounds: searches.length, citations: searches.map((s) => s.citation) },
        ),
      };
    }
  }

  // "Are paychecks keeping up with prices?": a race needs both sides; a broad word names the other.
  if (topics.length === 1 && /\b(keep(?:ing)? up|outpac\w*)\b/i.test(input.q))
    topics = [...topics, ...broadTopics(input.q).filter((t) => t.id !== topics[0].id)].slice(0, 2);
  topics = economySize(topics, input.q);
  let intent = readIntent(parsed.spelled, {
    places: placeKinds,
    growthTopic: topics.some((t) => !!TOPIC_WORDS[t.id]?.growth),
    changeTopic: topics.some((t) => t.id === "payrolls" || t.id === "employed"),
    episode: parsed.episode !== null,
    kinds: parsed.kinds,
    before,
  });
  topics = levelOfChange(realOrNominal(topics, intent, input.q, parsed.real), intent);
  intent = rateMoves(topics, intent, parsed.spelled);
  if (intent.intent.kind === "rank") {
    const within = intent.intent.placeKind === "county" ? (places.find((p) => p.type === "state") ?? null) : null;
    const rank = await planRank(ctx, {
      topics,
      placeKind: intent.intent.placeKind,
      parent: within,
      dir: intent.intent.dir,
      count: intent.intent.count,
      filter: intent.intent.filter,
      byGrowth: intent.intent.by === "growth",
      polar: intent.polar,
      at: intent.intent.at ?? null,
    });
    if ("status" in rank)
      return {
        kind: "answered",
        response: emptyResponse(
          depth,
          rank.status,
          rank.status === "no_coverage" ? `${rank.message} ${COVERED_HINT}` : rank.message,
          resolvedBase,
        ),
      };
    return {
      ...runnable({
        input,
        depth,
        window,
        intent,
        notes,
        searches,
        series: [],
        region: within?.code ?? "US",
        indicators: [
          {
            code: rank.indicator.code,
            source: rank.indicator.sourceSlug ?? "",
            name: rank.indicator.name,
            ...(rank.concept ? { concept: rank.concept } : {}),
          },
        ],
        regions: within ? [within] : [],
        flows: null,
        episode: null,
      }),
      rank,
    };
  }

  const { planned, uncovered, notHeld, unheldTargets, truncated } = await planSeries(ctx, {
    topics,
    places,
    parsed,
    index,
    maxSeries: ceilings.series,
    notes,
  });
  if (planned.length === 0) {
    const status = notHeld.length ? "no_data" : "no_coverage";
    const reasons = [...new Set([...notHeld, ...uncovered.map((u) => `${u.charAt(0).toUpperCase()}${u.slice(1)}.`)])];
    const message =
      status === "no_data"
        ? `The series for this question hold no data for that place yet: ${reasons.join(" ")}`
        : `${reasons.join(" ")} ${COVERED_HINT}`;
    // No data: the series the question resolved to are named, so the caller can see what would answer it.
    const resolved = { ...resolvedBase, indicators: status === "no_data" ? uniqueIndicators(unheldTargets) : [] };
    return {
      kind: "answered",
      response: emptyResponse(depth, status, `${message}${notes.length ? ` ${notes.join(" ")}` : ""}`, resolved, {
        rounds: searches.length,
        citations: searches.map((s) => s.citation),
      }),
    };
  }
  // A briefing compares each place with the one above it, when the same topic is held there.
  if (depth === "briefing") await planPeers(ctx, planned, index.byCode);
  // "Worst", "best": the direction the first series' polarity gives (the worst unemployment rate is the highest).
  const first = planned[0].target;
  if (
    intent.polar &&
    (intent.intent.kind === "extreme" || intent.intent.kind === "episode") &&
    first.kind === "stored"
  ) {
    intent = { ...intent, intent: { ...intent.intent, dir: polarDirection(intent.polar, first.indicator.upIsGood) } };
  }
  // "Is inflation getting worse?": worse is up for a series whose rise is bad.
  if (intent.moved && first.kind === "stored" && first.indicator.upIsGood !== null)
    intent = { ...intent, down: (intent.moved === "worse") === first.indicator.upIsGood };
  const usedRegions = [...new Map(planned.map((p) => [p.region.code, p.region])).values()];
  const plan = runnable({
    input,
    depth,
    window,
    intent,
    notes,
    searches,
    series: planned,
    region: usedRegions[0]?.code ?? null,
    indicators: uniqueIndicators(planned.map((p) => p.target)),
    regions: usedRegions,
    flows: null,
    episode: parsed.episode,
  });
  return { ...plan, truncated };
}

type RunParts = {
  input: AskInput;
  depth: AskDepth;
  window: Window;
  intent: IntentReading;
  notes: string[];
  searches: { citation: Citation; result: unknown }[];
  series: Planned[];
  region: string | null;
  indicators: AskResponse["resolved"]["indicators"];
  regions: RegionRow[];
  flows: FlowPlan | null;
  episode: string | null;
};

function runnable(p: RunParts): Extract<AskPlan, { kind: "run" }> {
  return {
    kind: "run",
    question: p.input.q,
    depth: p.depth,
    series: p.series,
    window: p.window,
    resolved: { indicators: p.indicators, regions: p.regions.map(regionOut), window: formatWindow(p.window) },
    truncated: false,
    searches: p.searches,
    region: p.region,
    intent: p.intent,
    notes: [...new Set(p.notes)],
    rank: null,
    flows: p.flows,
    episode: p.episode,
  };
}

/**
 * Every read of a plan, for the admission core: each series in its place (a ranking: its indicator over its scope),
 * then the signals of the first place (premium, as every signal is).
 */
export function planReads(plan: Extract<AskPlan, { kind: "run" }>): Read[] {
  if (plan.flows)
    return plan.flows.regions.map((region) => ({ indicator: null, region, premium: false, surface: "ask" as const }));
  if (plan.rank)
    return [
      {
        indicator: plan.rank.indicator.code,
        region: plan.region,
        premium: isPremiumIndicator(plan.rank.indicator),
        surface: "ask",
      },
    ];
  const reads: Read[] = plan.series.map((s) => ({
    indicator: targetCode(s.target),
    region: s.region.code,
    premium: targetPremium(s.target),
    surface: "ask",
  }));
  if (plan.series.length > 0)
    reads.push({ indicator: null, region: plan.series[0]!.region.code, premium: false, surface: "signals" });
  return reads;
}
