// The sections of an ask answer (ask-run.ts reads the series; compose.ts joins the sections): for each series read,
// its lead sentence (lead.ts, through ask-views.ts) with its peer's beside it and its most useful insight facts, named
// as people name the series; places of one topic compared at one period (compare.ts); and, for "are wages keeping up
// with inflation?", the two 12-month changes side by side first. Every figure said is added to the checker's results.
import type { Section } from "../domain/ask/compose";
import { compareLead, growthRace, newestNote, peerSentence } from "../domain/ask/compare";
import type { View } from "../domain/ask/lead";
import { capitalise, indicatorPhrase } from "../domain/prose";
import type { AskPlan } from "./ask-plan";
import { leadFor, nameOf, viewOf, type LeadContext } from "./ask-views";
import type { SeriesTarget } from "./concepts";
import type { InsightsBody } from "./insights";
import type { RegionRow } from "./regions";

type RunPlan = Extract<AskPlan, { kind: "run" }>;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Facts with a salience, the topic's lead kinds first, then by salience (the service's order). */
function leadFirst<F extends { kind: string; salience: number }>(facts: readonly F[], lead: readonly string[]): F[] {
  const useful = facts.filter((f) => f.salience > 0 || lead.includes(f.kind));
  return [...useful.filter((f) => lead.includes(f.kind)), ...useful.filter((f) => !lead.includes(f.kind))];
}

/** What the sections are made from: each series' view (null: no value held there) and insights, every point read. */
export type SectionInputs = {
  views: (View | null)[];
  insights: (InsightsBody | undefined)[];
  pointsOf: Map<SeriesTarget, View["points"] | null>;
  leadContext: LeadContext;
  place: (r: RegionRow) => string;
  /** The most facts told of each series (the depth's ceiling). */
  facts: number;
};

/** The answer's sections, in the order told; each figure they say is pushed to `results` (what the checker reads). */
export function answerSections(plan: RunPlan, inputs: SectionInputs, results: unknown[]): Section[] {
  const { views, insights, pointsOf, leadContext, place } = inputs;
  const intent = plan.intent.intent;
  const comparing = intent.kind === "compare";
  // Facts name the series as the catalog does; the answer names it as people do. A 0/1 indicator's facts ("unchanged
  // at 0") say nothing the yes/no lead has not said.
  const factsOf = (k: number) => {
    const v = views[k];
    if (!v || v.state === "recession") return [];
    const t = plan.series[k].target;
    const catalogName = indicatorPhrase(t.kind === "stored" ? t.indicator.name : t.concept.name);
    // One pass, so a label that contains the catalog's name ("real GDP growth" for "GDP growth") is not renamed twice.
    const name = new RegExp(`(${escapeRegExp(capitalise(catalogName))}|${escapeRegExp(catalogName)})`, "g");
    const plain = (text: string) =>
      text.replace(name, (m, _g, at: number) =>
        m !== catalogName || at === 0 || /[.!?]\s$/.test(text.slice(0, at)) ? capitalise(v.label) : v.label,
      );
    return leadFirst(insights[k]?.facts ?? [], plan.series[k].topic.leadFacts ?? [])
      .slice(0, inputs.facts)
      .map((f) => plain(f.text));
  };
  const sections: Section[] = [];
  // A comparison: the places of one topic set side by side at one period, then each place's context.
  const done = new Set<number>();
  if (comparing) {
    for (const topic of [...new Set(plan.series.map((p) => p.topic))]) {
      const ks = plan.series.map((p, k) => (p.topic === topic && views[k] ? k : -1)).filter((k) => k >= 0);
      if (ks.length < 2) continue;
      // "in 2023": compared at the newest period both hold up to then.
      const until =
        intent.kind === "compare" && intent.at ? (intent.at.length === 4 ? `${intent.at}-12-31` : intent.at) : null;
      const compared = ks.map((k) =>
        until ? { ...views[k]!, points: views[k]!.points.filter((p) => p.date <= until) } : views[k]!,
      );
      const lead = compareLead(compared, intent.kind === "compare" ? intent.dir : null, plan.intent.yesNo);
      results.push(lead.figures);
      // Like with like: the comparison is at one period; each place's newer value is said apart, never paired.
      const newest = newestNote(compared, lead.date);
      sections.push({ lead: lead.text, facts: newest ? [newest] : [], peers: [] });
      ks.forEach((k) => done.add(k));
    }
  }
  plan.series.forEach((p, k) => {
    if (done.has(k)) return;
    const v = views[k];
    if (!v) {
      sections.push({
        lead: `No value of ${nameOf(p.target).toLowerCase()} is held for ${place(p.region)}.`,
        facts: [],
        peers: [],
      });
      return;
    }
    const lead = leadFor(v, leadContext);
    results.push(lead.figures);
    const peerPts = p.peer ? pointsOf.get(p.peer) : null;
    const peer =
      p.peer && peerPts?.length ? peerSentence(v, viewOf(p.peer, p.topic, place(p.peer.region), peerPts)) : null;
    if (peer) results.push(peer.figures);
    sections.push({ lead: lead.text, facts: factsOf(k), peers: peer ? [peer.text] : [] });
  });
  // "Are wages keeping up with inflation?": the two 12-month changes side by side, first.
  // Two series of one topic in two places are a comparison (above), not a race.
  if (
    /\b(keep(?:ing)? up|outpac\w*|faster than|ahead of)\b/i.test(plan.question) &&
    views.length === 2 &&
    views[0] &&
    views[1] &&
    views[0].label !== views[1].label
  ) {
    const race = growthRace(views[0], views[1]);
    if (race) {
      results.push(race.figures);
      sections.unshift({ lead: race.text, facts: [], peers: [] });
    }
  }
  return sections;
}
