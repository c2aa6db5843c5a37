// GET /v1/ask: a question in plain words, answered from tool calls with citations, through paid(...). resolve() reads
// the question and decides coverage before any payment: an uncovered question (or one whose series hold nothing
// there) is answered free, so the payment path never challenges it; a covered one is priced at the ask surface, or
// ask_briefing with depth=briefing. Active signals are read for callers entitled to them (a premium key, or a
// per-request payment, which buys the whole answer).
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import type { Deps } from "../deps";
import { errorResponses } from "../schemas/errors";
import { freeAnswer, jsonAnswer, paidOperation, registerOperations, serve, type PaidDefinition } from "../http/paid";
import type { Serving } from "../pricing";
import { askQuerySchema, askResponseSchema } from "../schemas/ask";
import { askContext, planQuestion, planReads, runPlan, ASK_CEILINGS, type AskPlan } from "../services/ask";

const askRoute = createRoute({
  method: "get",
  path: "/v1/ask",
  operationId: "ask",
  tags: ["Data"],
  summary: "Answer a question in plain words from the data, with citations",
  description:
    "Reads the question deterministically (a lexicon of how people name the series, place names of countries, states " +
    "and counties, time phrases such as 'over the last 5 years') into indicators, regions and a window (`resolved`), " +
    "and the kind of answer wanted (a level, growth, a change, a direction, a record, a value during a named episode or " +
    "against its peak, a ranking or threshold across places, a comparison at one period, where people move, a yes or " +
    "no), then calls get_latest or get_observations, get_insights and (at depth=briefing, for callers entitled to " +
    "signals) get_active_signals through the same services as the REST endpoints, rank_regions for a ranking or " +
    "get_flows for moves. The arithmetic follows what the series' values are (`values` of /v1/indicators/{code}): " +
    "growth is the 12-month percent change of a level or an index, a published change's own value, a rate's " +
    "difference in points. A place code reads as `region` does (CA is Canada, US-CA California) and the answer says " +
    "which. Each call is a citation whose `args` replay it against /v1/observations (transform=yoy for a 12-month " +
    "change), /v1/observations/latest, /v1/insights, /v1/signals/active, /v1/flows or /v1/indicators. The first " +
    "sentence answers the question with the number, the place and the period (a direction or yes/no word first). Every number in `answer` is checked " +
    "against the results (`grounded`). A question the catalog does not cover answers `status: no_coverage` with a " +
    "message and costs nothing (no 402 is issued); one whose series hold no data there answers `no_data`, also free. " +
    `Ceilings: default ${ASK_CEILINGS.default.series} series and ${ASK_CEILINGS.default.toolCalls} tool calls; ` +
    `briefing ${ASK_CEILINGS.briefing.series} series (with the nation or state for comparison) and ${ASK_CEILINGS.briefing.toolCalls} tool calls; ` +
    "`truncated` says when one ended work early.",
  request: { query: askQuerySchema },
  responses: {
    200: {
      description: "The answer with its citations (status ok), or a free no_coverage / no_data answer",
      content: { "application/json": { schema: askResponseSchema } },
    },
    ...errorResponses(400, 401, 402, 403, 404, 429, 500),
  },
  "x-price-surface": ["ask", "ask_briefing"],
});

type AskServed = Serving & { plan: Extract<AskPlan, { kind: "run" }> };

/** This area's paid operations, one definition each (src/http/paid.ts PaidDefinition). */
export const askOperations = (deps: Deps): PaidDefinition[] => {
  const ctx = askContext(deps);
  return [
    paidOperation<typeof askRoute, AskServed>(askRoute, {
      surface: (r) => (r.plan.depth === "briefing" ? "ask_briefing" : "ask"),
      // A key reads only the places and premium series it permits: the answer leaves out the others (a payment buys
      // the whole answer); refused when it permits none of them.
      reads: "any",
      example: "/v1/ask?q=What%20is%20the%20unemployment%20rate%20in%20Texas%3F",
      cannotFailOncePaid:
        "resolve() plans the question (unanswerable ones answered free); a tool call that fails is reported in the answer",
      resolve: async (q) => {
        const plan = await planQuestion(ctx, {
          q: q.q,
          region: q.region,
          window: q.window,
          depth: q.depth ?? "default",
        });
        if (plan.kind === "answered") return freeAnswer(plan.response);
        return serve({ indicator: null, region: plan.region, resource: "/v1/ask", reads: planReads(plan), plan });
      },
      answer: async (r, admitted) => {
        const permitted = (k: number) => !admitted.refused[k];
        const plan = { ...r.plan, series: r.plan.series.filter((_s, k) => permitted(k)) };
        // The signals read comes after the series' (planReads).
        const signals = plan.series.length > 0 && permitted(r.plan.series.length);
        return jsonAnswer(await runPlan(ctx, plan, { signals }));
      },
    }),
  ];
};

export const registerAskRoutes: RegisterRoutes = (app, deps) => registerOperations(app, deps, askOperations(deps));
