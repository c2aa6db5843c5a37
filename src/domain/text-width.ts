// How wide a line of chart text is drawn, and lines that fit a width. Pure.
// - Charts name Helvetica, Arial and their metric twins (Liberation Sans, Arimo): every one draws a character with the
//   same advance width, in thousandths of the font size (Helvetica's published metrics; measured equal in Chromium for
//   Liberation Sans, regular and bold). A string's width is the sum of its characters' advances times the size.
// - Characters outside the table: an accented letter is its base letter ("é" as "e"); an East Asian one a full em;
//   any other the width of a digit, 0.556 em (0.611 bold).
// - Vertical metrics of the same fonts: ascent 0.905 em and descent 0.212 em above and below the baseline (the box a
//   browser gives a line of text).
// - Lines: words are kept whole and joined by single spaces; a word wider than the line on its own is split between
//   characters (the only break inside a word).

/** Advances of U+0020..U+007E, regular then bold, in 1/1000 em. */
const ASCII_REGULAR =
  "278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 278 278 584 584 584 556 " +
  "1015 667 667 722 722 667 611 778 722 278 500 667 556 833 722 778 667 778 722 667 611 722 667 944 667 667 611 278 278 278 469 556 " +
  "333 556 556 500 556 556 278 556 556 222 222 500 222 833 556 556 556 556 333 500 278 556 500 722 500 500 500 334 260 334 584";
const ASCII_BOLD =
  "278 333 474 556 556 889 722 238 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556 333 333 584 584 584 611 " +
  "975 722 722 722 722 667 611 778 722 278 556 722 611 833 722 778 667 778 722 667 611 722 667 944 667 667 611 333 278 333 584 556 " +
  "333 556 611 556 611 556 333 611 611 278 278 556 278 889 611 611 611 611 389 556 333 611 556 778 556 556 500 389 280 389 584";
/** Punctuation and signs beyond ASCII that chart text uses: [regular, bold]. */
const EXTRA: Record<string, [number, number]> = {
  "\u00a0": [278, 278],
  "·": [278, 278],
  "°": [400, 400],
  "×": [584, 584],
  "–": [556, 556],
  "—": [1000, 1000],
  "‘": [222, 278],
  "’": [222, 278],
  "“": [333, 500],
  "”": [333, 500],
  "•": [350, 350],
  "…": [1000, 1000],
  "−": [584, 584],
  "€": [556, 556],
  "£": [556, 556],
};
const parse = (s: string) => s.split(" ").map(Number);
const REGULAR = parse(ASCII_REGULAR);
const BOLD = parse(ASCII_BOLD);

export const ASCENT = 0.905;
export const DESCENT = 0.212;

function advance(ch: string, bold: boolean): number {
  const code = ch.codePointAt(0)!;
  if (code >= 32 && code <= 126) return (bold ? BOLD : REGULAR)[code - 32]!;
  const extra = EXTRA[ch];
  if (extra) return extra[bold ? 1 : 0];
  const base = ch.normalize("NFD")[0]!;
  if (base !== ch && base.codePointAt(0)! <= 126) return advance(base, bold);
  if (code >= 0x2e80) return 1000;
  return bold ? 611 : 556;
}

/** The width in pixels of `text` drawn at `size` pixels. */
export function textWidth(text: string, size: number, bold = false): number {
  let units = 0;
  for (const ch of text) units += advance(ch, bold);
  return (units * size) / 1000;
}

/** `text` in lines no wider than `width` pixels at `size`, broken between words (inside a word only when it alone is wider). */
export function wrapLines(text: string, width: number, size: number, bold = false): string[] {
  const fits = (s: string) => textWidth(s, size, bold) <= width;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    // A word wider than a whole line: as many characters as fit, then the rest on the next line.
    while (!fits(line)) {
      const chars = [...line];
      let k = 1;
      while (k < chars.length && fits(chars.slice(0, k + 1).join(""))) k++;
      lines.push(chars.slice(0, k).join(""));
      line = chars.slice(k).join("");
    }
  }
  if (line) lines.push(line);
  return lines;
}
