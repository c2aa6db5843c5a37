// A word for the people of a place read as the place (pure): "the Canadian economy" is Canada's, "New Yorkers" are
// New York's, "Texans" Texas's. No list of demonyms: the word's ending is taken off and what is left must begin the
// name of exactly one state or country, closest first.
// - Endings "ian", "an", "ese", "ish": what is left (3 letters or more) begins the name, at most 3 letters short of it
//   ("canad" Canada, "tex" Texas, "japan" Japan, "germ" Germany).
// - Endings "er", "i": what is left is the whole name ("new yorker", "vermonter", "pakistani"), so "never" is not
//   Nevada.
// A word that is the first word of exactly one name reads as it ("russian": the Russian Federation). Plural words are
// folded first ("texans"). A name several places share (Georgia) is returned as the name, for the
// caller's lookup to settle as it settles the name itself.
import { regionKey } from "../regions";
import { foldPlural } from "./words";

const LOOSE_ENDINGS = ["ian", "an", "ese", "ish"];
const WHOLE_ENDINGS = ["er", "i"];
const MAX_SHORT = 3;

/**
 * The place name a demonym stands for, or null (see the file comment). `places`: the states' and countries' name keys
 * (fuzzyPlaceNames, kept with the region index); `text`: one to three words as written.
 */
export function demonymName(places: readonly { key: string }[], text: string): string | null {
  const words = regionKey(text).split(" ");
  const last = foldPlural(words.at(-1) ?? "");
  const head = words.slice(0, -1).join(" ");
  const names = [...new Set(places.map((p) => p.key))];
  // "Russian": the first word of one name ("russian federation").
  const leading = head ? [] : names.filter((n) => n.startsWith(`${last} `));
  if (leading.length === 1) return leading[0];
  for (const ending of [...WHOLE_ENDINGS, ...LOOSE_ENDINGS]) {
    if (!last.endsWith(ending) || last.length - ending.length < 3) continue;
    const stem = [head, last.slice(0, -ending.length)].filter(Boolean).join(" ");
    const whole = WHOLE_ENDINGS.includes(ending);
    let best: { name: string; short: number } | null = null;
    let tie = false;
    for (const name of names) {
      if (!name.startsWith(stem)) continue;
      const short = name.length - stem.length;
      if (whole ? short !== 0 : short > MAX_SHORT) continue;
      if (!best || short < best.short) [best, tie] = [{ name, short }, false];
      else if (short === best.short) tie = true;
    }
    if (best && !tie) return best.name;
  }
  return null;
}
