// How ask settles the places of a question before planning (see ask-plan.ts):
// - "Which Texas county…": a state whose counties are ranked, not a county named Texas County.
// - A county name that several counties share ("Harris County", "Washington County") is read as the most populous of
//   them (the newest resident population held: POPESTIMATE), and the answer names the others and how to ask for one
//   of them. A name shared by places of different kinds still asks which.
// - Notes said after the answer: how a two-letter code was read (the data routes' reading: "CA" is Canada, "US-CA"
//   the state), and how to ask for the other.
import { findSeriesHeads, readLatestPerSeries } from "../../db/repos/observation-reads";
import type { ParsedQuestion } from "../domain/ask/parse";
import { lookupRegion, type RegionIndex } from "../domain/regions";
import { findIndicator } from "./concepts";
import type { RegionRow } from "./regions";
import type { ReadContext } from "./series-read";

/** The resident population of each place that holds one (newest value), in one read. */
export async function populations(ctx: ReadContext, codes: readonly string[]): Promise<Map<string, number>> {
  const indicator = await findIndicator(ctx, "POPESTIMATE", "census");
  if (!indicator || codes.length === 0) return new Map();
  const heads = await findSeriesHeads(
    ctx.db,
    codes.map((regionCode) => ({ indicatorId: indicator.id, regionCode })),
  );
  const latest = await readLatestPerSeries(
    ctx.db,
    heads.map((h) => h.id),
  );
  const out = new Map<string, number>();
  for (const h of heads) {
    const row = latest.get(h.id);
    if (row?.value !== null && row?.value !== undefined) out.set(h.regionCode, Number(row.value));
  }
  return out;
}

function placeWithState(index: RegionIndex<RegionRow>, code: string): string {
  const r = index.byCode.get(code)!;
  const parent = r.parentCode ? index.byCode.get(r.parentCode) : null;
  return `${r.name}${parent ? `, ${parent.name}` : ""}`;
}

/**
 * Settles the parsed places in place (see the file comment): the ambiguous county names read as their most populous
 * county. Returns the notes to say; `ambiguous` keeps only names that still need the caller to choose.
 */
export async function settlePlaces(
  ctx: ReadContext,
  parsed: ParsedQuestion,
  index: RegionIndex<RegionRow>,
  question: string,
): Promise<string[]> {
  const notes: string[] = [];
  if (/\b(which|what|top|bottom)\b.*\bcount(y|ies)\b/i.test(question)) {
    for (const a of [...parsed.ambiguous]) {
      const state = /^(.*)\s+county$/i.exec(a.text);
      const hit = state ? lookupRegion(index, state[1], { kinds: ["state"] }) : null;
      if (hit?.kind !== "found") continue;
      parsed.places.push(hit.code);
      parsed.ambiguous.splice(parsed.ambiguous.indexOf(a), 1);
    }
  }
  const counties = parsed.ambiguous.filter((a) => a.candidates.every((c) => index.byCode.get(c)?.type === "county"));
  if (counties.length) {
    const people = await populations(
      ctx,
      counties.flatMap((a) => a.candidates),
    );
    let settled = 0;
    for (const a of counties) {
      const ranked = [...a.candidates].sort(
        (x, y) => (people.get(y) ?? -1) - (people.get(x) ?? -1) || x.localeCompare(y),
      );
      const [chosen, ...others] = ranked;
      // In the question's order: "from Cook County to Maricopa County" keeps Cook first.
      parsed.places.splice(a.position === undefined ? parsed.places.length : a.position + settled++, 0, chosen);
      if (a.text in parsed.before) parsed.before[chosen] = parsed.before[a.text];
      parsed.ambiguous.splice(parsed.ambiguous.indexOf(a), 1);
      const shown = others.slice(0, 6).map((c) => placeWithState(index, c));
      const more = others.length > shown.length ? ` and ${others.length - shown.length} more` : "";
      notes.push(
        `(“${a.text}” names ${a.candidates.length} counties; this is ${placeWithState(index, chosen)}, the most populous. The others: ${shown.join("; ")}${more}. Name the state to ask about one of them.)`,
      );
    }
  }
  return notes;
}

/** How a two-letter code was read, and how to ask for the other reading. */
export function codeNote(index: RegionIndex<RegionRow>, read: string, other: string, text: string): string {
  const r = index.byCode.get(read)!;
  const o = index.byCode.get(other)!;
  if (r.type === "country") {
    return `(“${text}” was read as ${r.name}, the ISO country code, as the data routes read region=${text}; for the US state ${o.name}, ask with “US-${text.toUpperCase()}” or its name.)`;
  }
  return `(“${text}” was read as the US state ${r.name}; for the country ${o.name}, write its code in capitals (“${text.toUpperCase()}”) or its name.)`;
}
