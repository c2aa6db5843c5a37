// Reading the places of a question (pure; parse.ts reads the rest of it):
// - places: the remaining words, longest run first (up to 6 words), looked up as region inputs exactly as the data
//   routes read a `region` parameter (domain/regions.ts lookupRegion): a code written as responses write it means
//   itself, so "CA" is Canada and "US-CA" or "California" the state; a code in lower case ("ca", "tx") is a USPS
//   abbreviation first. A two-letter word counts as a code only when written in capitals in a question that is not
//   all capitals ("in" is not Indiana), "us" only in capitals, after in/of/for/the/across, or beside vs/versus/and
//   ("us vs china"); a two-letter word that is no English word ("tx", "dc") is a code in any case; numbers are never
//   places (a year is not a county FIPS). A code that is both a country's and a state's (CA, IN, GA) is recorded in
//   `codes`, so the planner can say which it read and how to ask for the other, and read the state when the topic
//   is not covered for countries. A name that is no region is tried without a trailing s ("japans") and as "<name>
//   County" when that is one county ("Los Angeles", "miami dade"); a county name of several states is settled by a
//   state the question names ("Wayne County vs Michigan").
// - unplaced: words after in/of/for/from that nothing took are tried as a misspelt place (place-typos.ts); the rest
//   are a place the catalog does not have.
import { REGION_KINDS } from "../concepts";
import { TIMED_EPISODE_WORDS } from "../episodes";
import { lookupRegion, regionKey, type RegionIndex } from "../regions";
import { FILLER_WORDS, NATIONAL_PHRASES, TWO_LETTER_WORDS } from "./common-words";
import { foldPlural, take, type Word } from "./words";

export type PlaceLookup = (
  text: string,
  opts?: { kinds?: readonly string[] },
) => { kind: "found"; code: string } | { kind: "ambiguous"; candidates: string[] } | { kind: "not_found" };

/** Place lookup over a region index (countries, states and counties), as the data routes read a region. */
export function placeLookup(index: RegionIndex): PlaceLookup {
  return (text, opts = {}) => {
    const found = lookupRegion(index, text, { kinds: opts.kinds ?? REGION_KINDS });
    return found.kind === "found"
      ? { kind: "found", code: found.code }
      : found.kind === "ambiguous"
        ? found
        : { kind: "not_found" };
  };
}

/** A misspelt place name's one close region (states and countries), or null. */
export type FuzzyPlace = (text: string) => string | null;

/** Place words that name several regions, with the candidates and how many places the question named before. */
export type AmbiguousPlace = { text: string; candidates: string[]; position?: number };
/** A two-letter code that names a country and a state (CA): the other reading, and the code as written. */
export type OtherReading = { other: string; text: string };
/** A misspelt place name read as the one place it is close to. */
export type Correction = { text: string; code: string };
/** How the place words of a question were read (parse.ts ParsedQuestion says what each field is). */
export type PlacesRead = {
  places: string[];
  ambiguous: AmbiguousPlace[];
  alternates: Record<string, string>;
  codes: Record<string, OtherReading>;
  before: Record<string, string>;
};

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
      if (w.text === "us")
        return (w.raw === "US" && !allCaps) ||
          US_BEFORE.has(words[i - 1]?.text ?? "") ||
          COMPARING.has(words[i + 1]?.text ?? "")
          ? "US"
          : null;
      if (!TWO_LETTER_WORDS.has(w.text)) return w.raw;
      return w.raw === w.raw.toUpperCase() && !allCaps ? w.raw : null;
    }
    if (FILLER_WORDS.has(w.text)) return null;
    // Three letters: an ISO code in capitals ("GBR"), a word otherwise ("ago" is not Angola).
    if (w.text.length === 3 && (w.raw !== w.raw.toUpperCase() || allCaps)) return null;
  }
  return run.map((w) => w.raw).join(" ");
}

/** "(the) country, not the state" after a name: its words taken. */
function kindSaidAfter(words: Word[], j: number): void {
  let end = words[j]?.text === "the" ? j + 1 : j;
  if (words[end + 1]?.text === "not") end += words[end + 2]?.text === "the" ? 3 : 2;
  for (let k = j; k <= Math.min(end, words.length - 1); k++) words[k].used = true;
}

export function readPlaces(
  words: Word[],
  lookup: PlaceLookup,
  allCaps: boolean,
  demonym?: (text: string) => string | null,
): PlacesRead {
  const found: { at: number; code: string }[] = [];
  const ambiguous: (AmbiguousPlace & { at: number })[] = [];
  const alternates: Record<string, string> = {};
  const codes: PlacesRead["codes"] = {};
  // "the country Georgia", "country of Georgia", "the state of Georgia": the kind is said, so only that kind is read
  // (and "the country" is not the nation here).
  for (let i = 0; i < words.length; i++) {
    const kind = words[i].text === "country" ? "country" : words[i].text === "state" ? "state" : null;
    if (!kind || words[i].used) continue;
    const from = words[i + 1]?.text === "of" ? i + 2 : i + 1;
    for (let n = Math.min(4, words.length - from); n >= 1; n--) {
      const run = words.slice(from, from + n);
      if (run.some((w) => w.used)) continue;
      const hit = lookup(run.map((w) => w.raw).join(" "), { kinds: [kind] });
      if (hit.kind !== "found") continue;
      for (let k = i; k < from + n; k++) words[k].used = true;
      if (words[i - 1]?.text === "the") words[i - 1].used = true;
      found.push({ at: i, code: hit.code });
      break;
    }
  }
  // "Georgia (the country, not the state)", "New York state": the kind said after the name.
  for (let i = 1; i < words.length; i++) {
    const kind = /^(country|nation)$/.test(words[i].text) ? "country" : words[i].text === "state" ? "state" : null;
    if (!kind || words[i].used) continue;
    const end = words[i - 1].text === "the" ? i - 2 : i - 1;
    for (let n = Math.min(4, end + 1); n >= 1; n--) {
      const run = words.slice(end - n + 1, end + 1);
      if (run.some((w) => w.used || FILLER_WORDS.has(w.text) || w.text.length <= 2)) continue;
      const hit = lookup(run.map((w) => w.raw).join(" "), { kinds: [kind] });
      if (hit.kind !== "found") continue;
      for (let k = end - n + 1; k <= end; k++) words[k].used = true;
      kindSaidAfter(words, end + 1);
      found.push({ at: end - n + 1, code: hit.code });
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
      let hit = lookup(text);
      // "japans": a possessive written without its apostrophe.
      if (hit.kind === "not_found" && n === 1 && foldPlural(words[i].text) !== words[i].text)
        hit = lookup(foldPlural(words[i].text));
      // "the Canadian economy", "New Yorkers": a word for a place's people (demonyms.ts).
      if (hit.kind === "not_found" && demonym && words[i + n - 1].text.length >= 5) {
        const name = demonym(text);
        if (name) hit = lookup(name);
      }
      // "Los Angeles", "miami dade": a county named without its kind, when that names one county; one lower-case word
      // only where no word it could describe follows ("jobs in maricopa", "cook il", not "young people": Young County).
      const next = words[i + n];
      const describes =
        n === 1 &&
        words[i].raw === words[i].raw.toLowerCase() &&
        next !== undefined &&
        !next.used &&
        !FILLER_WORDS.has(next.text) &&
        lookup(next.raw, { kinds: ["state"] }).kind !== "found";
      if (hit.kind === "not_found" && !FILLER_WORDS.has(words[i].text) && words[i].text.length > 2 && !describes) {
        const county = lookup(`${text} County`);
        if (county.kind === "found") hit = county;
      }
      if (hit.kind === "not_found") continue;
      for (let k = i; k < i + n; k++) words[k].used = true;
      if (hit.kind === "found") {
        found.push({ at: i, code: hit.code });
        // Georgia: the state by name, and a country by the same name.
        if (text.length > 2 && /^\d\d$/.test(hit.code)) {
          const country = lookup(text, { kinds: ["country"] });
          if (country.kind === "found") alternates[hit.code] = country.code;
        }
        // CA: Canada as written (the data routes' reading), California as a state's abbreviation; "ca": the reverse.
        if (text.length === 2) {
          const other = lookup(text, { kinds: [/^\d\d$/.test(hit.code) ? "country" : "state"] });
          if (other.kind === "found" && other.code !== hit.code) codes[hit.code] = { other: other.code, text };
        }
      } else ambiguous.push({ at: i, text, candidates: hit.candidates });
      i += n - 1;
      break;
    }
  }
  // "Wayne County vs Michigan": a county name of several states, settled by a state the question names.
  const unsettled: AmbiguousPlace[] = [];
  for (const a of ambiguous) {
    const inState = a.candidates.filter((c) => c.length === 5 && found.some((f) => f.code === c.slice(0, 2)));
    if (inState.length === 1) found.push({ at: a.at, code: inState[0] });
    else unsettled.push({ text: a.text, candidates: a.candidates, position: a.at });
  }
  found.sort((a, b) => a.at - b.at);
  // Where each unsettled name stands among the places, so its reading keeps the question's order ("from A to B").
  for (const u of unsettled) u.position = new Set(found.filter((f) => f.at < u.position!).map((f) => f.code)).size;
  // The word before each place, by its code (a name of several counties: by its text, for the one it is read as).
  const before: Record<string, string> = {};
  for (const f of [
    ...found.map((x) => ({ at: x.at, key: x.code })),
    ...ambiguous.map((a) => ({ at: a.at, key: a.text })),
  ]) {
    let j = f.at - 1;
    while (j >= 0 && (words[j].text === "the" || (words[j].text === "of" && words[j - 1]?.text === "out"))) j--;
    if (j >= 0 && !(f.key in before)) before[f.key] = words[j].text === "out" ? "out of" : words[j].text;
  }
  return { places: [...new Set(found.map((f) => f.code))], ambiguous: unsettled, alternates, codes, before };
}

const PLACE_BEFORE = new Set(["in", "of", "for", "from", "leave", "leaving"]);
// Determiners and quantifiers after in/of/from are no place names ("from other states", "in each county").
const NOT_PLACES = new Set(
  (
    "other others each every most some several both either neither another such few various certain different own same whole entire rest " +
    "peak peaks top trough bottom highs lows elsewhere abroad people residents workers families households americans world economies globally"
  ).split(" "),
);
const MONTH_WORDS = new Set([
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
  "jan",
  "feb",
  "mar",
  "apr",
  "jun",
  "jul",
  "aug",
  "sep",
  "sept",
  "oct",
  "nov",
  "dec",
]);

/**
 * Words after in/of/for/from (past fillers) that nothing took: a place the question named. Each is tried against
 * the place names as a misspelling (one candidate within the typo distance: read as it); the rest are unplaced.
 */
export function readUnplaced(
  words: Word[],
  fuzzy: FuzzyPlace | undefined,
): { corrections: Correction[]; unplaced: string[]; codes: { at: number; code: string }[] } {
  const corrections: Correction[] = [];
  const unplaced: string[] = [];
  const codes: { at: number; code: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (
      w.used ||
      FILLER_WORDS.has(w.text) ||
      MONTH_WORDS.has(w.text) ||
      NOT_PLACES.has(w.text) ||
      TIMED_EPISODE_WORDS.has(w.text) ||
      /^\d+$/.test(w.text) ||
      w.text.length < 3
    )
      continue;
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
