// The scheduled refresh of one source (pg-boss cron, src/jobs/runtime.ts; or on demand): the source's connector
// re-reads its held series (a changed value becomes a new revision, db/repos/observations.ts), then the derived svc:
// series fed by the series that changed are recomputed (src/services/derived-series.ts deriveChanged). Each run is recorded per source, which
// is what /api/health reports.
import { recordRefreshFinished, recordRefreshStarted } from "../../db/repos/provisioning";
import type { Logger } from "../logger";
import type { SeriesFetcher, SeriesKey } from "../ports";
import type { Store } from "./caches";
import { deriveChanged } from "./derived-series";

export type RefreshDeps = { store: Store; fetcher: SeriesFetcher; now: () => Date; logger: Logger };

export async function refreshSource(d: RefreshDeps, source: string): Promise<{ changed: SeriesKey[] }> {
  await recordRefreshStarted(d.store.db, source, d.now());
  try {
    const { changed } = await d.fetcher.refresh(source);
    await deriveChanged({ ...d.store, now: d.now }, changed);
    await recordRefreshFinished(d.store.db, source, { ok: true, changedSeries: changed.length }, d.now());
    d.logger.info("refreshed", { source, changed_series: changed.length });
    return { changed };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    await recordRefreshFinished(d.store.db, source, { ok: false, error: error.split("\n")[0]!.slice(0, 300) }, d.now());
    d.logger.warn("refresh failed", { source, error });
    throw e;
  }
}
