// Every place's value of one indicator at one date (the peers of a region: all states, the counties of a state, all
// countries, every county), and the period most of them hold: read in one statement each (db/repos/observation-reads
// readPeerValues, commonLatestDate) and kept per catalog series token (catalog-index.ts seriesToken), so insights'
// peer ranks and ask's rankings and filters read the database once per change of the indicator's series, then
// memory. Bounded in the one table of bounds (memo "ask.place-values").
import { commonLatestDate, readPeerValues } from "../../db/repos/observation-reads";
import type { Store } from "./caches";

export type PlaceScope = { indicatorId: string; regionType: string; parentCode: string | null };

async function memoized<T>(store: Store, indicatorId: string, key: string, load: () => Promise<T>): Promise<T> {
  const memo = store.caches.memos.of<Promise<T>>("ask.place-values");
  const k = `${await store.caches.catalog.seriesToken(indicatorId)}|${indicatorId}|${key}`;
  const hit = memo.get(k);
  if (hit) return hit;
  const loading = load();
  memo.set(k, loading);
  loading.catch(() => memo.get(k) === loading && memo.delete(k));
  return loading;
}

/** The values on `date` of every place of the scope that holds one (regions without a value that day are absent). */
export function placeValues(
  store: Store,
  scope: PlaceScope,
  date: string,
): Promise<{ region: string; value: number }[]> {
  return memoized(store, scope.indicatorId, `values|${scope.regionType}|${scope.parentCode ?? ""}|${date}`, () =>
    readPeerValues(store.db, { ...scope, date }),
  );
}

/** How many places of the scope hold the indicator, and the newest date most of them hold. */
export function commonDate(
  store: Store,
  scope: PlaceScope,
): Promise<{ date: string; held: number; atDate: number } | null> {
  return memoized(store, scope.indicatorId, `common|${scope.regionType}|${scope.parentCode ?? ""}`, () =>
    commonLatestDate(store.db, scope),
  );
}
