import { describe, expect, test } from "bun:test";
import {
  addDays,
  addMonths,
  addMonthsKeepingMonthEnd,
  addYears,
  dayNumber,
  daysInMonth,
  diffDays,
  fromDayNumber,
  isIsoDate,
  isLeapYear,
  nextWeekday,
  parseIsoDate,
  periodEnd,
  periodIndex,
  periodLabel,
  periodStart,
  weekday,
} from "../../src/domain/calendar";

describe("leap years and month lengths", () => {
  test("Gregorian leap rule", () => {
    expect([2024, 2000, 1600, 2023, 1900, 2100].map(isLeapYear)).toEqual([true, true, true, false, false, false]);
  });
  test("February has 29 days only in leap years", () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect([1, 3, 4, 6, 9, 11, 12].map((m) => daysInMonth(2025, m))).toEqual([31, 31, 30, 30, 30, 30, 31]);
  });
});

describe("parsing", () => {
  test("strict YYYY-MM-DD", () => {
    expect(parseIsoDate("2024-02-29")).toEqual({ y: 2024, m: 2, d: 29 });
    for (const bad of [
      "2023-02-29",
      "2024-13-01",
      "2024-00-10",
      "2024-04-31",
      "2024-1-01",
      "20240101",
      "2024-01-01T00:00:00Z",
      "",
      "yesterday",
    ]) {
      expect(isIsoDate(bad)).toBe(false);
    }
  });
});

describe("day numbers", () => {
  test("epoch and known dates", () => {
    expect(dayNumber("1970-01-01")).toBe(0);
    expect(dayNumber("1970-01-02")).toBe(1);
    expect(dayNumber("1969-12-31")).toBe(-1);
    expect(dayNumber("2000-03-01")).toBe(11017);
    expect(dayNumber("0001-01-01")).toBe(-719162);
  });
  test("round trip over 1600..2400 in 37-day steps", () => {
    for (let n = dayNumber("1600-01-01"); n < dayNumber("2400-12-31"); n += 37)
      expect(dayNumber(fromDayNumber(n))).toBe(n);
  });
  test("addDays crosses a leap day and a year end", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-02-28", 2)).toBe("2024-03-01");
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01");
    expect(addDays("2024-12-31", 1)).toBe("2025-01-01");
    expect(addDays("2025-01-01", -1)).toBe("2024-12-31");
    expect(diffDays("2024-01-01", "2025-01-01")).toBe(366);
    expect(diffDays("2023-01-01", "2024-01-01")).toBe(365);
  });
  test("weekdays", () => {
    expect(weekday("1970-01-01")).toBe(4); // Thursday
    expect(weekday("2025-10-11")).toBe(6); // Saturday
    expect(weekday("2024-02-29")).toBe(4);
    expect(weekday("1969-12-28")).toBe(0);
  });
  test("nextWeekday skips weekends", () => {
    expect(nextWeekday("2025-10-10")).toBe("2025-10-13"); // Fri -> Mon
    expect(nextWeekday("2025-10-11")).toBe("2025-10-13"); // Sat -> Mon
    expect(nextWeekday("2025-10-12")).toBe("2025-10-13"); // Sun -> Mon
    expect(nextWeekday("2025-10-13")).toBe("2025-10-14");
  });
});

describe("month arithmetic", () => {
  test("clamps to the target month's end", () => {
    expect(addMonths("2024-01-31", 1)).toBe("2024-02-29");
    expect(addMonths("2023-01-31", 1)).toBe("2023-02-28");
    expect(addMonths("2024-03-31", -1)).toBe("2024-02-29");
    expect(addMonths("2024-05-31", 1)).toBe("2024-06-30");
    expect(addMonths("2024-11-15", 3)).toBe("2025-02-15");
    expect(addMonths("2024-01-15", -13)).toBe("2022-12-15");
  });
  test("leap day plus or minus a year", () => {
    expect(addYears("2024-02-29", 1)).toBe("2025-02-28");
    expect(addYears("2024-02-29", -1)).toBe("2023-02-28");
    expect(addYears("2024-02-29", 4)).toBe("2028-02-29");
  });
  test("month ends stay month ends when asked", () => {
    expect(addMonthsKeepingMonthEnd("2023-02-28", 1)).toBe("2023-03-31");
    expect(addMonthsKeepingMonthEnd("2024-02-29", 12)).toBe("2025-02-28");
    expect(addMonthsKeepingMonthEnd("2025-02-28", -12)).toBe("2024-02-29");
    expect(addMonthsKeepingMonthEnd("2024-04-30", 1)).toBe("2024-05-31");
    expect(addMonthsKeepingMonthEnd("2024-04-29", 1)).toBe("2024-05-29");
  });
});

describe("periods", () => {
  test("month, quarter and year boundaries", () => {
    expect(periodStart("2024-02-29", "month")).toBe("2024-02-01");
    expect(periodEnd("2024-02-10", "month")).toBe("2024-02-29");
    expect(periodEnd("2023-02-10", "month")).toBe("2023-02-28");
    expect(periodStart("2024-03-31", "quarter")).toBe("2024-01-01");
    expect(periodEnd("2024-03-31", "quarter")).toBe("2024-03-31");
    expect(periodStart("2024-04-01", "quarter")).toBe("2024-04-01");
    expect(periodEnd("2024-05-15", "quarter")).toBe("2024-06-30");
    expect(periodEnd("2024-08-15", "quarter")).toBe("2024-09-30");
    expect(periodStart("2024-12-31", "quarter")).toBe("2024-10-01");
    expect(periodEnd("2024-10-01", "quarter")).toBe("2024-12-31");
    expect(periodStart("2024-07-04", "year")).toBe("2024-01-01");
    expect(periodEnd("2024-07-04", "year")).toBe("2024-12-31");
  });
  test("ISO weeks run Monday to Sunday", () => {
    expect(periodStart("2025-10-11", "week")).toBe("2025-10-06");
    expect(periodEnd("2025-10-11", "week")).toBe("2025-10-12");
    expect(periodStart("2025-10-12", "week")).toBe("2025-10-06");
    expect(periodStart("2025-10-13", "week")).toBe("2025-10-13");
    expect(periodStart("1970-01-01", "week")).toBe("1969-12-29");
    expect(periodIndex("2025-10-11", "week") - periodIndex("2024-10-12", "week")).toBe(52);
  });
  test("indexes are consecutive across year ends", () => {
    expect(periodIndex("2025-01-01", "month") - periodIndex("2024-12-31", "month")).toBe(1);
    expect(periodIndex("2025-01-01", "quarter") - periodIndex("2024-12-31", "quarter")).toBe(1);
    expect(periodIndex("2025-02-28", "month") - periodIndex("2024-02-29", "month")).toBe(12);
    expect(periodIndex("2025-01-01", "day") - periodIndex("2024-12-31", "day")).toBe(1);
  });
  test("labels", () => {
    expect(periodLabel("2024-05-17", "month")).toBe("2024-05");
    expect(periodLabel("2024-05-17", "quarter")).toBe("2024-Q2");
    expect(periodLabel("2024-05-17", "year")).toBe("2024");
    expect(periodLabel("2024-05-17", "week")).toBe("week of 2024-05-13");
  });
});
