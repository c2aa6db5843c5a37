// GET /v1/flows on the real app over the seeded flows (db/seed/flows.ts: the real ACS 2019 state matrix, IRS SOI flows
// into every county 2014-15 and IRS SOI flows in and out of San Francisco 2004-2015; a test database keeps the flows
// touching its counties, test/support/db.ts, which include every flow in or out of San Francisco), with the key rail
// and both payment rails. Expected figures were read from the files by hand (and with a short script over the CSV):
// see each test.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeBase64Json } from "payments";
import { flowsResponseSchema } from "../../src/schemas/flows";
import { testKey } from "../support/keys";
import { APERTURE_CHALLENGE, makePaymentsApp, offlineX402 } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";
let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await makePaymentsApp({
    testRoute: false,
    x402: offlineX402(PAY_TO),
  });
  ({ headers } = await testKey(t, { plan: "professional" }));
}, 120_000);
afterAll(() => t?.close());

const get = async (qs: string, h: Record<string, string> = headers) => {
  const res = await t.request(`/v1/flows?${qs}`, { headers: h });
  return { res, status: res.status, body: (await res.json()) as any };
};
const PSEUDO = /^(5[789]|9[678])/;

async function expectError(qs: string, status: number, parameter: string, contains: string) {
  const r = await get(qs);
  expect({ status: r.status, parameter: r.body.error?.details?.parameter }).toEqual({ status, parameter });
  expect(r.body.error.message).toContain(contains);
  return r.body.error;
}

describe("200", () => {
  test("top destinations of San Francisco: the first measure held (returns), the latest period (1415), largest first", async () => {
    const r = await get("origin=06075");
    expect(r.status).toBe(200);
    flowsResponseSchema.parse(r.body);
    // 1415 outflow rows of 06075 in the file: 86 county edges; Alameda 4,322, San Mateo 3,839, Contra Costa 1,884.
    expect(r.body.meta).toEqual({
      origin: { code: "06075", name: "San Francisco County" },
      destination: null,
      measure: "returns",
      unit: "returns",
      period: { start: "2014-01-01", end: "2015-12-31" },
      total: 86,
      limit: 100,
      sources: [{ source: "irs-soi", dataset: "irs-soi-county", name: "IRS SOI county-to-county migration data" }],
    });
    expect(r.body.data.length).toBe(86);
    expect(r.body.data[0]).toEqual({
      origin: { code: "06075", name: "San Francisco County" },
      destination: { code: "06001", name: "Alameda County" },
      measure: "returns",
      period_start: "2014-01-01",
      period_end: "2015-12-31",
      value: 4322,
      moe: null,
      unit: "returns",
      source: "irs-soi",
      dataset: "irs-soi-county",
    });
    expect(r.body.data.slice(1, 3).map((f: any) => [f.destination.code, f.value])).toEqual([
      ["06081", 3839],
      ["06013", 1884],
    ]);
    const values = r.body.data.map((f: any) => f.value);
    expect(values).toEqual([...values].sort((a: number, b: number) => b - a));
    expect(r.body.data.at(-1)).toMatchObject({ destination: { code: "12095" }, value: 19 });
  });

  test("into a destination, by what people type; the origin's rows", async () => {
    const r = await get("destination=san-francisco-county-ca&limit=3");
    expect(r.body.meta).toMatchObject({ destination: { code: "06075" }, total: 129, limit: 3 });
    // 132 inflow edges in 1415 less 3 from Connecticut's old counties, which are no longer regions.
    expect(r.body.data.map((f: any) => [f.origin.code, f.value])).toEqual([
      ["06081", 3220],
      ["06001", 2572],
      ["06085", 2406],
    ]);
  });

  test("both ends: the one edge; a state origin reads the ACS matrix (movers)", async () => {
    const edge = await get("origin=06075&destination=06001&measure=exemptions");
    expect(edge.body.data.map((f: any) => f.value)).toEqual([6312]);
    const ca = await get("origin=CA&limit=3");
    // Column California of the 2019 matrix: Texas 82,235, Arizona 59,713, Nevada 47,322 (50 destinations).
    expect(ca.body.meta).toMatchObject({
      origin: { code: "06", name: "California" },
      measure: "movers",
      unit: "persons",
      period: { start: "2019-01-01", end: "2019-12-31" },
      total: 50,
    });
    expect(ca.body.meta.sources).toEqual([
      { source: "census", dataset: "acs-state-to-state-1y", name: "Census ACS 1-year state-to-state migration flows" },
    ]);
    expect(ca.body.data.map((f: any) => [f.destination.name, f.value])).toEqual([
      ["Texas", 82235],
      ["Arizona", 59713],
      ["Nevada", 47322],
    ]);
  });

  test("period as a year or a start date; AGI may be negative and ranks last", async () => {
    const r = await get("destination=06075&measure=agi&period=2009&limit=1000");
    expect(r.body.meta.period).toEqual({ start: "2009-01-01", end: "2010-12-31" });
    // 197 inflow edges in 0910, less 3 from Connecticut's old counties.
    expect(r.body.data.length).toBe(194);
    expect(r.body.data[0]).toMatchObject({ origin: { code: "06081" }, value: 239043, unit: "thousands of US dollars" });
    expect(r.body.data.slice(-2).map((f: any) => [f.origin.code, f.value])).toEqual([
      ["06045", -737],
      ["06053", -2620],
    ]);
    expect((await get("destination=06075&measure=agi&period=2009-01-01&limit=1")).body.data[0].value).toBe(239043);
  });

  test("limit at its edges: 1 and 1,000", async () => {
    expect((await get("origin=06075&limit=1")).body.data.length).toBe(1);
    expect((await get("origin=06075&limit=1000")).body.data.length).toBe(86);
  });

  test("pseudo-areas (totals, other flows, foreign) and the non-migrant self edge never appear", async () => {
    for (const year of ["2004", "2008", "2013", "2014"]) {
      for (const qs of [`origin=06075&period=${year}&limit=1000`, `destination=06075&period=${year}&limit=1000`]) {
        const r = await get(qs);
        expect(r.status).toBe(200);
        for (const f of r.body.data) {
          expect(
            PSEUDO.test(f.origin.code) || PSEUDO.test(f.destination.code) || f.origin.code === f.destination.code,
          ).toBe(false);
          expect(f.origin.code).toMatch(/^\d{5}$/);
        }
      }
    }
    for (const code of ["96000", "97000", "97001", "98000", "57009", "59005"])
      expect((await get(`origin=${code}`)).status).toBe(404);
  });
});

describe("400", () => {
  test("neither origin nor destination", async () => {
    await expectError("measure=returns", 400, "origin", "pass origin, destination or both");
  });
  test("bad measure, period, limit (0 and 1,001 past the edges)", async () => {
    await expectError("origin=06075&measure=households", 400, "measure", "movers, returns, exemptions, agi");
    await expectError("origin=06075&period=14", 400, "period", "YYYY");
    await expectError("origin=06075&period=2014-02-30", 400, "period", "YYYY-MM-DD");
    await expectError("origin=06075&limit=0", 400, "limit", "1 to 1000");
    await expectError("origin=06075&limit=1001", 400, "limit", "1 to 1000");
  });
});

describe("404 (free)", () => {
  test("an unknown region, a region with no flows, a measure or period not held: said with what is held", async () => {
    expect((await get("origin=Atlantis")).status).toBe(404);
    // Alpine County, California (337 non-migrant returns in the national file): every edge in or out of it is below the
    // IRS disclosure threshold (folded into "other flows", -1), so neither IRS file has one.
    await expectError("origin=06003", 404, "origin", "No flows are held from Alpine County, California (06003).");
    const m = await expectError(
      "origin=06075&measure=movers",
      404,
      "measure",
      "measures held: returns, exemptions, agi",
    );
    expect(m.details.measures).toEqual(["returns", "exemptions", "agi"]);
    const p = await expectError(
      "origin=06075&period=2020",
      404,
      "period",
      "No 'returns' flows starting in 2020 are held from San Francisco County",
    );
    expect(p.details.periods.length).toBe(11);
  });
});

describe("401 and 403", () => {
  test("a bad key is 401", async () => {
    expect((await get("origin=06075", { "x-api-key": "svc_live_nope" })).status).toBe(401);
  });
  test("a region-restricted key: its own origin passes; another origin, or a destination outside its regions, is 403", async () => {
    const k = await testKey(t, { allowedRegions: ["06075"] });
    expect((await get("origin=06075", k.headers)).status).toBe(200);
    expect((await get("origin=06", k.headers)).body.error.code).toBe("REGION_NOT_ALLOWED");
    const both = await get("origin=06075&destination=06001", k.headers);
    expect([both.status, both.body.error?.code]).toEqual([403, "REGION_NOT_ALLOWED"]);
  });
});

describe("402", () => {
  test("without a credential: both rails at the flows price ($0.01: 10,000 micro-USD); the L402 token buys the rows", async () => {
    const res = await t.request("/v1/flows?origin=06075&limit=5");
    expect(res.status).toBe(402);
    const pr = decodeBase64Json(res.headers.get("payment-required")!) as any;
    expect(pr.accepts.map((a: any) => a.amount)).toEqual(["10000"]);
    const m = APERTURE_CHALLENGE.exec(res.headers.get("www-authenticate") ?? "")!;
    expect(m).not.toBeNull();
    expect(((await res.json()) as any).error.details).toMatchObject({ price_usd: "0.01", rails: ["x402", "l402"] });
    const paid = t.dev.pay(m[3]!);
    if (!paid.ok) throw new Error(paid.message);
    const ok = await t.request("/v1/flows?origin=06075&limit=5", {
      headers: { authorization: `L402 ${m[2]}:${paid.preimage}` },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).data.length).toBe(5);
  });
  test("what is not held or is malformed costs nothing: 404 and 400 come before the 402", async () => {
    expect((await t.request("/v1/flows?origin=06003")).status).toBe(404);
    expect((await t.request("/v1/flows?limit=5")).status).toBe(400);
  });
});
