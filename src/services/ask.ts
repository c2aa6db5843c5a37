// GET /v1/ask and briefing runs: a question in plain words answered from tool calls (spec "GET /v1/ask", "Ask
// response"). Two steps, so that what costs nothing is decided before any payment:
// 1. planQuestion (ask-plan.ts, before the gate): read the question (src/domain/ask/parse.ts) and what kind of answer
//    it wants (src/domain/ask/intent.ts), resolve each topic and place to a series through the catalog and the
//    concepts (the held series first), check what is held. An uncovered question is `no_coverage`, a covered one
//    whose series hold nothing there is `no_data`: both answered free. Identical questions (and dates) plan identically.
// 2. runPlan (ask-run.ts, after the gate): the tool calls, through the services the REST endpoints use, each a
//    citation whose args replay it; the lead sentence that answers the question (src/domain/ask/lead.ts, rank.ts),
//    the context after it, an optional language model's phrasing, and the verifier (src/domain/ask/verify.ts).
//    A ranking across places (ask-rank.ts) reads every place of the kind in one batch.
import type { Deps } from "../deps";
import { languageModelOf } from "./ask-model";
import { planQuestion, type AskContext, type Asker } from "./ask-plan";
import { runPlan } from "./ask-run";

export {
  ASK_CEILINGS,
  DEFAULT_ASK_WINDOW,
  planQuestion,
  planReads,
  type AskContext,
  type AskInput,
  type AskPlan,
  type Asker,
} from "./ask-plan";
export { runPlan } from "./ask-run";

/** Reads held data only: a question never sets a provisioning fetch off (the data endpoints do). */
export function askContext(deps: Pick<Deps, "database" | "clock" | "caches" | "config">): AskContext {
  return {
    db: deps.database.db,
    caches: deps.caches,
    now: () => deps.clock.now(),
    model: languageModelOf(deps.config),
  };
}

export function createAsker(deps: Pick<Deps, "database" | "clock" | "caches" | "config">): Asker {
  const ctx = askContext(deps);
  return {
    async answer(input, opts = {}) {
      const plan = await planQuestion(ctx, input);
      return plan.kind === "answered" ? plan.response : runPlan(ctx, plan, { signals: opts.signals ?? false });
    },
  };
}
