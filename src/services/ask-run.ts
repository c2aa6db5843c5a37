// Running an ask plan (after the payment gate; see ask.ts). Rounds of tool calls through the services the REST
// endpoints use, each a citation whose args replay it:
// 1. the reads: get_latest (/v1/observations/latest) when the newest value answers; get_observations
//    (/v1/observations, with transform=yoy for a 12-month change of a level or an index) when the answer is a change,
//    a rate of change, a direction, an extreme, an episode, a named period or a comparison at one period, and of the
//    NBER recession indicator when the answer reads an episode; rank_regions for a ranking (ask-rank.ts); get_flows
//    for where people move (ask-flows.ts);
// 2. get_insights of each series (the context after the answer);
// 3. at depth=briefing, for a caller entitled to them, get_active_signals of each place.
// Then the answer's sections (ask-sections.ts: the lead sentences of src/domain/ask/lead.ts, comparisons, facts), the
// composer, an optional model's phrasing (served only when it is plain prose whose every number the checker reads:
// verify.ts draftProblems and verifyNumbers), and the served text made safe for any HTML context (safeText).
// `grounded` is the checker's verdict on the text served.
import { composeAnswer, DETERMINISTIC_MODEL } from "../domain/ask/compose";
import type { Intent } from "../domain/ask/intent";
import { growthComputed, type View } from "../domain/ask/lead";
import type { Topic } from "../domain/ask/lexicon";
import { TOPIC_WORDS } from "../domain/ask/topic-words";
import type { Episode } from "../domain/episodes";
import { draftProblems, safeText, verifyNumbers } from "../domain/ask/verify";
import { isFrequency, type Frequency } from "../domain/calendar";
import { freshnessAt } from "../domain/freshness";
import { decimalsOf, formatDate, formatValue } from "../domain/prose";
import { formatWindow } from "../domain/window";
import type { AskResponse, Citation } from "../schemas/ask";
import { phraseWithModel } from "./ask-model";
import { ASK_CEILINGS, type AskContext, type AskPlan } from "./ask-plan";
import { emptyResponse } from "./ask-response";
import { runRank } from "./ask-rank";
import { runFlows } from "./ask-flows";
import { answerSections } from "./ask-sections";
import { leadFor, nameOf, readEpisodes, unitOf, viewOf, type LeadContext } from "./ask-views";
import { targetCode, seriesData } from "./series-read";
import type { SeriesTarget } from "./concepts";
import { getInsights, type InsightsBody } from "./insights";
import { getLatest, type LatestObservation } from "./latest";
import { regionIndex, type RegionRow } from "./regions";
import { listSignals, placeOf, resolveSignalQuery } from "./signals";

type RunPlan = Extract<AskPlan, { kind: "run" }>;

function seriesArgs(t: SeriesTarget): Record<string, string> {
  const code = targetCode(t);
  const source = t.kind === "stored" ? t.indicator.sourceSlug : null;
  return { indicator: code, ...(source ? { source } : {}), region: t.region.code };
}

/** Whether the newest value alone answers (a level now, or a yes/no state read off the newest value). */
function newestAnswers(intent: Intent, topic: Topic): boolean {
  const words = TOPIC_WORDS[topic.id];
  if (words?.state) return true;
  return intent.kind === "level" && intent.at === null && !words?.growth;
}

function latestSummary(t: SeriesTarget, place: string, obs: LatestObservation | null): string {
  if (!obs) return `${place}: no value of ${targetCode(t)} is held.`;
  return `${place}, ${targetCode(t)} (${nameOf(t)}): ${formatValue(obs.value, obs.unit, decimalsOf([obs.value]))} for ${formatDate(obs.period_start, t.frequency as Frequency)}${obs.is_preliminary ? " (preliminary)" : ""}.`;
}

function insightsSummary(body: InsightsBody): string {
  const top = body.facts[0];
  return `${body.facts.length} fact(s) over ${body.meta.window} (${body.meta.observation_count} observations)${top ? `; most salient: ${top.text}` : ""}${body.signals.length ? `; ${body.signals.length} active signal(s)` : ""}`;
}

export async function runPlan(ctx: AskContext, plan: RunPlan, opts: { signals: boolean }): Promise<AskResponse> {
  const ceilings = ASK_CEILINGS[plan.depth];
  const citations: Citation[] = plan.searches.map((s) => s.citation);
  const results: unknown[] = plan.searches.map((s) => s.result);
  let rounds = plan.searches.length ? 1 : 0;
  let truncated = plan.truncated;
  // How current each series read is (meta.freshness), as the data endpoints say it.
  const freshness: NonNullable<AskResponse["meta"]["freshness"]> = [];
  const noteFreshness = (indicator: string, region: string, newest: string | null, cadence: Frequency) => {
    const f = freshnessAt(newest, cadence, ctx.now());
    if (f && !freshness.some((x) => x.indicator === indicator && x.region === region))
      freshness.push({ indicator, region, ...f });
  };
  const regions = await regionIndex(ctx);
  const place = (r: RegionRow) => placeOf(r, regions.byCode);

  /** Runs one round of calls within the ceilings; the calls beyond them are not made. */
  async function round<T>(
    calls: {
      tool: Citation["tool"];
      args: Record<string, string | number | boolean>;
      run: () => Promise<T>;
      summary: (r: T) => string;
      result?: (r: T) => unknown;
    }[],
  ): Promise<(T | undefined)[]> {
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
      results.push(c.result ? c.result(out[k]) : out[k]);
    });
    return calls.map((_, k) => (k < made.length ? out[k] : undefined));
  }

  async function finish(draft: string): Promise<AskResponse> {
    let answer = draft;
    let model = DETERMINISTIC_MODEL;
    // How places were read is part of what was looked up ("names 5 counties"): its numbers are results too.
    const checked = [...results, plan.notes];
    if (ctx.model) {
      const phrased = await phraseWithModel(ctx.model, { question: plan.question, draft, citations });
      if (phrased && draftProblems(phrased).length === 0 && verifyNumbers(phrased, checked).grounded) {
        answer = phrased;
        model = ctx.model.model;
      }
    }
    const served = safeText(answer);
    const verification = verifyNumbers(served, checked);
    return {
      answer: served,
      citations,
      resolved: plan.resolved,
      grounded: verification.grounded && draftProblems(served).filter((p) => p !== "markup").length === 0,
      truncated,
      status: "ok",
      meta: {
        depth: plan.depth,
        rounds,
        toolCalls: citations.length,
        model,
        ...(freshness.length ? { freshness } : {}),
      },
    };
  }

  if (plan.rank) {
    const rank = plan.rank;
    const [ranked] = await round([
      {
        tool: "rank_regions",
        args: {},
        run: () => runRank(ctx, rank),
        summary: (r) => r.citation.summary,
        result: (r) => r.result,
      },
    ]);
    if (!ranked)
      return {
        ...emptyResponse(plan.depth, "no_data", "The ranking was not read within the ceilings.", plan.resolved, {
          rounds,
          citations,
        }),
        truncated,
      };
    citations[citations.length - 1].args = ranked.citation.args;
    if (isFrequency(rank.indicator.frequency))
      noteFreshness(rank.indicator.code, rank.parent?.code ?? "US", rank.date, rank.indicator.frequency);
    return finish(
      composeAnswer({ sections: [{ lead: ranked.text, facts: [], peers: [] }], notes: plan.notes, signals: [] }),
    );
  }

  if (plan.flows) {
    const flows = plan.flows;
    const [moved] = await round([
      {
        tool: "get_flows",
        args: {},
        run: () => runFlows(ctx, flows),
        summary: (r) => r.citation.summary,
        result: (r) => r.result,
      },
    ]);
    if (!moved)
      return {
        ...emptyResponse(plan.depth, "no_data", "The flows were not read within the ceilings.", plan.resolved, {
          rounds,
          citations,
        }),
        truncated,
      };
    citations[citations.length - 1].args = moved.citation.args;
    return finish(
      composeAnswer({ sections: [{ lead: moved.text, facts: [], peers: [] }], notes: plan.notes, signals: [] }),
    );
  }

  const intent = plan.intent.intent;
  const comparing = intent.kind === "compare";
  // An episode's dates come from the held NBER indicator, read beside the series (cited, so they replay).
  const needsEpisodes = intent.kind === "episode" || (intent.kind === "since_peak" && !intent.allTime);
  const leadContext: LeadContext = {
    question: plan.question,
    reading: plan.intent,
    episodes: [],
    episode: plan.episode,
  };
  // Round: the reads of every series (and peer): the newest value, or the observations the answer is computed from.
  type Read = { target: SeriesTarget; topic: Topic; whole: boolean };
  const reads: Read[] = plan.series.flatMap((p) => [
    { target: p.target, topic: p.topic, whole: comparing || !newestAnswers(intent, p.topic) },
    ...(p.peer ? [{ target: p.peer, topic: p.topic, whole: true }] : []),
  ]);
  const yoy = (r: Read) =>
    (!!TOPIC_WORDS[r.topic.id]?.growth || intent.kind === "growth") &&
    growthComputed(viewOf(r.target, r.topic, "", []));
  const leadOf = (r: Read, pts: View["points"]) =>
    leadFor(viewOf(r.target, r.topic, place(r.target.region), pts), leadContext);
  const seriesCalls = reads.map((r) =>
    r.whole
      ? {
          tool: "get_observations" as const,
          args: {
            ...seriesArgs(r.target),
            ...(yoy(r) && r.target.frequency !== "daily" && r.target.frequency !== "weekly"
              ? { transform: "yoy" }
              : {}),
          },
          run: async () => (await seriesData(ctx, r.target)).points,
          summary: (pts: View["points"]) =>
            `${place(r.target.region)}, ${targetCode(r.target)}: ${pts.length} observations; ${leadOf(r, pts).text}`,
          result: (pts: View["points"]) => leadOf(r, pts).figures,
        }
      : {
          tool: "get_latest" as const,
          args: seriesArgs(r.target),
          run: async () => {
            const obs = await getLatest(ctx, r.target);
            return obs ? [{ date: obs.period_start, value: obs.value, preliminary: obs.is_preliminary }] : [];
          },
          summary: (pts: View["points"]) =>
            latestSummary(
              r.target,
              place(r.target.region),
              pts.length
                ? ({
                    value: pts[0].value,
                    unit: unitOf(r.target),
                    period_start: pts[0].date,
                    is_preliminary: !!pts[0].preliminary,
                  } as LatestObservation)
                : null,
            ),
        },
  );
  // The episodes' read runs in the same round; every summary is written after the round's reads, with its episodes.
  const episodeCall = {
    tool: "get_observations" as const,
    args: { indicator: "USREC", source: "fred", region: "US" },
    run: async () => {
      const read = await readEpisodes(ctx);
      leadContext.episodes = read.episodes;
      return read.episodes;
    },
    summary: (eps: Episode[]) =>
      `${eps.filter((e) => e.kind === "recession").length} recession(s) and named episodes: ${eps
        .filter((e) => e.name)
        .map((e) => `${e.name} ${e.start.slice(0, 7)} to ${e.end.slice(0, 7)}`)
        .join("; ")}.`,
    result: (eps: Episode[]) => eps.map((e) => ({ start: e.start, end: e.end })),
  };
  const got = (await round([...(needsEpisodes ? [episodeCall] : []), ...seriesCalls] as never[])).slice(
    needsEpisodes ? 1 : 0,
  );
  const pointsOf = new Map(reads.map((r, k) => [r.target, (got[k] as View["points"] | undefined) ?? null]));
  // Results for the checker: the values read (the computed figures were added with each read).
  reads.forEach((r, k) => {
    const pts = got[k] as View["points"] | undefined;
    if (pts && !r.whole) results.push(pts.map((p) => p.value));
    if (pts) {
      const newest = pts.reduce<string | null>(
        (d, p) => (p.value !== null && (d === null || p.date > d) ? p.date : d),
        null,
      );
      noteFreshness(targetCode(r.target), r.target.region.code, newest, r.target.frequency);
    }
  });

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
        run: async () =>
          listSignals(
            ctx,
            await resolveSignalQuery(ctx, {
              endpoint: "active",
              region: [r.code],
              strength: "neutral",
              limit: ceilings.signals,
            }),
          ),
        summary: (page: Awaited<ReturnType<typeof listSignals>>) =>
          `${page.data.length} active signal(s) in ${place(r)}${page.data.length ? `: ${page.data.map((s) => s.text).join(" ")}` : "."}`,
      })),
    );
    for (const page of lists) for (const s of page?.data ?? []) signalTexts.push(s.text);
  }

  const views = plan.series.map((p) => {
    const pts = pointsOf.get(p.target);
    return pts && pts.length ? viewOf(p.target, p.topic, place(p.region), pts) : null;
  });
  if (views.every((v) => v === null)) {
    return {
      ...emptyResponse(plan.depth, "no_data", "The series for this question hold no values there.", plan.resolved, {
        rounds,
        citations,
      }),
      truncated,
    };
  }
  const sections = answerSections(
    plan,
    { views, insights, pointsOf, leadContext, place, facts: ceilings.facts },
    results,
  );
  return finish(composeAnswer({ sections, notes: plan.notes, signals: signalTexts }));
}
