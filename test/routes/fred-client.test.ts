// node-fred (npm, 2.1.10), run unmodified against the app: its requests keep FRED's base URL and reach the app
// through test/support/fred-tunnel.ts. It reads observations (with units and frequency), series, search results and
// vintage dates, in JSON and XML. Differences found are in the README ("Using FRED clients").
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import Fred from "node-fred";
import { makeTestApp, type TestApp } from "../support/app";
import { openFredTunnel } from "../support/fred-tunnel";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

let t: TestApp;
let key: string;
let tunnel: Awaited<ReturnType<typeof openFredTunnel>>;
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
  t.clock.set("2026-11-29T12:00:00Z");
  key = (await testKey(t)).key;
  tunnel = await openFredTunnel((req) => t.app.fetch(req));
}, 120_000);
afterAll(async () => {
  tunnel.stop();
  await t.close();
});

describe("node-fred against the service", () => {
  test("observations: levels, and pc1 of quarterly averages, in JSON", async () => {
    const fred = new Fred(key, "json");
    const lin = (await fred.series.getObservationsForSeries("UNRATE", {
      observation_start: "2025-01-01",
      observation_end: "2025-03-01",
    })) as any;
    expect(lin.observations.map((o: any) => o.date)).toEqual(["2025-01-01", "2025-02-01", "2025-03-01"]);
    expect(lin.observations.every((o: any) => /^\d+\.\d$/.test(o.value))).toBe(true);
    const pc1 = (await fred.series.getObservationsForSeries("GDPC1", {
      units: "pc1",
      frequency: "a",
      observation_start: "2024-01-01",
      observation_end: "2024-01-01",
    })) as any;
    expect(pc1.units).toBe("pc1");
    expect(pc1.observations[0].value).toMatch(/^-?\d+\.\d{5}$/);
    expect(tunnel.requests.some((r) => r.startsWith("/fred/series/observations?") && r.includes("units=pc1"))).toBe(
      true,
    );
  });

  test("series, search and vintage dates", async () => {
    const fred = new Fred(key, "json");
    const series = (await fred.series.getSeries("CPIAUCSL")) as any;
    expect(series.seriess[0]).toMatchObject({ id: "CPIAUCSL", frequency_short: "M" });
    const found = (await fred.series.getSeriesThatMatchesSearch("unemployment", { limit: 100 })) as any;
    expect(found.seriess.length).toBe(100);
    expect(found.count).toBeGreaterThan(100);
    expect(found.seriess[0].id).toBe("UNRATE"); // as /v1/indicators?search=unemployment ranks it
    const byId = (await fred.series.getSeriesThatMatchesSearch("UNRAT*", { search_type: "series_id" })) as any;
    expect(byId.seriess.map((s: any) => s.id)).toEqual(["UNRATE"]);
    // In node-fred's code but missing from its type declarations.
    const vintages = (await (fred.series as any).getVintageDatesSeries("UNRATE")) as any;
    expect(vintages.vintage_dates[0]).toBe("2026-01-02");
  });

  test("XML, and FRED's error for a series that does not exist", async () => {
    const xml = new Fred(key, "xml");
    const body = (await xml.series.getObservationsForSeries("UNRATE", { limit: 2 })) as unknown as string;
    expect(body).toContain('<observations realtime_start="2026-11-29"');
    const error = await new Fred(key, "json").series.getSeries("NOSUCHSERIES").catch((e: unknown) => e);
    expect(error).toEqual({ error_code: 400, error_message: "Bad Request.  The series does not exist." });
  });
});
