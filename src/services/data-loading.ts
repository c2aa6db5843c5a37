// Which families of the first start's data (db/seed/families.ts) this process may serve: a family is served once all
// of it is stored; until then the catalog's coverage of its indicators says "loading", and a request that would read
// it answers 503 SERVICE_UNAVAILABLE with Retry-After (free: nothing is asked to pay). While any family is loading,
// no on-demand fetch of a series not held starts either (the job engine starts once the first start's work is done).
// A later start serves everything at once: every family is stored.
import { DATA_FAMILIES, DATA_FAMILY_IDS, familyOfIndicator, type DataFamilyId } from "../../db/seed/families";
import { ApiError } from "../errors";

/** Seconds a client is asked to wait before asking again for data that is loading. */
export const LOADING_RETRY_AFTER_SECONDS = 5;

export type LoadingReport = { stored: number; total: number; loading: DataFamilyId[] };

export class DataLoading {
  private readonly stored: Set<DataFamilyId>;
  // Bounded: the caches made with the app subscribe once each, at start.
  private readonly listeners = new Set<() => void>();

  /** `stored`: the families held now (all of them, by default). */
  constructor(stored: Iterable<DataFamilyId> = DATA_FAMILY_IDS) {
    this.stored = new Set(stored);
  }

  /** Whether every family is stored (from then on nothing changes). */
  get complete(): boolean {
    return this.stored.size === DATA_FAMILY_IDS.length;
  }

  isLoading(id: DataFamilyId): boolean {
    return !this.stored.has(id);
  }

  /** The family loading that stores this indicator, or null (stored, or not part of the first start's data). */
  loadingFamilyOf(indicator: { sourceSlug: string | null; code: string }): DataFamilyId | null {
    if (this.complete) return null;
    const id = familyOfIndicator(indicator.sourceSlug, indicator.code);
    return id && !this.stored.has(id) ? id : null;
  }

  /** Marks families stored and tells the listeners (caches keyed by what is served). */
  markStored(ids: Iterable<DataFamilyId>): void {
    let changed = false;
    for (const id of ids) {
      if (this.stored.has(id)) continue;
      this.stored.add(id);
      changed = true;
    }
    if (changed) for (const l of this.listeners) l();
  }

  /** Resolves once `id` is stored. */
  whenStored(id: DataFamilyId): Promise<void> {
    return new Promise((resolve) => {
      if (this.stored.has(id)) return resolve();
      const off = this.onChange(() => {
        if (!this.stored.has(id)) return;
        off();
        resolve();
      });
    });
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  report(): LoadingReport {
    return {
      stored: this.stored.size,
      total: DATA_FAMILY_IDS.length,
      loading: DATA_FAMILY_IDS.filter((id) => !this.stored.has(id)),
    };
  }

  /** Throws the 503 for a request that reads `id` while it is loading. */
  assertServed(id: DataFamilyId | null): void {
    if (id && !this.stored.has(id)) throw loadingError([id], this.report());
  }

  /** Throws the 503 when any of `ids` is loading (one request reads several families: a panel, a question). */
  assertAllServed(ids: Iterable<DataFamilyId | null>): void {
    const loading = [...new Set([...ids].filter((id): id is DataFamilyId => id !== null && !this.stored.has(id)))];
    if (loading.length > 0) throw loadingError(loading, this.report());
  }

  /** Throws the 503 for a request that would start an on-demand fetch before the first start's work is done. */
  assertFetchesStart(): void {
    if (this.complete) return;
    const r = this.report();
    throw new ApiError(
      "SERVICE_UNAVAILABLE",
      `The service is loading its data (${r.stored} of ${r.total} parts stored); series not held are fetched once it is done. Retry in ${LOADING_RETRY_AFTER_SECONDS} s.`,
      { loading: r.loading, stored: r.stored, total: r.total, retry_after_seconds: LOADING_RETRY_AFTER_SECONDS },
      { retryAfterSeconds: LOADING_RETRY_AFTER_SECONDS },
    );
  }
}

const LABEL = new Map(DATA_FAMILIES.map((f) => [f.id, f.label]));

/** What a person reads about a family loading (the coverage note, the 503's message). */
export function loadingLabel(id: DataFamilyId): string {
  return LABEL.get(id)!;
}

function loadingError(ids: DataFamilyId[], r: LoadingReport): ApiError {
  const what = ids.map(loadingLabel).join(" and ");
  return new ApiError(
    "SERVICE_UNAVAILABLE",
    `The service is still storing ${what} (its first start: ${r.stored} of ${r.total} parts stored). Retry in ${LOADING_RETRY_AFTER_SECONDS} s.`,
    { loading: ids, stored: r.stored, total: r.total, retry_after_seconds: LOADING_RETRY_AFTER_SECONDS },
    { retryAfterSeconds: LOADING_RETRY_AFTER_SECONDS },
  );
}
