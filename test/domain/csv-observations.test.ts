import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import {
  CsvObservationsError,
  normaliseObservationDate,
  parseCsvRecords,
  parseObservationValue,
  parseObservationsCsv,
} from "../../src/domain/csv-observations";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

function errorOf(fn: () => unknown): CsvObservationsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CsvObservationsError) return e;
    throw e;
  }
  throw new Error("expected a CsvObservationsError");
}

describe("record splitting", () => {
  test("LF, CRLF and lone CR end records; blank lines are skipped; a BOM is dropped", () => {
    expect(parseCsvRecords("\ufeffa,b\r\n1,2\n\n3,4\r5,6\n")).toEqual([
      { fields: ["a", "b"], line: 1 },
      { fields: ["1", "2"], line: 2 },
      { fields: ["3", "4"], line: 4 },
      { fields: ["5", "6"], line: 5 },
    ]);
  });

  test("quoted fields hold commas, doubled quotes and line breaks; the next record's line counts them", () => {
    expect(parseCsvRecords('d,v\n"2020-01-01","1,234.5"\n"x ""y""","a\r\nb"\n2020,1')).toEqual([
      { fields: ["d", "v"], line: 1 },
      { fields: ["2020-01-01", "1,234.5"], line: 2 },
      { fields: ['x "y"', "a\r\nb"], line: 3 },
      { fields: ["2020", "1"], line: 5 },
    ]);
  });

  test("a trailing empty field is kept; no final newline is fine", () => {
    expect(parseCsvRecords("2020-01-01,")).toEqual([{ fields: ["2020-01-01", ""], line: 1 }]);
  });

  test("an unterminated quote names the line it opened on", () => {
    const e = errorOf(() => parseCsvRecords('date,value\n2020-01-01,"12\n2020-02-01,3\n'));
    expect(e.line).toBe(2);
    expect(e.message).toBe("line 2: unterminated quoted field");
  });

  test("text after a closing quote is an error", () => {
    expect(errorOf(() => parseCsvRecords('a,b\n"1"x,2\n')).message).toBe(
      "line 2: unexpected text after a closing quote",
    );
  });
});

describe("dates", () => {
  test.each([
    ["2020-02-29", "2020-02-29"],
    ["2000-02-29", "2000-02-29"],
    ["2024-12", "2024-12-01"],
    ["1941", "1941-01-01"],
    [" 2020-01-31 ", "2020-01-31"],
  ])("%p -> %p", (raw, want) => {
    expect(normaliseObservationDate(raw)).toBe(want);
  });

  test.each([
    "2021-02-29",
    "1900-02-29",
    "2020-13",
    "2020-00-10",
    "2020-04-31",
    "2020/01/01",
    "01/02/2020",
    "2020-1-1",
    "20201",
    "2020Q1",
    "",
    "0000",
  ])("%p is rejected", (raw) => {
    expect(normaliseObservationDate(raw)).toBeNull();
  });
});

describe("values", () => {
  test.each([
    ["6.3", 6.3],
    ["-0.25", -0.25],
    ["+4", 4],
    ["1,234.5", 1234.5],
    ["12,345,678", 12345678],
    [".5", 0.5],
    ["5.", 5],
    ["1e3", 1000],
    ["2.5E-2", 0.025],
    [" 7 ", 7],
    ["0.1", 0.1],
  ])("%p -> %p", (raw, want) => {
    expect(parseObservationValue(raw)).toBe(want);
  });

  test.each(["", " ", "."])("%p is a missing value", (raw) => {
    expect(parseObservationValue(raw)).toBeNull();
  });

  test.each([
    "abc",
    "1,23",
    "1,2345",
    "12,34.5",
    "1.2.3",
    "NaN",
    "Infinity",
    "1e999",
    "--1",
    "$5",
    "5%",
    "1 000",
    "0x10",
    "e5",
  ])("%p is not a number", (raw) => {
    expect(parseObservationValue(raw)).toBeUndefined();
  });
});

describe("parseObservationsCsv", () => {
  test("FRED mirror format date,value with a missing value", () => {
    const got = parseObservationsCsv("date,value\n1980-01-01,\n1980-01-02,10.5\n1980-01-03,10.6\n");
    expect(got).toEqual({
      dateColumn: "date",
      valueColumn: "value",
      hasHeader: true,
      rows: [
        { date: "1980-01-01", value: null, line: 2 },
        { date: "1980-01-02", value: 10.5, line: 3 },
        { date: "1980-01-03", value: 10.6, line: 4 },
      ],
    });
  });

  test("FRED download format observation_date,SERIES with '.' for missing", () => {
    const got = parseObservationsCsv("observation_date,UNRATE\r\n2025-09-01,4.4\r\n2025-10-01,.\r\n2025-11-01,4.6\r\n");
    expect(got.dateColumn).toBe("observation_date");
    expect(got.valueColumn).toBe("UNRATE");
    expect(got.rows).toEqual([
      { date: "2025-09-01", value: 4.4, line: 2 },
      { date: "2025-10-01", value: null, line: 3 },
      { date: "2025-11-01", value: 4.6, line: 4 },
    ]);
  });

  test("old FRED format DATE,SERIES", () => {
    const got = parseObservationsCsv("DATE,GDP\n1947-01-01,243.164\n");
    expect(got.dateColumn).toBe("DATE");
    expect(got.valueColumn).toBe("GDP");
    expect(got.rows).toEqual([{ date: "1947-01-01", value: 243.164, line: 2 }]);
  });

  test("a BOM and CRLF (datahub bond-yields style) with YYYY-MM dates", () => {
    const got = parseObservationsCsv("\ufeffDate,Rate\r\n1953-04,2.83\r\n1953-05,3.05\r\n");
    expect(got.dateColumn).toBe("Date");
    expect(got.rows).toEqual([
      { date: "1953-04-01", value: 2.83, line: 2 },
      { date: "1953-05-01", value: 3.05, line: 3 },
    ]);
  });

  test("quoted values with thousands separators", () => {
    const got = parseObservationsCsv('date,value\n2024,"1,234.5"\n2025,"-12,000"\n');
    expect(got.rows).toEqual([
      { date: "2024-01-01", value: 1234.5, line: 2 },
      { date: "2025-01-01", value: -12000, line: 3 },
    ]);
  });

  test("a file with no header: first column dates, second values, numbered columns", () => {
    const got = parseObservationsCsv("2020-01-01,1\n2020-02-01,2\n");
    expect(got.hasHeader).toBe(false);
    expect(got.dateColumn).toBe("column 1");
    expect(got.valueColumn).toBe("column 2");
    expect(got.rows.map((r) => [r.date, r.value, r.line])).toEqual([
      ["2020-01-01", 1, 1],
      ["2020-02-01", 2, 2],
    ]);
  });

  test("several columns need a value column; it may be named in any case or by number", () => {
    const text = "Date,Index,Inflation\n1913-01-01,9.8,\n1913-02-01,9.8,0.0\n";
    const e = errorOf(() => parseObservationsCsv(text));
    expect(e.message).toBe(
      'cannot tell which column holds the values ("Date", "Index", "Inflation"): name it with the value column option',
    );
    expect(parseObservationsCsv(text, { valueColumn: "Index" }).rows.map((r) => r.value)).toEqual([9.8, 9.8]);
    expect(parseObservationsCsv(text, { valueColumn: "inflation" }).rows.map((r) => r.value)).toEqual([null, 0]);
    expect(parseObservationsCsv(text, { valueColumn: "3" }).valueColumn).toBe("Inflation");
  });

  test("a named date column that is not first, and an unknown column", () => {
    const text = "value,when,other\n5,2020-03,x\n";
    expect(parseObservationsCsv(text, { dateColumn: "when" }).rows).toEqual([
      { date: "2020-03-01", value: 5, line: 2 },
    ]);
    expect(errorOf(() => parseObservationsCsv(text, { dateColumn: "day" })).message).toBe(
      'date column "day" matches no column (columns are "value", "when", "other")',
    );
    expect(errorOf(() => parseObservationsCsv(text, { dateColumn: "4" })).message).toBe(
      'date column "4" matches no column (columns are "value", "when", "other")',
    );
  });

  test("a non-number names the line and the column", () => {
    const e = errorOf(() => parseObservationsCsv("date,value\n2020-01-01,1\n2020-02-01,abc\n"));
    expect([e.line, e.column]).toEqual([3, '"value"']);
    expect(e.message).toBe('line 3, column "value": "abc" is not a number');
  });

  test("an unquoted thousands separator splits the field: the value '1' then an ignored extra field", () => {
    // CSV cannot tell `1,234` from two fields; the FRED layout has no third column, so this is what a reader sees.
    expect(parseObservationsCsv("date,value\n2020-01-01,1,234\n").rows).toEqual([
      { date: "2020-01-01", value: 1, line: 2 },
    ]);
  });

  test("a bad date names the line after quoted line breaks", () => {
    const e = errorOf(() => parseObservationsCsv('date,value,note\n2020-01-01,1,"a\nb"\n01/02/2020,2,c\n'));
    expect(e.message).toBe('line 4, column "date": "01/02/2020" is not a date (expected YYYY-MM-DD, YYYY-MM or YYYY)');
  });

  test("a short row", () => {
    expect(errorOf(() => parseObservationsCsv("date,value\n2020-01-01\n")).message).toBe(
      "line 2: expected at least 2 fields, found 1",
    );
  });

  test("duplicate dates, also across formats, name both lines", () => {
    const e = errorOf(() => parseObservationsCsv("date,value\n2020-01,1\n2020-02,2\n2020-01-01,3\n"));
    expect(e.message).toBe('line 4, column "date": duplicate date 2020-01-01 (also on line 2)');
  });

  test("empty file and header-only file", () => {
    expect(errorOf(() => parseObservationsCsv("")).message).toBe("the file is empty");
    expect(errorOf(() => parseObservationsCsv("\ufeff\r\n")).message).toBe("the file is empty");
    expect(parseObservationsCsv("date,value\n").rows).toEqual([]);
  });

  test("same date and value column is refused", () => {
    expect(errorOf(() => parseObservationsCsv("date,value\n2020,1\n", { valueColumn: "date" })).message).toBe(
      'the date and value columns are the same column ("date")',
    );
  });
});

describe("real files", () => {
  const unrate = sharedDataPath("fred-macro-us", "UNRATE.csv");
  test.skipIf(!unrate)(`FRED UNRATE mirror ${unrate ? "" : sharedDataMissingMessage("fred-macro-us")}`, () => {
    const text = readFileSync(unrate!, "utf8");
    const got = parseObservationsCsv(text);
    const lines = text.trim().split("\n");
    expect(got.rows.length).toBe(lines.length - 1);
    expect(got.rows[0]).toEqual({ date: "1980-01-01", value: 6.3, line: 2 });
    const oct = got.rows.find((r) => r.date === "2025-10-01")!;
    expect(oct.value).toBeNull();
  });

  const cpi = sharedDataPath("datahub-us-macro", "cpi-us_cpiai.csv");
  test.skipIf(!cpi)(
    `datahub CPI with --value-column Index ${cpi ? "" : sharedDataMissingMessage("datahub-us-macro")}`,
    () => {
      const got = parseObservationsCsv(readFileSync(cpi!, "utf8"), { valueColumn: "Index" });
      expect(got.rows[0]).toEqual({ date: "1913-01-01", value: 9.8, line: 2 });
      expect(got.rows.some((r) => r.date === "2025-10-01")).toBe(false);
    },
  );

  const emp = sharedDataPath("datahub-us-macro", "employment-us_aat1.csv");
  test.skipIf(!emp)(
    `datahub employment: year column; its two 1947 rows are refused ${emp ? "" : sharedDataMissingMessage("datahub-us-macro")}`,
    () => {
      // BLS restated 1947 on a new population basis, so the file holds 1947 twice (lines 8 and 9).
      const e = errorOf(() => parseObservationsCsv(readFileSync(emp!, "utf8"), { valueColumn: "unemployed_percent" }));
      expect(e.message).toBe('line 9, column "year": duplicate date 1947-01-01 (also on line 8)');
    },
  );
});
