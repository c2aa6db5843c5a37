// Signal detectors and the interval state machine (src/domain/signals.ts, signal-detectors.ts): synthetic series
// built to sit just inside and just outside each threshold, and the episodes economists name in the real data of
// ../shared/data (skipped when it is absent).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import {
  detectEpisodes,
  intervalsFrom,
  reconcileEpisodes,
  resolveContradictions,
  signalText,
  stableJson,
  staleNote,
  TYPE_PRECEDENCE,
  vocabulary,
  WITHDRAWN,
  type Episode,
  type SeriesProfile,
} from "../../src/domain/signals";
import { accelerationStates, extremeStates, trendBreakStates, type State } from "../../src/domain/signal-detectors";
import { inversionStates, sahmStates } from "../../src/domain/signal-rules";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

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

describe("vocabulary: label and tone follow the indicator's polarity, words follow strength", () => {
  const v = (
    type: Episode["type"],
    direction: Episode["direction"],
    upIsGood: boolean | null,
    strength: Episode["strength"] = "strong",
    evidence: Record<string, unknown> = {},
  ) => vocabulary({ type, direction, strength, evidence }, upIsGood);
  test("rising unemployment is bad news, rising employment good, prices neutral", () => {
    expect(v("extreme", "up", false)).toEqual({ glyph: "▲", label: "Alarming jump", tone: "negative" });
    expect(v("extreme", "up", true)).toEqual({ glyph: "▲", label: "Exceptional gain", tone: "positive" });
    expect(v("extreme", "up", null)).toEqual({ glyph: "▲", label: "Exceptional rise", tone: "neutral" });
    expect(v("extreme", "down", false)).toEqual({ glyph: "▼", label: "Exceptional improvement", tone: "positive" });
    expect(v("acceleration", "down", true)).toEqual({ glyph: "⇊", label: "Growth slowing", tone: "negative" });
    expect(v("trend_break", "up", false)).toEqual({ glyph: "↗", label: "Turn for the worse", tone: "negative" });
    expect(v("trend_break", "down", true)).toEqual({ glyph: "↘", label: "Downturn", tone: "negative" });
  });
  test("the intense words are for strong extremes only: neutral and weak ones are unusual, never alarming", () => {
    for (const strength of ["weak", "neutral"] as const) {
      expect(
        [
          v("extreme", "up", false, strength),
          v("extreme", "up", true, strength),
          v("extreme", "up", null, strength),
        ].map((x) => x.label),
      ).toEqual(["Unusual jump", "Unusual gain", "Unusual rise"]);
      expect(
        [
          v("extreme", "down", false, strength),
          v("extreme", "down", true, strength),
          v("extreme", "down", null, strength),
        ].map((x) => x.label),
      ).toEqual(["Unusual improvement", "Unusual drop", "Unusual fall"]);
    }
    expect(v("extreme", "down", true, "strong").label).toBe("Sharp drop");
  });
  test("named rules are recession warnings whatever the polarity", () => {
    expect(v("extreme", "down", null, "neutral", { rule: "yield_curve_inversion" })).toEqual({
      glyph: "▼",
      label: "Yield curve inverted",
      tone: "negative",
    });
    expect(v("trend_break", "up", false, "weak", { rule: "sahm_rule" })).toEqual({
      glyph: "↗",
      label: "Sahm rule recession signal",
      tone: "negative",
    });
  });
});

describe("contradictions: one series never has two open intervals pointing opposite ways", () => {
  const ep = (
    type: Episode["type"],
    direction: Episode["direction"],
    strength: Episode["strength"],
    validFrom: string,
    validTo: string | null = null,
  ): Episode => ({
    type,
    direction,
    strength,
    validFrom,
    validTo,
    evidence: { last_date: "2026-09-01" },
  });
  test("extreme prevails over trend_break over acceleration; the one that yields closes at the newest observation", () => {
    const out = resolveContradictions([
      ep("acceleration", "down", "strong", "2026-05-01"),
      ep("extreme", "up", "weak", "2026-09-01"),
      ep("trend_break", "up", "neutral", "2026-07-01"),
    ]);
    expect(out.map((e) => [e.type, e.direction, e.validTo, e.evidence.superseded_by ?? null])).toEqual([
      ["acceleration", "down", "2026-09-01", "extreme"],
      ["extreme", "up", null, null],
      ["trend_break", "up", null, null],
    ]);
    expect(TYPE_PRECEDENCE).toEqual({ extreme: 0, trend_break: 1, acceleration: 2 });
  });
  test("trend_break over acceleration; agreeing intervals and closed ones are left alone", () => {
    const out = resolveContradictions([
      ep("trend_break", "down", "weak", "2026-01-01"),
      ep("acceleration", "up", "strong", "2026-06-01"),
      ep("extreme", "up", "strong", "2025-01-01", "2025-02-01"),
    ]);
    expect(out.map((e) => [e.type, e.validTo, e.evidence.superseded_by ?? null])).toEqual([
      ["trend_break", null, null],
      ["acceleration", "2026-09-01", "trend_break"],
      ["extreme", "2025-02-01", null],
    ]);
    const agree = [ep("trend_break", "up", "weak", "2026-01-01"), ep("acceleration", "up", "strong", "2026-06-01")];
    expect(resolveContradictions(agree)).toEqual(agree);
  });
  test("detectEpisodes applies it: at most one direction among the open intervals of a real series", () => {
    const pts = Array.from({ length: 60 }, (_, k) => ({
      date: `${2021 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`,
      value: k < 58 ? 5 + 0.1 * Math.sin(k) : k === 58 ? 3 : 9,
    }));
    const open = detectEpisodes(pts, {
      code: "X",
      source: "fred",
      unit: "percent",
      frequency: "monthly",
      seasonalAdjustment: "SA",
      additive: true,
    }).filter((e) => e.validTo === null);
    expect(new Set(open.map((e) => e.direction)).size).toBeLessThanOrEqual(1);
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

describe("reconciliation with the store", () => {
  const e = (over: Partial<Episode> = {}): Episode => ({
    type: "extreme",
    direction: "up",
    strength: "strong",
    validFrom: "2020-04-01",
    validTo: null,
    evidence: { z: 70, last_date: "2020-04-01" },
    ...over,
  });
  test("unchanged data: nothing to do, whatever key order the store returned", () => {
    expect(reconcileEpisodes([{ ...e({ evidence: { last_date: "2020-04-01", z: 70 } }), id: "a" }], [e()])).toEqual({
      insert: [],
      update: [],
      remove: [],
      unchanged: 1,
    });
    expect(stableJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });
  test("a flip closes the open interval (update) and opens the next (insert); a vanished closed one is removed", () => {
    const closed = e({ validTo: "2020-05-01" });
    const next = e({ direction: "down", validFrom: "2020-05-01", evidence: { z: -9, last_date: "2020-05-01" } });
    const gone = { ...e({ type: "acceleration", validTo: "2020-03-01" }), id: "b" };
    expect(reconcileEpisodes([{ ...e(), id: "a" }, gone], [closed, next])).toEqual({
      insert: [next],
      update: [{ id: "a", episode: closed }],
      remove: ["b"],
      unchanged: 0,
    });
  });
  test("a vanished open one (a newer vintage no longer supports it) is closed at its last observation and marked withdrawn, once", () => {
    const open = {
      ...e({ type: "trend_break", validFrom: "2020-02-01", evidence: { last_date: "2020-06-01" } }),
      id: "c",
    };
    const withdrawn = { ...open, validTo: "2020-06-01", evidence: { last_date: "2020-06-01", withdrawn: WITHDRAWN } };
    const { id: _, ...episode } = withdrawn;
    expect(reconcileEpisodes([open], [])).toEqual({
      insert: [],
      update: [{ id: "c", episode }],
      remove: [],
      unchanged: 0,
    });
    expect(reconcileEpisodes([withdrawn], [])).toEqual({ insert: [], update: [], remove: [], unchanged: 1 });
    expect(WITHDRAWN).toBe("revised data no longer support it");
  });
});

const csv = (path: string) =>
  readFileSync(path, "utf8")
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\n")
    .map((l) => l.split(","));
const fredPoints = (path: string) =>
  csv(path)
    .slice(1)
    .map(([date, v]) => ({ date, value: v === "" || v === "." ? null : Number(v) }));

describe("real episodes (../shared/data)", () => {
  const states = sharedDataPath("bls-state-unemployment-monthly", "State_level_unemployment.csv");
  test.skipIf(!states)(
    states
      ? "April 2020: every state's number unemployed makes a strong upward extreme peaking that month"
      : sharedDataMissingMessage("bls-state-unemployment-monthly"),
    () => {
      const rows = csv(states!);
      const head = rows[0];
      expect(head.length).toBe(51);
      for (let c = 1; c < head.length; c++) {
        const points = rows.slice(1).map((r) => ({ date: r[0], value: Number(r[c]) }));
        const eps = detectEpisodes(points, {
          code: "LASST04",
          source: "bls",
          unit: "persons",
          frequency: "monthly",
          seasonalAdjustment: "SA",
          additive: false,
        });
        const april = eps.filter(
          (x) =>
            x.type === "extreme" && x.validFrom <= "2020-04-01" && (x.validTo === null || x.validTo > "2020-04-01"),
        );
        expect({ state: head[c], found: april.map((x) => [x.direction, x.strength, x.evidence.date]) }).toEqual({
          state: head[c],
          found: [["up", "strong", "2020-04-01"]],
        });
      }
    },
  );

  const unrate = sharedDataPath("fred-macro-us", "UNRATE.csv");
  test.skipIf(!unrate)(
    unrate
      ? "UNRATE: April 2020 a strong upward extreme, then a fall; the Sahm rule in 2008, 2020 and July 2024"
      : sharedDataMissingMessage("fred-macro-us"),
    () => {
      const eps = detectEpisodes(fredPoints(unrate!), {
        code: "UNRATE",
        source: "fred",
        unit: "percent",
        frequency: "monthly",
        seasonalAdjustment: "SA",
        additive: true,
      });
      const extremes = eps
        .filter((x) => x.type === "extreme")
        .map((x) => [x.direction, x.strength, x.validFrom, x.validTo, x.evidence.date]);
      expect(extremes).toEqual([
        ["up", "strong", "2020-03-01", "2020-05-01", "2020-04-01"],
        ["down", "strong", "2020-05-01", "2020-09-01", "2020-08-01"],
        ["down", "neutral", "2020-10-01", "2020-11-01", "2020-10-01"],
      ]);
      const sahm = eps.filter((x) => x.type === "trend_break").map((x) => [x.validFrom, x.validTo, x.strength]);
      expect(sahm).toContainEqual(["2008-02-01", "2010-06-01", "strong"]);
      expect(sahm).toContainEqual(["2020-04-01", "2021-04-01", "strong"]);
      expect(sahm).toContainEqual(["2024-07-01", "2024-10-01", "neutral"]);
      // Rare enough to be news: 45 years of monthly data, 8 Sahm episodes (every recession since 1980, 2003 and 2024).
      expect(sahm.length).toBe(8);
      const july2024 = eps.find((x) => x.type === "trend_break" && x.validFrom === "2024-07-01")!;
      expect(
        signalText(july2024, {
          indicatorName: "Civilian Unemployment Rate",
          place: "the United States",
          frequency: "monthly",
          unit: "percent",
        }),
      ).toBe(
        "The Sahm rule signalled a recession from July 2024 to October 2024 for the civilian unemployment rate in the United States: at its peak the three-month average unemployment rate, 4.17%, was 0.57 percentage points above its low of the previous 12 months (3.60%); the rule triggers at 0.50.",
      );
    },
  );

  const spread = sharedDataPath("fred-macro-us", "T10Y2Y.csv");
  test.skipIf(!spread)(
    spread
      ? "T10Y2Y: the 2022-2024 inversion, from July 6, 2022 to September 6, 2024, deepest -1.08 on July 3, 2023"
      : sharedDataMissingMessage("fred-macro-us"),
    () => {
      const eps = detectEpisodes(fredPoints(spread!), {
        code: "T10Y2Y",
        source: "fred",
        unit: "percentage points",
        frequency: "daily",
        seasonalAdjustment: "NSA",
        additive: true,
      }).filter((x) => x.type === "extreme");
      const inversion = eps.find((x) => x.validFrom === "2022-07-06")!;
      expect(inversion).toMatchObject({
        direction: "down",
        strength: "strong",
        validTo: "2024-09-06",
        evidence: { rule: "yield_curve_inversion", statistic: -1.08, deepest_date: "2023-07-03" },
      });
      expect(
        signalText(inversion, {
          indicatorName: "10-Year Treasury Constant Maturity Minus 2-Year Treasury Constant Maturity",
          place: "the United States",
          frequency: "daily",
          unit: "percentage points",
        }),
      ).toBe(
        "10-year Treasury constant maturity minus 2-year Treasury constant maturity in the United States was inverted (below zero) from July 6, 2022 to September 6, 2024; at its deepest it reached -1.08 percentage points on July 3, 2023.",
      );
      // The inversions of 1980-82, 1989, 1998, 2000, 2006-07, 2019 and 2022-24; nothing while the curve is upward sloping.
      expect(eps.map((x) => x.validFrom.slice(0, 4))).toEqual([
        "1980",
        "1980",
        "1982",
        "1988",
        "1989",
        "1990",
        "1998",
        "2000",
        "2005",
        "2006",
        "2006",
        "2007",
        "2019",
        "2022",
      ]);
    },
  );

  const cpi = sharedDataPath("fred-macro-us", "CPIAUCSL.csv");
  test.skipIf(!cpi)(
    cpi
      ? "CPI: inflation speeding up in 2021 (strong) and the trend bending up in March 2021, down in July 2022"
      : sharedDataMissingMessage("fred-macro-us"),
    () => {
      const eps = detectEpisodes(fredPoints(cpi!), {
        code: "CPIAUCSL",
        source: "fred",
        unit: "index 1982-1984=100",
        frequency: "monthly",
        seasonalAdjustment: "SA",
        additive: false,
      });
      expect(eps.find((x) => x.type === "acceleration" && x.validFrom === "2021-04-01")).toMatchObject({
        direction: "up",
        strength: "strong",
        validTo: "2022-05-01",
      });
      const breaks = eps
        .filter((x) => x.type === "trend_break" && x.validFrom >= "2021-01-01")
        .map((x) => [x.direction, x.validFrom]);
      expect(breaks).toEqual([
        ["up", "2021-03-01"],
        ["down", "2022-07-01"],
      ]);
    },
  );

  test.skipIf(!unrate || !cpi)(
    "quiet on ordinary noise: on 45 years of monthly data, fewer than one neutral-or-stronger signal a year",
    () => {
      for (const [path, profile] of [
        [
          unrate!,
          {
            code: "UNRATE",
            source: "fred",
            unit: "percent",
            frequency: "monthly",
            seasonalAdjustment: "SA",
            additive: true,
          },
        ],
        [
          cpi!,
          {
            code: "CPIAUCSL",
            source: "fred",
            unit: "index 1982-1984=100",
            frequency: "monthly",
            seasonalAdjustment: "SA",
            additive: false,
          },
        ],
      ] as const) {
        const points = fredPoints(path);
        const years = points.length / 12;
        const notable = detectEpisodes(points, profile as SeriesProfile).filter((x) => x.strength !== "weak");
        expect({ code: profile.code, perYear: notable.length / years < 1 }).toEqual({
          code: profile.code,
          perYear: true,
        });
      }
    },
  );
});
