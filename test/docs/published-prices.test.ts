// Only routes that exist are priced anywhere: the `/` index, the OpenAPI description, llms.txt, llms-full.txt and
// the README publish exactly the surfaces the registered paid routes use (app.registry.paidRoutes()), from src/pricing.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRoute, z } from "@hono/zod-openapi";
import { jsonAnswer, registerPaid, serve } from "../../src/http/paid";
import { PRICES_MICRO_USD, publishedPriceList, type PriceList } from "../../src/pricing";
import { priceTableMarkdown } from "../../src/docs/service-text";
import { makeTestApp, type TestApp } from "../support/app";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
let published: PriceList;
beforeAll(async () => {
  t = await makeTestApp();
  published = publishedPriceList(t.app.registry.paidSurfaces());
}, 120_000);
afterAll(() => t.close());

/** The rows of a markdown price table as priceTableMarkdown writes them: `| label | \`key\` | usd |`. */
function priceRows(markdown: string): string[] {
  return markdown.split("\n").filter((l) => /^\| [^|]+ \| `[a-z_]+` \| \d+\.\d+ \|$/.test(l));
}

describe("the published price list", () => {
  test("is the surfaces of the registered paid routes, plus the svc: price of per-series surfaces and the free catalog", () => {
    const surfaces = t.app.registry.paidRoutes().flatMap((r) => r.surfaces);
    expect(surfaces.length).toBeGreaterThan(0);
    expect(
      Object.keys(published)
        .filter((k) => k !== "catalog" && k !== "derived_series")
        .sort(),
    ).toEqual([...new Set(surfaces)].sort());
    expect(published.catalog).toBe("0.00");
    for (const [k, usd] of Object.entries(published))
      if (k !== "catalog") expect(Number(usd) * 1_000_000).toBe(PRICES_MICRO_USD[k as keyof typeof PRICES_MICRO_USD]);
  });

  test("the / index, the OpenAPI description, llms.txt and llms-full.txt publish it and nothing else", async () => {
    expect(((await (await t.request("/")).json()) as any).pricing.per_request).toEqual(published);
    const doc = (await (await t.request("/openapi.json")).json()) as any;
    expect(priceRows(doc.info.description)).toEqual(priceRows(priceTableMarkdown(published)));
    expect(priceRows(await (await t.request("/llms-full.txt")).text())).toEqual(
      priceRows(priceTableMarkdown(published)),
    );
    const compact = await (await t.request("/llms.txt")).text();
    const lines = compact
      .slice(compact.indexOf("## Prices per request"), compact.indexOf("## Plans"))
      .split("\n")
      .filter((l) => l.startsWith("- "));
    expect(lines.length).toBe(Object.keys(published).length);
    // Every priced operation is priced at a published surface.
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        if (op?.["x-price-usd"] !== undefined)
          for (const s of [op["x-price-surface"]].flat()) expect(published).toHaveProperty(s);
      }
    }
  });

  test("the README's price table lists the live surfaces, as the service publishes them", () => {
    const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
    expect(priceRows(readme)).toEqual(priceRows(priceTableMarkdown(published)));
  });

  test("a route added with a new surface publishes it; a route whose gate and contract disagree is refused", async () => {
    const app = await makeTestApp();
    const resolve = async () => serve({ indicator: null, region: null, resource: "/v1/panel", reads: [] });
    const answer = async () => jsonAnswer({ dates: [] });
    const panel = (declared?: string) =>
      createRoute({
        method: "get",
        path: "/v1/panel-probe",
        operationId: "get_panel_probe",
        responses: {
          200: {
            description: "Panel",
            content: { "application/json": { schema: z.object({ dates: z.array(z.string()) }) } },
          },
        },
        ...(declared ? { "x-price-surface": declared } : {}),
      });
    expect(() =>
      registerPaid(app.app, app.deps, panel("signals"), { surface: "panel", reads: "all", resolve, answer }),
    ).toThrow("GET /v1/panel-probe is priced at panel but declares x-price-surface signals");
    expect(() =>
      registerPaid(app.app, app.deps, panel(), { surface: () => "panel", reads: "all", resolve, answer }),
    ).toThrow("declare them in x-price-surface");
    registerPaid(app.app, app.deps, panel("panel"), { surface: "panel", reads: "all", resolve, answer });
    expect(((await (await app.request("/")).json()) as any).pricing.per_request).toEqual({
      ...published,
      panel: "0.05",
    });
    await app.close();
  });
});
