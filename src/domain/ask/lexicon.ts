// The ask lexicon: how people name what the catalog holds. Data, not code: each topic lists the phrases that name it
// (matched as whole words, longest first, after folding case and plurals: see parse.ts) and the series it stands
// for:
// - `us`: the series for the United States as a whole (FRED's national series, which are current and monthly where
//   a concept's country level is annual);
// - `concept`: a concept of src/domain/concepts.ts, resolved per region kind by the catalog (the held series first);
// - `byKind`: series offered per region kind that no concept curates (Census components of change).
// A topic names no series for a region kind it does not list: that place is not covered for it.
// Groups (`members`) stand for several topics at once ("labour market": unemployment, payrolls, openings, claims),
// when the question names no single topic ("jobs added to the economy" is about payrolls).
// A topic lists `byKind` before `concept`: its own series for a kind win over the concept's.
// The topics themselves are topics/ (one module per family); how an answer names each topic is topic-words.ts's; the
// words of a question that name no topic (fillers, order words, the nation) are common-words.ts's.
import type { RegionKind } from "../concepts";

export type Topic = {
  id: string;
  phrases: readonly string[];
  us?: readonly string[];
  concept?: string;
  byKind?: Partial<Record<RegionKind, readonly string[]>>;
  /** A default window for questions about it that name none (inflation is a 12-month question). */
  window?: string;
  /** Insight fact kinds that answer it best, told before the most salient others (inflation: the year's trend rate). */
  leadFacts?: readonly string[];
  /**
   * Things people ask for that no held series measures, for which this topic is the closest held answer
   * ("mortgage rates": the 10-year Treasury yield); the answer says what was read and why.
   */
  nearest?: { phrases: readonly string[]; why: string };
  /** Words that stand for it only when the question names no topic and the catalog finds nothing ("prices"). */
  broad?: readonly string[];
  /**
   * Phrases that name it only when the question names no other topic: "the most people" is the population, but
   * "gained the most people from migration" is migration, counted in people.
   */
  weak?: readonly string[];
  /** The topic whose level this one is the yearly change of (population change: the population's). */
  changeOf?: string;
};

export type TopicGroup = { id: string; phrases: readonly string[]; members: readonly string[] };

export const TOPIC_GROUPS: readonly TopicGroup[] = [
  {
    id: "labor_market",
    phrases: ["labor market", "labour market", "job market", "jobs market", "employment situation"],
    members: ["unemployment_rate", "payrolls", "job_openings", "claims", "wages"],
  },
  {
    id: "economy",
    phrases: ["the economy", "economy", "economic conditions", "economic outlook", "economic health"],
    members: ["real_gdp", "unemployment_rate", "inflation", "population", "income"],
  },
  {
    id: "housing_market",
    phrases: ["housing market", "housing", "real estate"],
    members: ["housing_starts", "home_values"],
  },
  {
    id: "demographics",
    phrases: ["demographics", "demographic"],
    members: ["population", "population_change", "net_migration"],
  },
];
