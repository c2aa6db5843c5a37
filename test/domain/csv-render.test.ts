import { describe, expect, test } from "bun:test";
import { toCsv } from "../../src/domain/csv-render";

describe("toCsv (RFC 4180)", () => {
  test("a header row, CRLF line ends, empty fields for null, numbers and booleans as written", () => {
    expect(
      toCsv(
        ["date", "value", "ok"],
        [
          { date: "2024-01-01", value: 4.1, ok: true },
          { date: "2024-02-01", value: null, ok: false },
        ],
      ),
    ).toBe("date,value,ok\r\n2024-01-01,4.1,true\r\n2024-02-01,,false\r\n");
  });

  test("quotes fields with commas, quotes, line breaks or edge spaces; doubles inner quotes", () => {
    expect(toCsv(["a"], [{ a: 'say "hi", ok' }, { a: "two\nlines" }, { a: " pad" }, { a: "plain" }])).toBe(
      'a\r\n"say ""hi"", ok"\r\n"two\nlines"\r\n" pad"\r\nplain\r\n',
    );
  });

  test("no rows: the header row alone; numbers keep their shortest round-trip form", () => {
    expect(toCsv(["x"], [])).toBe("x\r\n");
    expect(toCsv(["x"], [{ x: 0.1 + 0.2 }, { x: -0 }, { x: 1e21 }])).toBe("x\r\n0.30000000000000004\r\n0\r\n1e+21\r\n");
  });
});
