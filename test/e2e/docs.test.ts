// /docs and the landing page at / in a real headless Chromium: the Scalar reference must render our operations from
// /openapi.json, and / the landing page with live values, using only what this server serves (the machine running
// it may have no internet).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { listOperations } from "../../src/contract/operations";
import { LANDING_EXAMPLES, TRANSFORM_DECIMALS, examplePath } from "../../src/docs/landing-data";
import { publishedPriceList } from "../../src/pricing";
import { publicPlans } from "../../src/plans";
import { SERVICE_NAME } from "../../src/version";
import { makeTestApp, type TestApp } from "../support/app";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(
    `skipped: ${CHROMIUM} is absent, so /docs and / were not checked in a browser (apt-get install -y chromium)`,
  );

export const SCREENSHOT = "/tmp/svc-docs-reference.png";
export const LANDING_SCREENSHOT = "/tmp/svc-landing.png";

describe.skipIf(!hasChromium)("/docs and / in headless Chromium", () => {
  let t: TestApp;
  let server: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await makeTestApp();
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch });
    base = `http://127.0.0.1:${server.port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    // The first PGlite snapshot of the process plus a browser start outlast bun's default hook timeout.
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    await t?.close();
  });

  test("renders the API title and the operations of the first group, with no request leaving this server", async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as any;
    const firstTag: string = doc.tags[0].name;
    const group = listOperations(doc).filter((e) => e.operation.tags?.includes(firstTag));
    const summaries = group.map((e) => e.operation.summary as string);
    expect(summaries.length).toBeGreaterThan(0);

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const outside: string[] = [];
    const failed: string[] = [];
    const pageErrors: string[] = [];
    page.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith(base) && !url.startsWith("data:") && !url.startsWith("blob:")) outside.push(url);
    });
    page.on("requestfailed", (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on("pageerror", (e) => pageErrors.push(e.message));

    const res = await page.goto(`${base}/docs`);
    expect(res?.status()).toBe(200);
    await page.getByRole("heading", { name: SERVICE_NAME }).first().waitFor({ timeout: 30_000 });
    for (const summary of summaries) {
      await page.getByText(summary, { exact: true }).first().waitFor({ timeout: 10_000 });
    }
    // Open the first operation: its section shows the path and the parameters from the contract.
    await page.getByText(summaries[0], { exact: true }).first().click();
    await page.getByText(group[0].path, { exact: true }).first().waitFor({ timeout: 10_000 });
    for (const p of (group[0].operation.parameters ?? []) as { name: string }[]) {
      await page.getByText(p.name, { exact: true }).first().waitFor({ timeout: 10_000 });
    }
    await page.waitForTimeout(300); // let the scroll settle for the screenshot a human looks at
    await page.screenshot({ path: SCREENSHOT });

    expect(outside).toEqual([]);
    expect(failed).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 60_000);

  test("/ is the landing page: live values equal to the API's, links to the docs, the contract, llms.txt and MCP, the price list's prices", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const outside: string[] = [];
    const pageErrors: string[] = [];
    page.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith(base) && !url.startsWith("data:")) outside.push(url);
    });
    page.on("pageerror", (e) => pageErrors.push(e.message));

    // A navigation: Chromium sends its own Accept (text/html first).
    const res = await page.goto(`${base}/`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-type"]).toBe("text/html; charset=UTF-8");
    expect(res?.headers()["vary"]?.toLowerCase()).toContain("accept");
    expect(await page.title()).toBe(SERVICE_NAME);
    await page.getByRole("heading", { name: "Live from this server" }).waitFor({ timeout: 10_000 });

    // Each card shows what its request answers (this test app admits paid reads): the latest observation, or the
    // newest row of a transform.
    const cards = page.locator("article[data-example]");
    expect(await cards.count()).toBe(LANDING_EXAMPLES.length);
    for (const [k, e] of LANDING_EXAMPLES.entries()) {
      const api = (await (await fetch(`${base}${examplePath(e)}`)).json()) as any;
      const row = Array.isArray(api.data) ? api.data[0] : api.data;
      const shown = (await cards.nth(k).locator(".value").innerText()).replace(/,/g, "");
      // A transform's change is shown rounded (TRANSFORM_DECIMALS); a published value as published.
      const expected = e.transform ? Number(row.value.toFixed(TRANSFORM_DECIMALS)) : row.value;
      expect({ series: `${e.indicator}@${e.region}`, value: Number(shown) }).toEqual({
        series: `${e.indicator}@${e.region}`,
        value: expected,
      });
      expect(await cards.nth(k).locator(".unit").innerText()).toContain(row.unit);
      expect(await cards.nth(k).locator(".stale").count()).toBe(api.meta.freshness.stale ? 1 : 0);
    }

    for (const path of ["/docs", "/openapi.json", "/llms.txt", "/llms-full.txt", "/changelog.md", "/api/mcp"]) {
      expect({ path, links: (await page.locator(`a[href="${base}${path}"]`).count()) > 0 }).toEqual({
        path,
        links: true,
      });
    }
    // Without card payments set up, no plan leads to a checkout that cannot start (test/routes/landing.test.ts has both).
    expect(await page.locator(`a[href^="${base}/checkout"]`).count()).toBe(0);
    expect(await page.locator("#free-key").innerText()).toContain("/v1/signup");

    for (const [surface, usd] of Object.entries(publishedPriceList(t.app.registry.paidSurfaces()))) {
      expect({ surface, shown: await page.locator(`tr[data-surface="${surface}"] td.usd`).innerText() }).toEqual({
        surface,
        shown: `$${usd}`,
      });
    }
    for (const plan of publicPlans(base)) {
      expect({ plan: plan.id, shown: await page.locator(`[data-plan="${plan.id}"] .price`).innerText() }).toEqual({
        plan: plan.id,
        shown: `$${plan.price_usd_per_month} / month`,
      });
    }

    // /favicon.ico is an image the browser decodes.
    const icon = await page.evaluate(async (src) => {
      const img = new (globalThis as any).Image();
      img.src = src;
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    }, `${base}/favicon.ico`);
    expect([16, 32]).toContain(icon[0]);
    expect(icon[1]).toBe(icon[0]);

    await page.screenshot({ path: LANDING_SCREENSHOT, fullPage: true });
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 60_000);

  test("a paid operation shows Auth Required, naming the key schemes and both payment rails (never Auth Optional)", async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as any;
    const paid = listOperations(doc).find((e) => e.operation["x-price-usd"] !== undefined)!;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Scalar's address of an operation: its group (collapsed on load, except the first) opens with it.
    await page.goto(
      `${base}/docs#tag/${paid.operation.tags[0].toLowerCase()}/${paid.method.toUpperCase()}${paid.path}`,
    );
    const section = page.locator("section", {
      has: page.getByRole("heading", { name: paid.operation.summary, exact: true }),
    });
    const badge = section.locator(".security-requirement-badge").first();
    await badge.waitFor({ timeout: 10_000 });
    expect(await badge.textContent()).toBe("Auth Required");
    await badge.hover();
    const details = page.getByRole("dialog", { name: "Authentication required" });
    await details.waitFor({ timeout: 10_000 });
    for (const scheme of ["ApiKeyBearer", "ApiKeyHeader", "X402Payment", "L402"])
      await details.getByText(scheme, { exact: true }).waitFor({ timeout: 10_000 });
    expect(await section.getByText("Auth Optional").count()).toBe(0);
    await page.close();
  }, 60_000);
});
