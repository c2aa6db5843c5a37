// Signal detectors, named rules, the interval state machine and stale notes (src/domain/signals.ts,
// signal-detectors.ts, signal-rules.ts): synthetic series built to sit just inside and just outside each threshold.
// Episodes (their words, contradictions, reconciliation, the real ones) are test/domain/signal-episodes.test.ts.
import { describe, expect, test } from "bun:test";
import { detectEpisodes, intervalsFrom, staleNote, type Episode, type SeriesProfile } from "../../src/domain/signals";
import { accelerationStates, extremeStates, trendBreakStates, type State } from "../../src/domain/signal-detectors";
import { inversionStates, sahmStates } from "../../src/domain/signal-rules";

const monthDates = (n: number, start = 2000) =>
  Array.from({ length: n }, (_, k) => `${start + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`);
const series = (values: number[], start = 2000) =>
  monthDates(values.length, start).map((date, k) => ({ date, value: values[k] }));
const RATE: SeriesProfile = {
  code: "X",
  source: "test",
  unit: "percent",
  frequency: "monthly",
  seasonalAdjustment: "SA",
  additive: true,
};

const LEVEL: SeriesProfile = { ...RATE, unit: "persons", additive: false };

describe("the interval state machine", () => {
  const st = (direction: "up" | "down", strength: "weak" | "neutral" | "strong", score: number): State => ({
    direction,
    strength,
    score,
    evidence: { score },
  });
  const dates = ["d1", "d2", "d3", "d4", "d5", "d6", "d7"];

  test("open while the run lasts; closed when the condition ends; a flip closes and opens at the same observation", () => {
    const states = [
      null,
      st("up", "weak", 1),
      st("up", "strong", 3),
      st("down", "neutral", 2),
      null,
      st("up", "weak", 1),
      st("up", "weak", 1.5),
    ];
    expect(intervalsFrom("extreme", { dates, states })).toEqual([
      {
        type: "extreme",
        direction: "up",
        strength: "strong",
        validFrom: "d2",
        validTo: "d4",
        evidence: { score: 3, last_date: "d3" },
      },
      {
        type: "extreme",
        direction: "down",
        strength: "neutral",
        validFrom: "d4",
        validTo: "d5",
        evidence: { score: 2, last_date: "d4" },
      },
      {
        type: "extreme",
        direction: "up",
        strength: "weak",
        validFrom: "d6",
        validTo: null,
        evidence: { score: 1.5, last_date: "d7" },
      },
    ]);
  });
  test("no verdicts, no intervals; a condition holding to the end stays open", () => {
    expect(intervalsFrom("acceleration", { dates: [], states: [] })).toEqual([]);
    expect(intervalsFrom("acceleration", { dates: ["a", "b"], states: [null, null] })).toEqual([]);
    expect(
      intervalsFrom("trend_break", { dates: ["a", "b"], states: [st("down", "weak", 1), st("down", "weak", 1)] })[0],
    ).toMatchObject({ validFrom: "a", validTo: null });
  });
  test("strength is the run's strongest; among equals its latest highest score", () => {
    const [e] = intervalsFrom("extreme", {
      dates: ["a", "b", "c"],
      states: [st("up", "neutral", 9), st("up", "strong", 4), st("up", "strong", 4)],
    });
    expect([e.strength, e.evidence]).toEqual(["strong", { score: 4, last_date: "c" }]);
  });
});

describe("extreme: robust z of the move against the previous moves", () => {
  // 24 moves alternating +1, -1 (median 0, MAD 1: scale 1.4826), then the move x.
  const build = (x: number) => {
    const v = [100];
    for (let k = 0; k < 24; k++) v.push(v[v.length - 1] + (k % 2 === 0 ? 1 : -1));
    v.push(v[v.length - 1] + x);
    return series(v);
  };
  const last = (x: number, profile = RATE) => {
    const s = extremeStates(build(x), profile);
    return s.states[s.states.length - 1];
  };
  test("threshold 3.5 for monthly data: z = x / 1.4826, so 5.18 is inside and 5.20 outside", () => {
    expect(last(5.18)).toBeNull();
    expect(last(5.2)).toMatchObject({
      direction: "up",
      strength: "weak",
      evidence: {
        z: Number((5.2 / 1.4826).toPrecision(12)),
        threshold: 3.5,
        baseline_moves: 24,
        baseline_median: 0,
        baseline_scale: 1.4826,
        measure: "change",
        move: 5.2,
      },
    });
    expect(last(-5.2)).toMatchObject({ direction: "down", strength: "weak" });
  });
  test("strength: neutral from 1.5 times the threshold (z 5.25), strong from 3 times (z 10.5)", () => {
    expect(last(7.78)?.strength).toBe("weak");
    expect(last(7.79)?.strength).toBe("neutral");
    expect(last(15.56)?.strength).toBe("neutral");
    expect(last(15.57)?.strength).toBe("strong");
  });
  test("daily data needs z 4.5: the same move is not extreme in a daily series", () => {
    expect(last(5.2, { ...RATE, frequency: "daily" })).toBeNull();
    // 4.5 * 1.4826 = 6.6717
    expect(last(6.67, { ...RATE, frequency: "daily" })).toBeNull();
    expect(last(6.68, { ...RATE, frequency: "daily" })).toMatchObject({
      strength: "weak",
      evidence: { threshold: 4.5 },
    });
  });
  test("fewer than 20 earlier moves: no judgement", () => {
    const short = series([1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 100]);
    expect(extremeStates(short, RATE).states.every((s) => s === null)).toBe(true);
  });
  test("levels move in logs: a doubling is a +100% move", () => {
    const v = [100];
    for (let k = 0; k < 24; k++) v.push(v[v.length - 1] * (k % 2 === 0 ? 1.01 : 1 / 1.01));
    v.push(v[v.length - 1] * 2);
    const s = extremeStates(series(v), LEVEL).states.at(-1)!;
    expect(s).toMatchObject({
      direction: "up",
      strength: "strong",
      evidence: { measure: "percent_change", move: 100 },
    });
  });
});

describe("acceleration: a persistent change in year-over-year growth", () => {
  test("steady growth is quiet (no signal of any type), and so is a flat series", () => {
    const steady = series(Array.from({ length: 120 }, (_, k) => 1000 * 1.002 ** k));
    expect(accelerationStates(steady, LEVEL).states.every((s) => s === null)).toBe(true);
    expect(detectEpisodes(steady, LEVEL)).toEqual([]);
    expect(detectEpisodes(series(Array.from({ length: 120 }, (_, k) => 3 + 0.1 * k)), RATE)).toEqual([]);
    expect(detectEpisodes(series(Array(120).fill(5)), RATE)).toEqual([]);
  });
  test("growth that climbs for six months against a history of small swings is detected, up, with its evidence", () => {
    // Year-over-year change g: alternating 0 / 0.1 for 8 years, then rising 0.5 a month for 6 months.
    const g = [...Array.from({ length: 96 }, (_, k) => (k % 2) * 0.1), 0.5, 1, 1.5, 2, 2.5, 3];
    const v = Array(12).fill(0);
    for (const x of g) v.push(v[v.length - 12] + x);
    const s = accelerationStates(series(v), RATE);
    const last = s.states.at(-1)!;
    expect(last).toMatchObject({
      direction: "up",
      evidence: { growth: "year_over_year_change", growth_now: 3, span_periods: 6, persistent_periods: 6 },
    });
    expect(last!.strength).toBe("strong");
    // Before the climb nothing was detected.
    expect(s.states.slice(0, 12 + 96).every((x) => x === null)).toBe(true);
  });
  test("persistence: the same rise made in one month, after five flat ones, is not an acceleration", () => {
    const g = [...Array.from({ length: 96 }, (_, k) => (k % 2) * 0.1), 0, 0.1, 0, 0.1, 0, 3];
    const v = Array(12).fill(0);
    for (const x of g) v.push(v[v.length - 12] + x);
    expect(accelerationStates(series(v), RATE).states.at(-1)).toBeNull();
  });
});

describe("trend_break: PELT on the growth rate", () => {
  /** Deterministic noise in [-0.5, 0.5). */
  const noise = (seed: number) => {
    let s = seed;
    return () => ((s = (s * 16807) % 2147483647), s / 2147483647 - 0.5);
  };
  test("growth turning from +1% to -1% a month is a strong turning point, dated at the first falling month", () => {
    const r = noise(3);
    const v = [1000];
    for (let k = 1; k < 60; k++) v.push(v[k - 1] * Math.exp((k < 40 ? 1 : -1) / 100 + r() * 0.002));
    const s = trendBreakStates(series(v), LEVEL);
    const eps = intervalsFrom("trend_break", s);
    expect(eps).toHaveLength(1);
    expect(eps[0]).toMatchObject({
      direction: "down",
      strength: "strong",
      validFrom: series(v)[40].date,
      evidence: { break_date: "2003-05-01", turning_point: true },
    });
    // It holds for a year from the break (the series continues 20 months past it).
    expect(eps[0].validTo).toBe("2004-05-01");
  });
  test("noise around a steady trend has no break", () => {
    const r = noise(11);
    const v = [1000];
    for (let k = 1; k < 240; k++) v.push(v[k - 1] * Math.exp(0.002 + r() * 0.01));
    expect(intervalsFrom("trend_break", trendBreakStates(series(v), LEVEL))).toEqual([]);
  });
});

describe("named rules", () => {
  test("Sahm rule: the three-month average 0.50 above its low of the previous 12 months triggers; 0.49 does not", () => {
    // 15 months at 4.0, then three months that lift the three-month average by exactly 0.50 (or 0.49).
    const at = (lift: number) => sahmStates(series([...Array(15).fill(4), 4, 4, 4 + 3 * lift])).states.at(-1);
    expect(at(0.49)).toBeNull();
    expect(at(0.5)).toMatchObject({
      direction: "up",
      strength: "neutral",
      evidence: {
        rule: "sahm_rule",
        statistic: 0.5,
        threshold: 0.5,
        three_month_average: 4.5,
        low_of_previous_12_months: 4,
      },
    });
    expect(at(1)).toMatchObject({ strength: "strong" });
  });
  test("yield-curve inversion: 3 inverted observations make an episode, 2 do not; gaps under 10 join, 10 end it", () => {
    const days = (vals: number[]) =>
      vals.map((value, k) => ({
        date: `2019-${String(1 + Math.floor(k / 28)).padStart(2, "0")}-${String(1 + (k % 28)).padStart(2, "0")}`,
        value,
      }));
    expect(inversionStates(days([0.1, -0.01, -0.02, 0.1, 0.1]), "daily").states.every((s) => s === null)).toBe(true);
    const three = intervalsFrom(
      "extreme",
      inversionStates(days([0.1, -0.01, -0.02, -0.05, ...Array(10).fill(0.1)]), "daily"),
    );
    expect(three).toEqual([
      {
        type: "extreme",
        direction: "down",
        strength: "weak",
        validFrom: "2019-01-02",
        validTo: "2019-01-05",
        evidence: {
          rule: "yield_curve_inversion",
          statistic: -0.05,
          threshold: 0,
          deepest_date: "2019-01-04",
          inverted_observations: 3,
          last_date: "2019-01-04",
        },
      },
    ]);
    // Nine non-inverted observations between two inverted runs: one episode; ten: two.
    const joined = intervalsFrom(
      "extreme",
      inversionStates(days([-0.2, -0.2, -0.2, ...Array(9).fill(0.1), -0.6, ...Array(10).fill(0.1)]), "daily"),
    );
    expect(joined.map((e) => [e.validFrom, e.validTo, e.strength])).toEqual([["2019-01-01", "2019-01-14", "strong"]]);
    const split = intervalsFrom(
      "extreme",
      inversionStates(days([-0.2, -0.2, -0.2, ...Array(10).fill(0.1), -0.6, -0.6, -0.6]), "daily"),
    );
    expect(split.map((e) => [e.validFrom, e.validTo, e.strength])).toEqual([
      ["2019-01-01", "2019-01-04", "neutral"],
      ["2019-01-14", null, "strong"],
    ]);
  });
});

describe("staleNote: an open interval on a series behind schedule is history, and says so", () => {
  const open: Episode = {
    type: "trend_break",
    direction: "up",
    strength: "neutral",
    validFrom: "2020-05-01",
    validTo: null,
    evidence: { last_date: "2020-05-01" },
  };
  test("open and stale: the note names the month the data end", () => {
    expect(staleNote(open, "monthly", false)).toBe(
      " Its data end in May 2020, behind schedule for a monthly series: not current news.",
    );
  });
  test("current, or closed: nothing", () => {
    expect(staleNote(open, "monthly", true)).toBe("");
    expect(staleNote({ ...open, validTo: "2020-06-01" }, "monthly", false)).toBe("");
  });
});
