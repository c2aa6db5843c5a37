// Charts in a real headless Chromium, as a person sees them: GET /v1/chart's SVG (one US series over recession bands)
// and a public briefing read by a browser (Accept: text/html), a page with a chart of the series its answer read. The
// images must decode and draw at their size; screenshots are kept for a person to look at (paths printed). The
// briefing's run is the seeded database's (its first run, made at seed time by the ask service).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { PUBLIC_BRIEFINGS } from "../../db/seed/briefings";
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
      expect(size.slice(0, 3)).toEqual([true, 760, 340]);
      expect(size[3]).toBeGreaterThan(700);
    }
    await page.screenshot({ path: BRIEFING_SCREENSHOT, fullPage: true });
    console.log(`briefing screenshot: ${BRIEFING_SCREENSHOT}`);
    expect(outside).toEqual([]);
    await close();
  });
});
