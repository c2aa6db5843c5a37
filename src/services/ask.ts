// PLACEHOLDER (replaced by main's src/services/ask.ts at merge): the ask service's contract only, so the briefings
// branch compiles and runs. It answers every question no_coverage, as the real service does for an uncovered one.
import type { Deps } from "../deps";
import type { AskDepth, AskResponse } from "../schemas/ask";

export type AskInput = { q: string; region?: string; window?: string; depth: AskDepth };
export type Asker = { answer(input: AskInput, opts?: { signals?: boolean }): Promise<AskResponse> };

export function createAsker(_deps: Pick<Deps, "database" | "clock" | "caches" | "config">): Asker {
  return {
    async answer(input) {
      return {
        answer: null,
        citations: [],
        resolved: { indicators: [], regions: [], window: input.window ?? "all" },
        grounded: true,
        truncated: false,
        status: "no_coverage",
        message: "This build has no ask service yet (placeholder).",
        meta: { depth: input.depth, rounds: 0, toolCalls: 0, model: "placeholder" },
      };
    },
  };
}
