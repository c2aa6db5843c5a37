// The compute pool (src/services/compute-pool.ts): the same output through a real worker thread as on this thread (a
// chart's SVG, signal detection over a batch), a bounded queue (503 SERVICE_UNAVAILABLE with Retry-After for a caller a
// client waits on; the job engine's work always queues), and a failed thread's task failing instead of hanging.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { ChartInput } from "../../src/domain/chart-spec";
import { detectSeriesChanges, type SeriesProfile, type SeriesToDetect } from "../../src/domain/signals";
import { ApiError } from "../../src/errors";
import { drawSvg } from "../../src/services/chart-svg";
import { computePool, workerThread, type ComputeThread } from "../../src/services/compute-pool";
import { workerEntry } from "../../src/startup/worker-entry";
import { heldThreads } from "../support/held-threads";

// The first task of a worker loads Vega in it.
setDefaultTimeout(60_000);

const months = (from: number, values: (number | null)[]) =>
  values.map((value, k) => ({ date: `${from + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`, value }));

const CHART: ChartInput = {
  series: [
    { label: "California", name: "Unemployment rate", place: "California", unit: "percent", frequency: "monthly", points: months(2019, [4.1, 4.0, 3.9, 5.5, 16.1, 14.9, 13.3, 11.2, 10.0, null, 9.1, 8.8]) },
    { label: "Texas", name: "Unemployment rate", place: "Texas", unit: "percent", frequency: "monthly", points: months(2019, [3.5, 3.5, 3.6, 5.0, 13.0, 11.8, 8.9, 7.1, 6.9, 6.8, 7.2, 7.0]) },
  ],
  attribution: "Source: U.S. Bureau of Labor Statistics.",
  recessions: [{ start: "2019-03-01", end: "2019-05-01" }],
  width: 600,
  height: 350,
};

const RATE: SeriesProfile = { code: "X", source: "test", unit: "percent", frequency: "monthly", seasonalAdjustment: "SA", additive: true };
// Ten years of a quiet rate (a small regular wobble), then a jump and a climb: something to detect.
const quiet = Array.from({ length: 120 }, (_, k) => 5 + ((k * 7) % 5) / 50);
const BATCH: SeriesToDetect[] = [
  { points: months(2010, [...quiet, 9, 9.5, 10, 10.4, 10.9]), profile: RATE, stored: [] },
  // An interval stored before that the data no longer support (closed: removed) beside an empty series.
  {
    points: months(2010, quiet),
    profile: RATE,
    stored: [{ id: "gone", type: "extreme", direction: "up", strength: "strong", validFrom: "2011-04-01", validTo: "2011-06-01", evidence: { last_date: "2011-05-01" } }],
  },
  { points: [], profile: RATE, stored: [] },
];

const pool = computePool({ threads: 1, queueMax: 4, startThread: () => workerThread(workerEntry("compute-thread")) });
afterAll(() => pool.close());

describe("the same output through a worker thread", () => {
  test("a chart's SVG, byte for byte", async () => {
    const [through, here] = await Promise.all([pool.run("chartSvg", CHART), drawSvg(CHART)]);
    expect(through).toStartWith("<svg");
    expect(through).toContain(">Unemployment rate</text>");
    expect(through).toBe(here);
  });
  test("signal detection over a batch: every insert, update and removal", async () => {
    const through = await pool.run("detectSignals", BATCH);
    expect(through).toEqual(detectSeriesChanges(BATCH));
    expect(through.map((d) => [d.insert.length > 0, d.remove])).toEqual([
      [true, []],
      [false, ["gone"]],
      [false, []],
    ]);
  });
});

/** The nice value of one of this process's threads (Linux). */
const niceOf = (tid: string | number) => {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
};

test.skipIf(!existsSync("/proc/thread-self"))("a compute thread runs below the other threads' priority (nice 10)", async () => {
  await pool.run("detectSignals", BATCH);
  expect(readdirSync("/proc/self/task").map(niceOf)).toContain(10);
  // The thread that answers requests (here: the test's) keeps its own.
  expect(niceOf(process.pid)).toBe(0);
});

describe("a bounded queue", () => {
  test("queueMax 1: one running, one waiting, the next refused with 503 and Retry-After; background work still queues", async () => {
    const threads = heldThreads();
    const held = computePool({ threads: 1, queueMax: 1, startThread: threads.startThread });
    const running = held.run("detectSignals", BATCH, { refuseWhenBusy: true });
    const waiting = held.run("detectSignals", BATCH, { refuseWhenBusy: true });
    expect([threads.held(), held.queued()]).toEqual([1, 1]);
    const refused = await held.run("detectSignals", BATCH, { refuseWhenBusy: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    const e = refused as ApiError;
    expect([e.status, e.code, e.details, e.advice?.retryAfterSeconds]).toEqual([503, "SERVICE_UNAVAILABLE", { queued: 1 }, 1]);
    const background = held.run("detectSignals", BATCH);
    expect(held.queued()).toBe(2);
    // Released one by one: each answer frees the thread for the next in line.
    await threads.releaseAll();
    expect((await running).length).toBe(3);
    await threads.whenHeld(1);
    await threads.releaseAll();
    await waiting;
    await threads.whenHeld(1);
    await threads.releaseAll();
    await background;
    expect([threads.held(), held.queued()]).toEqual([0, 0]);
    // A place again: accepted.
    const again = held.run("detectSignals", BATCH, { refuseWhenBusy: true });
    await threads.whenHeld(1);
    await threads.releaseAll();
    expect(await again).toEqual(detectSeriesChanges(BATCH));
    await held.close();
  });

  test("trim ends the idle threads only; the next task starts one again", async () => {
    const threads = heldThreads();
    let started = 0;
    const p = computePool({ threads: 2, queueMax: 1, startThread: () => (started++, threads.startThread()) });
    const busy = p.run("detectSignals", BATCH);
    const idle = p.run("detectSignals", BATCH);
    await threads.releaseAll();
    await idle;
    await busy;
    const held = p.run("detectSignals", BATCH);
    expect(started).toBe(2);
    // One thread holds a task: it is kept; the other, idle, ends.
    p.trim();
    const next = p.run("detectSignals", BATCH);
    expect(started).toBe(3);
    await threads.releaseAll();
    expect([(await held).length, (await next).length]).toEqual([3, 3]);
    await p.close();
  });

  test("a thread that fails fails its task, and the next task gets a new thread", async () => {
    let started = 0;
    const failing = (): ComputeThread => {
      started++;
      let fail: (why: string) => void = () => {};
      let answer: (r: { id: number; ok: true; output: unknown }) => void = () => {};
      const first = started === 1;
      return {
        post: (r) => queueMicrotask(() => (first ? fail("out of memory") : answer({ id: r.id, ok: true, output: "drawn" }))),
        listen: (onReply, onFailure) => ((answer = onReply), (fail = onFailure)),
        end() {},
      };
    };
    const p = computePool({ threads: 1, queueMax: 1, startThread: failing });
    expect(await p.run("chartSvg", CHART).catch((e: Error) => e.message)).toBe("a compute thread failed: out of memory");
    expect(await p.run("chartSvg", CHART)).toBe("drawn" as never);
    expect(started).toBe(2);
    await p.close();
  });
});
