// The one bounded cache: least recently used out first, by entries and by weight; the newest entry is never the one
// evicted; an entry heavier than maxEntryWeight is not kept.
import { describe, expect, test } from "bun:test";
import type { Db } from "../../db/client";
import { WriteEvents } from "../../db/events";
import { BoundedCache } from "../../src/services/bounded-cache";
import { CACHE_BOUNDS, createCaches, MEMO_NAMES } from "../../src/services/caches";
import { PageMemo } from "../../src/services/page-memo";

const keys = <K, V>(c: BoundedCache<K, V>) => [...c.keys()];

describe("BoundedCache", () => {
  test("by entries: at the limit nothing goes; one past it the least recently used goes", () => {
    const c = new BoundedCache<string, number>({ maxEntries: 3 });
    c.set("a", 1);
    c.set("b", 2);
    c.set("c", 3);
    expect(keys(c)).toEqual(["a", "b", "c"]);
    expect(c.get("a")).toBe(1); // a is now the most recently used
    c.set("d", 4);
    expect(keys(c)).toEqual(["c", "a", "d"]);
    expect(c.get("b")).toBeUndefined();
  });

  test("peek and has leave the order alone", () => {
    const c = new BoundedCache<string, number>({ maxEntries: 2 });
    c.set("a", 1);
    c.set("b", 2);
    expect(c.peek("a")).toBe(1);
    expect(c.has("a")).toBe(true);
    c.set("c", 3);
    expect(keys(c)).toEqual(["b", "c"]);
  });

  test("by weight: evicts until the total fits, keeps the newest even when it alone is over", () => {
    const c = new BoundedCache<string, string>({ maxWeight: 10 }, (v) => v.length);
    c.set("a", "xxxx");
    c.set("b", "xxxx");
    expect(c.weight).toBe(8);
    c.set("c", "xxx"); // 11 > 10: a goes
    expect(keys(c)).toEqual(["b", "c"]);
    expect(c.weight).toBe(7);
    c.set("d", "x".repeat(12)); // heavier than the budget: everything else goes, d stays
    expect(keys(c)).toEqual(["d"]);
    expect(c.weight).toBe(12);
  });

  test("an entry heavier than maxEntryWeight is not kept, and does not push others out", () => {
    const c = new BoundedCache<string, string>({ maxWeight: 10, maxEntryWeight: 5 }, (v) => v.length);
    c.set("a", "xx");
    expect(c.set("big", "xxxxxx")).toBe("xxxxxx");
    expect(keys(c)).toEqual(["a"]);
    expect(c.weight).toBe(2);
  });

  test("replacing a key re-weighs it; delete and clear release the weight", () => {
    const c = new BoundedCache<string, string>({ maxWeight: 100 }, (v) => v.length);
    c.set("a", "xxxx");
    c.set("a", "xx");
    expect(c.size).toBe(1);
    expect(c.weight).toBe(2);
    c.set("b", "xxx");
    expect(c.delete("a")).toBe(true);
    expect(c.delete("a")).toBe(false);
    expect(c.weight).toBe(3);
    c.clear();
    expect(c.size).toBe(0);
    expect(c.weight).toBe(0);
  });
});

describe("caches.ts", () => {
  test("every named memo and the page memo are BoundedCaches with their bounds from CACHE_BOUNDS, one per app", () => {
    // No query runs: making the caches reads nothing.
    const fake = { db: {} as Db, kind: "pglite" as const, events: new WriteEvents() };
    const one = createCaches(fake);
    const two = createCaches(fake);
    for (const name of MEMO_NAMES) {
      const memo = one.memos.of<number>(name);
      expect(memo).toBeInstanceOf(BoundedCache);
      expect(memo.bounds).toEqual(CACHE_BOUNDS[name]);
      expect(one.memos.of<number>(name)).toBe(memo);
      expect(two.memos.of<number>(name)).not.toBe(memo);
    }
    expect(one.pages).toBeInstanceOf(PageMemo);
    expect(one.pages).toBeInstanceOf(BoundedCache);
    expect(one.pages.bounds).toEqual(CACHE_BOUNDS.pageMemo);
    expect(two.pages).not.toBe(one.pages);
    for (const bounds of Object.values(CACHE_BOUNDS)) expect(Object.keys(bounds).length).toBeGreaterThan(0);
  });
});
