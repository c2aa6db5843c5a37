// On-demand provisioning of a series the catalog offers but the store does not hold (spec "Series availability").
//
// Request side (notHeld), started by the paid pipeline (src/http/paid.ts) when a route's resolve, which only reads,
// found a series offered but not held; before any payment is asked:
// - no connector can fetch it (SeriesFetcher.canFetch false, or no provisioning in this context): 404 naming the
//   `svc import` command that loads it;
// - its last provisioning failed and its retry_at is still ahead: INTERNAL_ERROR naming the upstream, with
//   Retry-After (the one error table gives INTERNAL_ERROR 502, Bad Gateway: the upstream behind us failed);
// - a new fetch the caller may not start now (src/services/provisioning-budget.ts): 429 or 503 with Retry-After;
// - otherwise: a provisioning row (new, or the running one with its request_ref), a job queued (one per series
//   across every process: pg-boss exclusive queue keyed by the series), and a 202 with the provisioning body.
// Job side (provisionSeries), one attempt of a job: nothing to do when a first attempt finds the series held
// already; else fetch it (a connector writes a series in one transaction; a retry fetches again). A series held at
// the end has the svc: series it feeds derived (src/services/derived-series.ts deriveChanged), as after a refresh:
// reads never derive, so the job that wrote the input does. A failure that may pass is recorded and rethrown
// (pg-boss retries it with backoff); a final one (not retryable, or the last attempt) marks the row failed until
// max(now + cooldown, now + the upstream's Retry-After).
import { findSeriesHead, isHeldHead, type SeriesHead } from "../../db/repos/observation-reads";
import {
  beginProvisioning,
  clearProvisioning,
  dropProvisioning,
  findProvisioning,
  markProvisioningFailed,
  recordFailedAttempt,
  type ProvisioningRow,
} from "../../db/repos/provisioning";
import type { JobsConfig } from "../config";
import { uuidFromBytes } from "../domain/keys";
import {
  failureRetryAt,
  importCommandFor,
  isFinalAttempt,
  secondsUntil,
  upstreamErrorInfo,
} from "../domain/provisioning";
import { ApiError } from "../errors";
import type { Logger } from "../logger";
import type { JobQueue, RandomSource, SeriesFetcher, SeriesKey } from "../ports";
import type { ProvisioningBody } from "../schemas/provisioning";
import type { Store } from "./caches";
import type { ProvisioningBudget, ProvisioningCaller } from "./provisioning-budget";
import { indicatorById, regionLabel, type IndicatorRow } from "./concepts";
import { regionIndex, type RegionRow } from "./regions";
import { deriveChanged } from "./derived-series";
import { waitText } from "../domain/wait";

/** What a read needs to provision a series it does not hold. */
export type ProvisioningContext = {
  fetcher: SeriesFetcher;
  jobs: JobQueue;
  random: RandomSource;
  settings: JobsConfig["provision"];
  budget: ProvisioningBudget;
  caller: () => ProvisioningCaller | Promise<ProvisioningCaller>;
};

export type NotHeld =
  | { kind: "provisioning"; body: ProvisioningBody }
  | { kind: "refused"; error: ApiError }
  | { kind: "held"; head: SeriesHead };

/** The upstream a series comes from, when no fetch has named it: the catalog's upstream api, else its source. */
export function providerOf(indicator: IndicatorRow): string {
  const api = (indicator.meta as { upstream?: { api?: unknown } }).upstream?.api;
  return typeof api === "string" && api !== "" ? api : (indicator.sourceSlug ?? "unknown");
}

/** Whether a series not held can be provisioned here: a context that provisions, and a connector that fetches it. */
export function canProvision(
  p: ProvisioningContext | undefined,
  indicator: IndicatorRow,
  region: RegionRow,
): p is ProvisioningContext {
  return !!p && p.fetcher.canFetch(indicator, region);
}

/** The 404 for a series not held that nothing here fetches on demand: it names the `svc import` command that loads it. */
export async function notFetchable(store: Store, indicator: IndicatorRow, region: RegionRow): Promise<ApiError> {
  const command = importCommandFor(indicator.code, region.code, indicator.sourceSlug);
  return new ApiError(
    "RESOURCE_NOT_FOUND",
    `No observations of '${indicator.code}' are held for ${await regionLabel(store, region)} yet, and no upstream connector fetches it on demand: load it from a CSV of date,value rows with '${command}'.`,
    { indicator: indicator.code, region: region.code, held: false, import_command: command },
  );
}

/** What a read of a series that is not held gets (see the file comment). */
export async function notHeld(
  store: Store,
  p: ProvisioningContext | undefined,
  now: Date,
  indicator: IndicatorRow,
  region: RegionRow,
): Promise<NotHeld> {
  if (!canProvision(p, indicator, region))
    return { kind: "refused", error: await notFetchable(store, indicator, region) };
  const label = await regionLabel(store, region);
  const details = { indicator: indicator.code, region: region.code, held: false };
  // The first start's work done first: until then the job engine, which runs fetches, does not run.
  store.caches.catalog.loading.assertFetchesStart();
  const key = { indicatorId: indicator.id, regionCode: region.code };
  // Only a request that would start a fetch is bounded (429/503 with Retry-After): re-asking for one under way is free.
  const current = await findProvisioning(store.db, key);
  const caller = await p.caller();
  if (!current || (current.state === "failed" && current.retryAt! <= now))
    await p.budget.admit(store.db, caller, p.fetcher.fetchVia(indicator, region) ?? providerOf(indicator), now);
  const { row, started } = await beginProvisioning(store.db, key, {
    requestRef: uuidFromBytes(p.random.bytes(16)),
    provider: providerOf(indicator),
    now,
  });
  if (started) {
    // The series may have become held since this read looked: the job that fetched it cleared its row just before
    // this one was made. Then nothing is provisioned (no new request_ref, no job) and the read is served the series.
    const head = await findSeriesHead(store.db, key.indicatorId, key.regionCode);
    if (isHeldHead(head)) {
      await dropProvisioning(store.db, key, row.requestRef);
      // The read that asked remembered the series as not held: it reads the head again.
      store.caches.series.invalidate(key);
      return { kind: "held", head };
    }
  }
  if (row.state === "failed") return { kind: "refused", error: upstreamGaveUp(row, indicator, label, details, now) };
  // Every read while it runs re-sends: a no-op while the series' job waits or runs, a new job if it was lost.
  await p.jobs.provision({ ...key, requestRef: row.requestRef }, { first: caller.class === "paying" });
  return {
    kind: "provisioning",
    body: {
      status: "provisioning",
      indicator: indicator.code,
      region: region.code,
      retry_after_seconds: p.settings.retryAfterSeconds,
      request_ref: row.requestRef,
    },
  };
}

function upstreamGaveUp(
  row: ProvisioningRow,
  indicator: IndicatorRow,
  label: string,
  details: Record<string, unknown>,
  now: Date,
): ApiError {
  const upstream = row.provider ?? providerOf(indicator);
  const wait = secondsUntil(now, row.retryAt!);
  const why = row.lastError ? `: ${row.lastError.replace(/[.\s]+$/, "")}` : "";
  return new ApiError(
    "INTERNAL_ERROR",
    `The upstream '${upstream}' could not provide '${indicator.code}' for ${label}${why}. Try again after ${row.retryAt!.toISOString()} (in ${waitText(wait)}).`,
    {
      ...details,
      upstream,
      retry_after_seconds: wait,
      retry_at: row.retryAt!.toISOString(),
      request_ref: row.requestRef,
    },
    { retryAfterSeconds: wait },
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Job side

export type ProvisionDeps = {
  store: Store;
  fetcher: SeriesFetcher;
  now: () => Date;
  logger: Logger;
  settings: JobsConfig["provision"];
};

export type ProvisionOutcome =
  | { kind: "held" } // fetched now, or held already (another fetch, an import)
  | { kind: "gone" } // the indicator or region is no longer in the catalog
  | { kind: "failed"; provider: string; error: string; retryAt: Date };

async function isHeld(store: Store, k: SeriesKey): Promise<boolean> {
  return isHeldHead(await findSeriesHead(store.db, k.indicatorId, k.regionCode));
}

/**
 * One attempt at provisioning a series (`attempt`: pg-boss's retry count and limit for the job). Throws only when
 * the failure should be retried.
 */
export async function provisionSeries(
  d: ProvisionDeps,
  k: SeriesKey,
  attempt: { retryCount: number; retryLimit: number; requestRef: string },
): Promise<ProvisionOutcome> {
  // A first attempt finding the series held has nothing to do (a request raced a fetch that just finished, an import).
  // A retry fetches regardless: the attempt before it may have died after writing part of the series.
  if (attempt.retryCount === 0 && (await isHeld(d.store, k))) return held(d, k);
  // A request that read the row just before this provisioning gave up re-sends its job after the job ended: that job
  // carries the failed ref and must not fetch again before retry_at (a new request then starts a new ref).
  const row = await findProvisioning(d.store.db, k);
  if (row?.state === "failed" && row.requestRef === attempt.requestRef) {
    return { kind: "failed", provider: row.provider ?? "unknown", error: row.lastError ?? "", retryAt: row.retryAt! };
  }
  const indicator = await indicatorById(d.store, k.indicatorId);
  const region = (await regionIndex(d.store)).byCode.get(k.regionCode);
  if (!indicator || !region) {
    await clearProvisioning(d.store.db, k);
    return { kind: "gone" };
  }
  try {
    await d.fetcher.fetch(indicator, region);
  } catch (e) {
    const info = upstreamErrorInfo(e, providerOf(indicator));
    if (!isFinalAttempt(attempt, info.retryable)) {
      await recordFailedAttempt(d.store.db, k, { provider: info.provider, error: info.message, now: d.now() });
      d.logger.warn("provisioning attempt failed; retried", {
        indicator: indicator.code,
        region: region.code,
        upstream: info.provider,
        attempt: attempt.retryCount + 1,
        error: info.message,
      });
      throw e;
    }
    return fail(
      d,
      k,
      attempt.requestRef,
      { provider: info.provider, error: info.message, retryAfterSeconds: info.retryAfterSeconds },
      indicator,
      region,
    );
  }
  if (!(await isHeld(d.store, k))) {
    return fail(
      d,
      k,
      attempt.requestRef,
      {
        provider: providerOf(indicator),
        error: "the upstream answered with no observations for this series",
        retryAfterSeconds: null,
      },
      indicator,
      region,
    );
  }
  const outcome = await held(d, k);
  // Logged once the series is served: held, the svc: series it feeds derived, its provisioning row cleared.
  d.logger.info("provisioned", { indicator: indicator.code, region: region.code, attempt: attempt.retryCount + 1 });
  return outcome;
}

/**
 * The series is held: the svc: series it feeds are derived (whoever wrote it, an attempt that died before deriving
 * included; an unchanged recomputation writes nothing), then its provisioning row is cleared.
 */
async function held(d: ProvisionDeps, k: SeriesKey): Promise<ProvisionOutcome> {
  await deriveChanged({ ...d.store, now: d.now }, [k]);
  await clearProvisioning(d.store.db, k);
  return { kind: "held" };
}

async function fail(
  d: ProvisionDeps,
  k: SeriesKey,
  requestRef: string,
  f: { provider: string; error: string; retryAfterSeconds: number | null },
  indicator: IndicatorRow,
  region: RegionRow,
): Promise<ProvisionOutcome> {
  const now = d.now();
  const retryAt = failureRetryAt(now, d.settings.failureCooldownSeconds, f.retryAfterSeconds);
  await markProvisioningFailed(d.store.db, k, { requestRef, provider: f.provider, error: f.error, retryAt, now });
  d.logger.warn("provisioning gave up", {
    indicator: indicator.code,
    region: region.code,
    upstream: f.provider,
    error: f.error,
    retry_at: retryAt.toISOString(),
  });
  return { kind: "failed", provider: f.provider, error: f.error, retryAt };
}

/** A job that ended without its handler's last word (its worker died on the last attempt): the series is told so. */
export async function provisioningLost(d: ProvisionDeps, k: SeriesKey, requestRef: string): Promise<ProvisionOutcome> {
  if (await isHeld(d.store, k)) return held(d, k);
  const indicator = await indicatorById(d.store, k.indicatorId);
  const region = (await regionIndex(d.store)).byCode.get(k.regionCode);
  if (!indicator || !region) return { kind: "gone" };
  return fail(
    d,
    k,
    requestRef,
    {
      provider: providerOf(indicator),
      error: "the fetch did not finish (the worker running it stopped or timed out on every attempt)",
      retryAfterSeconds: null,
    },
    indicator,
    region,
  );
}
