// Misspelt place names (pure): a state or country name written with a typo read as the one name it is close to.
import { regionKey, type RegionIndex } from "../regions";

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
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
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
export type FuzzyName = { code: string; key: string };

/** The names fuzzyPlaceLookup reads (states and countries), made once per index by the caller that keeps it. */
export function fuzzyPlaceNames(index: RegionIndex): FuzzyName[] {
  return [...index.byCode.values()]
    .filter((r) => r.type === "state" || r.type === "country")
    .map((r) => ({ code: r.code, key: regionKey(r.name) }));
}

export function fuzzyPlaceLookup(
  index: RegionIndex,
  names: readonly FuzzyName[] = fuzzyPlaceNames(index),
): (text: string) => string | null {
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
