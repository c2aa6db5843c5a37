// Reading a question (pure, deterministic: the same question and date always read the same way):
// - words: the question folded like region keys (diacritics, case, punctuation: domain/regions.ts regionKey), with
//   "U.S." and "U.K." joined first; plurals folded for topic matching only ("claims" = "claim"; a word of 3 letters
//   or fewer, or ending in -ss, -us or -is, is kept).
// - time: a phrase naming a span becomes a window ("over the last 5 years" 5y, "past decade" 10y, "six months" 6m,
//   "weeks" 7 days each, "a year ago" 1y, "quarters" 3 months each, "since 2020" and "in 2020" the years from that one to today's
//   included, "all time" / "ever" / "record" all). Its words are taken out before topics and places are read.
// - topics: the lexicon's phrases (lexicon.ts), longest first; each word belongs to one phrase at most.
// - places: the remaining words, longest run first (up to 6 words), looked up as region inputs; a two-letter word
//   counts as a code only when written in capitals in a question that is not all capitals ("in" is not Indiana),
//   and then names a state first ("CA" is California, as people asking about places mean, not Canada's ISO code),
//   "us" only in capitals, after in/of/for/the/across, or beside vs/versus/and ("us vs china"); a two-letter word that is no English word ("tx", "dc") is
//   a code in any case; numbers are never places (a year is not a county FIPS). A name that is no region is tried
//   without a trailing s ("japans") and as "<name> County" when that is one county ("Los Angeles", "miami dade"); a
//   county name of several states is settled by a state the question names ("Wayne County vs Michigan").
// - typos: a word of 7 letters or more may be one edit from a lexicon word ("unemploymnet").
// - rest: the words nothing took that carry meaning (not fillers): what the catalog is searched for.
import { REGION_KINDS } from "../concepts";
import { lookupRegion, regionKey, type RegionIndex } from "../regions";
import { parseWindow, type Window } from "../window";
import { FILLER_WORDS, NATIONAL_PHRASES, TOPICS, TOPIC_GROUPS, TWO_LETTER_WORDS, type Topic } from "./lexicon";

/** `code`: the text is a two-letter word in capitals, which in a question means a state first ("CA", "IN"). */
export type PlaceLookup = (text: string, opts: { code: boolean; kinds?: readonly string[] }) => { kind: "found"; code: string } | { kind: "ambiguous"; candidates: string[] } | { kind: "not_found" };

/** Place lookup over a region index: countries, states and counties; a two-letter code a state first. */
export function placeLookup(index: RegionIndex): PlaceLookup {
  return (text, { code, kinds }) => {
    const asState = code && !kinds ? lookupRegion(index, text, { kinds: ["state"] }) : null;
    const found = asState?.kind === "found" ? asState : lookupRegion(index, text, { kinds: kinds ?? REGION_KINDS });
    return found.kind === "found" ? { kind: "found", code: found.code } : found.kind === "ambiguous" ? found : { kind: "not_found" };
  };
}

/** Edit distance with swaps of neighbours (optimal string alignment), or `max + 1` once it is beyond `max`. */
export function typoDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = max + 1;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      best = Math.min(best, d[i][j]);
    }
    if (best > max) return max + 1;
  }
  return d[a.length][b.length];
}

/**
 * A misspelt state or country name read as the one name it is close to: one edit for names of 5 to 8 letters, two
 * from 9 ("califronia" California, "massachusettes" Massachusetts, "canda" Canada). Two candidates as close: none.
 */
const FUZZY_NAMES = new WeakMap<RegionIndex, { code: string; key: string }[]>();
export function fuzzyPlaceLookup(index: RegionIndex): (text: string) => string | null {
  let names = FUZZY_NAMES.get(index);
  if (!names) {
    names = [...index.byCode.values()].filter((r) => r.type === "state" || r.type === "country").map((r) => ({ code: r.code, key: regionKey(r.name) }));
    FUZZY_NAMES.set(index, names);
  }
  const list = names;
  return (text) => {
    const key = regionKey(text);
    if (key.replace(/ /g, "").length < 5) return null;
    const max = key.length >= 9 ? 2 : 1;
    let best: { code: string; d: number } | null = null;
    let tie = false;
    for (const n of list) {
      if (Math.abs(n.key.length - key.length) > max) continue;
      const d = typoDistance(key, n.key, max);
      if (d > max || d === 0) continue;
      if (!best || d < best.d) [best, tie] = [{ code: n.code, d }, false];
      else if (d === best.d && n.code !== best.code) tie = true;
    }
    return best && !tie ? best.code : null;
  };
}

export type ParsedQuestion = {
  /** Topics in the order the question names them (a group's members in its order), each once. */
  topics: Topic[];
  /** Region codes in the order the question names them, each once; "US" for words naming the nation. */
  places: string[];
  /** Place words that name several regions, with the candidates. */
  ambiguous: { text: string; candidates: string[] }[];
  window: Window | null;
  /** Meaningful words no topic, place or time phrase took. */
  rest: string[];
  /** Misspelt place names read as the one place they are close to ("califronia" as California). */
  corrections: { text: string; code: string }[];
  /** Words where a place was named ("in Chicago", "of Paris") that no place of the catalog matches. */
  unplaced: string[];
  /** A state named by a name that is also a country's (Georgia): the country's code, by the state's. */
  alternates: Record<string, string>;
};

type Word = { text: string; raw: string; used: boolean };

const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, few: 3, couple: 2,
};

export function foldPlural(word: string): string {
  if (word.length <= 3 || !word.endsWith("s") || /(ss|us|is)$/.test(word)) return word;
  return word.endsWith("ies") && word.length > 4 ? `${word.slice(0, -3)}y` : word.slice(0, -1);
}

function wordsOf(question: string): Word[] {
  const joined = question.replace(/\bU\.\s?S\.(\s?A\.?)?/g, "US").replace(/\bU\.\s?K\.?/g, "UK");
  const raws = joined.split(/[^\p{L}\p{N}'’]+/u).map((r) => r.replace(/['’]s$/i, "").replace(/['’]/g, "")).filter(Boolean);
  return raws.map((raw) => ({ raw, text: regionKey(raw), used: false })).filter((w) => w.text.length > 0);
}

const phraseWords = (phrase: string) => regionKey(phrase).split(" ").map(foldPlural);

/**
 * Whether two words differ by at most one edit (insertion, deletion, substitution or swap of neighbours): a typo.
 * Only words of 7 letters or more are read this way ("unemploymnet"); shorter ones are too close to each other.
 */
export function oneTypoApart(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.min(a.length, b.length) < 7 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** Marks the first unused run of `words` equal to `target` (folded, one typo allowed per long word) as used; its start index, or -1. */
function take(words: Word[], target: string[], fold: boolean): number {
  outer: for (let i = 0; i + target.length <= words.length; i++) {
    for (let k = 0; k < target.length; k++) {
      const w = words[i + k];
      if (w.used || !(fold ? oneTypoApart(foldPlural(w.text), target[k]) : w.text === target[k])) continue outer;
    }
    for (let k = 0; k < target.length; k++) words[i + k].used = true;
    return i;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------
// Time phrases

const UNIT_OF: Record<string, { unit: "d" | "m" | "y"; times: number }> = {
  day: { unit: "d", times: 1 }, week: { unit: "d", times: 7 }, month: { unit: "m", times: 1 }, quarter: { unit: "m", times: 3 }, year: { unit: "y", times: 1 }, decade: { unit: "y", times: 10 },
};

function readTime(words: Word[], todayYear: number): Window | null {
  const t = words.map((w) => foldPlural(w.text));
  for (let i = 0; i < t.length; i++) {
    // "last 5 years", "past decade", "previous six months", "the last year"
    if (t[i] === "last" || t[i] === "past" || t[i] === "previous" || t[i] === "recent") {
      let j = i + 1;
      let n = 1;
      if (j < t.length && (/^\d{1,3}$/.test(t[j]) || NUMBER_WORDS[t[j]] !== undefined)) {
        n = /^\d+$/.test(t[j]) ? Number(t[j]) : NUMBER_WORDS[t[j]];
        j++;
      }
      const u = UNIT_OF[t[j]];
      if (u && n > 0) {
        for (let k = i; k <= j; k++) words[k].used = true;
        return parseWindow(`${n * u.times}${u.unit}`);
      }
    }
    // "a year ago", "6 months ago"
    if ((/^\d{1,3}$/.test(t[i]) || NUMBER_WORDS[t[i]] !== undefined) && UNIT_OF[t[i + 1]] && t[i + 2] === "ago") {
      const n = /^\d+$/.test(t[i]) ? Number(t[i]) : NUMBER_WORDS[t[i]];
      const u = UNIT_OF[t[i + 1]];
      if (n > 0) {
        for (let k = i; k <= i + 2; k++) words[k].used = true;
        return parseWindow(`${n * u.times}${u.unit}`);
      }
    }
    // "since 2020", "in 2019", "from 2010"
    if ((t[i] === "since" || t[i] === "in" || t[i] === "from") && /^(19|20)\d\d$/.test(t[i + 1] ?? "")) {
      const year = Number(t[i + 1]);
      if (year <= todayYear) {
        words[i].used = words[i + 1].used = true;
        return parseWindow(`${todayYear - year + 1}y`);
      }
    }
    // "this year", "year to date"
    if ((t[i] === "this" && t[i + 1] === "year") || (t[i] === "year" && t[i + 1] === "to" && t[i + 2] === "date") || t[i] === "ytd") {
      const end = t[i] === "ytd" ? i : t[i] === "this" ? i + 1 : i + 2;
      for (let k = i; k <= end; k++) words[k].used = true;
      return parseWindow("1y");
    }
    // "all time", "ever", "on record", "in history", "historically", "long term"
    if ((t[i] === "all" && t[i + 1] === "time") || (t[i] === "long" && (t[i + 1] === "term" || t[i + 1] === "run"))) {
      words[i].used = words[i + 1].used = true;
      return { kind: "all" };
    }
    if (t[i] === "ever" || t[i] === "record" || t[i] === "history" || t[i] === "historically" || t[i] === "historical") {
      words[i].used = true;
      return { kind: "all" };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Topics

type Entry = { words: string[]; topics: readonly string[]; group: boolean };

const topicById = new Map(TOPICS.map((t) => [t.id, t]));
const ENTRIES: Entry[] = [
  ...TOPICS.flatMap((t) => t.phrases.map((p) => ({ words: phraseWords(p), topics: [t.id], group: false }))),
  ...TOPIC_GROUPS.flatMap((g) => g.phrases.map((p) => ({ words: phraseWords(p), topics: g.members, group: true }))),
].sort((a, b) => b.words.length - a.words.length);

function readTopics(words: Word[]): Topic[] {
  const found: { at: number; order: number; ids: readonly string[]; group: boolean }[] = [];
  let order = 0;
  for (const e of ENTRIES) {
    for (;;) {
      const at = take(words, e.words, true);
      if (at < 0) break;
      found.push({ at, order: order++, ids: e.topics, group: e.group });
    }
  }
  found.sort((a, b) => a.at - b.at || a.order - b.order);
  // A group stands for its members only when the question names no single topic.
  const named = found.some((f) => !f.group) ? found.filter((f) => !f.group) : found;
  const out: Topic[] = [];
  for (const f of named) for (const id of f.ids) if (!out.some((t) => t.id === id)) out.push(topicById.get(id)!);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Places

const NATIONAL = NATIONAL_PHRASES.map((p) => regionKey(p).split(" ")).sort((a, b) => b.length - a.length);
const US_BEFORE = new Set(["in", "of", "for", "the", "across", "vs", "versus", "and"]);
const COMPARING = new Set(["vs", "versus", "and", "compared"]);
const MAX_PLACE_WORDS = 6;

function placeCandidate(words: Word[], i: number, n: number, allCaps: boolean): string | null {
  const run = words.slice(i, i + n);
  if (run.some((w) => w.used || /^\d+$/.test(w.text))) return null;
  if (n === 1) {
    const w = run[0];
    if (w.text.length <= 2) {
      if (w.text === "us") return (w.raw === "US" && !allCaps) || US_BEFORE.has(words[i - 1]?.text ?? "") || COMPARING.has(words[i + 1]?.text ?? "") ? "US" : null;
      if (!TWO_LETTER_WORDS.has(w.text)) return w.raw;
      return w.raw === w.raw.toUpperCase() && !allCaps ? w.raw : null;
    }
    if (FILLER_WORDS.has(w.text)) return null;
    // Three letters: an ISO code in capitals ("GBR"), a word otherwise ("ago" is not Angola).
    if (w.text.length === 3 && (w.raw !== w.raw.toUpperCase() || allCaps)) return null;
  }
  return run.map((w) => w.raw).join(" ");
}

function readPlaces(words: Word[], lookup: PlaceLookup, allCaps: boolean): Pick<ParsedQuestion, "places" | "ambiguous" | "alternates"> {
  const found: { at: number; code: string }[] = [];
  const ambiguous: (ParsedQuestion["ambiguous"][number] & { at: number })[] = [];
  const alternates: Record<string, string> = {};
  // "the country Georgia", "country of Georgia", "the state of Georgia": the kind is said, so only that kind is read
  // (and "the country" is not the nation here).
  for (let i = 0; i < words.length; i++) {
    const kind = words[i].text === "country" ? "country" : words[i].text === "state" ? "state" : null;
    if (!kind || words[i].used) continue;
    const from = words[i + 1]?.text === "of" ? i + 2 : i + 1;
    for (let n = Math.min(4, words.length - from); n >= 1; n--) {
      const run = words.slice(from, from + n);
      if (run.some((w) => w.used)) continue;
      const hit = lookup(run.map((w) => w.raw).join(" "), { code: false, kinds: [kind] });
      if (hit.kind !== "found") continue;
      for (let k = i; k < from + n; k++) words[k].used = true;
      if (words[i - 1]?.text === "the") words[i - 1].used = true;
      found.push({ at: i, code: hit.code });
      break;
    }
  }
  for (const target of NATIONAL) {
    for (;;) {
      const at = take(words, target, false);
      if (at < 0) break;
      found.push({ at, code: "US" });
    }
  }
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(MAX_PLACE_WORDS, words.length - i); n >= 1; n--) {
      const text = placeCandidate(words, i, n, allCaps);
      if (text === null) continue;
      let hit = lookup(text, { code: n === 1 && text.length === 2 });
      // "japans": a possessive written without its apostrophe.
      if (hit.kind === "not_found" && n === 1 && foldPlural(words[i].text) !== words[i].text) hit = lookup(foldPlural(words[i].text), { code: false });
      // "Los Angeles", "miami dade": a county named without its kind, when that names one county.
      if (hit.kind === "not_found" && !FILLER_WORDS.has(words[i].text) && words[i].text.length > 2) {
        const county = lookup(`${text} County`, { code: false });
        if (county.kind === "found") hit = county;
      }
      if (hit.kind === "not_found") continue;
      for (let k = i; k < i + n; k++) words[k].used = true;
      if (hit.kind === "found") {
        found.push({ at: i, code: hit.code });
        // Georgia: the state by name, and a country by the same name.
        if (text.length > 2 && /^\d\d$/.test(hit.code)) {
          const country = lookup(text, { code: false, kinds: ["country"] });
          if (country.kind === "found") alternates[hit.code] = country.code;
        }
      } else ambiguous.push({ at: i, text, candidates: hit.candidates });
      i += n - 1;
      break;
    }
  }
  // "Wayne County vs Michigan": a county name of several states, settled by a state the question names.
  const unsettled: ParsedQuestion["ambiguous"] = [];
  for (const a of ambiguous) {
    const inState = a.candidates.filter((c) => c.length === 5 && found.some((f) => f.code === c.slice(0, 2)));
    if (inState.length === 1) found.push({ at: a.at, code: inState[0] });
    else unsettled.push({ text: a.text, candidates: a.candidates });
  }
  found.sort((a, b) => a.at - b.at);
  return { places: [...new Set(found.map((f) => f.code))], ambiguous: unsettled, alternates };
}

const PLACE_BEFORE = new Set(["in", "of", "for", "from"]);
// Determiners and quantifiers after in/of/from are no place names ("from other states", "in each county").
const NOT_PLACES = new Set("other others each every most some several both either neither another such few various certain different own same whole entire rest".split(" "));
const MONTH_WORDS = new Set(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]);

/**
 * Words after in/of/for/from (past fillers) that nothing took: a place the question named. Each is tried against
 * the place names as a misspelling (one candidate within the typo distance: read as it); the rest are unplaced.
 */
function readUnplaced(words: Word[], fuzzy: FuzzyPlace | undefined): { corrections: ParsedQuestion["corrections"]; unplaced: string[]; codes: { at: number; code: string }[] } {
  const corrections: ParsedQuestion["corrections"] = [];
  const unplaced: string[] = [];
  const codes: { at: number; code: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.used || FILLER_WORDS.has(w.text) || MONTH_WORDS.has(w.text) || NOT_PLACES.has(w.text) || /^\d+$/.test(w.text) || w.text.length < 3) continue;
    let j = i - 1;
    while (j >= 0 && !words[j].used && FILLER_WORDS.has(words[j].text) && !PLACE_BEFORE.has(words[j].text)) j--;
    const named = j >= 0 && PLACE_BEFORE.has(words[j].text);
    // A run of up to three unused words ("new yrok", "paris"), tried as a misspelt place, longest first.
    let taken = 0;
    for (let n = 3; n >= 1 && fuzzy; n--) {
      const run = words.slice(i, i + n);
      if (run.length < n || run.some((x) => x.used || /^\d+$/.test(x.text))) continue;
      const hit = fuzzy(run.map((x) => x.text).join(" "));
      if (!hit) continue;
      run.forEach((x) => (x.used = true));
      corrections.push({ text: run.map((x) => x.raw).join(" "), code: hit });
      codes.push({ at: i, code: hit });
      taken = n;
      break;
    }
    if (taken) {
      i += taken - 1;
      continue;
    }
    if (named) {
      w.used = true;
      unplaced.push(w.raw);
    }
  }
  return { corrections, unplaced, codes };
}

/** A misspelt place name's one close region (states and countries), or null. */
export type FuzzyPlace = (text: string) => string | null;

/** Reads a question (see the file comment). `todayYear`: the year "since 2020" counts to. */
export function parseQuestion(question: string, opts: { todayYear: number; lookupPlace: PlaceLookup; fuzzyPlace?: FuzzyPlace }): ParsedQuestion {
  const words = wordsOf(question);
  const letters = question.replace(/[^\p{L}]/gu, "");
  const allCaps = letters.length > 3 && letters === letters.toUpperCase();
  const window = readTime(words, opts.todayYear);
  const topics = readTopics(words);
  const { places: named, ambiguous, alternates } = readPlaces(words, opts.lookupPlace, allCaps);
  const { corrections, unplaced, codes } = readUnplaced(words, opts.fuzzyPlace);
  const places = [...new Set([...named, ...codes.map((c) => c.code)])];
  const rest = words.filter((w) => !w.used && !FILLER_WORDS.has(w.text) && !FILLER_WORDS.has(foldPlural(w.text)) && !/^\d+$/.test(w.text)).map((w) => foldPlural(w.text));
  return { topics, places, ambiguous, window, rest: [...new Set(rest)], corrections, unplaced, alternates };
}
