// The IRS SOI fetcher against a real HTTP server on loopback that serves the raw IRS file (the San Francisco rows of
// countyinflow1415.csv, original IRS header) at the path the IRS publishes it under, and answers like a file server
// otherwise (404 for a year pair it does not have, 500 on demand, a truncated file).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { loadConfig } from "../../src/config";
import { UpstreamError, createIrsSoiClient } from "../../src/upstream/irs-soi";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

const rawPath = sharedDataPath("migration-flows", "irs_06075_sf_countyinflow1415_raw.csv");
if (!rawPath) console.warn(sharedDataMissingMessage("migration-flows"));

let server: ReturnType<typeof Bun.serve>;
const seen: { method: string; path: string }[] = [];
let base: string;

beforeAll(() => {
  const raw = rawPath ? readFileSync(rawPath) : null;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      seen.push({ method: req.method, path });
      if (path === "/pub/irs-soi/countyinflow1415.csv" && raw)
        return new Response(raw, { headers: { "content-type": "text/csv" } });
      if (path === "/pub/irs-soi/countyoutflow1213.csv") return new Response("boom", { status: 500 });
      if (path === "/pub/irs-soi/countyinflow1213.csv")
        return new Response("y2_statefips,y2_countyfips,y1_statefips\n06,075,06\n");
      return new Response("<html>Page Not Found</html>", { status: 404, headers: { "content-type": "text/html" } });
    },
  });
  base = `http://127.0.0.1:${server.port}/pub/irs-soi/`;
});
afterAll(() => server.stop(true));

describe("IRS SOI county migration files", () => {
  test("the configured base URL (default the IRS folder) and the IRS file names", () => {
    expect(loadConfig({}).upstream.irsSoi.baseUrl).toBe("https://www.irs.gov/pub/irs-soi/");
    expect(loadConfig({ IRS_SOI_BASE_URL: "http://mirror.example/irs" }).upstream.irsSoi.baseUrl).toBe(
      "http://mirror.example/irs/",
    );
    const client = createIrsSoiClient({ baseUrl: loadConfig({}).upstream.irsSoi.baseUrl });
    expect(client.fileUrl("inflow", "1415")).toBe("https://www.irs.gov/pub/irs-soi/countyinflow1415.csv");
    expect(client.fileUrl("outflow", "2122")).toBe("https://www.irs.gov/pub/irs-soi/countyoutflow2122.csv");
    expect(() => client.fileUrl("inflow", "1416")).toThrow("not an IRS SOI year pair");
  });

  test.if(!!rawPath)(
    "fetches countyinflow1415.csv with one GET and parses it: 132 county edges into San Francisco, no pseudo-area",
    async () => {
      seen.length = 0;
      const file = await createIrsSoiClient({ baseUrl: base.replace(/\/$/, "") }).countyFlows("inflow", "1415");
      expect(seen).toEqual([{ method: "GET", path: "/pub/irs-soi/countyinflow1415.csv" }]);
      expect(file.url).toBe(`${base}countyinflow1415.csv`);
      expect(file.skipped).toEqual({ pseudo: 14, nonMigrants: 1, repeated: 0 });
      expect(file.flows.length).toBe(132 * 3);
      expect(
        file.flows.every(
          (f) => f.destination === "06075" && f.origin !== "06075" && !/^(5[789]|9[678])/.test(f.origin),
        ),
      ).toBe(true);
      const sanMateo = file.flows
        .filter((f) => f.origin === "06081")
        .map((f) => [f.measure, f.value, f.periodStart, f.periodEnd]);
      expect(sanMateo).toEqual([
        ["returns", 3220, "2014-01-01", "2015-12-31"],
        ["exemptions", 4922, "2014-01-01", "2015-12-31"],
        ["agi", 324346, "2014-01-01", "2015-12-31"],
      ]);
    },
  );

  test("a year pair the server does not have, a server error, no server, a malformed file: UpstreamError with the URL and status", async () => {
    const client = createIrsSoiClient({ baseUrl: base });
    const err = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        if (e instanceof UpstreamError) return { message: e.message, url: e.url, status: e.status };
        throw e;
      }
      throw new Error("expected an UpstreamError");
    };
    expect(await err(client.countyFlows("outflow", "1415"))).toEqual({
      message: `IRS SOI: ${base}countyoutflow1415.csv answered 404 (no file for this year pair)`,
      url: `${base}countyoutflow1415.csv`,
      status: 404,
    });
    expect((await err(client.countyFlows("outflow", "1213"))).status).toBe(500);
    expect((await err(client.countyFlows("inflow", "1213"))).message).toBe(
      `IRS SOI: ${base}countyinflow1213.csv: line 1: missing columns y1_countyfips, n1, n2, agi`,
    );
    // A port nobody listens on (the server's, once stopped, would be reused): the connection is refused.
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const down = await err(createIrsSoiClient({ baseUrl: `http://127.0.0.1:${port}/` }).countyFlows("inflow", "1415"));
    expect(down.status).toBeNull();
    expect(down.message).toStartWith(`IRS SOI: no answer from http://127.0.0.1:${port}/countyinflow1415.csv`);
  });
});
