// The in-process rate-limit store: exact counts per subject and window, answered at once (no promise), with the
// previous subject's counter reused only while it is the same subject and window.
import { expect, test } from "bun:test";
import { memoryRateLimitStore } from "../../src/services/rate-limit-stores";

test("counts per subject and window, whatever order the subjects come in", () => {
  const store = memoryRateLimitStore();
  const hits: [string, number][] = [
    ["a", 1],
    ["a", 1],
    ["b", 1],
    ["a", 1],
    ["b", 1],
    ["a", 2],
    ["a", 2],
    ["b", 2],
    ["b", 2],
    ["b", 2],
  ];
  expect(hits.map(([s, w]) => store.hit(s, w, 60_000))).toEqual([1, 2, 1, 3, 2, 1, 2, 1, 2, 3]);
  store.close();
  expect(store.hit("a", 2, 60_000)).toBe(1);
});

// Bounded (CACHE_BOUNDS.rateLimitCounters): a flood from rotating client addresses made one counter per address,
// never pruned.
test("at the bound: ended windows go first, then counters hit once, then the oldest; a busy counter keeps its count", () => {
  let t = 0;
  const store = memoryRateLimitStore({ maxEntries: 10 }, () => t);
  // A day window hit 3 times, then 9 one-minute counters from rotating addresses.
  for (let i = 0; i < 3; i++) store.hit("upstream-day:bls", 0, 86_400_000);
  for (let i = 0; i < 9; i++) store.hit(`client:10.0.0.${i}`, 0, 61_000);
  expect(store.size()).toBe(10);
  // Past the bound, a minute later: every address counter ended; the day counter stays with its count.
  t = 61_000;
  store.hit("client:10.0.1.0", 1, 61_000);
  expect(store.size()).toBe(2);
  expect(store.hit("upstream-day:bls", 0, 86_400_000)).toBe(4);
  // Within one minute, past the bound: the counters hit once go, the day counter (4) and a key hit twice stay.
  store.hit("key:k1", 1, 61_000);
  store.hit("key:k1", 1, 61_000);
  for (let i = 1; i <= 8; i++) store.hit(`client:10.0.1.${i}`, 1, 61_000);
  expect(store.size()).toBe(10); // day, 10.0.1.0, k1 and 10.0.1.1-7; the eighth sweeps
  expect(store.hit("upstream-day:bls", 0, 86_400_000)).toBe(5);
  expect(store.hit("key:k1", 1, 61_000)).toBe(3);
});

test("a flood of 200,000 rotating addresses keeps at most the bound (100,000) of counters", () => {
  const store = memoryRateLimitStore();
  for (let i = 0; i < 200_000; i++) store.hit(`client:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 0, 61_000);
  expect(store.size()).toBeLessThanOrEqual(100_000);
  expect(store.size()).toBeGreaterThan(89_000);
});
