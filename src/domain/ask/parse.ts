// Reading a question (pure, deterministic: the same question and date always read the same way):
// - words (words.ts) and time phrases (time.ts) first; the time phrase's words are taken out.
// - episodes: a named episode's phrase ("the Great Recession", "the 2020 recession"; episodes.ts) is taken out
//   before topics, so its "recession" is not the recession topic.
// - topics: the lexicon's phrases (lexicon.ts), longest first; each word belongs to one phrase at most. A topic's
//   `nearest` phrases (what no held series measures: "mortgage rates") read it too, and say so. When no phrase
//   names a topic, the catalog is searched for the words left (ask-plan.ts); failing that, a topic's `broad` words
//   ("prices": consumer prices) stand for it.
// - places: the remaining words, read as regions exactly as the data routes read a `region` parameter (places.ts);
//   words where a place was named that no region matches are tried as a misspelling, else said to be unplaced.
// - rest: the words nothing took that carry meaning (not fillers): what the catalog is searched for.
import type { Window } from "../window";
import { FILLER_WORDS, ORDER_WORDS } from "./common-words";
import { TOPIC_GROUPS, type Topic } from "./lexicon";
import {
  readPlaces,
  readUnplaced,
  type AmbiguousPlace,
  type Correction,
  type FuzzyPlace,
  type OtherReading,
  type PlaceLookup,
} from "./places";
import { TOPICS } from "./topics";
import { EPISODE_TIME_WORDS, NAMED_EPISODES, TIMED_EPISODE_WORDS } from "../episodes";
import { readTime } from "./time";
import { foldPlural, phraseWords, sharedStem, take, wordsOf, type Word } from "./words";

export { foldPlural } from "./words";
export { placeLookup, type FuzzyPlace, type PlaceLookup } from "./places";

export { fuzzyPlaceLookup, fuzzyPlaceNames, typoDistance, type FuzzyName } from "./place-typos";

export type ParsedQuestion = {
  /** Topics in the order the question names them (a group's members in its order), each once. */
  topics: Topic[];
  /** Region codes in the order the question names them, each once; "US" for words naming the nation. */
  places: string[];
  /** Place words that name several regions, with the candidates and how many places the question named before. */
  ambiguous: AmbiguousPlace[];
  window: Window | null;
  /** Meaningful words no topic, place or time phrase took. */
  rest: string[];
  /** Misspelt place names read as the one place they are close to ("califronia" as California). */
  corrections: Correction[];
  /** Words where a place was named ("in Chicago", "of Paris") that no place of the catalog matches. */
  unplaced: string[];
  /** A state named by a name that is also a country's (Georgia): the country's code, by the state's. */
  alternates: Record<string, string>;
  /** A two-letter code that names a country and a state (CA): the other reading, by the code read. */
  codes: Record<string, OtherReading>;
  /** The words naming an episode ("great recession", "2001 recession", "last recession"), folded; or null. */
  episode: string | null;
  /** Phrases read as a topic that is only the closest held answer ("mortgage rates": the 10-year yield). */
  nearest: { text: string; topic: string; why: string }[];
  /** Words naming a kind of place that no place name took ("which county", "in the world"): a set of places. */
  kinds: string[];
  /** The word before each place named ("from", "to", "leaving", "in"), by its code: which end of a move it is. */
  before: Record<string, string>;
  /** "after inflation", "in real terms": the real (inflation-adjusted) measure is asked. */
  real: boolean;
  /** The question with the words read as lexicon words spelt as those ("gdp grwoth" as "gdp growth"): what intents read. */
  spelled: string;
};

// ---------------------------------------------------------------------------------------------------------------
// Topics

type Entry = { words: string[]; topics: readonly string[]; group: boolean; nearest?: string };

const topicById = new Map(TOPICS.map((t) => [t.id, t]));
const ENTRIES: Entry[] = [
  ...TOPICS.flatMap((t) => t.phrases.map((p) => ({ words: phraseWords(p), topics: [t.id], group: false }))),
  ...TOPICS.flatMap((t) =>
    (t.nearest?.phrases ?? []).map((p) => ({
      words: phraseWords(p),
      topics: [t.id],
      group: false,
      nearest: t.nearest!.why,
    })),
  ),
  ...TOPIC_GROUPS.flatMap((g) => g.phrases.map((p) => ({ words: phraseWords(p), topics: g.members, group: true }))),
  ...TOPICS.flatMap((t) => (t.weak ?? []).map((p) => ({ words: phraseWords(p), topics: [t.id], group: true }))),
].sort((a, b) => b.words.length - a.words.length);

function readTopics(words: Word[]): { topics: Topic[]; nearest: ParsedQuestion["nearest"] } {
  const found: { at: number; order: number; ids: readonly string[]; group: boolean }[] = [];
  const nearest: ParsedQuestion["nearest"] = [];
  let order = 0;
  for (const e of ENTRIES) {
    for (;;) {
      const at = take(words, e.words, true);
      if (at < 0) break;
      found.push({ at, order: order++, ids: e.topics, group: e.group });
      if (e.nearest)
        nearest.push({
          text: words
            .slice(at, at + e.words.length)
            .map((w) => w.raw)
            .join(" "),
          topic: e.topics[0],
          why: e.nearest,
        });
    }
  }
  found.sort((a, b) => a.at - b.at || a.order - b.order);
  // A group stands for its members only when the question names no single topic.
  const named = found.some((f) => !f.group) ? found.filter((f) => !f.group) : found;
  const out: Topic[] = [];
  for (const f of named) for (const id of f.ids) if (!out.some((t) => t.id === id)) out.push(topicById.get(id)!);
  // What was asked for by name leads, though only its closest held series answers ("interest rates on mortgages").
  const first = nearest.map((n) => out.find((t) => t.id === n.topic)!).filter(Boolean);
  return { topics: [...new Set([...first, ...out])], nearest };
}

const LEXICON_WORDS = [...new Set(ENTRIES.flatMap((e) => e.words))];
const LEXICON_WORD_SET = new Set(LEXICON_WORDS);

/**
 * A word no lexicon phrase has, of 7 letters or more, that shares a stem with exactly one lexicon word
 * ("populated": population) is read as that word.
 */
function readStems(words: Word[]): void {
  for (const w of words) {
    const text = foldPlural(w.text);
    if (w.used || text.length < 7 || LEXICON_WORD_SET.has(text) || FILLER_WORDS.has(text)) continue;
    const near = LEXICON_WORDS.filter((l) => sharedStem(text, l) > 0);
    if (near.length === 1) [w.text, w.fixed] = [near[0], near[0]];
  }
}

/** Topics a broad word stands for ("prices": consumer prices), when nothing more specific named one. */
export function broadTopics(question: string): Topic[] {
  const keys = new Set(wordsOf(question).map((w) => w.text));
  return TOPICS.filter((t) => t.broad?.some((b) => keys.has(b)));
}

// ---------------------------------------------------------------------------------------------------------------
// Episodes

const EPISODE_PHRASES = NAMED_EPISODES.flatMap((e) =>
  e.phrases.map((p) => ({ id: e.id, phrase: p, words: phraseWords(p) })),
).sort((a, b) => b.words.length - a.words.length);
/** A topic's own word inside an episode's name ("the post-pandemic inflation spike") still names the topic. */
const TOPIC_WORDS_IN_EPISODES = new Set(
  TOPICS.filter((t) => t.id !== "recession")
    .flatMap((t) => t.phrases)
    .filter((p) => !p.includes(" ")),
);

/**
 * Takes the words naming an episode (see the file comment), every phrase of it the question has ("the post-covid
 * inflation spike"); the first phrase as the episode table writes it, or null.
 */
function readEpisode(words: Word[]): string | null {
  let first: (typeof EPISODE_PHRASES)[number] | null = null;
  for (const e of EPISODE_PHRASES) {
    if (first && e.id !== first.id) continue;
    const at = take(words, e.words, true);
    if (at < 0) continue;
    first ??= e;
    for (let k = at; k < at + e.words.length; k++)
      if (TOPIC_WORDS_IN_EPISODES.has(words[k].text)) words[k].used = false;
  }
  if (first) return first.phrase;
  // "during covid", "since the pandemic": the 2020 recession; "covid cases" is no episode.
  for (let i = 1; i < words.length; i++) {
    if (
      !words[i].used &&
      TIMED_EPISODE_WORDS.has(foldPlural(words[i].text)) &&
      EPISODE_TIME_WORDS.has(words[i - 1].text)
    )
      return mark(words, i, 1, "the pandemic");
  }
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b, c] = [words[i].text, words[i + 1].text, words[i + 2]?.text];
    if (words[i].used || words[i + 1].used) continue;
    if (/^(19|20)\d\d$/.test(a) && /^recessions?$/.test(b)) return mark(words, i, 2, `${a} recession`);
    if (/^recessions?$/.test(a) && (b === "of" || b === "in") && c && /^(19|20)\d\d$/.test(c) && !words[i + 2].used)
      return mark(words, i, 3, `${c} recession`);
    if (/^(last|latest|previous|recent)$/.test(a) && /^recessions?$/.test(b))
      return mark(words, i, 2, "last recession");
    if (a === "most" && b === "recent" && /^recessions?$/.test(c ?? "") && !words[i + 2].used)
      return mark(words, i, 3, "last recession");
  }
  return null;
}

function mark(words: Word[], i: number, n: number, phrase: string): string {
  for (let k = i; k < i + n; k++) words[k].used = true;
  return phrase;
}

/** Words naming a kind of place; "world" and "economies" name the countries. */
const KIND_WORDS: ReadonlySet<string> = new Set([
  "state",
  "states",
  "county",
  "counties",
  "country",
  "countries",
  "nation",
  "nations",
  "world",
  "economies",
  "globally",
]);
/** The real (inflation-adjusted) measure asked for. */
const REAL_PHRASES = [
  "after inflation",
  "adjusted for inflation",
  "inflation adjusted",
  "in real terms",
  "real terms",
  "constant dollars",
  "chained dollars",
].map(phraseWords);
/** The nominal measure asked for: its words are no place ("in nominal terms"); the planner reads "nominal" itself. */
const NOMINAL_PHRASES = ["not adjusted for inflation", "in nominal terms", "nominal terms", "in current dollars"].map(
  phraseWords,
);

/** Reads a question (see the file comment). `todayYear`: the year "since 2020" counts to. */
export function parseQuestion(
  question: string,
  opts: {
    todayYear: number;
    lookupPlace: PlaceLookup;
    fuzzyPlace?: FuzzyPlace;
    demonym?: (text: string) => string | null;
  },
): ParsedQuestion {
  const words = wordsOf(question);
  const letters = question.replace(/[^\p{L}]/gu, "");
  const allCaps = letters.length > 3 && letters === letters.toUpperCase();
  const episode = readEpisode(words);
  const window = readTime(words, opts.todayYear);
  NOMINAL_PHRASES.forEach((p) => take(words, p, true));
  const real = REAL_PHRASES.some((p) => take(words, p, true) >= 0);
  readStems(words);
  const { topics, nearest } = readTopics(words);
  const {
    places: named,
    ambiguous,
    alternates,
    codes,
    before,
  } = readPlaces(words, opts.lookupPlace, allCaps, opts.demonym);
  const kinds = words.filter((w) => !w.used && KIND_WORDS.has(w.text)).map((w) => w.text);
  const unplacedRead = readUnplaced(words, opts.fuzzyPlace);
  const places = [...new Set([...named, ...unplacedRead.codes.map((c) => c.code)])];
  const rest = words
    .filter(
      (w) =>
        !w.used &&
        !FILLER_WORDS.has(w.text) &&
        !ORDER_WORDS.has(w.text) &&
        !FILLER_WORDS.has(foldPlural(w.text)) &&
        !KIND_WORDS.has(w.text) &&
        !/^\d+$/.test(w.text),
    )
    .map((w) => foldPlural(w.text));
  let spelled = question;
  for (const w of words) if (w.fixed) spelled = spelled.replace(new RegExp(`\\b${w.raw}\\b`, "i"), w.fixed);
  return {
    topics,
    places,
    ambiguous,
    window,
    rest: [...new Set(rest)],
    corrections: unplacedRead.corrections,
    unplaced: unplacedRead.unplaced,
    alternates,
    codes,
    episode,
    nearest,
    kinds,
    before,
    real,
    spelled,
  };
}
