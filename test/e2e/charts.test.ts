// Charts in a real headless Chromium, as a person sees them: GET /v1/chart's SVG (one US series over recession bands),
// a public briefing read by a browser (Accept: text/html), a page with a chart of the series its answer read, and the
// cases people misread (different units, long legends and titles, few points, the landing cards at phone and desktop
// widths), each measured as drawn: every text box inside the picture and clear of the others. Screenshots are kept
// for a person to look at (paths printed). The briefing's run is the seeded database's (its first run, made at seed
// time by the ask service).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { PUBLIC_BRIEFINGS } from "../../db/seed/briefings";
import { LANDING_EXAMPLES } from "../../src/docs/landing-data";
import { drawnText, type Drawn } from "../support/drawn-chart";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

// A database, a briefing run and a browser before the first test: generous on a busy machine.
setDefaultTimeout(240_000);

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`skipped: ${CHROMIUM} is absent, so charts were not checked in a browser (apt-get install -y chromium)`);

export const CHART_SCREENSHOT = "/tmp/svc-chart-unrate.png";
export const BRIEFING_SCREENSHOT = "/tmp/svc-briefing-page.png";

describe.skipIf(!hasChromium)("charts in headless Chromium", () => {
  let t: TestApp;
  let server: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let base: string;
  let headers: Record<string, string>;
  const slug = PUBLIC_BRIEFINGS[0]!.slug;

  beforeAll(async () => {
    t = await makeTestApp({ keyAccess: true });
    t.clock.set("2026-11-22T12:00:00Z");
    ({ headers } = await testKey(t, { plan: "professional" }));
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch });
    base = `http://127.0.0.1:${server.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"] });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    await t?.close();
  });

  async function open(path: string, viewport = { width: 900, height: 700 }) {
    const context = await browser.newContext({ viewport, extraHTTPHeaders: { ...headers, accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith("data:")) outside.push(r.url());
    });
    const res = await page.goto(`${base}${path}`);
    return { page, res, outside, close: () => context.close() };
  }

  test("GET /v1/chart draws: an SVG document with its title, the recession bands and the newest value", async () => {
    const { page, res, outside, close } = await open("/v1/chart?indicator=UNRATE&region=US&start_date=2000-01-01&width=800&height=400", { width: 800, height: 400 });
    expect(res!.status()).toBe(200);
    expect(res!.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
    // Chromium parsed it as SVG (an XML error would be an error page): the root is <svg> with its accessible title.
    expect(await page.evaluate("[document.documentElement.nodeName, document.title]")).toEqual(["svg", "Unemployment Rate: United States"]);
    expect(await page.locator("path.mark-rect, g.mark-rect path").count()).toBeGreaterThanOrEqual(2);
    // The newest value, labelled (over its white halo).
    expect(await page.locator("text", { hasText: /^4.3 \(May 2026\)$/ }).count()).toBe(2);
    await page.screenshot({ path: CHART_SCREENSHOT });
    console.log(`chart screenshot: ${CHART_SCREENSHOT}`);
    expect(outside).toEqual([]);
    await close();
  });

  /** The chart GET /v1/chart answers for `query`, drawn in the browser and measured; its screenshot kept. */
  async function drawn(name: string, query: string): Promise<Drawn> {
    const res = await t.request(`/v1/chart?${query}`, { headers });
    expect({ name, status: res.status }).toEqual({ name, status: 200 });
    const d = await drawnText(browser, await res.text(), `/tmp/svc-chart-${name}.png`);
    expect({ name, outside: d.outside, overlapping: d.overlapping, cut: d.cut }).toEqual({ name, outside: [], overlapping: [], cut: [] });
    return d;
  }

  test("different units: an axis or a panel each, so neither line is flattened", async () => {
    for (const [name, query] of [["two-units", "indicator=UNRATE,PAYEMS&region=US&start_date=2015-01-01"], ["three-units", "indicator=UNRATE,PAYEMS,CPIAUCSL&region=US&start_date=2015-01-01"]]) {
      const d = await drawn(name!, query!);
      const heights = Object.values(d.lineHeights);
      expect({ name, lines: heights.length }).toEqual({ name, lines: query!.split(",").length });
      // Each line spans most of its own axis: the flattest is at least a third as tall as the tallest.
      expect(Math.min(...heights) / Math.max(...heights)).toBeGreaterThan(1 / 3);
      for (const unit of ["percent", "thousands of persons"]) expect(d.texts).toContain(unit);
    }
  });

  test("an annual series of two points is labelled with its two years; a plain chart has no empty band on its right", async () => {
    const annual = await drawn("annual-two-points", "indicator=population&region=06037&start_date=2023-01-01");
    expect(annual.texts.filter((x) => /^\d{4}$|^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/.test(x))).toEqual(["2023", "2024"]);
    const plain = await drawn("plain", "indicator=UNRATE&region=US&start_date=2000-01-01");
    expect(plain.width - plain.linesRight).toBeLessThan(20);
  });

  test("legends: ten places, each entry whole with its newest value, at desktop and narrow widths", async () => {
    for (const width of [800, 400]) {
      const d = await drawn(`legend-${width}`, `indicator=unemployment_rate&region=06,48,36,11,12,17,42,39,13,37&start_date=2020-01-01&width=${width}&height=420`);
      const all = d.texts.join(" ");
      for (const place of ["California", "Texas", "New York", "District of Columbia", "Florida", "Illinois", "Pennsylvania", "Ohio", "Georgia", "North Carolina"]) {
        expect(all).toMatch(new RegExp(`${place} [\\d.]+ \\((Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4}\\)`));
      }
    }
  });

  test("titles break between words; a title longer than two lines is said with short names", async () => {
    const wide = await drawn("title-wide", "indicator=CPILFESL&region=US&start_date=2020-01-01&width=600&height=320");
    expect(wide.bold15.join(" ")).toBe("Consumer Price Index for All Urban Consumers: All Items Less Food and Energy in U.S. City Average: United States");
    expect(wide.bold15.length).toBe(2);
    const narrow = await drawn("title-narrow", "indicator=CPILFESL&region=US&start_date=2020-01-01&width=400&height=300");
    expect(narrow.bold15).toEqual(["CPI Less Food and Energy: United States"]);
  });

  test("landing cards at phone and desktop widths: short names, axis text drawn at 10 px or more, no empty band under the chart", async () => {
    const measured = new Set<string>();
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
      const { page, close } = await open("/", viewport);
      const cards = (await page.evaluate(`[...document.querySelectorAll("article[data-example]")].map((card) => {
        const box = (sel) => card.querySelector(sel).getBoundingClientRect();
        const what = card.querySelector(".what");
        return { what: what.textContent, whatLines: Math.round(box(".what").height / parseFloat(getComputedStyle(what).lineHeight)), shown: box("img.chart").width,
          natural: card.querySelector("img.chart").naturalWidth, below: box(".meta").top - box("img.chart").bottom, src: card.querySelector("img.chart").src };
      })`)) as { what: string; whatLines: number; shown: number; natural: number; below: number; src: string }[];
      expect(cards.length).toBe(LANDING_EXAMPLES.length);
      await page.screenshot({ path: `/tmp/svc-landing-cards-${viewport.width}.png`, fullPage: true });
      console.log(`landing screenshot: /tmp/svc-landing-cards-${viewport.width}.png`);
      await close();
      for (const c of cards) {
        expect({ what: c.what, lines: c.whatLines <= 2 }).toEqual({ what: c.what, lines: true });
        // The card's chart draws its text at 12 px: shown at this width, no smaller than 10.
        expect(12 * (c.shown / c.natural)).toBeGreaterThanOrEqual(10);
        // Under the chart: its 8 px margin, then the request.
        expect(c.below).toBeLessThanOrEqual(9);
        // The same picture at every width: measured once.
        if (measured.has(c.src)) continue;
        measured.add(c.src);
        const d = await drawnText(browser, Buffer.from(c.src.slice(c.src.indexOf(",") + 1), "base64").toString(), null);
        expect({ card: c.what, outside: d.outside, overlapping: d.overlapping, cut: d.cut }).toEqual({ card: c.what, outside: [], overlapping: [], cut: [] });
      }
    }
  });

  test("a public briefing in a browser: the answer, and a chart of the series it read that decodes and draws", async () => {
    const { page, res, outside, close } = await open(`/v1/briefings/public/${slug}`);
    expect(res!.status()).toBe(200);
    expect(res!.headers()["content-type"]).toStartWith("text/html");
    expect(await page.locator("h1").textContent()).toBe(PUBLIC_BRIEFINGS[0]!.name);
    // The same read as the JSON: its answer, and a chart of each series it resolved to, in the places it read.
    const json = (await (await fetch(`${base}/v1/briefings/public/${slug}`, { headers })).json()) as any;
    const answer = json.data.run.response;
    expect(await page.locator(".answer").textContent()).toBe(answer.answer);
    const img = page.locator("figure img");
    expect(await img.count()).toBe(answer.resolved.indicators.length);
    const place = answer.resolved.regions[0].name;
    for (const alt of await img.evaluateAll((els) => els.map((e) => e.getAttribute("alt")))) expect(alt).toMatch(new RegExp(`^Line chart of .+ in (the )?${place}`));
    // Every image decoded and drawn at the page's width (a broken image has naturalWidth 0).
    const sizes = (await page.evaluate("[...document.querySelectorAll('figure img')].map((el) => [el.complete, el.naturalWidth, el.naturalHeight, Math.round(el.getBoundingClientRect().width)])")) as [boolean, number, number, number][];
    for (const size of sizes) {
      expect(size.slice(0, 3)).toEqual([true, 800, 350]);
      expect(size[3]).toBeGreaterThan(700);
    }
    await page.screenshot({ path: BRIEFING_SCREENSHOT, fullPage: true });
    console.log(`briefing screenshot: ${BRIEFING_SCREENSHOT}`);
    expect(outside).toEqual([]);
    await close();
  });
});
