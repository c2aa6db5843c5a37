// Signal episodes (src/domain/signals.ts): the words and tone they are told in, contradictions resolved,
// reconciliation with the store, and the episodes economists name in the real data of ../shared/data (skipped when it
// is absent). The detectors, the interval state machine and stale notes are test/domain/signals.test.ts.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import {
  detectEpisodes,
  reconcileEpisodes,
  resolveContradictions,
  signalText,
  stableJson,
  TYPE_PRECEDENCE,
  vocabulary,
  WITHDRAWN,
  type Episode,
  type SeriesProfile,
} from "../../src/domain/signals";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

const monthDates = (n: number, start = 2000) =>
  Array.from({ length: n }, (_, k) => `${start + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`);
const series = (values: number[], start = 2000) =>
  monthDates(values.length, start).map((date, k) => ({ date, value: values[k] }));

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
