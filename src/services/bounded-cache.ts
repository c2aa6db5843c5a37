// The one bounded in-memory map every cache of the app is made of (src/services/caches.ts holds their bounds):
// bounded by a number of entries and/or a total weight (rows, bytes), least recently used out first. The entry just
// stored is never the one evicted, so a single entry heavier than the budget still serves its readers until the next
// one arrives; an entry heavier than `maxEntryWeight` is not kept at all.

export type CacheBounds = {
  /** At most this many entries. */
  maxEntries?: number;
  /** At most this total weight (entries weigh `weigh(value)`; 1 each when no weigher is given). */
  maxWeight?: number;
  /** Entries heavier than this are not stored. */
  maxEntryWeight?: number;
};

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    readonly bounds: CacheBounds,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The total weight held. */
  get weight(): number {
    return this.total;
  }

  /** The value under `key`, made the most recently used. */
  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** The value under `key`, leaving the order alone. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Stores `value` as the most recently used entry and evicts past the bounds. Returns `value`. */
  set(key: K, value: V): V {
    const weight = this.weigh(value);
    this.delete(key);
    if (this.bounds.maxEntryWeight !== undefined && weight > this.bounds.maxEntryWeight) return value;
    this.entries.set(key, { value, weight });
    this.total += weight;
    const maxEntries = this.bounds.maxEntries ?? Infinity;
    const maxWeight = this.bounds.maxWeight ?? Infinity;
    for (const [k, e] of this.entries) {
      if ((this.entries.size <= maxEntries && this.total <= maxWeight) || this.entries.size <= 1) break;
      this.entries.delete(k);
      this.total -= e.weight;
    }
    return value;
  }

  delete(key: K): boolean {
    const e = this.entries.get(key);
    if (e === undefined) return false;
    this.entries.delete(key);
    this.total -= e.weight;
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** Keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.entries.keys();
  }

  /** [key, value] pairs, least recently used first (deleting while iterating is allowed). */
  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (const [k, e] of this.entries) yield [k, e.value];
  }
}
