// GET /v1/observations and GET /v1/observations/latest (single and batch): paid reads, through paid(...).
// resolve() turns the code or concept into a series and checks every series-dependent rule before any payment is
// asked, so what does not exist or cannot be computed costs nothing.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import type { Deps } from "../deps";
import { errorResponses } from "../schemas/errors";
import { PAGE_VARY, acceptedFormat } from "../http/content-coding";
import {
  jsonAnswer,
  pageAnswer,
  paidOperation,
  provisioning,
  registerOperations,
  serve,
  serveHeld,
  type PaidDefinition,
} from "../http/paid";
import type { Serving, Surface } from "../pricing";
import {
  latestBatchResponseSchema,
  latestQuerySchema,
  latestSingleResponseSchema,
  observationsQuerySchema,
  observationsResponseSchema,
  splitIndicators,
} from "../schemas/observations";
import { resolveSeriesTarget, type SeriesTarget } from "../services/concepts";
import { getLatestAnswer, getLatestBatch, latestMeta, resolveLatestBatch, type LatestBatch } from "../services/latest";
import {
  getObservationsPage,
  observationsPageCheck,
  type PageFormat,
  resolveObservations,
  type ObservationsQuery,
  type ObservationsTarget,
} from "../services/observations";
import { readable, readContext, seriesRead, targetCode, type Heads } from "../services/series-read";
import { provisioningResponse } from "../schemas/provisioning";

const json = <T>(schema: T) => ({ content: { "application/json": { schema } } });

const observationsRoute = createRoute({
  method: "get",
  path: "/v1/observations",
  operationId: "get_observations",
  tags: ["Data"],
  summary: "Observations of one series",
  description:
    "The latest revision of each date of one indicator (code or concept) in one region, newest first by default. " +
    "`frequency` resamples to calendar buckets before any `transform`; transforms read the whole series, so comparators " +
    "and index bases outside the page or the date range are found. `include_revisions=true` returns every stored revision. " +
    "Concepts resolve per region kind and are disclosed in `meta.concept`. A series the catalog offers but the service " +
    "does not hold yet is fetched from its upstream: 202 with `Retry-After` meanwhile (not charged), then the data.",
  request: { query: observationsQuerySchema },
  responses: {
    200: {
      description:
        "A page of observations or resampled buckets. With `Accept: text/csv` the same rows as CSV (a header row; " +
        "resampled buckets have the columns period_start, period_end, period_type, value), and the metadata in headers: " +
        "X-Total-Count, X-Limit, X-Offset, X-Indicator, X-Region, X-Frequency, X-Unit, X-Transform, X-Concept, and how current " +
        "the series is: X-Newest-Period, X-Stale (meta.freshness).",
      content: {
        "application/json": { schema: observationsResponseSchema },
        "text/csv": {
          schema: {
            type: "string",
            example:
              "date,value,indicator,region,unit,source,source_updated_at,is_preliminary,revision\r\n2024-01-01,4.1,UNRATE,US,Percent,fred,,false,1\r\n",
          },
        },
      },
    },
    ...provisioningResponse,
    ...errorResponses(400, 401, 402, 403, 404, 429, 500, 502),
  },
});

const latestRoute = createRoute({
  method: "get",
  path: "/v1/observations/latest",
  operationId: "get_latest",
  tags: ["Data"],
  summary: "Latest observation, single or batch",
  description:
    "Single form (`indicator`): the newest observation with a value, or null. Batch form (`indicators`, at most 20, " +
    "comma-separated, flat price): 200 when every code resolved, 207 with `errors[]` (INVALID_PARAMETER, " +
    "RESOURCE_NOT_FOUND, CATEGORY_NOT_ALLOWED) when some did not; the good ones are always returned. A series offered " +
    "but not held yet is fetched from its upstream: the single form answers 202 with `Retry-After` meanwhile (not " +
    "charged); the batch form reports it in `errors[]` with the provisioning body in `details.provisioning`.",
  request: { query: latestQuerySchema },
  responses: {
    200: {
      description: "Latest observation (single form) or every latest observation (batch form)",
      ...json(latestSingleResponseSchema.or(latestBatchResponseSchema)),
    },
    207: { description: "Batch form with per-indicator errors", ...json(latestBatchResponseSchema) },
    ...provisioningResponse,
    ...errorResponses(400, 401, 402, 403, 404, 429, 500, 502),
  },
  "x-price-surface": ["latest", "latest_batch"],
});

type ObservationsServed = Serving & { target: ObservationsTarget; query: ObservationsQuery; format: PageFormat };
type LatestServed = Serving &
  ({ single: SeriesTarget & { heads: Heads }; batch: null } | { single: null; batch: LatestBatch });

/** Serving one series through `surface`. */
function servingOf(t: SeriesTarget, surface: Surface, resource: string): Serving {
  return { indicator: targetCode(t), region: t.region.code, resource, reads: [seriesRead(t, surface)] };
}

/** This area's paid operations, one definition each (src/http/paid.ts PaidDefinition). */
export const observationOperations = (deps: Deps): PaidDefinition[] => {
  // Series offered but not held are provisioned on demand (202 before any payment is asked).
  const ctx = readContext(deps, { provisioning: true });

  const observations = paidOperation<typeof observationsRoute, ObservationsServed>(observationsRoute, {
    surface: "observations",
    reads: "all",
    example: "/v1/observations?indicator=PAYEMS&region=US",
    // A monthly series has no observation mid-month: the index base is found missing only when the series is read.
    failing: "/v1/observations?indicator=PAYEMS&region=US&transform=index:2010-01-15",
    resolve: async (query, asked) =>
      serveHeld(await resolveObservations(ctx, query), (target) => ({
        ...servingOf(target, "observations", "/v1/observations"),
        target,
        query,
        format: acceptedFormat(asked.header("accept")),
      })),
    // The page comes rendered (memoised per series version, compressed once per coding): no re-serialisation,
    // re-compression or copy of hot pages.
    answer: async (r) => pageAnswer(await getObservationsPage(ctx, r.target, r.query, r.format), PAGE_VARY),
    page: (r) => observationsPageCheck(ctx, r.target, r.query, r.format),
    vary: PAGE_VARY,
  });

  const latest = paidOperation<typeof latestRoute, LatestServed>(latestRoute, {
    surface: (r) => (r.single ? "latest" : "latest_batch"),
    // Batch: a flat price for the whole call; a code the key may not read is reported in errors[], the others served.
    reads: (r) => (r.single ? "all" : "each"),
    example: "/v1/observations/latest?indicator=PAYEMS&region=US",
    cannotFailOncePaid:
      "a single read is resolved and checked readable before payment; a batch answers each code's failure in its 207 body",
    resolve: async (query) => {
      if (query.indicator !== undefined) {
        const found = await readable(
          ctx,
          await resolveSeriesTarget(ctx, { code: query.indicator, source: query.source, region: query.region }),
        );
        if (found.kind === "not-held") return provisioning(found.provision);
        return serve<LatestServed>({
          ...servingOf(found.target, "latest", "/v1/observations/latest"),
          single: found.target,
          batch: null,
        });
      }
      const batch = await resolveLatestBatch(ctx, {
        codes: splitIndicators(query.indicators!),
        source: query.source,
        region: query.region,
      });
      const reads = batch.targets.map((t) => seriesRead(t.target, "latest_batch"));
      return serve<LatestServed>(
        { indicator: null, region: null, resource: "/v1/observations/latest", reads, single: null, batch },
        batch.provisions,
      );
    },
    answer: async (r, admitted, started) => {
      if (r.single) {
        const { data, freshness } = await getLatestAnswer(ctx, r.single);
        return jsonAnswer({ data, meta: latestMeta(r.single, data !== null, freshness) });
      }
      const body = await getLatestBatch(ctx, r.batch, admitted.refused, started);
      return jsonAnswer(body, body.errors.length > 0 ? 207 : 200);
    },
  });
  return [observations, latest];
};

export const registerObservationRoutes: RegisterRoutes = (app, deps) =>
  registerOperations(app, deps, observationOperations(deps));
