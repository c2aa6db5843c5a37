// GET / negotiated on Accept (JSON index for API clients, the landing page for browsers) and GET /favicon.ico.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { publishedPriceList } from "../../src/pricing";
import { publicPlans } from "../../src/plans";
import { serviceIndexSchema } from "../../src/schemas/discovery";
import { LANDING_EXAMPLES, TRANSFORM_DECIMALS, examplePath } from "../../src/docs/landing-data";
import { renderLandingPage } from "../../src/docs/landing";
import { planUnavailableNotice } from "../../src/docs/keys-page";
import { stripeProvider } from "../../src/billing/stripe";
import { serviceIndex } from "../../src/docs/discovery";
import { FAVICON_CACHE_CONTROL } from "../../src/docs/favicon";
import { DISCOVERY_CACHE_CONTROL } from "../../src/routes/discovery";
import { makeTestApp, type TestApp } from "../support/app";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

/** What Chromium and Firefox send for a page navigation. */
export const CHROMIUM_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
const FIREFOX_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The price list the contract publishes: the surfaces of the registered paid routes. */
const published = () => publishedPriceList(t.app.registry.paidSurfaces());
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const get = (path: string, accept?: string) =>
  t.request(path, accept === undefined ? undefined : { headers: { accept } });
const varyOf = (res: Response) => (res.headers.get("vary") ?? "").split(",").map((v) => v.trim().toLowerCase());

/** Unescapes the five entities the page's escaping produces. */
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

describe("GET / for API clients", () => {
  test("no Accept, */* and application/json get the JSON index, with Vary: Accept", async () => {
    const bodies: unknown[] = [];
    for (const accept of [
      undefined,
      "*/*",
      "application/json",
      "application/json, text/html",
      "text/html;q=0.5, application/json",
      "application/*",
    ]) {
      const res = await get("/", accept);
      expect({ accept, status: res.status, type: res.headers.get("content-type") }).toEqual({
        accept,
        status: 200,
        type: "application/json",
      });
      expect(varyOf(res)).toContain("accept");
      expect(res.headers.get("cache-control")).toBe(DISCOVERY_CACHE_CONTROL);
      bodies.push(serviceIndexSchema.parse(await res.json()));
    }
    for (const b of bodies) expect(b).toEqual(serviceIndex("http://localhost", t.deps.version, published()));
  });
});

describe("GET / for browsers", () => {
  let page: string;
  beforeAll(async () => {
    const res = await get("/", CHROMIUM_ACCEPT);
    expect(res.status).toBe(200);
    page = await res.text();
  });

  test("a browser's Accept (or text/html preferred) gets the HTML page, with Vary: Accept", async () => {
    for (const accept of [
      CHROMIUM_ACCEPT,
      FIREFOX_ACCEPT,
      "text/html",
      "text/html, application/json",
      "application/json;q=0.5, text/html",
      "text/*",
    ]) {
      const res = await get("/", accept);
      expect({ accept, status: res.status, type: res.headers.get("content-type") }).toEqual({
        accept,
        status: 200,
        type: "text/html; charset=UTF-8",
      });
      expect(varyOf(res)).toContain("accept");
      expect(res.headers.get("cache-control")).toBe(DISCOVERY_CACHE_CONTROL);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      const html = await res.text();
      expect(html.startsWith("<!doctype html>")).toBe(true);
    }
  });

  test("links the docs, the contract, the llms files, the changelog, MCP and signup", () => {
    const index = serviceIndex("http://localhost", t.deps.version, published());
    for (const url of [
      index.docs,
      index.openapi,
      index.llms,
      index.llms_full,
      index.changelog,
      index.mcp,
      index.health,
    ]) {
      expect(page).toContain(`href="${url}"`);
    }
    expect(page).toContain("/v1/signup");
    expect(page).toContain('href="http://localhost/favicon.ico"');
  });

  test("without card payments, a paid plan says what /keys says instead of leading to a checkout that cannot start", async () => {
    const index = serviceIndex("http://localhost", t.deps.version, published());
    for (const url of Object.values(index.checkout_plans)) expect(page).not.toContain(`href="${url}"`);
    expect(page).not.toContain(">Subscribe<");
    for (const plan of ["Developer", "Professional"])
      expect(page).toContain(`<p class="off">${planUnavailableNotice(plan)}</p>`);
    const keys = await (await t.request("/keys")).text();
    for (const plan of ["Developer", "Professional"]) expect(keys).toContain(planUnavailableNotice(plan));
  });

  test("with card payments set up, each paid plan has its Subscribe link", async () => {
    // Never called: the page only asks which plans the provider sells.
    const billing = stripeProvider({
      secretKey: "sk_test_landing",
      webhookSecret: "whsec_landing",
      prices: { developer: "price_dev", professional: "price_pro" },
    });
    // The same database as the other app's (closed with it, after every test).
    const sells = await makeTestApp({ database: t.database, billing });
    const html = await (await sells.request("/", { headers: { accept: CHROMIUM_ACCEPT } })).text();
    const index = serviceIndex("http://localhost", sells.deps.version, published());
    for (const url of Object.values(index.checkout_plans))
      expect(html).toContain(`<a class="btn" href="${url}">Subscribe</a>`);
    expect(html).not.toContain('<p class="off">');
  });

  test("self-contained: no script, no stylesheet or image from elsewhere", () => {
    expect(page).not.toContain("<script");
    expect(page).not.toMatch(/<link[^>]+rel="stylesheet"/);
    expect(page).not.toMatch(/\ssrc="(?!data:image\/svg\+xml;base64,)/);
    expect(page).toContain("<style>");
  });

  test("each card shows GET /v1/chart's picture of its series, described by the chart's own <desc>", () => {
    const charts = [...page.matchAll(/<img class="chart" src="data:image\/svg\+xml;base64,([^"]+)" alt="([^"]*)"/g)];
    expect(charts.length).toBe(LANDING_EXAMPLES.length);
    for (const [, data, alt] of charts) {
      const svg = Buffer.from(data!, "base64").toString();
      expect(svg).toStartWith("<svg ");
      expect(unescape(alt!)).toStartWith("Line chart of ");
      expect(svg).toContain(`<desc id="chart-desc">Line chart of `);
    }
  });

  test("every live example is the value its request answers (latest, or a transform's newest row), and the response shown is its body", async () => {
    const cards = [
      ...page.matchAll(
        /data-path="([^"]*)" data-indicator="([^"]*)" data-region="([^"]*)" data-value="([^"]*)" data-stale="([^"]*)"/g,
      ),
    ];
    expect(cards.map((m) => unescape(m[1]))).toEqual(LANDING_EXAMPLES.map(examplePath));
    for (const [, path, , , value, stale] of cards) {
      const { status, body } = await t.getJson(unescape(path));
      expect(status).toBe(200);
      const row = Array.isArray(body.data) ? body.data[0] : body.data;
      expect(Number(value)).toBe(row.value);
      expect(stale).toBe(String(body.meta.freshness.stale));
      const digits = path.includes("transform")
        ? { minimumFractionDigits: TRANSFORM_DECIMALS, maximumFractionDigits: TRANSFORM_DECIMALS }
        : { maximumFractionDigits: 6 };
      expect(page).toContain(`<p class="value">${row.value.toLocaleString("en-US", digits)}</p>`);
    }
    const shown = JSON.parse(unescape(page.match(/<pre data-response>([\s\S]*?)<\/pre>/)![1]));
    expect(shown).toEqual((await t.getJson(examplePath(LANDING_EXAMPLES[0]))).body);
  });

  test("the headline series: the US unemployment rate, CPI's 12-month change, Texas's rate and Los Angeles County's population", () => {
    expect(LANDING_EXAMPLES.map(examplePath)).toEqual([
      "/v1/observations/latest?indicator=UNRATE&region=US",
      "/v1/observations?indicator=CPIAUCSL&region=US&transform=yoy&limit=1",
      "/v1/observations/latest?indicator=unemployment_rate&region=48",
      "/v1/observations/latest?indicator=population&region=06037",
    ]);
    // Headed by short names; the catalog's full name is the heading's title.
    expect(page).toContain(
      `<p class="what" title="Consumer Price Index for All Urban Consumers: All Items in U.S. City Average: 12-month change">Consumer Price Index: 12-month change</p>`,
    );
    expect(page).toContain(
      `<p class="what" title="Unemployment Rate by State (LAUS, seasonally adjusted)">Unemployment Rate</p>`,
    );
  });

  test("region and catalog counts come from the database", async () => {
    const counts = async (type: string) => (await t.getJson(`/v1/regions?type=${type}`)).body.data.length as number;
    const indicators = (await t.getJson("/v1/indicators?limit=0")).body.meta.total as number;
    const sources = (await t.getJson("/v1/sources")).body.data.length as number;
    const stats = [...page.matchAll(/<div><dt>([\d,]+)<\/dt><dd>([^<]+)<\/dd><\/div>/g)].map((m) => [
      Number(m[1].replace(/,/g, "")),
      m[2],
    ]);
    expect(stats).toEqual([
      [await counts("country"), "countries"],
      [await counts("state"), "US states and DC"],
      [await counts("county"), "US counties"],
      [indicators, "indicators"],
      [sources, "sources"],
    ]);
  });

  test("prices and plans are the price list's and the plan table's", () => {
    // Only surfaces of registered paid routes are priced (the contract's published list).
    expect(page).toContain('data-surface="ask"');
    for (const [surface, usd] of Object.entries(published())) {
      expect(page).toMatch(
        new RegExp(`<tr data-surface="${surface}"><td>.*?</td><td class="usd">\\$${usd.replace(".", "\\.")}</td></tr>`),
      );
    }
    const plans = publicPlans("http://localhost");
    const featured = plans.find((p) => p.checkout !== null)!.id;
    for (const plan of plans) {
      expect(page).toContain(`<div class="plan${plan.id === featured ? " featured" : ""}" data-plan="${plan.id}">`);
      expect(page).toContain(
        `<p class="price" data-usd="${plan.price_usd_per_month}">$${plan.price_usd_per_month} <span>/ month</span></p>`,
      );
    }
  });

  test("what comes from configuration is escaped", async () => {
    const hostile = `https://api.example.com/x"><script>alert(1)</script>`;
    const pub = await makeTestApp({ database: t.database, config: { ...t.deps.config, publicBaseUrl: hostile } });
    const html = await (await pub.request("/", { headers: { accept: "text/html" } })).text();
    expect(html).not.toContain("<script>");
    expect(html).toContain(`href="https://api.example.com/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/docs"`);
  });

  test("what comes from the database is escaped", () => {
    const index = serviceIndex("https://api.example.com", "1", published());
    const latest = {
      indicator: "<b>X",
      region: "US",
      period_start: "2020-01-01",
      period_end: null,
      period_type: "monthly",
      value: 1,
      revision: 1,
      is_preliminary: false,
      source_updated_at: null,
      unit: "<i>u</i>",
    };
    const html = renderLandingPage(
      index,
      "https://api.example.com",
      {
        regions: { country: 1 },
        indicators: 1,
        sources: 1,
        examples: [
          {
            path: "/v1/observations/latest?indicator=%3Cb%3EX&region=US",
            name: `<img src=x onerror="alert(1)">`,
            fullName: `"><script>`,
            regionLabel: "A & B",
            regionType: "country",
            source: "<s>",
            latest,
            body: {
              data: latest,
              meta: {
                indicator: "<b>X",
                region: "US",
                unit: null,
                total: 1,
                limit: 1,
                offset: 0,
                resolved_region: { code: "US", name: "<u>United States", type: "country" },
              },
            },
            chart: null,
          },
        ],
      },
      { free: true },
    );
    for (const raw of ["<img", "<b>X", "<i>u</i>", "<s>", "A & B", "<script>"]) expect(html).not.toContain(raw);
    expect(html).toContain(`title="&quot;&gt;&lt;script&gt;"`);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("A &amp; B");
  });

  test("a database that does not answer leaves the page up, without its live numbers", async () => {
    const down = await makeTestApp();
    await down.close();
    const res = await down.request("/", { headers: { accept: CHROMIUM_ACCEPT } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Live examples appear here once this server holds data.");
    expect(html).not.toContain("data-example");
    expect(html).toContain('href="http://localhost/docs"');
  });
});

describe("GET /favicon.ico", () => {
  test("a 16 and 32 pixel icon, served as image/x-icon", async () => {
    const res = await t.request("/favicon.ico");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    expect(res.headers.get("cache-control")).toBe(FAVICON_CACHE_CONTROL);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const view = new DataView(bytes.buffer);
    expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 2]);
    const entries = [0, 1].map((k) => {
      const at = 6 + 16 * k;
      return {
        size: bytes[at],
        bits: view.getUint16(at + 6, true),
        length: view.getUint32(at + 8, true),
        offset: view.getUint32(at + 12, true),
      };
    });
    expect(entries.map((e) => [e.size, e.bits])).toEqual([
      [16, 32],
      [32, 32],
    ]);
    expect(entries[0].offset).toBe(6 + 32);
    expect(entries[1].offset).toBe(entries[0].offset + entries[0].length);
    expect(entries[1].offset + entries[1].length).toBe(bytes.length);
    // Each image is a BMP header for its size (height doubled for the mask) and not blank.
    for (const e of entries) {
      expect([
        view.getUint32(e.offset, true),
        view.getInt32(e.offset + 4, true),
        view.getInt32(e.offset + 8, true),
      ]).toEqual([40, e.size, e.size * 2]);
      const alpha = bytes.subarray(e.offset + 40, e.offset + 40 + e.size * e.size * 4).filter((_, k) => k % 4 === 3);
      expect(alpha.some((a) => a === 255)).toBe(true);
    }
  });
});

describe("the contract", () => {
  test("documents the HTML alternative of /", async () => {
    const doc = (await (await t.request("/openapi.json")).json()) as any;
    expect(Object.keys(doc.paths["/"].get.responses["200"].content)).toEqual(["application/json", "text/html"]);
    expect(doc.paths["/"].get.description).toContain("Vary: Accept");
    expect(doc.paths["/favicon.ico"]).toBeUndefined();
  });
});
