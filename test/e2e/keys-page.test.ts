// The self-service page (/keys) in a real headless Chromium, as a person uses it: from the landing page's "Get a free
// key" to a key shown once (copied with the button), its first request, its usage and limits, a rotation; the plans
// say plainly in HTML when card payments are not set up, and so does /checkout/{plan} to a browser. Desktop and phone
// widths, with screenshots for a person to look at (paths printed). Only this server is ever contacted.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { makeTestApp, type TestApp } from "../support/app";

setDefaultTimeout(120_000);

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`skipped: ${CHROMIUM} is absent, so /keys was not checked in a browser (apt-get install -y chromium)`);

export const KEYS_DESKTOP_SCREENSHOT = "/tmp/svc-keys-desktop.png";
export const KEYS_PHONE_SCREENSHOT = "/tmp/svc-keys-phone.png";
export const CHECKOUT_SCREENSHOT = "/tmp/svc-checkout-unavailable.png";

describe.skipIf(!hasChromium)("/keys in headless Chromium", () => {
  let t: TestApp;
  let server: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await makeTestApp({ keyAccess: true });
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
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    await t?.close();
  });

  /** A page that records requests leaving this server, page errors and console errors (a CSP refusal is one). */
  async function open(viewport: { width: number; height: number }, mobile = false) {
    const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith("data:")) problems.push(`outside: ${r.url()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("dialog", (d) => void d.accept());
    return { page, problems, close: () => context.close() };
  }

  async function getKey(page: Page, email: string): Promise<string> {
    await page.locator("#signup-email").fill(email);
    await page.getByRole("button", { name: "Get a free key" }).click();
    await page.locator("#signup-result").waitFor({ state: "visible" });
    return (await page.locator("#signup-key").textContent())!;
  }

  test("desktop: landing -> Get a free key -> the key once, copied, its first request, usage, rotation", async () => {
    const { page, problems, close } = await open({ width: 1280, height: 900 });
    await page.goto(`${base}/`);
    await page.locator(".hero").getByRole("link", { name: "Get a free key" }).click();
    await page.waitForURL(`${base}/keys`);
    expect(await page.getByRole("heading", { name: "API keys" }).isVisible()).toBe(true);

    const key = await getKey(page, "person@example.com");
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    const curl = (await page.locator("#signup-curl").textContent())!;
    expect(curl).toBe(
      `curl '${base}/v1/observations?indicator=UNRATE&region=US&limit=12' \\\n  -H 'Authorization: Bearer ${key}'`,
    );
    await page.locator("#signup-result").getByRole("button", { name: "Copy" }).first().click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);

    // The first request works as printed (the key the page got is a real one).
    expect(
      (
        await fetch(`${base}/v1/observations?indicator=UNRATE&region=US&limit=12`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).status,
    ).toBe(200);

    // Usage and limits: the key is already in the field.
    expect(await page.locator("#status-key").inputValue()).toBe(key);
    await page.getByRole("button", { name: "Show" }).click();
    await page.locator("#status-result").waitFor({ state: "visible" });
    const facts = (await page.locator("#status-facts").innerText()).replace(/\s+/g, " ");
    expect(facts).toContain(`Key svc_live_…${key.slice(-4)}`);
    expect(facts).toContain("Plan Free");
    expect(facts).toContain("Rate limit 60 requests a minute");
    expect(facts).toMatch(/This month \(\d{4}-\d\d\) 1 request Overage none on this plan Premium data no Regions all/);
    await page.screenshot({ path: KEYS_DESKTOP_SCREENSHOT, fullPage: true });

    await page.getByRole("button", { name: "Rotate this key" }).click();
    await page.locator("#rotate-result").waitFor({ state: "visible" });
    const next = (await page.locator("#rotate-key").textContent())!;
    expect(next).toMatch(/^svc_live_/);
    expect(next).not.toBe(key);
    expect(await page.locator("#rotate-note").textContent()).toBe(
      "The previous key stopped working. Store this key now: it is shown only once.",
    );
    expect((await fetch(`${base}/v1/ping`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expect((await fetch(`${base}/v1/ping`, { headers: { authorization: `Bearer ${next}` } })).status).toBe(200);

    // The API's refusals, in the page's words.
    await page.locator("#status-key").fill("svc_live_nope");
    await page.getByRole("button", { name: "Show" }).click();
    await page.locator("#status-error").waitFor({ state: "visible" });
    expect(await page.locator("#status-error").textContent()).toStartWith("Malformed API key");
    expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
    await close();
  });

  test("phone width: the same page fits the screen; plans say plainly that card payments are not set up", async () => {
    const { page, problems, close } = await open({ width: 390, height: 844 }, true);
    const res = await page.goto(`${base}/keys`);
    expect(res!.headers()["content-security-policy"]).toContain("script-src 'sha256-");
    await getKey(page, "phone@example.com");
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    for (const plan of ["developer", "professional"]) {
      const card = page.locator(`.plan[data-plan="${plan}"]`);
      expect(await card.locator(".off").textContent()).toStartWith("Card payments are not set up on this server");
      expect(await card.getByRole("link", { name: "Subscribe" }).count()).toBe(0);
    }
    await page.screenshot({ path: KEYS_PHONE_SCREENSHOT, fullPage: true });
    expect(problems).toEqual([]);
    await close();
  });

  test("a Subscribe link followed in a browser without card payments: a page in words (503), JSON clients keep JSON", async () => {
    const { page, close } = await open({ width: 1280, height: 800 });
    const res = await page.goto(`${base}/checkout/developer`);
    expect(res!.status()).toBe(503);
    expect(res!.headers()["content-type"]).toStartWith("text/html");
    await page.getByRole("heading", { name: "The Developer plan cannot be bought online here" }).waitFor();
    await page.getByRole("link", { name: "get a free key" }).click();
    await page.waitForURL(`${base}/keys`);
    await page.goto(`${base}/checkout/developer`);
    await page.screenshot({ path: CHECKOUT_SCREENSHOT });
    await close();
    const api = await fetch(`${base}/checkout/developer`, { headers: { accept: "application/json" } });
    expect(api.status).toBe(503);
    expect(((await api.json()) as any).error.code).toBe("SERVICE_UNAVAILABLE");
  });
});
