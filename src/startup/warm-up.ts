// What the first requests after a start would otherwise pay for, done before the server says it is ready: requests
// through the app (the first one through a route compiles its path; the first with a query string on /v1 builds the
// operations' parameter lists from the OpenAPI document, some 100 ms of this thread's time), the catalog with every
// indicator's coverage, the region index, and the series people ask for first, read into the series cache. Reads
// only: nothing here writes, starts a fetch or asks for a payment. What is still loading on a first start is skipped (it is read once stored).
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Deps } from "../deps";
import { ApiError } from "../errors";
import { regionIndex } from "../services/regions";
import { readContext, seriesData } from "../services/series-read";
import { resolveSeriesTarget } from "../services/concepts";

/** Free catalog requests a new user makes first (the README's examples): answered once here, they are rendered. */
const FIRST_REQUESTS = ["/api/health", "/v1/indicators?search=unemployment", "/v1/regions?type=state"];

/** The series read first on a fresh server: the README's and the landing page's examples. */
const FIRST_READS = [
  { code: "UNRATE" },
  { code: "PAYEMS" },
  { code: "CPIAUCSL" },
  { code: "GDP" },
  { code: "unemployment_rate", region: "TX" },
];

export async function warmUp(app: Pick<OpenAPIHono<any>, "request">, deps: Deps): Promise<void> {
  const ctx = readContext(deps);
  // Side by side: the database answers on its own thread while this one builds what it read.
  const read = async (input: (typeof FIRST_READS)[number]) => {
    try {
      await seriesData(ctx, await resolveSeriesTarget(ctx, input));
    } catch (e) {
      // Loading, or not held: nothing to warm.
      if (!(e instanceof ApiError)) throw e;
    }
  };
  await Promise.all([
    ...FIRST_REQUESTS.map((path) => app.request(path)),
    deps.caches.catalog.coverageTable(),
    regionIndex(ctx),
    ...FIRST_READS.map(read),
  ]);
}
