// A chart's SVG drawn in Chromium and measured as drawn: each text's box (a label under its white halo counts once),
// which lie outside the picture, which overlap, which were cut short ("…"), and how tall and how far right each line
// is drawn. Used by the browser tests of charts (test/e2e/charts.test.ts).
import type { Browser } from "playwright-core";

export type Drawn = {
  width: number;
  height: number;
  /** Every text, in document order (halos left out). */
  texts: string[];
  /** The title's lines (bold, 15 px). */
  bold15: string[];
  outside: string[];
  overlapping: string[];
  cut: string[];
  /** Height of each line (by its colour) over all its paths, in pixels. */
  lineHeights: Record<string, number>;
  /** The right edge of the rightmost line. */
  linesRight: number;
};

type Box = { text: string; left: number; right: number; top: number; bottom: number; bold15: boolean };

/** `svg` drawn alone in a page of its size; its screenshot at `screenshot` when given. */
export async function drawnText(browser: Browser, svg: string, screenshot: string | null): Promise<Drawn> {
  const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);
  const height = Number(/<svg[^>]* height="(\d+)"/.exec(svg)![1]);
  const page = await browser.newPage({ viewport: { width, height } });
  try {
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    const measured = (await page.evaluate(`(() => {
      const root = document.querySelector("svg").getBoundingClientRect();
      const rel = (b) => ({ left: b.left - root.left, right: b.right - root.left, top: b.top - root.top, bottom: b.bottom - root.top });
      const texts = [...document.querySelectorAll("svg text")].filter((t) => t.getAttribute("stroke") !== "white").map((t) => ({
        text: t.textContent, bold15: t.getAttribute("font-weight") === "bold" && t.getAttribute("font-size") === "15px", ...rel(t.getBoundingClientRect()),
      }));
      const lines = [...document.querySelectorAll('svg path[stroke-width="1.8"]')].map((p) => ({ color: p.getAttribute("stroke"), ...rel(p.getBoundingClientRect()) }));
      return { texts, lines };
    })()`)) as { texts: Box[]; lines: { color: string; top: number; bottom: number; right: number }[] };
    if (screenshot) await page.screenshot({ path: screenshot });
    const b = measured.texts;
    const overlapping: string[] = [];
    for (let i = 0; i < b.length; i++) {
      for (let j = i + 1; j < b.length; j++) {
        const [p, q] = [b[i]!, b[j]!];
        if (
          Math.min(p.right, q.right) - Math.max(p.left, q.left) > 0.5 &&
          Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 0.5
        )
          overlapping.push(`${p.text} / ${q.text}`);
      }
    }
    const spans = new Map<string, { top: number; bottom: number }>();
    for (const l of measured.lines) {
      const s = spans.get(l.color);
      spans.set(
        l.color,
        s ? { top: Math.min(s.top, l.top), bottom: Math.max(s.bottom, l.bottom) } : { top: l.top, bottom: l.bottom },
      );
    }
    return {
      width,
      height,
      texts: b.map((x) => x.text),
      bold15: b.filter((x) => x.bold15).map((x) => x.text),
      outside: b
        .filter((x) => x.left < -0.5 || x.top < -0.5 || x.right > width + 0.5 || x.bottom > height + 0.5)
        .map((x) => x.text),
      overlapping,
      cut: b.filter((x) => x.text.includes("…")).map((x) => x.text),
      lineHeights: Object.fromEntries([...spans].map(([color, s]) => [color, s.bottom - s.top])),
      linesRight: Math.max(...measured.lines.map((l) => l.right)),
    };
  } finally {
    await page.close();
  }
}
