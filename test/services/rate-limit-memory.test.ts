// The in-process rate-limit store: exact counts per subject and window, answered at once (no promise), with the
// previous subject's counter reused only while it is the same subject and window.
import { expect, test } from "bun:test";
import { memoryRateLimitStore } from "../../src/services/rate-limit-stores";

test("counts per subject and window, whatever order the subjects come in", () => {
  const store = memoryRateLimitStore();
  const hits: [string, number][] = [["a", 1], ["a", 1], ["b", 1], ["a", 1], ["b", 1], ["a", 2], ["a", 2], ["b", 2], ["b", 2], ["b", 2]];
  expect(hits.map(([s, w]) => store.hit(s, w, 60_000))).toEqual([1, 2, 1, 3, 2, 1, 2, 1, 2, 3]);
  store.close();
  expect(store.hit("a", 2, 60_000)).toBe(1);
});
