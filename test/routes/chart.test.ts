// GET /v1/chart on the real app with the key rail and both payment rails: series written through the write path with
// values chosen here, so the title, description, newest-value label and recession bands are known exactly.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { decodeBase64Json } from "payments";
import { makePaymentsApp, offlineX402 } from "../support/payments";
import { testKey } from "../support/keys";
import { clearSeries, monthStarts, weekdays, writeSeries, type Row } from "../support/series";
import { CHART_SIZE_STEPS } from "../../src/domain/chart-size";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";
let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let headers: Record<string, string>;

// UNRATE (monthly): 2006-01 .. 2015-12, value = 4 + month index / 10. USREC: 1 from 2008-01 to 2009-06, else 0.
const MONTHS = monthStarts("2006-01", 120);
const DGS = weekdays("2000-01-03", "2020-12-31").slice(0, 5001);

beforeAll(async () => {
  t = await makePaymentsApp({
    testRoute: false,
    x402: offlineX402(PAY_TO),
  });
  t.clock.set("2026-11-22T12:00:00Z");
  const db = t.database.db;
  for (const code of ["UNRATE", "USREC", "DGS10", "PAYEMS"]) await clearSeries(db, "fred", code, "US");
  await clearSeries(db, "worldbank", "SL.UEM.TOTL.ZS", "US");
  await writeSeries(
    db,
    "fred",
    "UNRATE",
    "US",
    MONTHS.map((d, k): Row => [d, Math.round(40 + k) / 10]),
  );
  await writeSeries(
    db,
    "fred",
    "PAYEMS",
    "US",
    MONTHS.map((d, k): Row => [d, 130000 + k]),
  );
  await writeSeries(
    db,
    "fred",
    "USREC",
    "US",
    MONTHS.map((d): Row => [d, d >= "2008-01-01" && d <= "2009-06-01" ? 1 : 0]),
  );
  await writeSeries(
    db,
    "fred",
    "DGS10",
    "US",
    DGS.map((d, k): Row => [d, k]),
  );
  ({ headers } = await testKey(t, { plan: "professional" }));
}, 120_000);
afterAll(() => t?.close());

const get = (qs: string, h: Record<string, string> = headers) => t.request(`/v1/chart?${qs}`, { headers: h });
const parser = new XMLParser({ ignoreAttributes: false });

async function svgOf(qs: string) {
  const res = await get(qs);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
  const text = await res.text();
  expect(XMLValidator.validate(text)).toBe(true);
  return { text, svg: parser.parse(text).svg };
}

async function expect400(qs: string, parameter: string, contains: string) {
  const res = await get(qs);
  const body = (await res.json()) as any;
  expect({ status: res.status, code: body.error?.code, parameter: body.error?.details?.parameter }).toEqual({
    status: 400,
    code: "INVALID_PARAMETER",
    parameter,
  });
  expect(body.error.message).toContain(contains);
}

describe("200: an SVG that validates as XML", () => {
  test("one US series: title, description with the newest value, recession band, newest value labelled", async () => {
    const { text, svg } = await svgOf("indicator=UNRATE&region=US");
    expect(svg["@_role"]).toBe("img");
    expect(svg.title["#text"]).toBe("Unemployment Rate: United States");
    expect(svg.desc["#text"]).toBe(
      "Line chart of Unemployment Rate in the United States, Jan 2006 to Dec 2015. Newest: Unemployment Rate 15.9 (Dec 2015). " +
        "Shaded: 1 US recession period (NBER, FRED USREC). Source: U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis.",
    );
    expect(text).toContain(">15.9 (Dec 2015)</text>");
    expect(
      text.match(/class="mark-rect role-mark layer_0_marks"[^>]*>(<path[^>]*>)+/g)?.[0].match(/<path/g)?.length,
    ).toBe(1);
  });

  test("a window, a transform and a frequency read as in GET /v1/observations", async () => {
    const { svg } = await svgOf(
      "indicator=UNRATE&start_date=2010-01-01&end_date=2010-12-31&frequency=quarterly&transform=yoy",
    );
    expect(svg.desc["#text"]).toStartWith(
      "Line chart of Unemployment Rate in the United States, 2010 Q1 to 2010 Q4. Newest: Unemployment Rate ",
    );
    // No recession inside 2010: no band.
    expect(svg.desc["#text"]).not.toContain("Shaded");
  });

  test("several indicators in one region: one line each, a legend naming the axis each is read on", async () => {
    const { svg, text } = await svgOf("indicator=UNRATE,PAYEMS&region=US&start_date=2015-01-01");
    expect(svg.title["#text"]).toBe("Unemployment Rate, All Employees, Total Nonfarm: United States");
    expect(text).toContain(">Unemployment Rate (left) 15.9 (Dec 2015)</text>");
    expect(text).toContain(">All Employees, Total Nonfarm (right) 130,119 (Dec 2015)</text>");
    // Two units: each named over its own axis.
    expect(text).toContain(">percent</text>");
    expect(text).toContain(">thousands of persons</text>");
  });

  test("sizes at the edges: 200 and 2000", async () => {
    const small = await svgOf("indicator=UNRATE&width=200&height=200");
    expect([small.svg["@_width"], small.svg["@_height"]]).toEqual(["200", "200"]);
    const big = await svgOf("indicator=UNRATE&width=2000&height=2000");
    expect([big.svg["@_width"], big.svg["@_height"]]).toEqual(["2000", "2000"]);
  });

  test("sizes are drawn at the step at or above them: one picture for near sizes", async () => {
    const justAbove = await svgOf("indicator=UNRATE&width=201&height=1999");
    expect([justAbove.svg["@_width"], justAbove.svg["@_height"]]).toEqual(["250", "2000"]);
    const a = await (await get("indicator=UNRATE&width=641&height=333")).text();
    const b = await (await get("indicator=UNRATE&width=800&height=350")).text();
    expect(a).toBe(b);
    expect(a).toContain('width="800" height="350"');
  });

  test("5,000 points (the most a chart draws)", async () => {
    await svgOf(`indicator=DGS10&end_date=${DGS[4999]}`);
  });

  test("a warm chart is the same bytes", async () => {
    const a = await (await get("indicator=UNRATE&width=640")).text();
    expect(await (await get("indicator=UNRATE&width=640")).text()).toBe(a);
  });
});

describe("400, 404: free refusals", () => {
  test("sizes past the edges, png, too many series, several of both", async () => {
    await expect400("indicator=UNRATE&width=199", "width", "");
    await expect400("indicator=UNRATE&height=2001", "height", "");
    await expect400("indicator=UNRATE&format=png", "format", "only svg is offered");
    await expect400(
      `indicator=UNRATE&region=${Array.from({ length: 11 }, (_, k) => String(k + 1).padStart(2, "0")).join(",")}`,
      "region",
      "at most 10",
    );
    await expect400("indicator=UNRATE,PAYEMS&region=06,48", "region", "not both");
  });
  test("too many lines for the size: the height step that fits, and the step below it does not", async () => {
    const ten = "indicator=unemployment_rate&region=06,48,36,12,17,42,39,13,37,26&start_date=2020-01-01&width=200";
    const res = await get(`${ten}&height=200`);
    const body = (await res.json()) as any;
    expect({ status: res.status, code: body.error.code, parameter: body.error.details.parameter }).toEqual({
      status: 400,
      code: "INVALID_PARAMETER",
      parameter: "height",
    });
    const needed = body.error.details.needed_height as number;
    expect(CHART_SIZE_STEPS as readonly number[]).toContain(needed);
    const pixels = Number(/need a height of (\d+);/.exec(body.error.message)![1]);
    expect(body.error.message).toContain(`need a height of ${pixels}; ask for height=${needed} or more`);
    // The step holds what the chart needs; the step below it does not, and every height above that step is drawn at `needed`.
    const below = CHART_SIZE_STEPS[CHART_SIZE_STEPS.indexOf(needed as never) - 1]!;
    expect(below < pixels && pixels <= needed).toBe(true);
    expect((await get(`${ten}&height=${below}`)).status).toBe(400);
    const { svg } = await svgOf(`${ten}&height=${below + 1}`);
    expect(svg["@_height"]).toBe(String(needed));
  });
  test("5,001 points", async () => {
    await expect400("indicator=DGS10", "start_date", "5,001 points");
  });
  test("nothing in the window: a 404 envelope, not an empty picture", async () => {
    const res = await get("indicator=UNRATE&start_date=2030-01-01");
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error).toEqual({
      code: "RESOURCE_NOT_FOUND",
      message: "UNRATE in US has no value between 2030-01-01 and its last date: nothing to draw.",
      details: { indicator: "UNRATE", region: "US" },
    });
  });
});

describe("paid like the data it draws", () => {
  test("402 without a credential: one series at the observations price, several at the panel price", async () => {
    const one = await t.request("/v1/chart?indicator=UNRATE");
    expect(one.status).toBe(402);
    expect((decodeBase64Json(one.headers.get("payment-required")!) as any).accepts.map((a: any) => a.amount)).toEqual([
      "10000",
    ]);
    const two = await t.request("/v1/chart?indicator=UNRATE,PAYEMS");
    expect((decodeBase64Json(two.headers.get("payment-required")!) as any).accepts.map((a: any) => a.amount)).toEqual([
      "50000",
    ]);
  });
  test("a region-restricted key is refused a chart of a place outside its regions", async () => {
    const restricted = await testKey(t, { allowedRegions: ["06"] });
    const res = await get("indicator=unemployment_rate&region=06,48", restricted.headers);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe("REGION_NOT_ALLOWED");
    expect((await get("indicator=unemployment_rate&region=06", restricted.headers)).status).toBe(200);
  });
});
