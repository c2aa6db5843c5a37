// Briefings (spec "Briefings"): the free public catalog, its paid read through paid(...) (unknown and never-run slugs
// are free 404s, decided in resolve), and a key's saved briefings. The saved-briefing routes are Key routes: the key
// middleware authenticates and counts them against the key's per-minute window; they are not metered.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { entitlementOf, requireKey } from "../http/verdicts";
import { jsonAnswer, paidOperation, registerOperations, serve } from "../http/paid";
import { briefingCharts, renderBriefingPage } from "../docs/briefing-page";
import { readContext } from "../services/series-read";
import { errorResponses } from "../schemas/errors";
import { KEY_SECURITY } from "../docs/openapi-access";
import type { Serving } from "../pricing";
import {
  briefingDetailResponseSchema,
  briefingIdParamsSchema,
  briefingListResponseSchema,
  briefingRunListResponseSchema,
  briefingRunsQuerySchema,
  createBriefingBodySchema,
  deleteBriefingResponseSchema,
  publicBriefingListResponseSchema,
  publicBriefingReadResponseSchema,
  publicSlugParamsSchema,
} from "../schemas/briefings";
import {
  createBriefing,
  deleteBriefing,
  getBriefing,
  listBriefings,
  listRuns,
  publicBriefings,
  readPublicBriefing,
  resolvePublicRead,
  type PublicRead,
} from "../services/briefings";

const json = <T>(schema: T) => ({ content: { "application/json": { schema } } });
const OWN = "A key sees only its own briefings: another key's id, and anything that is not an id, is 404.";

const publicListRoute = createRoute({
  method: "get",
  path: "/v1/briefings/public",
  operationId: "list_public_briefings",
  tags: ["Briefings"],
  summary: "Public briefings",
  description:
    "The curated briefings anyone can read (GET /v1/briefings/public/{slug}): each question is asked again every week. Free.",
  responses: {
    200: { description: "The curated briefings", ...json(publicBriefingListResponseSchema) },
    ...errorResponses(500),
  },
});

const publicReadRoute = createRoute({
  method: "get",
  path: "/v1/briefings/public/{slug}",
  operationId: "get_public_briefing",
  tags: ["Briefings"],
  summary: "Read a public briefing",
  description:
    "Its latest successful run: the stored answer with its full citation trace (each citation replays against the data " +
    "endpoints). A failed run never replaces it. An unknown slug, and a briefing that has not run yet, are 404s and cost nothing.",
  request: { params: publicSlugParamsSchema },
  responses: {
    200: {
      description:
        "The briefing and its latest successful run. A browser (Accept preferring text/html) gets it as a page, with a chart (GET /v1/chart) of every series the answer read.",
      content: { ...json(publicBriefingReadResponseSchema).content, "text/html": { schema: { type: "string" } } },
    },
    ...errorResponses(400, 401, 402, 404, 429, 500),
  },
});

const createBriefingRoute = createRoute({
  method: "post",
  path: "/v1/briefings",
  operationId: "create_briefing",
  tags: ["Briefings"],
  summary: "Save a briefing",
  description:
    "Saves a question to be asked every week at the briefing depth (as GET /v1/ask?depth=briefing, with signals), each run " +
    "stored; its first run is queued at once. Needs premium access: a Developer or Professional key, or one granting " +
    "`svc-premium` (403 CATEGORY_NOT_ALLOWED otherwise). `region` must name a known region (404 otherwise). A key keeps at most 100.",
  security: KEY_SECURITY,
  request: { body: { ...json(createBriefingBodySchema), required: true } },
  responses: {
    201: { description: "Saved", ...json(briefingDetailResponseSchema) },
    ...errorResponses(400, 401, 403, 404, 429, 500),
  },
});

const listBriefingsRoute = createRoute({
  method: "get",
  path: "/v1/briefings",
  operationId: "list_briefings",
  tags: ["Briefings"],
  summary: "Your saved briefings",
  description:
    "The briefings saved by the calling key, oldest first, with when each last ran and runs next. Not metered.",
  security: KEY_SECURITY,
  responses: {
    200: { description: "The key's briefings", ...json(briefingListResponseSchema) },
    ...errorResponses(401, 429, 500),
  },
});

const getBriefingRoute = createRoute({
  method: "get",
  path: "/v1/briefings/{id}",
  operationId: "get_briefing",
  tags: ["Briefings"],
  summary: "A saved briefing and its latest run",
  description: `The briefing and its latest successful run (null before the first one; a failed run never replaces it: see its runs). ${OWN} Not metered.`,
  security: KEY_SECURITY,
  request: { params: briefingIdParamsSchema },
  responses: {
    200: { description: "The briefing", ...json(briefingDetailResponseSchema) },
    ...errorResponses(401, 404, 429, 500),
  },
});

const deleteBriefingRoute = createRoute({
  method: "delete",
  path: "/v1/briefings/{id}",
  operationId: "delete_briefing",
  tags: ["Briefings"],
  summary: "Delete a saved briefing",
  description: `Deletes the briefing, its schedule and its runs. ${OWN}`,
  security: KEY_SECURITY,
  request: { params: briefingIdParamsSchema },
  responses: {
    200: { description: "Deleted", ...json(deleteBriefingResponseSchema) },
    ...errorResponses(401, 404, 429, 500),
  },
});

const listRunsRoute = createRoute({
  method: "get",
  path: "/v1/briefings/{id}/runs",
  operationId: "list_briefing_runs",
  tags: ["Briefings"],
  summary: "Run history of a saved briefing",
  description: `Its runs, newest first, failed ones included (with their error). ${OWN} Not metered.`,
  security: KEY_SECURITY,
  request: { params: briefingIdParamsSchema, query: briefingRunsQuerySchema },
  responses: {
    200: { description: "The runs", ...json(briefingRunListResponseSchema) },
    ...errorResponses(400, 401, 404, 429, 500),
  },
});

type PublicReadServed = Serving & { read: PublicRead };

export const registerBriefingRoutes: RegisterRoutes = (app, deps) => {
  // The public routes first: `/v1/briefings/public` is not an id, nor `/v1/briefings/public/runs` a run history.
  app.openapi(publicListRoute, async (c) => c.json(await publicBriefings(deps), 200));
  const pages = readContext(deps);
  registerOperations(app, deps, [
    paidOperation<typeof publicReadRoute, PublicReadServed>(publicReadRoute, {
      surface: "briefing_read",
      // A key reads a public briefing only when it may read every place and series the stored answer read.
      reads: "all",
      example: "/v1/briefings/public/us-labor-market",
      cannotFailOncePaid:
        "resolve() finds the briefing's run; only its deletion between resolve and read (public runs are never deleted) could fail",
      resolve: async (_query, asked) => {
        const read = await resolvePublicRead(deps, asked.param("slug")!);
        // A payment buys this briefing's read, not another's.
        return serve({
          indicator: null,
          region: null,
          resource: `/v1/briefings/public/${read.briefing.slug}`,
          reads: read.reads,
          read,
        });
      },
      answer: async (r) => {
        const body = await readPublicBriefing(deps, r.read);
        // A browser gets the same read as a page, with a chart of every series the answer read.
        return jsonAnswer(body, 200, {
          headers: { vary: "Accept" },
          html: async () => renderBriefingPage(body, await briefingCharts(pages, body)),
        });
      },
    }),
  ]);

  app.openapi(createBriefingRoute, async (c) => {
    const key = requireKey(c);
    return c.json(await createBriefing(deps, { key, entitle: entitlementOf(c, key) }, c.req.valid("json")), 201);
  });
  app.openapi(listBriefingsRoute, async (c) => c.json(await listBriefings(deps, requireKey(c)), 200));
  app.openapi(getBriefingRoute, async (c) =>
    c.json(await getBriefing(deps, requireKey(c), c.req.valid("param").id), 200),
  );
  app.openapi(deleteBriefingRoute, async (c) =>
    c.json(await deleteBriefing(deps, requireKey(c), c.req.valid("param").id), 200),
  );
  app.openapi(listRunsRoute, async (c) =>
    c.json(await listRuns(deps, requireKey(c), c.req.valid("param").id, c.req.valid("query").limit), 200),
  );
};
