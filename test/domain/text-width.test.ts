// Text widths and lines (src/domain/text-width.ts), worked from Helvetica's advance widths by hand.
import { describe, expect, test } from "bun:test";
import { textWidth, wrapLines } from "../../src/domain/text-width";

describe("textWidth", () => {
  test("the sum of the characters' advances times the size", () => {
    // T 611, e 556, x 500, a 556, s 500 thousandths of an em; bold: x 556, s 556.
    expect(textWidth("Texas", 11)).toBeCloseTo((2723 * 11) / 1000, 10);
    expect(textWidth("Texas", 11, true)).toBeCloseTo((2835 * 11) / 1000, 10);
    expect(textWidth("", 11)).toBe(0);
  });
  test("an accented letter as its base letter; an East Asian character a full em; others as a digit", () => {
    expect(textWidth("Doña", 10)).toBeCloseTo(textWidth("Dona", 10), 10);
    expect(textWidth("中", 12)).toBe(12);
    expect(textWidth("\u0394", 10)).toBeCloseTo(5.56, 10);
    expect(textWidth("·", 10)).toBeCloseTo(2.78, 10);
  });
});

describe("wrapLines", () => {
  test("whole words joined by spaces, a line as long as fits", () => {
    // "aaaa bbbb" is 4 x 5.56 + 2.78 + 4 x 5.56 = 47.26 px at 10 px; a third word would not fit 50.
    expect(wrapLines("aaaa bbbb cccc dddd", 50, 10)).toEqual(["aaaa bbbb", "cccc dddd"]);
    expect(wrapLines("aaaa bbbb", 47.26, 10)).toEqual(["aaaa bbbb"]);
    expect(wrapLines("aaaa bbbb", 47.25, 10)).toEqual(["aaaa", "bbbb"]);
    expect(wrapLines("  spaced   out  ", 500, 10)).toEqual(["spaced out"]);
    expect(wrapLines("", 50, 10)).toEqual([]);
  });
  test("a word wider than the line alone is split between characters, never cut", () => {
    // a 5.56, b 5.56, c 5.00 (16.12) | d 5.56, e 5.56, f 2.78, g 5.56 (19.46) | h 5.56, i 2.22, j 2.22.
    expect(wrapLines("abcdefghij", 20, 10)).toEqual(["abc", "defg", "hij"]);
    expect(wrapLines("xy abcdefghij", 20, 10)).toEqual(["xy", "abc", "defg", "hij"]);
  });
});
