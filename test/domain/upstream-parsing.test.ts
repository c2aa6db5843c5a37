import { describe, expect, test } from "bun:test";
import { CENSUS_ANNOTATION_CODES, parseUpstreamNumber, UnreadableNumberError } from "../../src/domain/upstream-numbers";
import {
  blsPeriodDate,
  dayUpdatedAt,
  fredUpdatedAt,
  retryAfterSeconds,
  secondsUntilMidnight,
  worldBankDate,
} from "../../src/domain/upstream-dates";
import { fillSeriesTemplate, templateKind } from "../../src/domain/series-template";

describe("parseUpstreamNumber", () => {
  test("FRED strings, '.' is missing", () => {
    expect(parseUpstreamNumber("14.8")).toBe(14.8);
    expect(parseUpstreamNumber("394000.0")).toBe(394000);
    expect(parseUpstreamNumber("-0.52")).toBe(-0.52);
    expect(parseUpstreamNumber(".")).toBeNull();
  });
  test("BLS strings, '-' and (NA) are missing", () => {
    expect(parseUpstreamNumber("889057")).toBe(889057);
    expect(parseUpstreamNumber("-")).toBeNull();
    expect(parseUpstreamNumber("(NA)")).toBeNull();
  });
  test("Census: null and every annotation code are missing; a real zero stays zero", () => {
    expect(parseUpstreamNumber(null)).toBeNull();
    expect(parseUpstreamNumber(undefined)).toBeNull();
    for (const code of [-666666666, -999999999, -888888888, -222222222, -333333333, -555555555]) {
      expect(parseUpstreamNumber(String(code))).toBeNull();
      expect(parseUpstreamNumber(code)).toBeNull();
    }
    expect(CENSUS_ANNOTATION_CODES.size).toBe(6);
    expect(parseUpstreamNumber("0")).toBe(0);
    expect(Object.is(parseUpstreamNumber("-0"), 0)).toBe(true);
    // A neighbour of an annotation code is a number.
    expect(parseUpstreamNumber("-666666665")).toBe(-666666665);
  });
  test("World Bank JSON numbers", () => {
    expect(parseUpstreamNumber(27360935000000)).toBe(27360935000000);
    expect(parseUpstreamNumber(1.5e-7)).toBe(1.5e-7);
  });
  test("thousands separators and spaces, only in valid groups", () => {
    expect(parseUpstreamNumber("152,191,093")).toBe(152191093);
    expect(parseUpstreamNumber(" 2,175,612 ")).toBe(2175612);
    expect(parseUpstreamNumber("1,234.5")).toBe(1234.5);
    expect(parseUpstreamNumber("-1,000")).toBe(-1000);
    expect(parseUpstreamNumber(" 806 ")).toBe(806);
    for (const bad of ["1,23", "12,3456", ",123", "1,,234", "1.234,5"])
      expect(() => parseUpstreamNumber(bad)).toThrow(UnreadableNumberError);
  });
  test("decimal forms", () => {
    expect(parseUpstreamNumber(".5")).toBe(0.5);
    expect(parseUpstreamNumber("5.")).toBe(5);
    expect(parseUpstreamNumber("+3")).toBe(3);
    expect(parseUpstreamNumber("1e3")).toBe(1000);
  });
  test("anything else is unreadable, not missing", () => {
    for (const bad of ["abc", "4.4.4", "Infinity", "NaN", "0x10", "1e999", "$59,338"]) {
      expect(() => parseUpstreamNumber(bad)).toThrow(UnreadableNumberError);
    }
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, true, {}, []])
      expect(() => parseUpstreamNumber(bad)).toThrow(UnreadableNumberError);
  });
});

describe("blsPeriodDate", () => {
  test("months, and M13 the annual average dated January 1", () => {
    expect(blsPeriodDate("2020", "M01")).toEqual({ date: "2020-01-01", annualAverage: false });
    expect(blsPeriodDate("2020", "M12")).toEqual({ date: "2020-12-01", annualAverage: false });
    expect(blsPeriodDate("2020", "M13")).toEqual({ date: "2020-01-01", annualAverage: true });
    expect(blsPeriodDate("2020", "M00")).toBeNull();
    expect(blsPeriodDate("2020", "M14")).toBeNull();
  });
  test("quarters, halves, years", () => {
    expect(["Q01", "Q02", "Q03", "Q04"].map((p) => blsPeriodDate("2023", p)!.date)).toEqual([
      "2023-01-01",
      "2023-04-01",
      "2023-07-01",
      "2023-10-01",
    ]);
    expect(blsPeriodDate("2023", "Q05")).toEqual({ date: "2023-01-01", annualAverage: true });
    expect(blsPeriodDate("2023", "S01")!.date).toBe("2023-01-01");
    expect(blsPeriodDate("2023", "S02")!.date).toBe("2023-07-01");
    expect(blsPeriodDate("2023", "S03")).toEqual({ date: "2023-01-01", annualAverage: true });
    expect(blsPeriodDate("2023", "A01")).toEqual({ date: "2023-01-01", annualAverage: false });
  });
  test("malformed", () => {
    for (const [y, p] of [
      ["23", "M01"],
      ["2023", "M1"],
      ["2023", "X01"],
      ["2023", "A02"],
      ["2023", "Q06"],
      ["2023", "S04"],
      ["2023", ""],
    ]) {
      expect(blsPeriodDate(y, p)).toBeNull();
    }
  });
});

describe("worldBankDate", () => {
  test("years, quarters, months", () => {
    expect(worldBankDate("2023")).toBe("2023-01-01");
    expect(worldBankDate("2013Q1")).toBe("2013-01-01");
    expect(worldBankDate("2013Q4")).toBe("2013-10-01");
    expect(worldBankDate("2012M01")).toBe("2012-01-01");
    expect(worldBankDate("2012M12")).toBe("2012-12-01");
  });
  test("malformed", () => {
    for (const bad of ["2012M13", "2012M00", "2013Q5", "YTD", "", "2012-01"]) expect(worldBankDate(bad)).toBeNull();
  });
});

describe("update times", () => {
  test("FRED last_updated with an hour offset, or hours:minutes", () => {
    expect(fredUpdatedAt("2024-06-07 07:51:02-05")).toBe("2024-06-07T12:51:02.000Z");
    expect(fredUpdatedAt("2013-07-31 09:26:16-05")).toBe("2013-07-31T14:26:16.000Z");
    expect(fredUpdatedAt("2024-01-01 00:30:00+05:30")).toBe("2023-12-31T19:00:00.000Z");
    expect(fredUpdatedAt("2024-06-07")).toBeNull();
    expect(fredUpdatedAt("yesterday")).toBeNull();
  });
  test("a day at 00:00 UTC", () => {
    expect(dayUpdatedAt("2025-07-01")).toBe("2025-07-01T00:00:00.000Z");
    expect(dayUpdatedAt("2024-02-29")).toBe("2024-02-29T00:00:00.000Z");
    expect(dayUpdatedAt("2023-02-29")).toBeNull();
    expect(dayUpdatedAt("2025-7-1")).toBeNull();
  });
  test("seconds to the next local midnight (US Eastern, standard and daylight time)", () => {
    // 2026-01-15 12:00 UTC = 07:00 EST: 17 hours to midnight.
    expect(secondsUntilMidnight(new Date("2026-01-15T12:00:00Z"), "America/New_York")).toBe(17 * 3600);
    // 2026-07-15 03:59:59 UTC = 23:59:59 EDT: one second.
    expect(secondsUntilMidnight(new Date("2026-07-15T03:59:59Z"), "America/New_York")).toBe(1);
    // Exactly midnight EDT: a whole day.
    expect(secondsUntilMidnight(new Date("2026-07-15T04:00:00Z"), "America/New_York")).toBe(86_400);
  });
});

describe("retryAfterSeconds", () => {
  const now = new Date("2015-10-21T07:27:00Z");
  test("delta seconds", () => {
    expect(retryAfterSeconds("120", now)).toBe(120);
    expect(retryAfterSeconds(" 0 ", now)).toBe(0);
  });
  test("an HTTP date, relative to now; the past is 0", () => {
    expect(retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT", now)).toBe(60);
    expect(retryAfterSeconds("Wed, 21 Oct 2015 07:00:00 GMT", now)).toBe(0);
  });
  test("absent or unreadable", () => {
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds(undefined, now)).toBeNull();
    expect(retryAfterSeconds("-5", now)).toBeNull();
    expect(retryAfterSeconds("1.5", now)).toBeNull();
    expect(retryAfterSeconds("soon", now)).toBeNull();
    expect(retryAfterSeconds("", now)).toBeNull();
  });
});

describe("fillSeriesTemplate", () => {
  const ca = { code: "06", type: "state", fipsState: "06", fipsCounty: null, aliases: ["CA", "US-CA"] };
  const la = { code: "06037", type: "county", fipsState: "06", fipsCounty: "037", aliases: [] };
  const us = {
    code: "US",
    type: "country",
    fipsState: null,
    fipsCounty: null,
    aliases: ["USA", "840", "United States of America"],
  };
  const xk = { code: "XK", type: "country", fipsState: null, fipsCounty: null, aliases: ["XKK", "XKX"] };

  test("state, county and country templates", () => {
    expect(fillSeriesTemplate("LASST{fips2}0000000000003", ca)).toBe("LASST060000000000003");
    expect(fillSeriesTemplate("{usps}UR", ca)).toBe("CAUR");
    expect(fillSeriesTemplate("LAUCN{fips5}0000000003", la)).toBe("LAUCN060370000000003");
    expect(fillSeriesTemplate("{iso2}", us)).toBe("US");
    expect(fillSeriesTemplate("{iso3}", us)).toBe("USA");
    expect(fillSeriesTemplate("{iso3}", xk)).toBe("XKK");
  });
  test("a template is filled only for its own kind of region", () => {
    expect(fillSeriesTemplate("LASST{fips2}0000000000003", la)).toBeNull();
    expect(fillSeriesTemplate("LAUCN{fips5}0000000003", ca)).toBeNull();
    expect(fillSeriesTemplate("{iso2}", ca)).toBeNull();
    expect(fillSeriesTemplate("{fips2}{iso2}", ca)).toBeNull();
    expect(fillSeriesTemplate("{nope}", ca)).toBeNull();
    expect(fillSeriesTemplate("UNRATE", us)).toBeNull();
  });
  test("kinds", () => {
    expect(templateKind("x{fips2}{fips5}")).toBe("county");
    expect(templateKind("{usps}UR")).toBe("state");
    expect(templateKind("plain")).toBeNull();
  });
  test("missing parts give null", () => {
    expect(fillSeriesTemplate("{usps}UR", { ...ca, aliases: [] })).toBeNull();
    expect(fillSeriesTemplate("LAUCN{fips5}0000000003", { ...la, fipsCounty: null })).toBeNull();
  });
});
