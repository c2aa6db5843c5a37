// What ask reads a question's words as when no lexicon phrase names a topic: the catalog's own names, codes, units
// and descriptions (src/domain/ask/vocabulary.ts), searched as GET /v1/indicators searches (its citation replays
// there), then a topic's broad words ("prices"). A series found this way becomes a topic of its own, offered where
// the catalog offers it, and the answer says what the words were read as.
import { broadTopics } from "../domain/ask/parse";
import type { Topic } from "../domain/ask/lexicon";
import { searchStem, vocabularyMatches } from "../domain/ask/vocabulary";
import type { RegionKind } from "../domain/concepts";
import type { Citation } from "../schemas/ask";
import { listIndicators } from "./catalog";
import type { ReadContext } from "./series-read";

export const COVERED_HINT =
  "Covered: labour (unemployment, payrolls, job openings, claims, wages and county pay, labour force), prices (inflation, core and PCE " +
  "inflation), rates (federal funds, Treasury yields, the yield curve), output (GDP, industrial production, retail sales), " +
  "housing (starts, median home values), income, population and migration (including county-to-county and state-to-state " +
  "moves), for the United States, states, counties and countries where the catalog holds them; see GET /v1/indicators.";

export type VocabularyTopics = {
  topics: Topic[];
  searches: { citation: Citation; result: unknown }[];
  notes: string[];
};

/** Topics for the words no phrase took (see the file comment); `kind`: the kind of the place asked about. */
export async function topicsFromCatalog(
  ctx: ReadContext,
  question: string,
  words: readonly string[],
  kind: RegionKind | null,
  limit: number,
): Promise<VocabularyTopics> {
  const meaningful = words.filter((w) => w.length >= 3);
  const searches: VocabularyTopics["searches"] = [];
  if (meaningful.length) {
    const term = [...meaningful].sort((a, b) => b.length - a.length || a.localeCompare(b))[0];
    const list = await listIndicators(
      ctx,
      { search: searchStem(term), include_inactive: false, limit: 100, offset: 0 },
      ctx.now(),
    );
    const catalog = await ctx.caches.catalog.catalog();
    const rowOf = (code: string) => (catalog.byLowerCode.get(code.toLowerCase()) ?? []).find((r) => r.code === code)!;
    const entries = list.data.map((i) => ({
      ...i,
      held: i.coverage.regions_held > 0,
      regionKinds: rowOf(i.code).regionKinds,
    }));
    const found = vocabularyMatches(meaningful, entries, kind);
    const codes = found.map((i) => i.code);
    const summary =
      list.meta.total === 0
        ? `No indicator matches '${searchStem(term)}'.`
        : `${list.meta.total} indicator(s) match '${searchStem(term)}'${codes.length ? `; fitting the question: ${codes.join(", ")}` : "; none fits every word of the question"}.`;
    searches.push({
      citation: { tool: "search_indicators", args: { search: searchStem(term), limit: 100 }, summary },
      result: { total: list.meta.total, codes },
    });
    if (found.length) {
      const topics = found.slice(0, limit).map((f) => {
        const kinds = f.regionKinds as RegionKind[];
        return {
          id: f.code,
          phrases: [],
          us: kinds.length === 0 || kinds.includes("country") ? [f.code] : undefined,
          byKind: Object.fromEntries(kinds.map((k) => [k, [f.code]])),
        } as Topic;
      });
      const said = meaningful.map((w) => `“${w}”`).join(" ");
      return {
        topics,
        searches,
        notes: [`(${said} was read as ${found[0].name}, found in the catalog by its own words.)`],
      };
    }
  }
  return { topics: broadTopics(question), searches, notes: [] };
}
