// Derived svc: series as the service's write paths make them (src/services/derived-series.ts): reads never derive,
// so a test that seeds or writes input series derives here, through the functions the seed and the jobs call.
import type { Database } from "../../db/client";
import { indicatorId } from "../../db/seed/catalog";
import { createCaches, type Store } from "../../src/services/caches";
import { deriveAll, deriveChanged, type DeriveSummary } from "../../src/services/derived-series";

/** Every svc: series for every place whose inputs are held, as a seed does after loading (src/services/seeding.ts seedAndAnalyze). */
export function deriveNow(database: Pick<Database, "db" | "kind" | "events">, now: Date): Promise<DeriveSummary> {
  return deriveAll({ db: database.db, caches: createCaches(database), now: () => now });
}

/**
 * After a test wrote input series (test/support/series.ts writeSeries): the svc: series they feed, as a refresh or
 * the provisioning job derives them after their write (deriveChanged). `store`: the app's (TestApp.store).
 */
export function deriveWritten(
  store: Store,
  now: Date,
  written: readonly [source: string, code: string, region: string][],
): Promise<DeriveSummary> {
  return deriveChanged(
    { ...store, now: () => now },
    written.map(([source, code, region]) => ({ indicatorId: indicatorId(source, code), regionCode: region })),
  );
}

/**
 * Only the svc: series `codes`, wherever their inputs are held (deriveAll): for a test that wrote inputs and reads only
 * these. What the written series feed can be far more: UNRATE also feeds every state's svc:unemployment_gap, seconds
 * of deriving that such a test would wait for and never read.
 */
export function deriveOnly(store: Store, now: Date, codes: readonly string[]): Promise<DeriveSummary> {
  return deriveAll({ ...store, now: () => now }, [...codes]);
}
