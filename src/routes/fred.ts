// The FRED-compatible surface: GET /fred/series/observations (paid, priced and admitted as /v1/observations, through
// registerPaid in FRED's dialect: src/http/fred-gate.ts), and the free catalog reads /fred/series, /fred/series/search
// and /fred/series/vintagedates. Parameters are FRED's, checked by src/domain/fred/query.ts before any payment (a bad
// one is declined, free, in FRED's error document); answers and errors are FRED's JSON or XML documents.
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv, RegisterRoutes } from "../http/app-env";
import { FRED_DIALECT, fredError } from "../http/fred-gate";
import { declined, pageAnswer, provisioning, paidOperation, registerOperations, serve } from "../http/paid";
import { renderPage } from "../http/content-coding";
import { provisioningAnswer } from "../http/respond";
import { FRED_ERRORS, type FredFileType } from "../domain/fred/errors";
import {
  parseObservationsQuery,
  parseSearchQuery,
  parseSeriesQuery,
  parseVintageDatesQuery,
  type ObservationsQuery,
  type Parsed,
} from "../domain/fred/query";
import type { Serving } from "../pricing";
import {
  fredErrorSchema,
  fredObservationsQuerySchema,
  fredObservationsSchema,
  fredSearchQuerySchema,
  fredSearchSchema,
  fredSeriesQuerySchema,
  fredSeriesSchema,
  fredVintageDatesQuerySchema,
  fredVintageDatesSchema,
} from "../schemas/fred";
import {
  checkFredObservations,
  fredObservationsCheck,
  getFredObservations,
  getFredVintageDates,
  resolveFredSeries,
  type FredTarget,
} from "../services/fred";
import { getFredSeries, searchFredSeries } from "../services/fred-catalog";
import type { RenderedJson } from "../services/rendered";
import { readContext, seriesRead, type ReadContext } from "../services/series-read";
import { provisioningCaller } from "../http/admission";
import { provisioningResponse } from "../schemas/provisioning";
import { errorResponses } from "../schemas/errors";

const documents = <T>(schema: T) => ({
  content: { "application/json": { schema }, "text/xml": { schema: { type: "string" as const } } },
});
const fredErrors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      {
        description: "FRED's error document: {error_code, error_message} in JSON, <error code message/> in XML",
        ...documents(fredErrorSchema),
      },
    ]),
  );
const VARY = "Accept-Encoding";

const observationsRoute = createRoute({
  method: "get",
  path: "/fred/series/observations",
  operationId: "fred_series_observations",
  tags: ["FRED compatible"],
  summary: "Observations of a series, as FRED's fred/series/observations",
  description:
    'FRED\'s parameters, defaults and documents: values are strings with "." for missing; frequency aggregation first, then ' +
    "units; the real-time parameters and output types 2-4 read the stored revisions (ALFRED). Priced and admitted as " +
    "/v1/observations: a key in `api_key` (or the usual headers), else x402 or L402.",
  request: { query: fredObservationsQuerySchema },
  responses: {
    200: { description: "FRED's observations document", ...documents(fredObservationsSchema) },
    ...provisioningResponse,
    ...fredErrors(400, 401, 402, 403, 429),
    ...errorResponses(500),
  },
  "x-price-surface": "observations",
});

const seriesRoute = createRoute({
  method: "get",
  path: "/fred/series",
  operationId: "fred_series",
  tags: ["FRED compatible"],
  summary: "A series' metadata, as FRED's fred/series",
  request: { query: fredSeriesQuerySchema },
  responses: {
    200: { description: "FRED's seriess document", ...documents(fredSeriesSchema) },
    ...provisioningResponse,
    ...fredErrors(400),
    ...errorResponses(500),
  },
});

const searchRoute = createRoute({
  method: "get",
  path: "/fred/series/search",
  operationId: "fred_series_search",
  tags: ["FRED compatible"],
  summary: "Catalog search, as FRED's fred/series/search",
  request: { query: fredSearchQuerySchema },
  responses: {
    200: { description: "FRED's search document", ...documents(fredSearchSchema) },
    ...fredErrors(400),
    ...errorResponses(500),
  },
});

const vintageDatesRoute = createRoute({
  method: "get",
  path: "/fred/series/vintagedates",
  operationId: "fred_series_vintagedates",
  tags: ["FRED compatible"],
  summary: "The vintage dates held for a series, as FRED's fred/series/vintagedates",
  request: { query: fredVintageDatesQuerySchema },
  responses: {
    200: { description: "FRED's vintage_dates document", ...documents(fredVintageDatesSchema) },
    ...provisioningResponse,
    ...fredErrors(400),
    ...errorResponses(500),
  },
});

/**
 * A free read: parse, resolve the series when it names one, answer; a FRED error otherwise. A series offered but not
 * held is provisioned as a paid read's is (202, or the budget's refusal), and read once its fetch has finished.
 */
async function freeRead<Q extends { fileType: FredFileType; seriesId?: string }>(
  c: Context<AppEnv>,
  deps: Parameters<RegisterRoutes>[1],
  ctx: ReadContext,
  parsed: Parsed<Q>,
  read: (q: Q, t: FredTarget | null) => Promise<RenderedJson>,
): Promise<Response> {
  if (!parsed.ok) return fredError(c, parsed.error, parsed.fileType);
  const q = parsed.value;
  let target: FredTarget | null = null;
  if (q.seriesId !== undefined) {
    let found = await resolveFredSeries(ctx, q.seriesId);
    if (found?.kind === "not-held") {
      const started = await found.provision.start(await provisioningCaller(c, deps));
      if (started.kind === "provisioning") return provisioningAnswer(c, started.body);
      if (started.kind === "refused") throw started.error;
      found = await resolveFredSeries(ctx, q.seriesId);
    }
    if (found?.kind !== "held") return fredError(c, FRED_ERRORS.seriesNotFound(), q.fileType);
    target = found.target;
  }
  return renderPage(c, await read(q, target), VARY);
}

type Served = Serving & { target: FredTarget; query: ObservationsQuery; today: string };

export const registerFredRoutes: RegisterRoutes = (app, deps) => {
  const ctx = readContext(deps, { provisioning: true });
  const today = () => deps.clock.now().toISOString().slice(0, 10);

  registerOperations(app, deps, [
    paidOperation<typeof observationsRoute, Served>(observationsRoute, {
      surface: "observations",
      reads: "all",
      dialect: FRED_DIALECT,
      example: "/fred/series/observations?series_id=PAYEMS&file_type=json",
      cannotFailOncePaid:
        "resolve() parses FRED's parameters, finds the series and checks the frequency against it before payment; the handler computes from what it holds",
      resolve: async (query) => {
        const day = today();
        const parsed = parseObservationsQuery(query, day);
        if (!parsed.ok) return declined(parsed.error.message);
        const q = parsed.value;
        const found = await resolveFredSeries(ctx, q.seriesId);
        // A 202 while the series is provisioned (started by the gate), free.
        if (found?.kind === "not-held") return provisioning(found.provision);
        if (!found) return declined(FRED_ERRORS.seriesNotFound().message);
        const target = found.target;
        // What the series cannot give (a frequency finer than its own) is declined before any payment.
        const refused = await checkFredObservations(ctx, target, q);
        if (refused) return declined(refused.message);
        const t = target.target;
        return serve({
          indicator: t.indicator.code,
          region: t.region.code,
          resource: "/fred/series/observations",
          reads: [seriesRead(t, "observations")],
          target,
          query: q,
          today: day,
        });
      },
      answer: async (r) => {
        const answer = await getFredObservations(ctx, r.target, r.query);
        // resolve checked every rule the series can break (checkFredObservations), at the head read here.
        if (!answer.ok) throw new Error(`FRED observations refused after resolve: ${answer.error.message}`);
        return pageAnswer(answer.body, VARY);
      },
      page: (r) => fredObservationsCheck(ctx, r.target, r.query, r.today),
      vary: VARY,
    }),
  ]);

  app.openapi(seriesRoute, (async (c: Context<AppEnv>) =>
    freeRead(c, deps, ctx, parseSeriesQuery(c.req.query(), today()), (q, t) => getFredSeries(ctx, t!, q))) as never);
  app.openapi(searchRoute, (async (c: Context<AppEnv>) =>
    freeRead(c, deps, ctx, parseSearchQuery(c.req.query(), today()), (q) => searchFredSeries(ctx, q))) as never);
  app.openapi(vintageDatesRoute, (async (c: Context<AppEnv>) =>
    freeRead(c, deps, ctx, parseVintageDatesQuery(c.req.query(), today()), (q, t) =>
      getFredVintageDates(ctx, t!, q),
    )) as never);
};
