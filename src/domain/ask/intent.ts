// What kind of answer a question wants (pure, deterministic), read beside its topics and places (parse.ts):
// - level: the value ("what is the unemployment rate"), optionally at a named month or year ("in April 2020");
// - growth: the 12-month percent change ("inflation" of a price index always; "how fast is X growing", "has X grown");
// - change: the difference over a span ("jobs added last month", "in November 2025", "over the past year", "since 2021");
// - extreme: the highest or lowest value held ("record", "peak", "highest ever", "when was X at its highest");
// - rank: a place kind ordered by the series ("which state has the highest", "top 5 counties in Texas");
// - compare: two or more places ("higher in A or B", "A vs B", "does A have more than B");
// - yes/no: a question that opens with is/are/did/does/has ("is the US in a recession", "did the population grow").
// The question's words are read as written; places and topics are the parser's.
import type { RegionKind } from "../concepts";

export type Direction = "max" | "min";
export type Intent =
  | { kind: "level"; at: string | null }
  | { kind: "growth"; at: string | null }
  | { kind: "change"; at: string | null; months: number | null; since: string | null }
  | { kind: "extreme"; dir: Direction; since: string | null }
  | { kind: "rank"; dir: Direction; count: number; placeKind: RegionKind }
  | { kind: "compare"; dir: Direction | null };

/** `down`: a yes/no question asks about a fall ("did it shrink"), so "yes" means the change is negative. */
export type IntentReading = { intent: Intent; yesNo: boolean; down?: boolean };

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MAX_WORDS = /\b(highest|most|largest|biggest|greatest|top|max|maximum|peak|peaked|record high|all[- ]time high|fastest|worst)\b/;
const MIN_WORDS = /\b(lowest|least|smallest|fewest|bottom|min|minimum|record low|all[- ]time low|slowest)\b/;
const KIND_WORD: Record<string, RegionKind> = { state: "state", states: "state", county: "county", counties: "county", country: "country", countries: "country", nation: "country", nations: "country" };
const NUMBER_WORDS: Record<string, number> = { three: 3, five: 5, ten: 10, two: 2, four: 4 };

/** "in April 2020" → 2020-04-01, "in 2019" → 2019 (a year), else null. */
export function namedPeriod(q: string): string | null {
  const month = new RegExp(`\\b(?:in|for|during|of)\\s+(${MONTHS.join("|")})\\s*,?\\s+((?:19|20)\\d\\d)\\b`).exec(q);
  if (month) return `${month[2]}-${String(MONTHS.indexOf(month[1]) + 1).padStart(2, "0")}-01`;
  const year = /\b(?:in|for|during)\s+((?:19|20)\d\d)\b(?!\s*(?:to|-))/.exec(q);
  return year ? year[1] : null;
}

/** The 12-month change is what a price index's questions mean (spec of the lexicon's `growth` topics). */
const GROWTH_WORDS = /\b(grow|grows|growing|grown|grew|growth|fast|faster|pace|rising|risen|rise|inflation|gone up|go up|increase|increasing|increased)\b/;
const CHANGE_WORDS = /\b(added|add|gained|gain|lost|lose|created|create|cut|shed|changed|change|how much has|how much have|happened)\b/;
const YES_NO = /^(is|are|was|were|did|does|do|has|have|had|will)\b/;
const COUNT: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, eighteen: 18, twenty: 20 };
const SPAN_MONTHS: Record<string, number> = { month: 1, quarter: 3, year: 12, decade: 120 };

/** "over the past year" 12, "in the last six months" 6, "past 2 quarters" 6: the span a change is asked over. */
export function spanMonths(q: string): number | null {
  const m = /\b(?:past|last|previous)\s+(?:(\d{1,3}|[a-z]+)\s+)?(month|quarter|year|decade)s?\b/.exec(q);
  if (!m) return null;
  const n = m[1] === undefined ? 1 : /^\d+$/.test(m[1]) ? Number(m[1]) : COUNT[m[1]];
  return n ? n * SPAN_MONTHS[m[2]] : null;
}

/**
 * Reads the intent. `places`: the kinds of the places named, in order; `growthTopic`: the topic is a rate of change of
 * an index (inflation); `changeTopic`: its counts are read as changes when the question says added/lost (payrolls).
 */
export function readIntent(question: string, opts: { places: readonly RegionKind[]; growthTopic: boolean; changeTopic: boolean }): IntentReading {
  const reading = readKind(question, opts);
  const down = reading.yesNo && /\b(fall|fell|fallen|drop|dropped|decline|declined|shrink|shrank|shrunk|go down|gone down|decrease|decreased|lose|lost)\b/i.test(question);
  return down ? { ...reading, down } : reading;
}

function readKind(question: string, opts: { places: readonly RegionKind[]; growthTopic: boolean; changeTopic: boolean }): IntentReading {
  const q = question.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, " ").trim();
  const yesNo = YES_NO.test(q);
  const at = namedPeriod(q);
  const dir: Direction | null = MAX_WORDS.test(q) ? "max" : MIN_WORDS.test(q) ? "min" : null;
  // Ranking: "which state…", "what county…", "top 5 counties", "states with the highest…", "rank the states".
  const kindMatch = /\b(?:which|what)\s+(?:[a-z.\- ]{0,30}?\s)?(states?|county|counties|countr(?:y|ies)|nations?)\b/.exec(q) ?? /\b(?:top|bottom)\s+(\d+|three|five|ten|two|four)?\s*(states|counties|countries|nations)\b/.exec(q);
  const rankBy = /\b(states|counties|countries) (?:by|ranked by|with the (?:highest|lowest|most|least|largest|smallest))\b/.exec(q) ?? /\brank(?:ed|ing)?\b.*\b(states|counties|countries)\b/.exec(q);
  const kindWord = kindMatch ? (kindMatch[2] ?? kindMatch[1]) : rankBy?.[1];
  // "the country" after a preposition is the nation ("highest in the country"), not a ranking of countries.
  const nationalCountry = kindWord === "country" && /\b(?:in|across) the country\b/.test(q) && !/\b(?:which|what) country\b/.test(q);
  if (kindWord && !nationalCountry && (dir !== null || rankBy || /\b(top|bottom)\b/.test(q))) {
    const n = /\b(?:top|bottom)\s+(\d+|three|five|ten|two|four)\b/.exec(q);
    const count = n ? Math.min(10, Number(n[1]) || NUMBER_WORDS[n[1]] || 1) : 1;
    return { intent: { kind: "rank", dir: dir ?? (/\bbottom\b/.test(q) ? "min" : "max"), count, placeKind: KIND_WORD[kindWord] }, yesNo: false };
  }
  if (opts.places.length >= 2) {
    const which: Direction | null = /\b(higher|more|bigger|larger|greater|above)\b/.test(q) ? "max" : /\b(lower|less|fewer|smaller|below)\b/.test(q) ? "min" : null;
    // "Is it higher in A or B" asks which, not yes or no.
    return { intent: { kind: "compare", dir: which }, yesNo: yesNo && !/\bor\b/.test(q) };
  }
  const since = /\bsince\s+((?:19|20)\d\d)\b/.exec(q)?.[1] ?? null;
  // "highest the unemployment rate has ever been", "when did inflation peak", "highest oil price on record".
  if (dir !== null) return { intent: { kind: "extreme", dir, since }, yesNo };
  if (opts.changeTopic && CHANGE_WORDS.test(q)) {
    // "last month" is the newest change (the month before), not a one-month span of it.
    const months = /\blast month\b/.test(q) ? null : spanMonths(q);
    return { intent: { kind: "change", at, months, since }, yesNo };
  }
  if (opts.growthTopic && since) return { intent: { kind: "extreme", dir: "max", since }, yesNo };
  if (opts.growthTopic || (GROWTH_WORDS.test(q) && !yesNo)) return { intent: { kind: "growth", at }, yesNo };
  if (CHANGE_WORDS.test(q) || (yesNo && /\b(grow|grew|grown|rise|rose|risen|fall|fell|fallen|go up|gone up|go down|gone down|increase|decrease|shrink|shrank|decline|declined|drop|dropped)\b/.test(q))) {
    return { intent: { kind: "change", at, months: /\blast month\b/.test(q) ? null : spanMonths(q), since }, yesNo };
  }
  return { intent: { kind: "level", at }, yesNo };
}
