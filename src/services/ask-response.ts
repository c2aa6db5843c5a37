// The parts of an ask response that planning and running share (ask-plan.ts, ask-run.ts): the free answer that
// holds no data (no_coverage, no_data), and how the regions and the indicators a question resolved to are listed.
import { DETERMINISTIC_MODEL } from "../domain/ask/compose";
import type { AskDepth, AskResponse, Citation } from "../schemas/ask";
import type { SeriesTarget } from "./concepts";
import type { RegionRow } from "./regions";
import { targetCode } from "./series-read";

/** An answer that holds no data: not covered, or covered but nothing held. */
export function emptyResponse(
  depth: AskDepth,
  status: "no_coverage" | "no_data",
  message: string,
  resolved: AskResponse["resolved"],
  extra: { rounds?: number; citations?: Citation[] } = {},
): AskResponse {
  const citations = extra.citations ?? [];
  return {
    answer: null,
    citations,
    resolved,
    grounded: true,
    truncated: false,
    status,
    // The question's words quoted here are letters and digits only (parse.ts splits on everything else).
    message,
    meta: { depth, rounds: extra.rounds ?? 0, toolCalls: citations.length, model: DETERMINISTIC_MODEL },
  };
}

export const regionOut = (r: RegionRow) => ({ code: r.code, name: r.name, type: r.type });

function indicatorOut(t: SeriesTarget): AskResponse["resolved"]["indicators"][number] {
  if (t.kind === "stored")
    return {
      code: t.indicator.code,
      source: t.indicator.sourceSlug ?? "",
      name: t.indicator.name,
      ...(t.concept ? { concept: t.concept.code } : {}),
    };
  return { code: t.code, source: "svc", name: t.concept.name, concept: t.code };
}

export function uniqueIndicators(targets: readonly SeriesTarget[]): AskResponse["resolved"]["indicators"] {
  return [...new Map(targets.map((t) => [`${targetCode(t)}|${indicatorOut(t).source}`, indicatorOut(t)])).values()];
}
