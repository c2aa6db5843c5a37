// How ask sees a series it read (src/domain/ask/lead.ts View): named as people name it, with what its values are
// (the catalog's meta.values: value-kinds.ts), and which lead answers the question for it. Episodes for the
// questions that need them ("during the Great Recession", "since its peak") come from the held NBER indicator.
import { directionLead, episodeLead, sincePeakLead, thresholdLead } from "../domain/ask/moves";
import type { IntentReading } from "../domain/ask/intent";
import { leadSentence, type Lead, type View } from "../domain/ask/lead";
import type { Topic } from "../domain/ask/lexicon";
import { TOPIC_WORDS } from "../domain/ask/topic-words";
import { episodesOf, episodeWindow, latestEpisode, namedEpisode, recessionsOf, type Episode } from "../domain/episodes";
import type { Frequency } from "../domain/calendar";
import { getConcept } from "../domain/concepts";
import { indicatorPhrase } from "../domain/prose";
import { inferValueSpec, valueSpecOf, type ValueSpec } from "../domain/value-kinds";
import { resolveSeriesTarget, type SeriesTarget } from "./concepts";
import { seriesData, targetCode, type ReadContext } from "./series-read";

/** A concept's plain name ("Unemployment rate") reads better than its series' ("... by State, Annual Average"). */
export function nameOf(t: SeriesTarget): string {
  if (t.kind !== "stored") return t.concept.name;
  return (t.concept ? getConcept(t.concept.code)?.name : null) ?? t.indicator.name;
}

export function unitOf(t: SeriesTarget): string | null {
  return t.kind === "stored" ? t.indicator.unit : t.unit;
}

/** The topic's words for a series: a topic of several series (recession: USREC, then the Sahm rule) names its first. */
const wordsFor = (code: string, topic: Topic) =>
  topic.us && topic.us.length > 1 && code !== topic.us[0] ? undefined : TOPIC_WORDS[topic.id];

/**
 * How an answer names a series: the topic's words for it, else its catalog name as a phrase; a series that is itself
 * a change (GDP growth, inflation as annual %) is named as the change ("real GDP growth", "inflation").
 */
export function seriesLabel(code: string, catalogName: string, topic: Topic, values: ValueSpec): string {
  const words = wordsFor(code, topic);
  const label = words?.labels?.[code] ?? words?.label ?? indicatorPhrase(catalogName);
  if (values.kind !== "change" || !words || !(words.growth || words.growthName)) return label;
  return (words.growth ?? words.growthName!.replace(/ \(.*\)$/, "")).replace(/^the /, "");
}

/** The series as an answer names it (seriesLabel), with what its values are. */
export function viewOf(t: SeriesTarget, topic: Topic, place: string, points: View["points"]): View {
  const words = wordsFor(targetCode(t), topic);
  const unit = unitOf(t);
  const values = t.kind === "stored" ? valueSpecOf(t.indicator) : inferValueSpec(unit);
  const binary = values.kind === "binary";
  return {
    label: seriesLabel(targetCode(t), nameOf(t), topic, values),
    growthLabel: words?.growth ?? null,
    growthName: words?.growthName ?? null,
    place,
    frequency: t.frequency as Frequency,
    unit,
    points,
    values,
    state: words?.state === "recession" && binary ? "recession" : words?.state === "inversion" ? "inversion" : null,
    jobs: !!words?.jobs && /^thousands of persons/i.test(unit ?? ""),
    lagging: !!words?.lagging,
    category: t.kind === "stored" ? t.indicator.category : null,
  };
}

/** The held NBER recession indicator's episodes (with the named ones), read through the series cache; [] when not held. */
export async function readEpisodes(ctx: ReadContext): Promise<{ episodes: Episode[]; target: SeriesTarget | null }> {
  try {
    const target = await resolveSeriesTarget(ctx, { code: "USREC", region: "US" });
    const data = await seriesData(ctx, target);
    return { episodes: episodesOf(recessionsOf(data.points)), target };
  } catch {
    return { episodes: episodesOf([]), target: null };
  }
}

export type LeadContext = { question: string; reading: IntentReading; episodes: Episode[]; episode: string | null };

/** Whether the question is about a growth topic's rate itself ("is inflation going up"), not its index. */
function ofGrowthRate(v: View, question: string): boolean {
  if (!v.growthLabel) return false;
  const word = v.growthLabel.split(" ").at(-1)!;
  return new RegExp(`\\b${word}\\b`, "i").test(question);
}

/** The lead of one series for the question (lead.ts for values and changes, moves.ts for moves and peaks). */
export function leadFor(v: View, c: LeadContext): Lead {
  const { intent, yesNo } = c.reading;
  const down = !!c.reading.down;
  if (v.state) return leadSentence(v, intent, yesNo, down);
  // A growth topic's episodes and peaks are its growth's (peak inflation, not the index's record).
  const ofGrowth = v.growthLabel !== null;
  if (intent.kind === "direction")
    return directionLead(v, intent, yesNo, down, {
      ofGrowth: ofGrowthRate(v, c.question),
      asksChange:
        /\b(growth|inflation|rate|pace|change|migration|faster|slower|slowing|accelerating|picking up)\b/i.test(
          c.question,
        ),
    });
  if (intent.kind === "threshold") return thresholdLead(v, intent, yesNo, ofGrowth);
  if (intent.kind === "episode") {
    const e = c.episode ? namedEpisode(c.episode, c.episodes) : null;
    if (e) return episodeLead(v, e, episodeWindow(e, c.episodes, !!v.lagging), intent.dir, ofGrowth, yesNo, down);
    return leadSentence(
      v,
      intent.dir ? { kind: "extreme", dir: intent.dir, since: null } : { kind: "level", at: null },
      yesNo,
      down,
    );
  }
  if (intent.kind === "since_peak") {
    const last = v.points.at(-1)?.date ?? "9999-12-31";
    const e = intent.allTime
      ? null
      : ((c.episode ? namedEpisode(c.episode, c.episodes) : null) ??
        latestEpisode(c.episodes, v.category ?? null, last));
    return sincePeakLead(
      v,
      intent,
      yesNo,
      e ? { e, window: episodeWindow(e, c.episodes, !!v.lagging) } : null,
      ofGrowth,
    );
  }
  return leadSentence(v, intent, yesNo, down);
}
