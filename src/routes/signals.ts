// GET /v1/signals/active and GET /v1/signals: stored signal intervals, premium, paged by cursor, through paid(...).
// resolve() resolves the filters (unknown codes and regions are free 404s) and checks the cursor (400) before any
// payment; the price is the signals surface's whatever is filtered.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import type { Deps } from "../deps";
import { errorResponses } from "../schemas/errors";
import { jsonAnswer, paidOperation, registerOperations, serve, type PaidDefinition } from "../http/paid";
import type { Serving } from "../pricing";
import { activeSignalsQuerySchema, signalListResponseSchema, signalsQuerySchema } from "../schemas/signals";
import { listSignals, resolveSignalQuery, type ResolvedSignalQuery } from "../services/signals";
import { readContext } from "../services/series-read";
import { EVERY_REGION } from "../domain/access";

const FILTERS =
  "Filters: `indicator` (codes or concepts), `region`, `type` (each repeatable or comma-separated), `strength` " +
  "(minimum, default neutral). Newest `valid_from` first; pass `meta.next_cursor` as `cursor` for the next page " +
  "(stable while new intervals are written: no duplicates, no gaps). Premium: a key needs premium access " +
  "(403 CATEGORY_NOT_ALLOWED otherwise). A key limited to some regions names them in `region` (a list without it " +
  "reads every region: 403 REGION_NOT_ALLOWED).";

const activeRoute = createRoute({
  method: "get",
  path: "/v1/signals/active",
  operationId: "get_active_signals",
  tags: ["Data"],
  summary: "Active signals",
  description: `Signal intervals still open (valid_to null): what is notable now. ${FILTERS}`,
  request: { query: activeSignalsQuerySchema },
  responses: {
    200: {
      description: "A page of open signal intervals",
      content: { "application/json": { schema: signalListResponseSchema } },
    },
    ...errorResponses(400, 401, 402, 403, 404, 429, 500),
  },
});

const historyRoute = createRoute({
  method: "get",
  path: "/v1/signals",
  operationId: "get_signals",
  tags: ["Data"],
  summary: "Signal history",
  description: `Every signal interval, open and closed; \`active\`, \`from\` and \`to\` narrow it. ${FILTERS}`,
  request: { query: signalsQuerySchema },
  responses: {
    200: {
      description: "A page of signal intervals",
      content: { "application/json": { schema: signalListResponseSchema } },
    },
    ...errorResponses(400, 401, 402, 403, 404, 429, 500),
  },
});

type SignalsServed = Serving & { query: ResolvedSignalQuery };

/** This area's paid operations, one definition each (src/http/paid.ts PaidDefinition). */
export const signalOperations = (deps: Deps): PaidDefinition[] => {
  const ctx = readContext(deps);
  // One read per region filtered on, or one of every region: a region-restricted key is entitled like any other read.
  const serving = (resource: string, query: ResolvedSignalQuery) => {
    const regions = query.filter.regionCodes ?? [EVERY_REGION];
    const reads = regions.map((region) => ({ indicator: null, region, premium: false, surface: "signals" as const }));
    return serve<SignalsServed>({ indicator: null, region: null, resource, reads, query });
  };
  return [
    paidOperation<typeof activeRoute, SignalsServed>(activeRoute, {
      surface: "signals",
      reads: "all",
      example: "/v1/signals/active?indicator=FEDFUNDS&region=US",
      cannotFailOncePaid:
        "resolve() resolves the filters and checks the cursor; the handler lists what matches, possibly nothing",
      resolve: async (q) => serving("/v1/signals/active", await resolveSignalQuery(ctx, { endpoint: "active", ...q })),
      answer: async (r) => jsonAnswer(await listSignals(ctx, r.query)),
    }),
    paidOperation<typeof historyRoute, SignalsServed>(historyRoute, {
      surface: "signals",
      reads: "all",
      example: "/v1/signals?indicator=PAYEMS",
      cannotFailOncePaid:
        "resolve() resolves the filters and checks the cursor; the handler lists what matches, possibly nothing",
      resolve: async (q) => serving("/v1/signals", await resolveSignalQuery(ctx, { endpoint: "history", ...q })),
      answer: async (r) => jsonAnswer(await listSignals(ctx, r.query)),
    }),
  ];
};

export const registerSignalRoutes: RegisterRoutes = (app, deps) =>
  registerOperations(app, deps, signalOperations(deps));
