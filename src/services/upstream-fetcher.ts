// The SeriesFetcher the server and `svc worker` use: the upstream connectors (src/upstream/) behind the port the jobs
// call. A series is fetchable when the catalog entry's connector maps it for the region; a fetch writes the whole
// series in one transaction (ingestSeries), so a retry after a crash never finds half a series counted as held; a
// refresh re-reads the recent years of every held series of one source, and a changed value becomes a revision.
import type { Db } from "../../db/client";
import { heldSeriesOfSource } from "../../db/repos/catalog";
import type { IndicatorRow } from "../../db/repos/catalog";
import type { RegionRow } from "../../db/repos/regions";
import type { Clock, SeriesFetcher } from "../ports";
import type { UpstreamRegistry } from "../upstream";
import { ingestOne, ingestSeries } from "./ingest";
import type { Logger } from "../logger";

/** Years a scheduled refresh re-reads: enough for the revisions agencies publish (annual benchmarks go back 5 years). */
const REFRESH_YEARS = 5;

export function upstreamFetcher(deps: {
  db: Db;
  upstream: UpstreamRegistry;
  clock: Clock;
  logger: Logger;
}): SeriesFetcher {
  const ctx = { db: deps.db, upstream: deps.upstream, clock: deps.clock };
  const via = (indicator: IndicatorRow, region: RegionRow) =>
    deps.upstream.refFor(indicator, region)?.connector ?? null;
  return {
    fetchVia: via,
    canFetch: (indicator, region) => via(indicator, region) !== null,
    async fetch(indicator, region) {
      await ingestOne(ctx, { indicator, region });
    },
    async refresh(source) {
      const held = (await heldSeriesOfSource(deps.db, source)).filter((t) => via(t.indicator, t.region) !== null);
      if (held.length === 0) return { changed: [] };
      const now = deps.clock.now();
      const start = `${now.getUTCFullYear() - REFRESH_YEARS}-01-01`;
      const results = await ingestSeries(ctx, held, { range: { start } });
      const failed = results.filter((r) => r.status === "failed");
      if (failed.length)
        deps.logger.warn("refresh: series failed upstream", {
          source,
          failed: failed.length,
          first: failed[0].error?.message,
        });
      return {
        changed: results
          .filter((r) => r.inserted + r.revised > 0)
          .map((r) => ({ indicatorId: r.indicatorId, regionCode: r.region })),
      };
    },
  };
}
