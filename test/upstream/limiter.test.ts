// The shared limiter on a manual clock: spacing, per-minute and per-day allowances at and past their edge, pauses,
// the longest wait, and independence between providers.
import { describe, expect, test } from "bun:test";
import { providerLimits, UpstreamLimiter, type ProviderLimits } from "../../src/upstream/limiter";
import { UpstreamError, type ConnectorId } from "../../src/upstream/types";
import { ManualClock } from "../support/clock";

function setup(limits: Partial<Record<ConnectorId, ProviderLimits>> = {}, keys = { bls: true, census: true }) {
  const clock = new ManualClock("2026-01-15T12:00:00Z");
  const slept: number[] = [];
  const limiter = new UpstreamLimiter({ ...providerLimits(keys), ...limits }, clock, async (ms) => {
    slept.push(ms);
    clock.advance(ms);
  });
  return { clock, slept, limiter };
}

describe("published limits", () => {
  test("FRED, BLS with and without a key, Census, World Bank", () => {
    expect(providerLimits({ bls: true, census: true })).toEqual({
      fred: { minIntervalMs: 500, perMinute: 120, perDay: null },
      bls: { minIntervalMs: 0, perMinute: null, perDay: 500 },
      census: { minIntervalMs: 0, perMinute: null, perDay: null },
      worldbank: { minIntervalMs: 0, perMinute: null, perDay: null },
    });
    const anonymous = providerLimits({ bls: false, census: false });
    expect([anonymous.bls.perDay, anonymous.census.perDay]).toEqual([25, 500]);
  });
});

describe("UpstreamLimiter", () => {
  test("FRED requests are spaced 500 ms apart, concurrent callers taking turns", async () => {
    const { limiter, slept } = setup();
    await Promise.all([limiter.acquire("fred"), limiter.acquire("fred"), limiter.acquire("fred")]);
    expect(slept).toEqual([500, 500]);
  });

  test("FRED: 120 in a minute pass at the 2/s pace; the window never holds a 121st", async () => {
    const { limiter, slept, clock } = setup();
    const t0 = clock.now().getTime();
    for (let i = 0; i < 121; i++) await limiter.acquire("fred");
    expect(slept.length).toBe(120);
    expect(clock.now().getTime() - t0).toBe(60_000);
  });

  test("a per-minute allowance at and past its edge", async () => {
    const { limiter, slept } = setup({ worldbank: { minIntervalMs: 0, perMinute: 3, perDay: null } });
    for (let i = 0; i < 3; i++) await limiter.acquire("worldbank");
    expect(slept).toEqual([]);
    await limiter.acquire("worldbank");
    expect(slept).toEqual([60_000]);
  });

  test("BLS without a key: 25 a day, the 26th refused until the first leaves the 24 hours", async () => {
    const { limiter, clock } = setup({}, { bls: false, census: false });
    for (let i = 0; i < 25; i++) {
      await limiter.acquire("bls");
      clock.advance(1000);
    }
    expect(limiter.usedToday("bls")).toBe(25);
    const e = (await limiter.acquire("bls").catch((x) => x)) as UpstreamError;
    expect(e).toBeInstanceOf(UpstreamError);
    expect([e.kind, e.retryable, e.retryAfterSeconds]).toEqual(["quota", true, 86_400 - 25]);
    clock.advance((86_400 - 25) * 1000);
    await limiter.acquire("bls");
    expect(limiter.usedToday("bls")).toBe(25);
  });

  test("BLS with a key: 500 a day", async () => {
    const { limiter } = setup();
    for (let i = 0; i < 500; i++) await limiter.acquire("bls");
    await expect(limiter.acquire("bls")).rejects.toMatchObject({ kind: "quota" });
  });

  test("a pause holds every caller; a pause past the longest wait fails fast, saying when", async () => {
    const { limiter, slept, clock } = setup();
    limiter.pause("census", clock.now().getTime() + 7000);
    await limiter.acquire("census");
    expect(slept).toEqual([7000]);
    limiter.pause("census", clock.now().getTime() + 120_001);
    const e = (await limiter.acquire("census").catch((x) => x)) as UpstreamError;
    expect([e.kind, e.retryable, e.retryAfterSeconds]).toEqual(["rate_limited", true, 121]);
    // Exactly the longest wait is still waited out.
    const edge = setup();
    edge.limiter.pause("census", edge.clock.now().getTime() + 120_000);
    await edge.limiter.acquire("census");
    expect(edge.slept).toEqual([120_000]);
  });

  test("providers are independent; a refused turn does not block the next caller", async () => {
    const { limiter, slept, clock } = setup();
    limiter.pause("fred", clock.now().getTime() + 10 * 60_000);
    await limiter.acquire("worldbank");
    expect(slept).toEqual([]);
    await expect(limiter.acquire("fred")).rejects.toMatchObject({ kind: "rate_limited" });
    clock.advance(10 * 60_000);
    await limiter.acquire("fred");
  });
});
