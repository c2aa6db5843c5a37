// Which series of a topic a question means (pure), read beside its topics and intent:
// - "GDP growth", "is the economy growing", "GDP after inflation": real GDP's, unless nominal is asked ("nominal GDP
//   growth", "in current dollars", "in nominal terms": nominal GDP's); the answer's sentence names which.
// - "How big is Mexico's economy", "the size of the US economy": a size is a dollar amount, nominal GDP (the
//   economy's group of topics stands for its size only), and the answer says it is nominal; "did the economy shrink"
//   is about its output, real GDP, not the group's other topics. Read before the intent.
// - A topic that is the yearly change of another's level (population change: of the population), asked over a
//   longer span ("population change since 2010"), is that level's change: a yearly change has no change since 2010.
// - "Did inflation fall last year?": a rate named by its own word ("inflation", the growth of prices) rises or falls
//   as a rate, so a yes/no change of it is its direction (58.5% to 34.9% fell), never the sign of its value (prices
//   still rose). "Did prices fall" keeps the sign.
import type { Topic } from "./lexicon";
import { TOPIC_WORDS } from "./topic-words";
import { TOPICS } from "./topics";
import type { IntentReading } from "./intent";
import { spanMonths } from "./periods";

const topicNamed = (id: string) => TOPICS.find((t) => t.id === id)!;

const NOMINAL = /\bnominal\b|\bcurrent dollars\b|\bnot adjusted for inflation\b/i;
const SIZE = /\bhow (?:big|large)\b|\bsize\b|\bworth\b|\bin dollars\b|\b(?:bigger|larger|smaller)\b/i;
const MOVE_WORDS = /\b(grow\w*|grew|shrink\w*|shrank|shrunk|contract\w*|expand\w*)\b/i;
const GROWTH_WORDS = /\b(grow\w*|grew|growth|gdp|real|shrink\w*|shrank)\b/i;

export function economySize(topics: readonly Topic[], question: string): Topic[] {
  const economy = /\beconom(y|ies)\b/i.test(question) && topics.some((t) => t.id === "real_gdp");
  if (economy && SIZE.test(question) && !GROWTH_WORDS.test(question)) return [topicNamed("gdp")];
  // "Did the economy shrink?": its output's growth, real GDP's, not the group's other topics.
  if (economy && MOVE_WORDS.test(question)) return topics.filter((t) => t.id === "real_gdp" || t.id === "gdp");
  return [...topics];
}

export function levelOfChange(topics: readonly Topic[], reading: IntentReading): Topic[] {
  const i = reading.intent;
  const longer = i.kind === "change" && (i.since !== null || (i.months ?? 0) > 12);
  return topics.map((t) => (longer && t.changeOf ? topicNamed(t.changeOf) : t));
}

export function realOrNominal(
  topics: readonly Topic[],
  reading: IntentReading,
  question: string,
  real: boolean,
): Topic[] {
  const nominal = NOMINAL.test(question);
  const growth = reading.intent.kind === "growth" || reading.intent.kind === "direction" || /\bgrow/i.test(question);
  if (nominal)
    return topics.map((t) => (t.id === "real_gdp" && !topics.some((x) => x.id === "gdp") ? topicNamed("gdp") : t));
  if ((growth || real) && !topics.some((t) => t.id === "real_gdp"))
    return topics.map((t) => (t.id === "gdp" ? topicNamed("real_gdp") : t));
  return [...topics];
}

const MOVED =
  /\b(rise|rose|risen|rising|fall|fell|fallen|falling|go up|gone up|went up|go down|gone down|went down|come down|increase[sd]?|decrease[sd]?|drop(?:ped)?|declin\w*|climb\w*|ease[sd]?|cool(?:ed)?)\b/i;

export function rateMoves(topics: readonly Topic[], reading: IntentReading, question: string): IntentReading {
  const i = reading.intent;
  if (
    !reading.yesNo ||
    (i.kind !== "change" && i.kind !== "growth") ||
    i.at !== null ||
    (i.kind === "change" && i.since !== null) ||
    !MOVED.test(question)
  )
    return reading;
  const word = topics[0] ? TOPIC_WORDS[topics[0].id]?.growth?.split(" ").at(-1) : undefined;
  if (!word || !new RegExp(`\\b${word}\\b`, "i").test(question)) return reading;
  return { ...reading, intent: { kind: "direction", months: spanMonths(question.toLowerCase()) } };
}
