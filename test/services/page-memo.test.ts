// The page memo is a BoundedCache weighed by body bytes: its bounds hold at their edge and one past it, an entry whose
// validity token is spent (the epoch moved, its trust or its day ran out) is forgotten, and hits are counted.
import { describe, expect, test } from "bun:test";
import type { Db } from "../../db/client";
import { WriteEvents } from "../../db/events";
import { createCaches } from "../../src/services/caches";
import { PageMemo, type PageEntry } from "../../src/services/page-memo";
import { renderBody } from "../../src/services/rendered";
import type { Quote, Serving } from "../../src/pricing";

const quote = {} as Quote;
const serving = {} as Serving;

const AT = Date.parse("2026-03-01T12:00:00Z");
const DAY_END = Date.parse("2026-03-02T00:00:00Z");

function entry(bytes: number, until = Number.POSITIVE_INFINITY): PageEntry {
  return {
    body: renderBody("x".repeat(bytes), "application/json"),
    until,
    dayEnd: DAY_END,
    vary: "Accept",
    quote,
    serving,
    policy: "all",
    payment: () => ({ method: "GET", query: {}, pathParams: {}, shape: null }),
  };
}

describe("PageMemo", () => {
  test("holds maxEntries URLs; one more evicts the least recently answered", () => {
    const memo = new PageMemo({ maxEntries: 2 });
    memo.record("a", entry(10));
    memo.record("b", entry(10));
    expect(memo.size).toBe(2);
    expect(memo.lookup("a", AT)).not.toBeNull();
    memo.record("c", entry(10));
    expect(memo.size).toBe(2);
    expect(memo.lookup("b", AT)).toBeNull();
    expect(memo.lookup("a", AT)).not.toBeNull();
    expect(memo.lookup("c", AT)).not.toBeNull();
  });

  test("weighs entries by body bytes: at maxWeight all stay, one byte past evicts the oldest", () => {
    const memo = new PageMemo({ maxWeight: 300 });
    memo.record("a", entry(100));
    memo.record("b", entry(200));
    expect(memo.weight).toBe(300);
    expect(memo.size).toBe(2);
    memo.record("c", entry(1));
    expect(memo.weight).toBe(201);
    expect(memo.lookup("a", AT)).toBeNull();
  });

  test("an entry at maxEntryWeight is kept, one byte heavier is not", () => {
    const memo = new PageMemo({ maxEntryWeight: 50 });
    memo.record("at", entry(50));
    memo.record("past", entry(51));
    expect(memo.lookup("at", AT)).not.toBeNull();
    expect(memo.lookup("past", AT)).toBeNull();
  });

  test("a moved epoch forgets the entry; hits are counted in served", () => {
    const epoch = { value: 7 };
    const memo = new PageMemo({ maxEntries: 4 }, epoch);
    memo.record("a", entry(10));
    expect(memo.lookup("a", AT)?.body.bytes.length).toBe(10);
    expect(memo.served).toBe(1);
    epoch.value++;
    expect(memo.lookup("a", AT)).toBeNull();
    expect(memo.size).toBe(0);
    expect(memo.served).toBe(1);
    // Recorded again at the new epoch, it answers again.
    memo.record("a", entry(10));
    expect(memo.lookup("a", AT)).not.toBeNull();
  });

  test("an entry answers until its trust and its day run out, not at their edge", () => {
    const memo = new PageMemo({ maxEntries: 4 });
    memo.record("trusted", entry(10, performance.now() + 60_000));
    memo.record("spent", entry(10, performance.now() - 1));
    expect(memo.lookup("trusted", DAY_END - 1)).not.toBeNull();
    expect(memo.lookup("spent", AT)).toBeNull();
    expect(memo.lookup("trusted", DAY_END)).toBeNull();
    expect(memo.size).toBe(0);
  });

  test("the app's caches share one epoch: a series or catalog write in the process, or a cleared series cache, moves it", () => {
    // No query runs: making the caches and telling them of writes reads nothing.
    const events = new WriteEvents();
    const caches = createCaches({ db: {} as Db, kind: "pglite", events });
    const memo = caches.pages;
    memo.record("page", entry(10));
    expect(memo.lookup("page", AT)).not.toBeNull();
    const moves: [string, () => void][] = [
      ["series written", () => events.seriesWritten([{ indicatorId: "i", regionCode: "US" } as never])],
      ["catalog written", () => events.catalogWritten()],
      ["series cache cleared", () => caches.series.clear()],
    ];
    for (const [what, move] of moves) {
      const before = memo.epoch.value;
      move();
      expect([what, memo.epoch.value > before]).toEqual([what, true]);
      expect(memo.lookup("page", AT)).toBeNull();
      memo.record("page", entry(10));
      expect(memo.lookup("page", AT)).not.toBeNull();
    }
  });
});
