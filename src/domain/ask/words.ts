// The words of a question (pure), as the parser reads them: folded like region keys (diacritics, case, punctuation:
// domain/regions.ts regionKey), with "U.S." and "U.K." joined first and a "US-CA" state code kept whole; plurals
// folded for topic matching only ("claims" = "claim"; a word of 3 letters or fewer, or ending in -ss, -us or -is, is
// kept); a word of 7 letters or more may be one edit from a lexicon word ("unemploymnet"), one of 5 or 6 letters two
// neighbours swapped ("grwoth"); chat shorthand is read as the word it stands for ("ppl", "avg").
import { regionKey } from "../regions";

/** `fixed`: the lexicon word a misspelt or differently ended word was read as ("grwoth" growth). */
export type Word = { text: string; raw: string; used: boolean; fixed?: string };

export const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  few: 3,
  couple: 2,
};

/** Shorthand people type for a word, read as that word. */
const SHORTHAND: Readonly<Record<string, string>> = {
  ppl: "people",
  avg: "average",
  yr: "year",
  yrs: "years",
  govt: "government",
  mos: "months",
  pct: "percent",
};

export function foldPlural(word: string): string {
  if (word.length <= 3 || !word.endsWith("s") || /(ss|us|is)$/.test(word)) return word;
  return word.endsWith("ies") && word.length > 4 ? `${word.slice(0, -3)}y` : word.slice(0, -1);
}

export function wordsOf(question: string): Word[] {
  const joined = question.replace(/\bU\.\s?S\.(\s?A\.?)?/g, "US").replace(/\bU\.\s?K\.?/g, "UK");
  // "US-CA": the ISO 3166-2 form of a state code, one word (the data routes read it as the state).
  const raws = (joined.match(/\bUS-[A-Z]{2}\b|[\p{L}\p{N}'’]+/gu) ?? [])
    .map((r) => r.replace(/['’]s$/i, "").replace(/['’]/g, ""))
    .filter(Boolean);
  return raws
    .map((raw) => ({
      raw: SHORTHAND[raw.toLowerCase()] ?? raw,
      text: regionKey(SHORTHAND[raw.toLowerCase()] ?? raw),
      used: false,
    }))
    .filter((w) => w.text.length > 0);
}

export const phraseWords = (phrase: string) => regionKey(phrase).split(" ").map(foldPlural);

/**
 * Whether two words differ by at most one edit (insertion, deletion, substitution or swap of neighbours): a typo.
 * Only words of 7 letters or more are read this way ("unemploymnet"); shorter ones are too close to each other, so
 * of 5 or 6 letters only two neighbours swapped ("grwoth") is a typo.
 */
export function oneTypoApart(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length === b.length && a.length >= 5 && a.length < 7) return swappedOnce(a, b);
  if (Math.min(a.length, b.length) < 7 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

function swappedOnce(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

const MIN_STEM = 6;
const MAX_ENDING = 3;

/**
 * The stem two words share: a first 6 letters or more that leave each at most 3 more ("populated", "population"
 * share "populat"), or 0.
 */
export function sharedStem(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= MIN_STEM && a.length - i <= MAX_ENDING && b.length - i <= MAX_ENDING ? i : 0;
}

/** What to search the catalog for a word by: a long word's stem, so "populated" finds "population". */
export const searchStem = (word: string) =>
  word.length >= MIN_STEM + 2 ? word.slice(0, Math.max(MIN_STEM, word.length - MAX_ENDING)) : word;

/** Marks the first unused run of `words` equal to `target` (folded, one typo allowed per long word) as used; its start index, or -1. */
export function take(words: Word[], target: string[], fold: boolean): number {
  outer: for (let i = 0; i + target.length <= words.length; i++) {
    for (let k = 0; k < target.length; k++) {
      const w = words[i + k];
      if (w.used || !(fold ? oneTypoApart(foldPlural(w.text), target[k]) : w.text === target[k])) continue outer;
    }
    for (let k = 0; k < target.length; k++) {
      const w = words[i + k];
      w.used = true;
      if (fold && foldPlural(w.text) !== target[k]) w.fixed = target[k];
    }
    return i;
  }
  return -1;
}
