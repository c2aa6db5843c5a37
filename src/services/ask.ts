// GET /v1/ask and briefing runs: a question in plain words answered from tool calls (spec "GET /v1/ask", "Ask
// response"). Two steps, so that what costs nothing is decided before any payment:
// 1. planQuestion (before the gate): read the question (src/domain/ask/parse.ts), resolve each topic and place to a
//    series through the catalog and the concepts (the held series first), check what is held. An uncovered question
//    (no series for it, or none for that kind of place) is `no_coverage`, a covered one whose series hold nothing
//    there is `no_data`: both answered free. Identical questions (and dates) plan identically.
// 2. runPlan (after the gate): the tool calls, through the services the REST endpoints use (get_latest:
//    /v1/observations/latest, get_insights: /v1/insights, get_active_signals: /v1/signals/active,
//    search_indicators: /v1/indicators), each a citation whose args are that endpoint's query; then the composer
//    (src/domain/ask/compose.ts, or a configured language model phrasing the same results) and the number verifier
//    (src/domain/ask/verify.ts). A model draft that states a number the results do not hold is not served: the
//    deterministic prose is.
// Ceilings (per request): series read, tool calls and rounds; reaching one ends work early with `truncated: true`.
// A round is one batch of tool calls made together (the search, the latest values, the insights, the signals).
import type { Deps } from "../deps";
import type { Frequency } from "../domain/calendar";
import { composeAnswer, DETERMINISTIC_MODEL, type ComposedSeries } from "../domain/ask/compose";
import { foldPlural, parseQuestion, placeLookup, type ParsedQuestion } from "../domain/ask/parse";
import type { Topic } from "../domain/ask/lexicon";
import { verifyNumbers } from "../domain/ask/verify";
import { conceptLevels, getConcept, pluralKind, REGION_KINDS, type RegionKind } from "../domain/concepts";
import { formatDate, formatValue, decimalsOf } from "../domain/prose";
import { regionKey } from "../domain/regions";
import { formatWindow, parseWindow, type Window } from "../domain/window";
import type { AskDepth, AskResponse, Citation } from "../schemas/ask";
import { listIndicators } from "./catalog";
import { asApiError, resolveSeriesTarget, type SeriesTarget } from "./concepts";
import { getInsights, type InsightsBody } from "./insights";
import { getLatest, type LatestObservation } from "./latest";
import { regionIndex, resolveRegion, type RegionRow } from "./regions";
import { ensureReadable, targetCode, targetPremium, type ReadContext } from "./series-read";
import { listSignals, placeOf, resolveSignalQuery } from "./signals";
import { languageModelOf, phraseWithModel, type LanguageModel } from "./ask-model";

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

type Planned = { target: SeriesTarget; topic: Topic; region: RegionRow; peer: SeriesTarget | null };

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
      /** Every series read is premium: the gate asks for premium access. */
      premium: boolean;
      /** The place the question is about (the first), for the gate's entitlement. */
      region: string | null;
    };

/** Reads held data only: a question never sets a provisioning fetch off (the data endpoints do). */
export function askContext(deps: Pick<Deps, "database" | "clock" | "caches" | "config">): AskContext {
  return { db: deps.database.db, caches: deps.caches, now: () => deps.clock.now(), model: languageModelOf(deps.config) };
}

export function createAsker(deps: Pick<Deps, "database" | "clock" | "caches" | "config">): Asker {
  const ctx = askContext(deps);
  return {
    async answer(input, opts = {}) {
      const plan = await planQuestion(ctx, input);
      return plan.kind === "answered" ? plan.response : runPlan(ctx, plan, { signals: opts.signals ?? false });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Planning


function emptyResponse(depth: AskDepth, status: "no_coverage" | "no_data", message: string, resolved: AskResponse["resolved"], extra: { rounds?: number; citations?: Citation[] } = {}): AskResponse {
  const citations = extra.citations ?? [];
  return {
    answer: null,
    citations,
    resolved,
    grounded: true,
    truncated: false,
    status,
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
  const list = await listIndicators(ctx, { search: term, include_inactive: false, limit: 100, offset: 0 });
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
  });
  // The hint stands for the place when the question names none; a hint that is no region is the caller's mistake.
  const hint = input.region !== undefined ? await resolveRegion(ctx, input.region) : null;
  const placeCodes = parsed.places.length ? parsed.places : hint ? [hint.code] : parsed.ambiguous.length ? [] : ["US"];
  const places = placeCodes.map((c) => index.byCode.get(c)!).filter(Boolean);
  const topicWindow = parsed.topics.find((t) => t.window)?.window;
  const window = parseWindow(input.window ?? (parsed.window ? formatWindow(parsed.window) : (topicWindow ?? DEFAULT_ASK_WINDOW)))!;
  const resolvedBase = { indicators: [], regions: places.map(regionOut), window: formatWindow(window) };

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

  const planned: Planned[] = [];
  const uncovered: string[] = [];
  const notHeld: string[] = [];
  const unheldTargets: SeriesTarget[] = [];
  const comparing = places.filter((p) => p.type === "country").length > 1;
  let truncated = false;
  for (const topic of topics) {
    for (const region of places) {
      const found = await candidatesFor(ctx, topic, region, comparing);
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
    // Premium when every series is: a question that also reads free series is answered from those for a key without
    // premium access (the handler leaves the premium ones out), as signals are.
    premium: planned.every((p) => targetPremium(p.target)),
    region: usedRegions[0]?.code ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Running

function seriesArgs(t: SeriesTarget): Record<string, string> {
  const code = targetCode(t);
  const source = t.kind === "stored" ? t.indicator.sourceSlug : null;
  return { indicator: code, ...(source ? { source } : {}), region: t.region.code };
}

/** A concept's plain name ("Unemployment rate") reads better than its series' ("... by State, Annual Average"). */
function nameOf(t: SeriesTarget): string {
  if (t.kind !== "stored") return t.concept.name;
  return (t.concept ? getConcept(t.concept.code)?.name : null) ?? t.indicator.name;
}

function unitOf(t: SeriesTarget): string | null {
  return t.kind === "stored" ? t.indicator.unit : t.unit;
}

function latestSummary(t: SeriesTarget, place: string, obs: LatestObservation | null): string {
  if (!obs) return `${place}: no value of ${targetCode(t)} is held.`;
  return `${place}, ${targetCode(t)} (${nameOf(t)}): ${formatValue(obs.value, obs.unit, decimalsOf([obs.value]))} for ${formatDate(obs.period_start, t.frequency as Frequency)}${obs.is_preliminary ? " (preliminary)" : ""}.`;
}

function insightsSummary(body: InsightsBody): string {
  const top = body.facts[0];
  return `${body.facts.length} fact(s) over ${body.meta.window} (${body.meta.observation_count} observations)${top ? `; most salient: ${top.text}` : ""}${body.signals.length ? `; ${body.signals.length} active signal(s)` : ""}`;
}

/** Facts with a salience, the topic's lead kinds first, then by salience (the service's order). */
function leadFirst<F extends { kind: string; salience: number }>(facts: readonly F[], lead: readonly string[]): F[] {
  const useful = facts.filter((f) => f.salience > 0 || lead.includes(f.kind));
  return [...useful.filter((f) => lead.includes(f.kind)), ...useful.filter((f) => !lead.includes(f.kind))];
}

export async function runPlan(ctx: AskContext, plan: Extract<AskPlan, { kind: "run" }>, opts: { signals: boolean }): Promise<AskResponse> {
  const ceilings = ASK_CEILINGS[plan.depth];
  const citations: Citation[] = plan.searches.map((s) => s.citation);
  const results: unknown[] = plan.searches.map((s) => s.result);
  let rounds = plan.searches.length ? 1 : 0;
  let truncated = plan.truncated;
  const regions = await regionIndex(ctx);
  const place = (r: RegionRow) => placeOf(r, regions.byCode);

  /** Runs one round of calls within the ceilings; the calls beyond them are not made. */
  async function round<T>(calls: { tool: Citation["tool"]; args: Record<string, string | number | boolean>; run: () => Promise<T>; summary: (r: T) => string }[]): Promise<(T | undefined)[]> {
    if (calls.length === 0) return [];
    if (rounds >= ceilings.rounds) {
      truncated = true;
      return calls.map(() => undefined);
    }
    const room = Math.max(0, ceilings.toolCalls - citations.length);
    if (room < calls.length) truncated = true;
    const made = calls.slice(0, room);
    if (made.length === 0) return calls.map(() => undefined);
    rounds++;
    const out = await Promise.all(made.map((c) => c.run()));
    made.forEach((c, k) => {
      citations.push({ tool: c.tool, args: c.args, summary: c.summary(out[k]) });
      results.push(out[k]);
    });
    return calls.map((_, k) => (k < made.length ? out[k] : undefined));
  }

  // Round: the latest value of every series and peer.
  const reads = plan.series.flatMap((p) => [p.target, ...(p.peer ? [p.peer] : [])]);
  const latest = await round(
    reads.map((t) => ({ tool: "get_latest" as const, args: seriesArgs(t), run: () => getLatest(ctx, t), summary: (obs: LatestObservation | null) => latestSummary(t, place(t.region), obs) })),
  );
  const latestOf = new Map(reads.map((t, k) => [t, latest[k] ?? null]));
  // Round: insights of every series (its facts, and the series' own active signals).
  const windowText = formatWindow(plan.window);
  const insights = await round(
    plan.series.map((p) => ({
      tool: "get_insights" as const,
      args: { ...seriesArgs(p.target), window: windowText },
      run: () => getInsights(ctx, { ...p.target, window: plan.window }),
      summary: insightsSummary,
    })),
  );
  // Round (briefing, for a caller entitled to signals): what is notable now in each place.
  const signalTexts: string[] = [];
  if (opts.signals && ceilings.signals > 0) {
    const placesRead = [...new Map(plan.series.map((p) => [p.region.code, p.region])).values()];
    const lists = await round(
      placesRead.map((r) => ({
        tool: "get_active_signals" as const,
        args: { region: r.code, strength: "neutral", limit: ceilings.signals },
        run: async () => listSignals(ctx, await resolveSignalQuery(ctx, { endpoint: "active", region: [r.code], strength: "neutral", limit: ceilings.signals })),
        summary: (page: Awaited<ReturnType<typeof listSignals>>) => `${page.data.length} active signal(s) in ${place(r)}${page.data.length ? `: ${page.data.map((s) => s.text).join(" ")}` : "."}`,
      })),
    );
    for (const page of lists) for (const s of page?.data ?? []) signalTexts.push(s.text);
  }

  const composed: ComposedSeries[] = plan.series.map((p, k) => {
    const obs = latestOf.get(p.target) ?? null;
    const body = insights[k];
    const peerObs = p.peer ? (latestOf.get(p.peer) ?? null) : null;
    return {
      name: nameOf(p.target),
      place: place(p.region),
      frequency: p.target.frequency as Frequency,
      unit: unitOf(p.target),
      latest: obs ? { date: obs.period_start, value: obs.value, preliminary: obs.is_preliminary } : null,
      facts: leadFirst(body?.facts ?? [], p.topic.leadFacts ?? []).slice(0, ceilings.facts).map((f) => f.text),
      peers: p.peer
        ? [{ name: nameOf(p.peer), place: place(p.peer.region), frequency: p.peer.frequency as Frequency, unit: unitOf(p.peer), latest: peerObs ? { date: peerObs.period_start, value: peerObs.value } : null }]
        : [],
    };
  });
  if (composed.every((s) => s.latest === null)) {
    return { ...emptyResponse(plan.depth, "no_data", "The series for this question hold no values there.", plan.resolved, { rounds, citations }), truncated };
  }
  const draft = composeAnswer({ series: composed, signals: signalTexts });
  let answer = draft;
  let model = DETERMINISTIC_MODEL;
  if (ctx.model) {
    const phrased = await phraseWithModel(ctx.model, { question: plan.question, draft, citations });
    if (phrased && verifyNumbers(phrased, results).grounded) {
      answer = phrased;
      model = ctx.model.model;
    }
  }
  const verification = verifyNumbers(answer, results);
  return {
    answer,
    citations,
    resolved: plan.resolved,
    grounded: verification.grounded,
    truncated,
    status: "ok",
    meta: { depth: plan.depth, rounds, toolCalls: citations.length, model },
  };
}

