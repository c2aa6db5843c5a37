// The page memo is a BoundedCache weighed by body bytes: its bounds hold at their edge and one past it, an entry whose
// check fails is forgotten, and hits are counted.
import { describe, expect, test } from "bun:test";
import { PageMemo, type PageEntry } from "../../src/services/page-memo";
import { renderBody } from "../../src/services/rendered";
import type { Quote, Serving } from "../../src/pricing";

const quote = {} as Quote;
const serving = {} as Serving;

function entry(bytes: number, valid: { now: boolean } = { now: true }): PageEntry {
  const body = renderBody("x".repeat(bytes), "application/json");
  return { body: () => (valid.now ? body : null), vary: "Accept", quote, serving, policy: "all", payment: () => ({ method: "GET", query: {}, pathParams: {}, shape: null }) };
}

describe("PageMemo", () => {
  test("holds maxEntries URLs; one more evicts the least recently answered", () => {
    const memo = new PageMemo({ maxEntries: 2 });
    memo.record("a", entry(10));
    memo.record("b", entry(10));
    expect(memo.size).toBe(2);
    expect(memo.lookup("a")).not.toBeNull();
    memo.record("c", entry(10));
    expect(memo.size).toBe(2);
    expect(memo.lookup("b")).toBeNull();
    expect(memo.lookup("a")).not.toBeNull();
    expect(memo.lookup("c")).not.toBeNull();
  });

  test("weighs entries by body bytes: at maxWeight all stay, one byte past evicts the oldest", () => {
    const memo = new PageMemo({ maxWeight: 300 });
    memo.record("a", entry(100));
    memo.record("b", entry(200));
    expect(memo.weight).toBe(300);
    expect(memo.size).toBe(2);
    memo.record("c", entry(1));
    expect(memo.weight).toBe(201);
    expect(memo.lookup("a")).toBeNull();
  });

  test("an entry at maxEntryWeight is kept, one byte heavier is not", () => {
    const memo = new PageMemo({ maxEntryWeight: 50 });
    memo.record("at", entry(50));
    memo.record("past", entry(51));
    expect(memo.lookup("at")).not.toBeNull();
    expect(memo.lookup("past")).toBeNull();
  });

  test("a failing check forgets the entry; hits are counted in served", () => {
    const valid = { now: true };
    const memo = new PageMemo({ maxEntries: 4 });
    memo.record("a", entry(10, valid));
    expect(memo.lookup("a")?.body.bytes.length).toBe(10);
    expect(memo.served).toBe(1);
    valid.now = false;
    expect(memo.lookup("a")).toBeNull();
    expect(memo.size).toBe(0);
    expect(memo.served).toBe(1);
  });

  test("an entry without a body is not recorded", () => {
    const memo = new PageMemo({ maxEntries: 4 });
    memo.record("a", entry(10, { now: false }));
    expect(memo.size).toBe(0);
  });
});
