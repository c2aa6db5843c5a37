// Planning an ask (before the payment gate; see ask.ts): the question read (parse.ts) with the answer it wants
// (intent.ts), each topic and place resolved to a held series through the catalog and the concepts, or a free
// no_coverage / no_data answer. Places are never dropped silently: a misspelt one is read as its one close name and
// the answer says so; words where a place was named that match none make the question no_coverage, saying which;
// a name that is a state and a country (Georgia) is read by the kinds the topic covers, and the answer says which.
// Ceilings (per request): series read, tool calls and rounds; reaching one ends work early with `truncated: true`.
// A round is one batch of tool calls made together (the search, the reads, the insights, the signals).
import { DETERMINISTIC_MODEL } from "../domain/ask/compose";
import { readIntent, type IntentReading } from "../domain/ask/intent";
import { foldPlural, fuzzyPlaceLookup, parseQuestion, placeLookup, type ParsedQuestion } from "../domain/ask/parse";
import { TOPIC_WORDS, type Topic } from "../domain/ask/lexicon";
import { conceptLevels, getConcept, pluralKind, REGION_KINDS, type RegionKind } from "../domain/concepts";
import { lookupRegion, regionKey } from "../domain/regions";
import { formatWindow, parseWindow, type Window } from "../domain/window";
import type { AskDepth, AskResponse, Citation } from "../schemas/ask";
import { isPremiumIndicator, type Read } from "../pricing";
import { listIndicators } from "./catalog";
import { asApiError, resolveSeriesTarget, type SeriesTarget } from "./concepts";
import { regionIndex, resolveRegion, type RegionRow } from "./regions";
import { ensureReadable, targetCode, targetPremium, type ReadContext } from "./series-read";
import type { LanguageModel } from "./ask-model";
import { planRank, type RankPlan } from "./ask-rank";

export type AskInput = { q: string; region?: string; window?: string; depth: AskDepth };
export type Asker = { answer(input: AskInput, opts?: { signals?: boolean }): Promise<AskResponse> };
export type AskContext = ReadContext & { model: LanguageModel | null };

/** Per-request ceilings of each depth (see the file comment). */
export const ASK_CEILINGS: Record<AskDepth, { series: number; toolCalls: number; rounds: number; facts: number; signals: number }> = {
  default: { series: 3, toolCalls: 8, rounds: 3, facts: 2, signals: 0 },
  briefing: { series: 6, toolCalls: 24, rounds: 5, facts: 4, signals: 5 },
};
/** The window read when neither `window`, the question nor its topic names one. */
export const DEFAULT_ASK_WINDOW = "10y";

export type Planned = { target: SeriesTarget; topic: Topic; region: RegionRow; peer: SeriesTarget | null };

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
    };

// ---------------------------------------------------------------------------------------------------------------
// Planning


export function emptyResponse(depth: AskDepth, status: "no_coverage" | "no_data", message: string, resolved: AskResponse["resolved"], extra: { rounds?: number; citations?: Citation[] } = {}): AskResponse {
  const citations = extra.citations ?? [];
  return {
    answer: null,
    citations,
    resolved,
    grounded: true,
    truncated: false,
    status,
    // The question's words quoted here are letters and digits only (parse.ts splits on everything else).
    message,
    meta: { depth, rounds: extra.rounds ?? 0, toolCalls: citations.length, model: DETERMINISTIC_MODEL },
  };
}

const regionOut = (r: RegionRow) => ({ code: r.code, name: r.name, type: r.type });

function indicatorOut(t: SeriesTarget): AskResponse["resolved"]["indicators"][number] {
  if (t.kind === "stored") return { code: t.indicator.code, source: t.indicator.sourceSlug ?? "", name: t.indicator.name, ...(t.concept ? { concept: t.concept.code } : {}) };
  return { code: t.code, source: "svc", name: t.concept.name, concept: t.code };
}

function uniqueIndicators(targets: readonly SeriesTarget[]): AskResponse["resolved"]["indicators"] {
  return [...new Map(targets.map((t) => [`${targetCode(t)}|${indicatorOut(t).source}`, indicatorOut(t)])).values()];
}

const TOPIC_LABEL = (t: Topic) => t.id.replace(/_/g, " ");

/** Where a topic is covered, for a message: "states and counties", "the United States". */
function topicLevels(t: Topic): string {
  const kinds = new Set<string>(Object.keys(t.byKind ?? {}));
  const concept = t.concept ? getConcept(t.concept) : null;
  if (concept) for (const k of conceptLevels(concept)) kinds.add(k);
  const parts = [...kinds].sort((a, b) => REGION_KINDS.indexOf(a as RegionKind) - REGION_KINDS.indexOf(b as RegionKind)).map(pluralKind);
  if (t.us) parts.unshift("the United States");
  return parts.length ? parts.join(" and ") : "no region";
}

/** A series for a topic and place: held, or why not (no target: the catalog does not offer it there). */
type Candidate = { target: SeriesTarget; held: true } | { target: SeriesTarget | null; held: false; why: string };

/** `comparing`: the question compares countries, so the United States reads the same series as the others. */
async function candidatesFor(ctx: ReadContext, topic: Topic, region: RegionRow, comparing = false): Promise<Candidate[] | string> {
  const kind = region.type as RegionKind;
  const national = region.code === "US" && topic.us !== undefined && !(comparing && (topic.concept || topic.byKind?.country));
  let codes: string[];
  if (national) codes = [...topic.us!];
  else if (topic.byKind?.[kind]) codes = [...topic.byKind[kind]!];
  else if (topic.concept && conceptLevels(getConcept(topic.concept)!).includes(kind)) codes = [topic.concept];
  else return `${TOPIC_LABEL(topic)} is covered for ${topicLevels(topic)}, not for ${region.name}`;
  const out: Candidate[] = [];
  for (const code of codes) {
    let target: SeriesTarget;
    try {
      target = await resolveSeriesTarget(ctx, { code, region: region.code });
    } catch (e) {
      const err = asApiError(e);
      if (!err || err.status !== 404) throw e;
      out.push({ target: null, held: false, why: err.message });
      continue;
    }
    try {
      await ensureReadable(ctx, target);
      out.push({ target, held: true });
    } catch (e) {
      const err = asApiError(e);
      if (!err) throw e;
      out.push({ target, held: false, why: err.message });
    }
  }
  // A topic of several series (recession: USREC and UNRATE) reads each; one of alternatives (a state's LASST04 or
  // LAUST04A) reads the first held.
  if (topic.byKind && !national) {
    const held = out.find((c) => c.held);
    return held ? [held] : out.slice(0, 1);
  }
  return out;
}

/** The nation for a state, the state for a county: the peer a briefing compares with. */
function peerRegion(region: RegionRow, byCode: Map<string, RegionRow>): RegionRow | null {
  if (region.type === "state") return byCode.get("US") ?? null;
  if (region.type === "county" && region.parentCode) return byCode.get(region.parentCode) ?? null;
  return null;
}

/** Catalog search for the words no topic took: each word must begin a word of the indicator's name or description. */
async function searchCatalog(ctx: ReadContext, words: string[]): Promise<{ citation: Citation; result: unknown; codes: string[] } | null> {
  const meaningful = words.filter((w) => w.length >= 3);
  if (meaningful.length === 0) return null;
  const term = [...meaningful].sort((a, b) => b.length - a.length || a.localeCompare(b))[0];
  const args = { search: term, limit: 100 };
  const list = await listIndicators(ctx, { search: term, include_inactive: false, limit: 100, offset: 0 }, ctx.now());
  // Every word must begin a word of the name or code: a description mentions too much ("money stock ... market").
  const fits = list.data.filter((i) => {
    const text = new Set(regionKey(`${i.code} ${i.name}`).split(" ").map(foldPlural));
    return meaningful.every((w) => [...text].some((t) => t.startsWith(w)));
  });
  // Held series first (a stable sort keeps the catalog's order otherwise).
  const codes = fits.sort((a, b) => Number(b.coverage.regions_held > 0) - Number(a.coverage.regions_held > 0)).map((i) => i.code);
  const summary = list.meta.total === 0 ? `No indicator matches '${term}'.` : `${list.meta.total} indicator(s) match '${term}'${codes.length ? `; fitting the question: ${codes.join(", ")}` : "; none fits every word of the question"}.`;
  return { citation: { tool: "search_indicators", args, summary }, result: { total: list.meta.total, codes }, codes };
}

const COVERED_HINT =
  "Covered: labour (unemployment, payrolls, job openings, claims, wages, labour force), prices (inflation, core and PCE " +
  "inflation), rates (federal funds, Treasury yields, the yield curve), output (GDP, industrial production, retail sales), " +
  "housing (starts, median home values), income, population and migration, for the United States, states, counties and " +
  "countries where the catalog holds them; see GET /v1/indicators.";

export async function planQuestion(ctx: ReadContext, input: AskInput): Promise<AskPlan> {
  const depth = input.depth;
  const ceilings = ASK_CEILINGS[depth];
  const index = await regionIndex(ctx);
  const parsed: ParsedQuestion = parseQuestion(input.q, {
    todayYear: ctx.now().getUTCFullYear(),
    lookupPlace: placeLookup(index),
    fuzzyPlace: fuzzyPlaceLookup(index),
  });
  // "Which Texas county…": the state whose counties are ranked, not a county named Texas County.
  if (/\b(which|what|top|bottom)\b.*\bcount(y|ies)\b/i.test(input.q)) {
    for (const a of [...parsed.ambiguous]) {
      const state = /^(.*)\s+county$/i.exec(a.text);
      const hit = state ? lookupRegion(index, state[1], { kinds: ["state"] }) : null;
      if (hit?.kind !== "found") continue;
      parsed.places.push(hit.code);
      parsed.ambiguous.splice(parsed.ambiguous.indexOf(a), 1);
    }
  }
  // The hint stands for the place when the question names none; a hint that is no region is the caller's mistake.
  const hint = input.region !== undefined ? await resolveRegion(ctx, input.region) : null;
  const placeCodes = parsed.places.length ? parsed.places : hint ? [hint.code] : parsed.ambiguous.length ? [] : ["US"];
  const places = placeCodes.map((c) => index.byCode.get(c)!).filter(Boolean);
  const topicWindow = parsed.topics.find((t) => t.window)?.window;
  const window = parseWindow(input.window ?? (parsed.window ? formatWindow(parsed.window) : (topicWindow ?? DEFAULT_ASK_WINDOW)))!;
  const resolvedBase = { indicators: [], regions: places.map(regionOut), window: formatWindow(window) };

  // Words where a place was named that match no place: never answered for another place (the state, the nation).
  if (parsed.unplaced.length) {
    const words = parsed.unplaced.map((w) => `'${w}'`).join(", ");
    return { kind: "answered", response: emptyResponse(depth, "no_coverage", `Could not place ${words}: the service covers the United States, its states and counties, and countries; a city or other kind of place is not covered (name its county or state instead). ${COVERED_HINT}`, resolvedBase) };
  }
  const notes = parsed.corrections.map((c) => `(“${c.text}” was read as ${index.byCode.get(c.code)?.name ?? c.code}.)`);

  if (parsed.ambiguous.length && places.length === 0) {
    const a = parsed.ambiguous[0];
    const names = a.candidates.map((c) => {
      const r = index.byCode.get(c)!;
      const parent = r.parentCode ? index.byCode.get(r.parentCode) : null;
      return `${r.name}${parent ? `, ${parent.name}` : ""} (${c})`;
    });
    return { kind: "answered", response: emptyResponse(depth, "no_coverage", `'${a.text}' names several places: ${names.join("; ")}. Name the state too, or pass region.`, resolvedBase) };
  }

  // Topics named by the lexicon, else what the catalog finds for the remaining words.
  const searches: { citation: Citation; result: unknown }[] = [];
  let topics = parsed.topics;
  if (topics.length === 0) {
    const found = await searchCatalog(ctx, parsed.rest);
    if (found) searches.push({ citation: found.citation, result: found.result });
    const catalog = await ctx.caches.catalog.catalog();
    topics = (found?.codes ?? []).slice(0, ceilings.series).map((code) => {
      const row = (catalog.byLowerCode.get(code.toLowerCase()) ?? []).find((r) => r.code === code)!;
      const kinds = row.regionKinds as RegionKind[];
      return { id: code, phrases: [], us: kinds.length === 0 || kinds.includes("country") ? [code] : undefined, byKind: Object.fromEntries(kinds.map((k) => [k, [code]])) } as Topic;
    });
    if (topics.length === 0) {
      const what = parsed.rest.length ? `'${parsed.rest.join(" ")}'` : "this question";
      return {
        kind: "answered",
        response: emptyResponse(depth, "no_coverage", `The catalog holds no series for ${what}. ${COVERED_HINT}`, resolvedBase, { rounds: searches.length, citations: searches.map((s) => s.citation) }),
      };
    }
  }

  const intent = readIntent(input.q, {
    places: places.filter((p) => p.code !== "US" || parsed.places.length > 1).map((p) => p.type as RegionKind),
    growthTopic: topics.some((t) => t.id === "inflation" || t.id === "core_inflation" || t.id === "pce_inflation"),
    changeTopic: topics.some((t) => t.id === "payrolls" || t.id === "employed"),
  });
  if (intent.intent.kind === "rank") {
    const within = intent.intent.placeKind === "county" ? (places.find((p) => p.type === "state") ?? null) : null;
    const rank = await planRank(ctx, { topics, placeKind: intent.intent.placeKind, parent: within, dir: intent.intent.dir, count: intent.intent.count });
    if ("status" in rank) return { kind: "answered", response: emptyResponse(depth, rank.status, rank.status === "no_coverage" ? `${rank.message} ${COVERED_HINT}` : rank.message, resolvedBase) };
    const regions = within ? [regionOut(within)] : [];
    return {
      kind: "run",
      question: input.q,
      depth,
      series: [],
      window,
      resolved: { indicators: [{ code: rank.indicator.code, source: rank.indicator.sourceSlug ?? "", name: rank.indicator.name, ...(rank.concept ? { concept: rank.concept } : {}) }], regions, window: formatWindow(window) },
      truncated: false,
      searches,
      // A ranking reads every place of its scope: a region-restricted key must be allowed the whole scope (the state
      // whose counties are ranked, else the nation), so it never reads places it is not allowed.
      region: within?.code ?? "US",
      intent,
      notes,
      rank,
    };
  }

  const planned: Planned[] = [];
  const uncovered: string[] = [];
  const notHeld: string[] = [];
  const unheldTargets: SeriesTarget[] = [];
  const comparing = places.filter((p) => p.type === "country").length > 1;
  let truncated = false;
  for (const topic of topics) {
    for (const named of places) {
      let region = named;
      let found = await candidatesFor(ctx, topic, region, comparing);
      // A state's name that is also a country's (Georgia): the country when the topic is not covered for states.
      const alt = parsed.alternates[named.code] ? index.byCode.get(parsed.alternates[named.code]) : undefined;
      if (alt) {
        const asCountry = typeof found === "string" ? await candidatesFor(ctx, topic, alt, comparing) : null;
        if (asCountry && typeof asCountry !== "string") {
          [region, found] = [alt, asCountry];
          notes.push(`(${named.name} was read as the country: ${TOPIC_WORDS[topic.id]?.label ?? TOPIC_LABEL(topic)} is covered for countries, not for US states.)`);
        } else notes.push(`(${named.name} was read as the US state; ask about "the country ${named.name}" for the country.)`);
      }
      if (typeof found === "string") {
        uncovered.push(found);
        continue;
      }
      for (const c of found) {
        if (!c.held) {
          notHeld.push(c.why);
          if (c.target) unheldTargets.push(c.target);
          continue;
        }
        if (planned.some((p) => targetCode(p.target) === targetCode(c.target) && p.region.code === region.code)) continue;
        if (planned.length >= ceilings.series) {
          truncated = true;
          continue;
        }
        planned.push({ target: c.target, topic, region, peer: null });
      }
    }
  }
  if (planned.length === 0) {
    const status = notHeld.length ? "no_data" : "no_coverage";
    const reasons = [...new Set([...notHeld, ...uncovered.map((u) => `${u.charAt(0).toUpperCase()}${u.slice(1)}.`)])];
    const message = status === "no_data" ? `The series for this question hold no data for that place yet: ${reasons.join(" ")}` : `${reasons.join(" ")} ${COVERED_HINT}`;
    // No data: the series the question resolved to are named, so the caller can see what would answer it.
    const resolved = { ...resolvedBase, indicators: status === "no_data" ? uniqueIndicators(unheldTargets) : [] };
    return { kind: "answered", response: emptyResponse(depth, status, message, resolved, { rounds: searches.length, citations: searches.map((s) => s.citation) }) };
  }
  // A briefing compares each place with the one above it, when the same topic is held there.
  if (depth === "briefing") {
    for (const p of planned) {
      const up = peerRegion(p.region, index.byCode);
      if (!up) continue;
      const found = await candidatesFor(ctx, p.topic, up);
      if (typeof found !== "string") p.peer = found.find((c) => c.held)?.target ?? null;
    }
  }
  const indicators = uniqueIndicators(planned.map((p) => p.target));
  const usedRegions = [...new Map(planned.map((p) => [p.region.code, p.region])).values()];
  return {
    kind: "run",
    question: input.q,
    depth,
    series: planned,
    window,
    resolved: { indicators, regions: usedRegions.map(regionOut), window: formatWindow(window) },
    truncated,
    searches,
    region: usedRegions[0]?.code ?? null,
    intent,
    notes: [...new Set(notes)],
    rank: null,
  };
}

/**
 * Every read of a plan, for the admission core: each series in its place (a ranking: its indicator over its scope),
 * then the signals of the first place (premium, as every signal is).
 */
export function planReads(plan: Extract<AskPlan, { kind: "run" }>): Read[] {
  if (plan.rank) return [{ indicator: plan.rank.indicator.code, region: plan.region, premium: isPremiumIndicator(plan.rank.indicator), surface: "ask" }];
  const reads: Read[] = plan.series.map((s) => ({ indicator: targetCode(s.target), region: s.region.code, premium: targetPremium(s.target), surface: "ask" }));
  if (plan.series.length > 0) reads.push({ indicator: null, region: plan.series[0]!.region.code, premium: false, surface: "signals" });
  return reads;
}
