// What kind of answer a question wants (pure, deterministic), read beside its topics and places (parse.ts):
// - level: the value ("what is the unemployment rate"), optionally at a named month or year ("in April 2020");
// - growth: how fast it grows ("inflation" of a price index always; "how fast is X growing", "has X grown"), the
//   arithmetic chosen from what the values are (value-kinds.ts);
// - change: the difference over a span ("jobs added last month", "in November 2025", "over the past year", "since 2021");
// - direction: which way it is going ("going up or down", "is X rising", "trending"), answered with the word first;
// - extreme: the highest or lowest value held ("record", "peak", "highest ever", "when was X at its highest");
// - episode: a value during a named episode ("the peak during the Great Recession"; episodes.ts);
// - since_peak: against the most recent episode's peak ("since its peak", "below its peak"), or the all-time one
//   when "all-time", "ever" or "record" is said;
// - rank: a place kind ordered or filtered by the series ("which state has the highest", "lowest among the states",
//   "top 5 counties in Texas", "which states are above 5%", "how many countries have inflation over 10%");
// - compare: two or more places ("higher in A or B", "A vs B", "does A have more than B");
// - flows: where people moving out of a place go, or where people moving in come from;
// - yes/no: a question that opens with is/are/did/does/has ("is the US in a recession", "did the population grow").
// The question's words are read as written; places and topics are the parser's.
import type { RegionKind } from "../concepts";
import { readThreshold, type Threshold } from "../place-sets";
import { sinceEpisodeYear } from "../episodes";
import { COUNT, namedPeriod, spanMonths } from "./periods";

export type Direction = "max" | "min";
export type Intent =
  | { kind: "level"; at: string | null }
  | { kind: "growth"; at: string | null; months?: number | null }
  | { kind: "change"; at: string | null; months: number | null; since: string | null }
  | { kind: "direction"; months: number | null }
  | { kind: "extreme"; dir: Direction; since: string | null; at?: string | null }
  | { kind: "episode"; dir: Direction | null }
  | { kind: "since_peak"; dir: Direction; allTime: boolean; claim: "below" | "above" | null }
  | {
      kind: "rank";
      dir: Direction;
      count: number;
      placeKind: RegionKind;
      filter: (Threshold & { percent: boolean; scaled: boolean }) | null;
      by?: "growth";
      at?: string;
    }
  | { kind: "threshold"; op: Threshold["op"]; value: number }
  | { kind: "compare"; dir: Direction | null; at?: string }
  | { kind: "flows"; way: "out" | "in" | "between"; reversed?: boolean };

/**
 * `down`: a yes/no question asks about a fall ("did it shrink", "is it falling"), so "yes" means the change is
 * negative. `episode`: the question names an episode (the service finds which: episodes.ts namedEpisode).
 */
export type IntentReading = {
  intent: Intent;
  yesNo: boolean;
  down?: boolean;
  polar?: "best" | "worst";
  moved?: "worse" | "better";
};

const MAX_WORDS =
  /\b(highest|most|largest|biggest|greatest|top|max|maximum|peak|peaked|record high|all[- ]time high|fastest|richest|hottest|how high(?! (?:is|are)\b))\b/;
const MIN_WORDS =
  /\b(lowest|least|smallest|fewest|bottom|min|minimum|record low|all[- ]time low|slowest|trough|bottomed|poorest|cheapest|how low(?! (?:is|are)\b))\b/;
/** Words whose direction is the indicator's polarity: best unemployment is the lowest (planner: up_is_good). */
const BEST_WORDS = /\b(best|strongest|healthiest|best paying|highest paying)\b/;
const WORST_WORDS = /\b(worst|weakest|deepest|how bad)\b/;
/** "the biggest loss", "shrank the most": the most of a fall is the lowest change. */
const FALL_MOST =
  /\b(loss|losses|lost|lose|losing|shrank|shrunk|shrinking|shrink|declined|decline|declining|fell|fall|falling|dropped|drop)\b/;
const KIND_WORD: Record<string, RegionKind> = {
  state: "state",
  states: "state",
  county: "county",
  counties: "county",
  country: "country",
  countries: "country",
  nation: "country",
  nations: "country",
  world: "country",
  economies: "country",
  globally: "country",
};
const KINDS = "states?|count(?:y|ies)|countr(?:y|ies)|nations?|economies";
const NUMBER = "\\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty";

const GROWTH_WORDS =
  /\b(grow|grows|growing|grown|grew|growth|fast|faster|pace|rising|risen|rise|inflation|gone up|go up|increase|increasing|increased)\b/;
const CHANGE_WORDS =
  /\b(added|add|adds|gained|gain|gains|lost|lose|losses|created|create|cut|shed|changed|change|how much has|how much have|happened|hired|hires|how many more|how many fewer)\b/;
const YES_NO = /^(is|are|was|were|did|does|do|has|have|had|will)\b/;
const FALL_WORDS =
  /\b(fall|fell|fallen|falling|drop|dropped|dropping|decline|declined|declining|shrink|shrank|shrunk|shrinking|go down|gone down|going down|decrease|decreased|decreasing|lose|lost|losing|leaving|moving out|moved out|cooling|easing|slowing|weakening|down|cutting|contracting|shedding|lower|under|below)\b/;
/** "going up or down", "is X rising", "trending": which way, now. */
const DIRECTION_ASKED =
  /\b(up or down|down or up|rising or falling|falling or rising|increasing or decreasing|decreasing or increasing|growing or shrinking|shrinking or growing|higher or lower|better or worse|worse or better|improving or worsening|gaining or losing|losing or gaining|adding or losing|expanding or contracting|contracting or expanding|cutting or raising|raising or cutting|hiking or cutting|which way|what direction|direction|trending|heading|headed|trend)\b/;
const WORSE = /\b(worse|worsening|deteriorating)\b/;
const BETTER = /\b(better|improving|improved)\b/;
const PROGRESSIVE =
  /^(is|are)\b.*\b(rising|falling|going up|going down|increasing|decreasing|climbing|dropping|declining|growing|shrinking|improving|worsening|getting worse|getting better|cooling|heating up|slowing|accelerating|picking up|easing|coming down|moving up|losing|gaining|adding|shedding|cutting|raising|hiking|contracting|expanding|speeding up)\b/;
const SINCE_PEAK =
  /\b(?:since|from|below|off|under|past|above|over|than(?: at)?|compared (?:to|with)|versus|vs|relative to)\s+(?:its|their|the)\s+(?:(all[- ]time|record|recent|latest|last|most recent)\s+)?(?:[a-z0-9-]+\s+){0,2}?(peak|high|top|low|trough|bottom)s?\b/;
const FLOW_OUT =
  /\b(leaving|leave|left|move out of|moving out of|moved out of|moving away from|moved away from|move away from|moving from|moved from|move from|exodus|departing|destinations?)\b/;
const FLOW_IN =
  /\b(moving to|moved to|move to|moving into|moved into|coming to|come to|came to|coming from|come from|came from|arriving|origins?|sends?|sending|sent)\b/;
/** "Where are New Yorkers moving": a move asked of a place, with no word for which end. */
const MOVING = /\bwhere (?:are|do|did|have|were)\b.*\b(moving|move|moved|relocating|relocate|relocated)\b/;
const FLOW_ASKED =
  /\b(where|which (?:states?|count(?:y|ies)|places?)|destinations?|origins?|top (?:destinations?|origins?))\b/;

/**
 * Which end of a move the place is: "people leaving X", "from X", "X's residents moving" (out), "moving to X",
 * "into X", "come from" after it (in). Between two places: "from A to B".
 */
function flowWay(q: string, opts: IntentOptions): "out" | "in" | "between" {
  if (opts.places.length >= 2 && /\bfrom\b.*\b(to|into)\b/.test(q)) return "between";
  const before = opts.before ?? "";
  if (/^(from|leaving|leave|left|out of)$/.test(before)) return "out";
  if (/^(to|into)$/.test(before)) return "in";
  if (/\b(come|coming|came|move|moving|moved) from\b|\borigins?\b|\bnew residents\b/.test(q)) return "in";
  // "Where do Floridians move to?": the destination asked, so the place is where they leave.
  if (/\b(move|moving|moved|go|going|went|relocate|relocating|relocated|head|heading) to\W*$/.test(q)) return "out";
  return FLOW_OUT.test(q) || !FLOW_IN.test(q) ? "out" : "in";
}

export type IntentOptions = {
  places: readonly RegionKind[];
  /** The topic is a rate of change of an index (inflation). */
  growthTopic: boolean;
  /** Its counts are read as changes when the question says added/lost (payrolls). */
  changeTopic: boolean;
  /** The parser found an episode's name in the question. */
  episode?: boolean;
  /** Words naming a kind of place that no place name took ("which county", "in the world"). */
  kinds?: readonly string[];
  /** The word before the first place named ("from", "to", "leaving"): which end of a move it is. */
  before?: string | null;
};

/** Reads the intent (see the file comment). */
export function readIntent(question: string, opts: IntentOptions): IntentReading {
  const reading = readKind(question, opts);
  const q = question.toLowerCase();
  const down =
    reading.yesNo && FALL_WORDS.test(q) && !/\b(up or down|rising or falling|increasing or decreasing)\b/.test(q);
  // "Is inflation getting worse?": which way is worse is the series' polarity, for the planner to read.
  const moved =
    reading.yesNo && reading.intent.kind === "direction"
      ? WORSE.test(q)
        ? "worse"
        : BETTER.test(q)
          ? "better"
          : null
      : null;
  return { ...reading, ...(down ? { down } : {}), ...(moved ? { moved } : {}) };
}

const RISEN = /\b(gone up|go up|went up|risen|rose|rise|increased|climbed|grown|grew|up)\b/;
const SHRANK = /\b(shrank|shrunk|shrinking|contracted|contracting|declined|declining|lost|losing|fell|falling)\b/;
const GREW = /\b(grew|grown|growing|expanded|expanding|gained|gaining)\b/;
const GROWTH_RANK =
  /\b(growing|grew|grown|growth|shrank|shrinking|shrunk|gained|gaining|lost|losing|rose|risen|rising|fell|falling|increase|increased|decrease|decreased)\b/;

function rankReading(q: string, dir: Direction | null, kinds: readonly string[]): Intent | null {
  // "which countries have deflation": inflation below zero.
  const filter =
    readThreshold(q) ?? (/\bdeflation\b/.test(q) ? { op: "<" as const, value: 0, percent: true, scaled: false } : null);
  const kindMatch =
    new RegExp(`\\b(?:which|what)\\s+(?:[a-z.\\- ]{0,30}?\\s)?(${KINDS})\\b`).exec(q) ??
    new RegExp(`\\b(?:top|bottom)\\s+(?:${NUMBER})?\\s*(${KINDS})\\b`).exec(q) ??
    new RegExp(
      `\\b(?:of any|in any|than any|than (?:any )?other|compared (?:to|with) other)\\s+(state|county|country|nation)\\b`,
    ).exec(q) ??
    new RegExp(
      `\\b(?:among|of all|across|of|out of|in)\\s+(?:all\\s+)?(?:the\\s+)?(?:${NUMBER}\\s+)?(states|counties|countries|nations)\\b`,
    ).exec(q) ??
    new RegExp(`\\bin which (state|county|country)\\b`).exec(q) ??
    new RegExp(`\\bhow many (${KINDS})\\b`).exec(q) ??
    new RegExp(`\\b(?:${NUMBER})\\s+(${KINDS})\\s+(?:with|where|that|by)\\b`).exec(q) ??
    new RegExp(`\\b(${KINDS})\\s+(?:by|ranked by|with|where|that have|that had|whose|having)\\b`).exec(q) ??
    new RegExp(`\\brank(?:ed|ing)?\\b.*\\b(states|counties|countries)\\b`).exec(q) ??
    new RegExp(`\\b(?:list|show|name)\\s+(?:all\\s+)?(?:the\\s+)?(${KINDS})\\b`).exec(q);
  // A kind word no place name took ("highest unemployment county in Florida", "in the world"), else "where" asked of
  // the nation: its states.
  const kindWord = kindMatch?.[1] ?? kinds[0] ?? (/\bwhere\b/.test(q) ? "states" : null);
  if (!kindWord) return null;
  // "the country" after a preposition is the nation ("highest in the country"), not a ranking of countries.
  if (/^countr/.test(kindWord) && /\b(?:in|across) the country\b/.test(q) && !/\b(?:which|what) countr/.test(q))
    return null;
  const ranked = /\b(top|bottom|rank|ranked|ranking|list)\b/.test(q);
  // "which countries' economies shrank", "which states lost people": those whose change was below (above) zero.
  const signed =
    dir === null && !filter && /^(which|what)\b/.test(q) ? (SHRANK.test(q) ? "<" : GREW.test(q) ? ">" : null) : null;
  if (signed)
    return {
      kind: "rank",
      dir: signed === "<" ? "min" : "max",
      count: 10,
      placeKind: KIND_WORD[kindWord],
      filter: { op: signed, value: 0, percent: false, scaled: false },
      by: "growth",
    };
  if (dir === null && !filter && !ranked) return null;
  const n = new RegExp(
    `\\b(?:top|bottom|the)\\s+(${NUMBER})\\b|\\b(${NUMBER})\\s+(?:most |least )?(?:[a-z]+ )?(?:${KINDS})\\b`,
  ).exec(q);
  const word = n ? (n[1] ?? n[2]) : null;
  // "rank the states", "list the counties": the first ten; "which states": five.
  const count = word
    ? Math.min(10, Math.max(1, Number(word) || COUNT[word] || 1))
    : /\b(rank|ranked|ranking|list)\b/.test(q)
      ? 10
      : /\b(which|what) (states|counties|countries|nations)\b/.test(q)
        ? 5
        : 1;
  const by = GROWTH_RANK.test(q) ? ({ by: "growth" } as const) : {};
  return {
    kind: "rank",
    dir: dir ?? (/\bbottom\b/.test(q) ? "min" : "max"),
    count,
    placeKind: KIND_WORD[kindWord],
    filter,
    ...by,
  };
}

/** The direction a question asks for: its words, the polarity's (best, worst: the planner's), a fall's most. */
function directionAsked(q: string): { dir: Direction | null; polar?: "best" | "worst" } {
  // "Turkey's record inflation": a record alone is a high.
  const explicit: Direction | null = MAX_WORDS.test(q)
    ? "max"
    : MIN_WORDS.test(q)
      ? "min"
      : /\brecords?\b/.test(q)
        ? "max"
        : null;
  if (explicit)
    return {
      dir: explicit === "max" && FALL_MOST.test(q) && /\b(most|biggest|largest|greatest)\b/.test(q) ? "min" : explicit,
    };
  if (BEST_WORDS.test(q)) return { dir: "max", polar: "best" };
  if (WORST_WORDS.test(q)) return { dir: "max", polar: "worst" };
  return { dir: null };
}

function readKind(question: string, opts: IntentOptions): IntentReading {
  // "inflation-adjusted GDP" is real GDP: its "inflation" asks for no growth.
  const q = question
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\b(inflation[- ]adjusted|adjusted for inflation|after inflation)\b/g, "real");
  const yesNo = YES_NO.test(q);
  const at = namedPeriod(q);
  const { dir, polar } = directionAsked(q);
  const pole = polar ? { polar } : {};
  // Where people leaving a place go ("which state do most people leaving California move to") before any ranking.
  if (FLOW_ASKED.test(q) && (FLOW_OUT.test(q) || FLOW_IN.test(q) || MOVING.test(q)) && opts.places.length >= 1) {
    return { intent: { kind: "flows", way: flowWay(q, opts) }, yesNo: false };
  }
  const rank = rankReading(q, dir, opts.kinds ?? []);
  // "which country grew the fastest in 2024": the places read at that year.
  if (rank) return { intent: rank.kind === "rank" && at?.length === 4 ? { ...rank, at } : rank, yesNo: false, ...pole };
  if (opts.places.length >= 2 && /\b(move|moved|moving|movers|migrat\w*)\b/.test(q)) {
    if (/\b(from|between)\b.*\b(to|and)\b/.test(q)) return { intent: { kind: "flows", way: "between" }, yesNo: false };
    // "moved to Florida from New York": the origin named second (moves are held between states and counties).
    if (/\b(to|into)\b.*\bfrom\b/.test(q) && !opts.places.includes("country"))
      return { intent: { kind: "flows", way: "between", reversed: true }, yesNo: false };
  }
  if (opts.places.length >= 2) {
    const which: Direction | null = /\b(higher|more|bigger|larger|greater|above)\b/.test(q)
      ? "max"
      : /\b(lower|less|fewer|smaller|below)\b/.test(q)
        ? "min"
        : null;
    // "Is it higher in A or B" asks which, not yes or no.
    return { intent: { kind: "compare", dir: which, ...(at ? { at } : {}) }, yesNo: yesNo && !/\bor\b/.test(q) };
  }
  const peak =
    SINCE_PEAK.exec(q) ?? (yesNo && /\bpeaked\b/.test(q) ? ([, null, "peak"] as unknown as RegExpExecArray) : null);
  if (peak) {
    const allTime = (!!peak[1] && /all|record/.test(peak[1])) || /\b(all[- ]time|ever|on record|record)\b/.test(q);
    // What a yes/no question claims of the newest value against the peak (or the low).
    const away = /\b(recovered|recover|recovering|rebounded|bounced back|come back)\s+from\b/.test(q);
    const claim = away
      ? /low|trough|bottom/.test(peak[2])
        ? "above"
        : "below"
      : /\b(fallen|fell|fall|falling|below|off|under|down|lower|declined|dropped|come down|eased|cooled)\b/.test(q)
        ? "below"
        : /\b(risen|rose|rise|rising|above|over|up|higher|recovered|back|exceeded|surpassed)\b/.test(q)
          ? "above"
          : null;
    // "Has inflation peaked?": is it below its peak now.
    return {
      intent: {
        kind: "since_peak",
        dir: /low|trough|bottom/.test(peak[2]) ? "min" : "max",
        allTime,
        claim: claim ?? (/\bpeaked\b/.test(q) ? "below" : null),
      },
      yesNo,
    };
  }
  // "is the unemployment rate under 5 percent": one place against a threshold, yes or no first.
  const threshold = yesNo ? readThreshold(q) : null;
  if (threshold) return { intent: { kind: "threshold", op: threshold.op, value: threshold.value }, yesNo };
  // "How much have prices risen since the pandemic": the change since the year the episode began.
  const sinceEpisode = opts.episode ? sinceEpisodeYear(q.replace(/[^a-z0-9 ]+/g, " ").replace(/\s+/g, " ")) : null;
  if (sinceEpisode !== null && ((/\bhow much\b/.test(q) && RISEN.test(q)) || CHANGE_WORDS.test(q)))
    return { intent: { kind: "change", at: null, months: null, since: String(sinceEpisode) }, yesNo };
  // The parser found an episode's name: the question is about that episode.
  if (opts.episode) return { intent: { kind: "episode", dir }, yesNo, ...pole };
  // "since 2015", "than in 2015", "compared with 2015": the change since that year.
  const since =
    /\b(?:since|than in|than it was in|compared (?:to|with)|from)\s+((?:19|20)\d\d)\b(?!\s*(?:to|-))/.exec(q)?.[1] ??
    null;
  // "highest the unemployment rate has ever been", "when did inflation peak", "peak of inflation in 2022".
  if (dir !== null)
    return { intent: { kind: "extreme", dir, since, at: at?.length === 4 ? at : null }, yesNo, ...pole };
  const upOrDown =
    /\b(trending|going|heading|moving|headed)\s+(up|down|higher|lower)\b/.test(q) ||
    /^(has|have|did)\b.*\b(started|begun|began|start|begin|stopped|been)\s+[a-z]+ing\b/.test(q);
  if (DIRECTION_ASKED.test(q) || PROGRESSIVE.test(q) || upOrDown) {
    return { intent: { kind: "direction", months: spanMonths(q) }, yesNo: (yesNo || upOrDown) && !/\bor\b/.test(q) };
  }
  // "than a year ago", "year over year": the 12-month growth.
  if (/\b(than|from|compared (?:to|with)) a year (ago|earlier|before)\b|\byear (over|on) year\b/.test(q))
    return { intent: { kind: "growth", at: null, months: 12 }, yesNo };
  if (opts.changeTopic && CHANGE_WORDS.test(q)) {
    // "last month" is the newest change (the month before), not a one-month span of it.
    const months = /\blast month\b/.test(q) ? null : spanMonths(q);
    return { intent: { kind: "change", at, months, since }, yesNo };
  }
  // "How much have prices gone up since 2020": the rise of the level since then, not the peak rate.
  if (since && /\bhow much\b/.test(q) && RISEN.test(q))
    return { intent: { kind: "change", at: null, months: null, since }, yesNo };
  if (opts.growthTopic && since) return { intent: { kind: "extreme", dir: "max", since }, yesNo };
  // "quarterly GDP growth", "quarter over quarter": the growth over the newest quarter.
  const quarterly = /\b(quarterly|quarter (?:over|on) quarter|q\/q|qoq)\b/.test(q) ? 3 : null;
  if (opts.growthTopic || (GROWTH_WORDS.test(q) && !yesNo))
    return { intent: { kind: "growth", at, months: quarterly ?? (opts.growthTopic ? null : spanMonths(q)) }, yesNo };
  if (
    CHANGE_WORDS.test(q) ||
    (yesNo &&
      /\b(grow|grew|grown|rise|rose|risen|fall|fell|fallen|go up|gone up|go down|gone down|increase|decrease|shrink|shrank|decline|declined|drop|dropped|leaving|moving out|moved out)\b/.test(
        q,
      ))
  ) {
    return { intent: { kind: "change", at, months: /\blast month\b/.test(q) ? null : spanMonths(q), since }, yesNo };
  }
  // "unemployment rate since 2019": its change since then.
  if (since && !at) return { intent: { kind: "change", at: null, months: null, since }, yesNo };
  return { intent: { kind: "level", at }, yesNo };
}
