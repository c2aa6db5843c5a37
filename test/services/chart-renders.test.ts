// Who a chart render is counted against, and who may be refused (src/services/chart-renders.ts), with the pool's one
// thread held (test/support/held-threads.ts) and no place in its queue (COMPUTE_QUEUE_MAX 0).
import { describe, expect, test } from "bun:test";
import type { ChartInput } from "../../src/domain/chart-spec";
import { ApiError } from "../../src/errors";
import { chartRenders, renderCaller } from "../../src/services/chart-renders";
import { computePool } from "../../src/services/compute-pool";
import { heldThreads } from "../support/held-threads";

const input = (height: number): ChartInput => ({
  series: [{ label: "US", name: "Unemployment rate", place: "the United States", unit: "percent", frequency: "annual", points: [{ date: "2024-01-01", value: 4 }, { date: "2025-01-01", value: 4.2 }] }],
  attribution: "Source: test.",
  recessions: [],
  width: 400,
  height,
});

const codeOf = (p: Promise<unknown>) => p.then(() => "drawn", (e: unknown) => (e instanceof ApiError ? `${e.status} ${e.code}` : String(e)));

describe("chartRenders", () => {
  test("the service's own charts wait for a thread; a client's, open access included, is refused when none is free", async () => {
    const threads = heldThreads();
    const pool = computePool({ threads: 1, queueMax: 0, startThread: threads.startThread });
    const renders = chartRenders(pool, { perCaller: 1 });
    const first = renders.draw("a", input(300), null);
    const own = renders.draw("b", input(350), null);
    expect([threads.held(), pool.queued()]).toEqual([1, 1]);
    expect(await codeOf(renders.draw("c", input(400), { caller: null }))).toBe("503 SERVICE_UNAVAILABLE");
    expect(await codeOf(renders.draw("d", input(500), { caller: "key:k1" }))).toBe("503 SERVICE_UNAVAILABLE");
    // A refused render is not counted: the key may start another once there is room.
    await threads.releaseAll();
    await threads.whenHeld(1);
    await threads.releaseAll();
    expect([await codeOf(first), await codeOf(own)]).toEqual(["drawn", "drawn"]);
    const mine = renders.draw("e", input(600), { caller: "key:k1" });
    expect(await codeOf(renders.draw("f", input(800), { caller: "key:k1" }))).toBe("429 RATE_LIMIT_EXCEEDED");
    // The same chart joins the render under way, whoever asks.
    expect(renders.draw("e", input(600), { caller: "key:k1" })).toBe(mine);
    await threads.whenHeld(1);
    await threads.releaseAll();
    expect(await mine).toStartWith("<svg");
    expect(renders.underWay()).toBe(0);
    await pool.close();
  });

  test("a render is counted against the key, else the client address; open access against no one", () => {
    const key = { id: "k1", hint: "svc_…abcd", perMinute: 60 };
    expect([
      renderCaller({ class: "stranger", client: "203.0.113.9", key }),
      renderCaller({ class: "stranger", client: "203.0.113.9", key: null }),
      renderCaller({ class: "stranger", client: null, key: null }),
      renderCaller({ class: "paying", client: null, key: null }),
    ]).toEqual(["key:k1", "client:203.0.113.9", "stranger", null]);
  });
});
