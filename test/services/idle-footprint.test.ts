// src/idle-footprint.ts: a quiet node trims its memory once per quiet period. The policy is fed samples of CPU time
// (milliseconds) at given instants; quiet means under 5 % of one core over the last 30 s.
import { describe, expect, test } from "bun:test";
import { idlePolicy, trimWhenIdle } from "../../src/idle-footprint";

const WINDOW = 30_000;
const policy = () => idlePolicy({ windowMs: WINDOW, quietShare: 0.05 });

/** Feeds samples every 5 s with the given CPU milliseconds used in each 5 s step; returns the instants that trimmed. */
function run(p: ReturnType<typeof policy>, cpuPerStep: number[], start = { atMs: 0, cpuMs: 0 }): number[] {
  const trims: number[] = [];
  let { atMs, cpuMs } = start;
  p.sample({ atMs, cpuMs });
  for (const used of cpuPerStep) {
    atMs += 5_000;
    cpuMs += used;
    if (p.sample({ atMs, cpuMs })) trims.push(atMs);
  }
  return trims;
}

describe("idle policy", () => {
  test("no trim before the samples cover a whole window; the first quiet window trims", () => {
    // Five steps cover 25 s: not yet a window. The sixth (30 s) completes it.
    expect(run(policy(), [0, 0, 0, 0, 0])).toEqual([]);
    expect(run(policy(), [0, 0, 0, 0, 0, 0])).toEqual([30_000]);
  });

  test("quiet is strictly under the share: 1,499 ms over 30 s is quiet, 1,500 ms is not", () => {
    expect(run(policy(), [1499, 0, 0, 0, 0, 0])).toEqual([30_000]);
    expect(run(policy(), [1500, 0, 0, 0, 0, 0])).toEqual([]);
    // The busy step leaves the window 5 s later: the window from 5 s to 35 s used nothing.
    expect(run(policy(), [1500, 0, 0, 0, 0, 0, 0])).toEqual([35_000]);
  });

  test("once per quiet period: a long quiet trims once; a busy window re-arms it", () => {
    expect(run(policy(), Array(40).fill(0))).toEqual([30_000]);
    // Quiet 30 s (trim at 30 s), busy 5 s at 35 s (6 s of CPU: a busy window), then quiet until the busy step is
    // 30 s old: the window 40 s..70 s is quiet again.
    expect(run(policy(), [0, 0, 0, 0, 0, 0, 6000, 0, 0, 0, 0, 0, 0, 0, 0])).toEqual([30_000, 65_000]);
  });

  test("light work under the share, steady, does not trim again and again", () => {
    // 100 ms of CPU every 5 s is 2 % of a core: quiet. One trim, then none for ten minutes.
    expect(run(policy(), Array(120).fill(100))).toEqual([30_000]);
  });

  test("uneven sampling: the window starts at the newest sample at least a window old", () => {
    const p = policy();
    p.sample({ atMs: 0, cpuMs: 0 });
    p.sample({ atMs: 10_000, cpuMs: 2_000 }); // busy early
    expect(p.sample({ atMs: 31_000, cpuMs: 2_000 })).toBe(false); // window 0..31 s used 2 s: 6.5 %, busy
    // Window 10..41 s used 0 ms: quiet.
    expect(p.sample({ atMs: 41_000, cpuMs: 2_000 })).toBe(true);
  });
});

describe("trimWhenIdle", () => {
  test("samples the injected probe and trims once when quiet; stop() ends the sampling", async () => {
    let now = 0;
    let samples = 0;
    let trims = 0;
    const probe = { cpuMs: () => 0, nowMs: () => (samples++, (now += 10)) };
    let trimmed!: () => void;
    const done = new Promise<void>((resolve) => (trimmed = resolve));
    const idle = trimWhenIdle({
      windowMs: 30,
      quietShare: 0.05,
      sampleEveryMs: 1,
      probe,
      trim: () => (trims++, trimmed()),
    });
    await done;
    const seen = samples;
    await Bun.sleep(20);
    idle.stop();
    const afterStop = samples;
    await Bun.sleep(20);
    expect(trims).toBe(1);
    expect(seen).toBe(4); // the first sample at 10 ms, then 20, 30, 40: 30 ms covered at the fourth
    expect(samples).toBe(afterStop);
  });
});
