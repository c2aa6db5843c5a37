// The catalog's own vocabulary (pure): what the words of a question that no lexicon phrase took are read as, from
// each indicator's name, code, unit and description. The lexicon (lexicon.ts) is the one curated list of how people
// name things; everything else a question can say is found here, so a series added to the catalog is askable by its
// own words with no entry of its own.
// - Words: each question word of 3 letters or more (fillers already dropped) must match a token of the entry, after
//   folding plurals: the token starts with the word ("earn" matches "earnings"), or the word starts with a token of
//   4 letters or more ("births" matches "birth", "registrations" does not match "registered"), or the two share a
//   stem: a first 6 letters or more that leave each at most 3 more ("populated" matches "population").
// - Every word must be found in the name, code or unit ("births per woman"); the description only orders the
//   matches (it mentions too much to name a series: "how is the stock market" would find M2, "money stock").
// - Score: 2 per word found in the name or code, 1 per word found in the unit, 1 more per word the description has.
// - Order: score, then held before not held, then offered for the place's kind, then the shorter name (the word is
//   more of it), then the catalog's order.
import { regionKey } from "../regions";
import { foldPlural, sharedStem } from "./words";

export { searchStem } from "./words";

export type VocabularyEntry = {
  code: string;
  name: string;
  unit: string | null;
  description: string | null;
  held: boolean;
  regionKinds: readonly string[];
};

const tokensOf = (text: string | null) =>
  new Set(
    regionKey(text ?? "")
      .split(" ")
      .filter(Boolean)
      .map(foldPlural),
  );

function matches(word: string, tokens: ReadonlySet<string>): boolean {
  if (tokens.has(word)) return true;
  for (const t of tokens)
    if (t.startsWith(word) || (t.length >= 4 && word.startsWith(t)) || sharedStem(word, t) > 0) return true;
  return false;
}

/** The entries the words name, best first (see the file comment); empty when no entry fits every word. */
export function vocabularyMatches<E extends VocabularyEntry>(
  words: readonly string[],
  entries: readonly E[],
  kind: string | null,
): E[] {
  const meaningful = words.map(foldPlural).filter((w) => w.length >= 3);
  if (meaningful.length === 0) return [];
  const scored: { e: E; score: number; order: number }[] = [];
  entries.forEach((e, order) => {
    const name = tokensOf(`${e.code} ${e.name}`);
    const unit = tokensOf(e.unit);
    const description = tokensOf(e.description);
    let score = 0;
    for (const w of meaningful) {
      if (matches(w, name)) score += 2;
      else if (matches(w, unit)) score += 1;
      else return;
      if (matches(w, description)) score += 1;
    }
    scored.push({ e, score, order });
  });
  const fits = (e: E) => (kind !== null && e.regionKinds.includes(kind) ? 1 : 0);
  return scored
    .sort(
      (a, b) =>
        b.score - a.score ||
        Number(b.e.held) - Number(a.e.held) ||
        fits(b.e) - fits(a.e) ||
        a.e.name.length - b.e.name.length ||
        a.order - b.order,
    )
    .map((s) => s.e);
}
