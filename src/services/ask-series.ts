// Resolving an ask's topics in its places to held series (ask-plan.ts plans the rest): each topic in each place
// through the catalog and the concepts, the held series first; a name that is a state and a country (Georgia) or a
// code that is a country's and a state's (CA) read as the other when the topic is not covered or held there, and
// said so; what is not covered or not held, said why; and, for a briefing, the peer each place is compared with.
import type { ParsedQuestion } from "../domain/ask/parse";
import type { Topic } from "../domain/ask/lexicon";
import { TOPIC_WORDS } from "../domain/ask/topic-words";
import { conceptLevels, getConcept, pluralKind, REGION_KINDS, type RegionKind } from "../domain/concepts";
import type { RegionIndex } from "../domain/regions";
import { asApiError, resolveSeriesTarget, type SeriesTarget } from "./concepts";
import { codeNote } from "./ask-places";
import type { RegionRow } from "./regions";
import { heldTarget, targetCode, type ReadContext } from "./series-read";

export type Planned = { target: SeriesTarget; topic: Topic; region: RegionRow; peer: SeriesTarget | null };

export const TOPIC_LABEL = (t: Topic) => t.id.replace(/_/g, " ");

/** Where a topic is covered, for a message: "states and counties", "the United States". */
function topicLevels(t: Topic): string {
  const kinds = new Set<string>(Object.keys(t.byKind ?? {}));
  const concept = t.concept ? getConcept(t.concept) : null;
  if (concept) for (const k of conceptLevels(concept)) kinds.add(k);
  const parts = [...kinds]
    .sort((a, b) => REGION_KINDS.indexOf(a as RegionKind) - REGION_KINDS.indexOf(b as RegionKind))
    .map(pluralKind);
  if (t.us) parts.unshift("the United States");
  return parts.length ? parts.join(" and ") : "no region";
}

/** A series for a topic and place: held, or why not (no target: the catalog does not offer it there). */
type Candidate = { target: SeriesTarget; held: true } | { target: SeriesTarget | null; held: false; why: string };

/** `comparing`: the question compares countries, so the United States reads the same series as the others. */
async function candidatesFor(
  ctx: ReadContext,
  topic: Topic,
  region: RegionRow,
  comparing = false,
): Promise<Candidate[] | string> {
  const kind = region.type as RegionKind;
  const national =
    region.code === "US" && topic.us !== undefined && !(comparing && (topic.concept || topic.byKind?.country));
  let codes: string[];
  if (national) codes = [...topic.us!];
  else if (topic.byKind?.[kind]) codes = [...topic.byKind[kind]!];
  else if (topic.concept && conceptLevels(getConcept(topic.concept)!).includes(kind)) codes = [topic.concept];
  else {
    // Unsure is better than wrong: never another place's answer, but the closest one held, said so.
    const closest =
      topic.us && region.code !== "US" ? `; the closest held is the national figure: ask about the United States` : "";
    return `${TOPIC_LABEL(topic)} is covered for ${topicLevels(topic)}, not for ${region.name}${closest}`;
  }
  const out: Candidate[] = [];
  for (const code of codes) {
    let target: SeriesTarget;
    try {
      target = await resolveSeriesTarget(ctx, { code, region: region.code });
    } catch (e) {
      const err = asApiError(e);
      if (!err || err.status !== 404) throw e;
      out.push({ target: null, held: false, why: err.message });
      continue;
    }
    try {
      await heldTarget(ctx, target);
      out.push({ target, held: true });
    } catch (e) {
      const err = asApiError(e);
      if (!err) throw e;
      out.push({ target, held: false, why: err.message });
    }
  }
  // A topic of several series (recession: USREC and UNRATE) reads each; one of alternatives (a state's LASST04 or
  // LAUST04A) reads the first held.
  if (topic.byKind && !national) {
    const held = out.find((c) => c.held);
    return held ? [held] : out.slice(0, 1);
  }
  return out;
}

/** The nation for a state, the state for a county: the peer a briefing compares with. */
function peerRegion(region: RegionRow, byCode: Map<string, RegionRow>): RegionRow | null {
  if (region.type === "state") return byCode.get("US") ?? null;
  if (region.type === "county" && region.parentCode) return byCode.get(region.parentCode) ?? null;
  return null;
}

/** Every series the topics name in the places, as read (see the file comment); `notes` says how places were read. */
export async function planSeries(
  ctx: ReadContext,
  {
    topics,
    places,
    parsed,
    index,
    maxSeries,
    notes,
  }: {
    topics: readonly Topic[];
    places: readonly RegionRow[];
    parsed: Pick<ParsedQuestion, "alternates" | "codes">;
    index: RegionIndex<RegionRow>;
    maxSeries: number;
    notes: string[];
  },
): Promise<{
  planned: Planned[];
  uncovered: string[];
  notHeld: string[];
  unheldTargets: SeriesTarget[];
  truncated: boolean;
}> {
  const planned: Planned[] = [];
  const uncovered: string[] = [];
  const notHeld: string[] = [];
  const unheldTargets: SeriesTarget[] = [];
  const comparing = places.filter((p) => p.type === "country").length > 1;
  let truncated = false;
  for (const topic of topics) {
    for (const named of places) {
      let region = named;
      let found = await candidatesFor(ctx, topic, region, comparing);
      const label = TOPIC_WORDS[topic.id]?.growth ?? TOPIC_WORDS[topic.id]?.label ?? TOPIC_LABEL(topic);
      // A state's name that is also a country's (Georgia): the country when the topic is not covered for states.
      const alt = parsed.alternates[named.code] ? index.byCode.get(parsed.alternates[named.code]) : undefined;
      if (alt) {
        const asCountry = typeof found === "string" ? await candidatesFor(ctx, topic, alt, comparing) : null;
        if (asCountry && typeof asCountry !== "string") {
          [region, found] = [alt, asCountry];
          notes.push(`(${named.name} was read as the country: ${label} is covered for countries, not for US states.)`);
        } else
          notes.push(
            `(${named.name} was read as the US state; ask about "the country ${named.name}" for the country.)`,
          );
      }
      // A code that is a country's and a state's (CA): as read, else the other when the topic is not covered there.
      const code = parsed.codes[named.code];
      if (code) {
        const other = index.byCode.get(code.other)!;
        // Not covered for the code's place, or covered but nothing held there ("KY": the Cayman Islands): the other.
        const unheld = typeof found !== "string" && !found.some((c) => c.held);
        const asOther = typeof found === "string" || unheld ? await candidatesFor(ctx, topic, other, comparing) : null;
        if (asOther && typeof asOther !== "string" && asOther.some((c) => c.held)) {
          const why = unheld
            ? `no ${label.replace(/^the /, "")} is held for ${named.name}`
            : `${label} is covered for ${pluralKind(other.type as RegionKind)}, not for ${pluralKind(named.type as RegionKind)}`;
          [region, found] = [other, asOther];
          notes.push(
            `(“${code.text}” was read as ${other.type === "state" ? "the US state " : ""}${other.name}: ${why}; as a region code ${code.text} is ${named.name}.)`,
          );
        } else notes.push(codeNote(index, named.code, code.other, code.text));
      }
      if (typeof found === "string") {
        uncovered.push(found);
        continue;
      }
      for (const c of found) {
        if (!c.held) {
          notHeld.push(c.why);
          if (c.target) unheldTargets.push(c.target);
          continue;
        }
        if (planned.some((p) => targetCode(p.target) === targetCode(c.target) && p.region.code === region.code))
          continue;
        if (planned.length >= maxSeries) {
          truncated = true;
          continue;
        }
        planned.push({ target: c.target, topic, region, peer: null });
      }
    }
  }
  return { planned, uncovered, notHeld, unheldTargets, truncated };
}

/** A briefing compares each place with the one above it, when the same topic is held there: each series' peer. */
export async function planPeers(ctx: ReadContext, planned: Planned[], byCode: Map<string, RegionRow>): Promise<void> {
  for (const p of planned) {
    const up = peerRegion(p.region, byCode);
    if (!up) continue;
    const found = await candidatesFor(ctx, p.topic, up);
    if (typeof found !== "string") p.peer = found.find((c) => c.held)?.target ?? null;
  }
}
