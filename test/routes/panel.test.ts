// GET /v1/panel on the real app with the key rail and both payment rails: series written through the write path with
// values chosen here; every expected grid is worked out in the test from the definitions (src/domain/panel.ts).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeBase64Json } from "payments";
import { panelResponseSchema } from "../../src/schemas/panel";
import { APERTURE_CHALLENGE, makePaymentsApp, offlineX402 } from "../support/payments";
import { testKey } from "../support/keys";
import { deriveOnly } from "../support/derive";
import { clearSeries, monthStarts, weekdays, writeSeries, type Row } from "../support/series";
import { addDays } from "../../src/domain/calendar";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";
let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let headers: Record<string, string>;

// UNRATE (monthly): 2022-01 .. 2023-12 = 1 .. 24, so quarter n (from 0) has mean 3n + 2.
const UNRATE = monthStarts("2022-01", 24);
// CPIAUCSL (monthly): 2022-03 .. 2024-02 = 100 .. 123.
const CPI = monthStarts("2022-03", 24);
// GDP (quarterly): 2022Q1 .. 2023Q4 = 1000, 1010, ..., 1070.
const GDP = Array.from(
  { length: 8 },
  (_, q) => `${2022 + Math.floor(q / 4)}-${String((q % 4) * 3 + 1).padStart(2, "0")}-01`,
);
// ICSA (weekly, Saturdays from 2022-01-01) = 200 + w; GASREGW (weekly, Mondays from 2022-01-03) = 300 + w; 20 weeks each.
const ICSA = Array.from({ length: 20 }, (_, w) => addDays("2022-01-01", 7 * w));
const GAS = Array.from({ length: 20 }, (_, w) => addDays("2022-01-03", 7 * w));
// DGS10 (daily): 5,001 weekdays from 2000-01-03, value = index.
const DGS = weekdays("2000-01-03", "2020-12-31").slice(0, 5001);

const TEN = "PAYEMS,USPRIV,USGOOD,SRVPRD,USMINE,USCONS,MANEMP,DMANEMP,NDMANEMP,USTPU";

beforeAll(async () => {
  t = await makePaymentsApp({
    testRoute: false,
    x402: offlineX402(PAY_TO),
  });
  t.clock.set("2026-11-22T12:00:00Z");
  const db = t.database.db;
  // The test's own values in place of the seeded snapshot's, so every expected grid is worked out here.
  for (const code of ["UNRATE", "CPIAUCSL", "GDP", "ICSA", "DGS10", ...TEN.split(",")])
    await clearSeries(db, "fred", code, "US");
  // The World Bank's US rate (to 2025) would be fresher than this test's UNRATE (to 2023): the concept takes the
  // freshest held series, so it is removed to keep unemployment_rate on UNRATE.
  await clearSeries(db, "worldbank", "SL.UEM.TOTL.ZS", "US");
  for (const [k, code] of TEN.split(",").entries())
    await writeSeries(
      db,
      "fred",
      code,
      "US",
      monthStarts("2006-01", 120).map((d, m): Row => [d, 1000 * (k + 1) + m]),
    );
  await writeSeries(
    db,
    "fred",
    "UNRATE",
    "US",
    UNRATE.map((d, k): Row => [d, k + 1]),
  );
  await writeSeries(
    db,
    "fred",
    "CPIAUCSL",
    "US",
    CPI.map((d, k): Row => [d, 100 + k]),
  );
  await writeSeries(
    db,
    "fred",
    "GDP",
    "US",
    GDP.map((d, q): Row => [d, 1000 + 10 * q]),
  );
  await writeSeries(
    db,
    "fred",
    "ICSA",
    "US",
    ICSA.map((d, w): Row => [d, 200 + w]),
  );
  await writeSeries(
    db,
    "fred",
    "GASREGW",
    "US",
    GAS.map((d, w): Row => [d, 300 + w]),
  );
  await writeSeries(
    db,
    "fred",
    "DGS10",
    "US",
    DGS.map((d, k): Row => [d, k]),
  );
  // The one svc: series these tests read, derived from the written UNRATE as the write paths derive it (reads never
  // do); not the others these writes feed, which no test here reads.
  await deriveOnly(t.store, new Date("2026-01-15T00:00:00Z"), ["svc:sahm_rule"]);
  ({ headers } = await testKey(t, { plan: "professional" }));
}, 120_000);
afterAll(() => t?.close());

const get = async (qs: string, h: Record<string, string> = headers) => {
  const res = await t.request(`/v1/panel?${qs}`, { headers: h });
  return { res, status: res.status, body: (await res.json()) as any };
};
const quarterMeans = (n: number) => Array.from({ length: n }, (_, q) => 3 * q + 2);

async function expect400(qs: string, parameter: string, contains: string) {
  const r = await get(qs);
  expect({ status: r.status, code: r.body.error?.code, parameter: r.body.error?.details?.parameter }).toEqual({
    status: 400,
    code: "INVALID_PARAMETER",
    parameter,
  });
  expect(r.body.error.message).toContain(contains);
  return r.body.error;
}

describe("200", () => {
  test("one frequency aligns at it; missing=drop keeps the months both series have", async () => {
    const r = await get("indicators=UNRATE,CPIAUCSL&region=US");
    expect(r.status).toBe(200);
    panelResponseSchema.parse(r.body);
    // Overlap 2022-03 .. 2023-12: 22 months; UNRATE there = 3 .. 24, CPI = 100 .. 121.
    expect(r.body.dates).toEqual(monthStarts("2022-03", 22));
    expect(Object.keys(r.body.series)).toEqual(["UNRATE", "CPIAUCSL"]);
    expect(r.body.series.UNRATE).toEqual(Array.from({ length: 22 }, (_, k) => k + 3));
    expect(r.body.series.CPIAUCSL).toEqual(Array.from({ length: 22 }, (_, k) => 100 + k));
    expect(r.body.meta).toEqual({
      units: { UNRATE: "percent", CPIAUCSL: "index 1982-1984=100" },
      alignment: { basis: "native", missing: "drop" },
      region: "US",
      regions: { UNRATE: "US", CPIAUCSL: "US" },
      frequency: "monthly",
      points: 44,
      // As of the test clock (2026-11-22): December 2023 is 35 months behind, February 2024 is 33.
      freshness: {
        UNRATE: {
          newest_period: "2023-12-01",
          cadence: "monthly",
          periods_behind: 35,
          max_periods_behind: 3,
          stale: true,
          stale_from: "2024-04-01",
        },
        CPIAUCSL: {
          newest_period: "2024-02-01",
          cadence: "monthly",
          periods_behind: 33,
          max_periods_behind: 3,
          stale: true,
          stale_from: "2024-06-01",
        },
      },
    });
  });

  test("missing=ffill: the union of months, last values carried forward, leading gaps null", async () => {
    const r = await get("indicators=CPIAUCSL,UNRATE&missing=ffill");
    expect(r.status).toBe(200);
    expect(r.body.dates).toEqual(monthStarts("2022-01", 26));
    expect(r.body.series.CPIAUCSL).toEqual([null, null, ...Array.from({ length: 24 }, (_, k) => 100 + k)]);
    expect(r.body.series.UNRATE).toEqual([...Array.from({ length: 24 }, (_, k) => k + 1), 24, 24]);
    expect(r.body.meta.alignment).toEqual({ basis: "native", missing: "ffill" });
  });

  test("mixed frequencies: the monthly series is resampled to the quarterly one (mean by default, sum, last)", async () => {
    const r = await get("indicators=GDP,UNRATE");
    expect(r.status).toBe(200);
    expect(r.body.dates).toEqual(GDP);
    expect(r.body.series).toEqual({ GDP: GDP.map((_, q) => 1000 + 10 * q), UNRATE: quarterMeans(8) });
    expect(r.body.meta.frequency).toBe("quarterly");
    expect(r.body.meta.alignment.basis).toBe("resampled");
    expect(r.body.meta.resample).toEqual({
      method: "mean",
      target_frequency: "quarterly",
      series: { UNRATE: { source_frequency: "monthly", dropped_period_start: null } },
    });
    expect((await get("indicators=GDP,UNRATE&resample_method=sum")).body.series.UNRATE).toEqual(
      quarterMeans(8).map((m) => 3 * m),
    );
    expect((await get("indicators=GDP,UNRATE&resample_method=last")).body.series.UNRATE).toEqual(
      quarterMeans(8).map((m) => m + 1),
    );
  });

  test("an explicit coarser frequency resamples every series; the date range keeps overlapping buckets", async () => {
    const r = await get("indicators=UNRATE,GDP&frequency=annual&start_date=2023-06-30");
    expect(r.status).toBe(200);
    // 2023: UNRATE 13 .. 24 -> mean 18.5; GDP 1040 .. 1070 -> mean 1055.
    expect(r.body).toMatchObject({ dates: ["2023-01-01"], series: { UNRATE: [18.5], GDP: [1055] } });
    expect(Object.keys(r.body.meta.resample.series)).toEqual(["UNRATE", "GDP"]);
  });

  test("weekly series with frequency=monthly: weeks in the month of their date, the open month dropped", async () => {
    const r = await get("indicators=ICSA,GASREGW&frequency=monthly");
    expect(r.status).toBe(200);
    // ICSA: Jan w0-4 (202), Feb w5-8 (206.5), Mar w9-12 (210.5), Apr w13-17 (215); May (w18-19) is open.
    // GASREGW: Jan w0-4 (302), Feb w5-8 (306.5), Mar w9-12 (310.5), Apr w13-16 (314.5); May (w17-19) is open.
    expect(r.body.dates).toEqual(monthStarts("2022-01", 4));
    expect(r.body.series).toEqual({ ICSA: [202, 206.5, 210.5, 215], GASREGW: [302, 306.5, 310.5, 314.5] });
    expect(r.body.meta.resample.series).toEqual({
      ICSA: { source_frequency: "weekly", dropped_period_start: "2022-05-01" },
      GASREGW: { source_frequency: "weekly", dropped_period_start: "2022-05-01" },
    });
  });

  test("a concept resolves per region and is disclosed in meta.concepts", async () => {
    const r = await get("indicators=unemployment_rate,CPIAUCSL&region=US&start_date=2023-12-01");
    expect(r.status).toBe(200);
    expect(r.body.series).toEqual({ unemployment_rate: [24], CPIAUCSL: [121] });
    expect(r.body.meta.concepts).toEqual({
      unemployment_rate: { code: "unemployment_rate", resolved_indicator: "UNRATE", source: "fred" },
    });
    expect(r.body.meta.units.unemployment_rate).toBe("percent");
  });

  test("10 codes (the most a panel takes)", async () => {
    const r = await get(`indicators=${TEN}&region=US`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.series)).toEqual(TEN.split(","));
    expect(r.body.dates.length).toBe(120);
    expect(r.body.meta.points).toBe(1200);
  });

  test("the grid at its capacity: 5,000 points", async () => {
    const r = await get(`indicators=DGS10&end_date=${DGS[4999]}`);
    expect(r.status).toBe(200);
    expect(r.body.dates.length).toBe(5000);
    expect(r.body.series.DGS10.slice(-2)).toEqual([4998, 4999]);
    expect(r.body.meta.points).toBe(5000);
  });
});

describe("400", () => {
  test("5,001 points: a narrower date range is asked for, with the number of points the panel would have had", async () => {
    const e = await expect400("indicators=DGS10", "start_date", "would hold 5,001 points");
    expect(e.details).toEqual({ parameter: "start_date", points: 5001, max_points: 5000, dates: 5001, series: 1 });
    expect(e.message).toContain("narrower date range");
  });
  test("11 codes, an empty list, an empty item, a code listed twice", async () => {
    await expect400(`indicators=${TEN},USINFO&region=US`, "indicators", "at most 10 codes (got 11)");
    await expect400("indicators=", "indicators", "at least one code");
    await expect400("indicators=UNRATE,,GDP", "indicators", "item 2 is empty");
    await expect400("indicators=UNRATE,GDP,UNRATE", "indicators", "'UNRATE' is listed twice");
    expect((await get("indicators=")).res.status).toBe(400);
  });
  test("weekly-only without frequency, or weekly as the coarsest", async () => {
    await expect400("indicators=ICSA,GASREGW", "frequency", "needs frequency=monthly, quarterly or annual");
    await expect400("indicators=ICSA", "frequency", "weekly series");
    await expect400("indicators=DGS10,ICSA", "frequency", "coarsest series is weekly (ICSA)");
  });
  test("a frequency finer than a series (upsampling) names the series", async () => {
    const e = await expect400(
      "indicators=UNRATE,GDP&frequency=monthly",
      "frequency",
      "GDP: frequency=monthly would upsample a quarterly series",
    );
    expect(e.details.indicator).toBe("GDP");
  });
  test("bad values: frequency, resample_method, missing, dates, start after end, a concept without region", async () => {
    await expect400("indicators=UNRATE&frequency=weekly", "frequency", "must be one of monthly, quarterly, annual");
    await expect400("indicators=UNRATE&resample_method=median", "resample_method", "mean, last, sum");
    await expect400("indicators=UNRATE&missing=zero", "missing", "drop, ffill");
    await expect400("indicators=UNRATE&start_date=2023-02-30", "start_date", "YYYY-MM-DD");
    await expect400("indicators=UNRATE&start_date=2023-02-01&end_date=2023-01-01", "start_date", "after end_date");
    await expect400("indicators=unemployment_rate,UNRATE", "region", "is a concept");
  });
});

describe("404 (free)", () => {
  test("an unknown code names it and the parameter", async () => {
    const r = await get("indicators=UNRATE,NOT_A_SERIES", {});
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({
      code: "RESOURCE_NOT_FOUND",
      details: { parameter: "indicators", indicator: "NOT_A_SERIES" },
    });
  });
  test("a series offered but not held", async () => {
    const r = await get("indicators=UNRATE,USINFO", {});
    expect(r.status).toBe(404);
    expect(r.body.error.details).toMatchObject({ indicator: "USINFO", held: false });
  });
});

describe("401 and 403", () => {
  test("a bad key is 401", async () => {
    expect((await get("indicators=UNRATE", { authorization: "Bearer svc_live_nope" })).status).toBe(401);
  });
  test("a svc: series needs premium access: 403 CATEGORY_NOT_ALLOWED with a free key, 200 with the svc-premium scope", async () => {
    const free = await testKey(t);
    const refused = await get("indicators=UNRATE,svc:sahm_rule", free.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("CATEGORY_NOT_ALLOWED");
    // The free key may read a panel of standard series.
    expect((await get("indicators=UNRATE,CPIAUCSL", free.headers)).status).toBe(200);
    const scoped = await testKey(t, { scopes: ["svc-premium"] });
    const ok = await get("indicators=UNRATE,svc:sahm_rule", scoped.headers);
    expect(ok.status).toBe(200);
    // The same numbers as GET /v1/observations reads for the series (one read path), on the months UNRATE also has.
    const obs = (await (
      await t.request("/v1/observations?indicator=svc:sahm_rule&order=asc&limit=1000", { headers: scoped.headers })
    ).json()) as any;
    const byDate = new Map<string, number | null>(obs.data.map((o: any) => [o.date, o.value]));
    expect(ok.body.dates.length).toBeGreaterThan(12);
    expect(ok.body.series["svc:sahm_rule"]).toEqual(ok.body.dates.map((d: string) => byDate.get(d)));
    expect(ok.body.meta.units["svc:sahm_rule"]).toBe("percentage points");
  });
  test("a region-restricted key is refused a panel outside its regions", async () => {
    const restricted = await testKey(t, { allowedRegions: ["06"] });
    const r = await get("indicators=UNRATE&region=US", restricted.headers);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("REGION_NOT_ALLOWED");
  });
});

describe("402", () => {
  test("without a credential: both rails, at the panel price ($0.05: 50,000 micro-USD, 50 sat)", async () => {
    const res = await t.request("/v1/panel?indicators=UNRATE,GDP");
    expect(res.status).toBe(402);
    const pr = decodeBase64Json(res.headers.get("payment-required")!) as any;
    expect(pr.accepts.map((a: any) => a.amount)).toEqual(["50000"]);
    expect(pr.resource.url).toEndWith("/v1/panel?indicators=UNRATE,GDP");
    const m = APERTURE_CHALLENGE.exec(res.headers.get("www-authenticate") ?? "");
    expect(m).not.toBeNull();
    expect(((await res.json()) as any).error).toMatchObject({
      code: "PAYMENT_REQUIRED",
      details: { price_usd: "0.05", rails: ["x402", "l402"] },
    });
    // Paying the invoice buys the panel once.
    const paid = t.dev.pay(m![3]!);
    if (!paid.ok) throw new Error(paid.message);
    const ok = await t.request("/v1/panel?indicators=UNRATE,GDP", {
      headers: { authorization: `L402 ${m![2]}:${paid.preimage}` },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).series.GDP).toEqual(GDP.map((_, q) => 1000 + 10 * q));
  });
  test("what cannot be served is not asked for payment: 400 and 404 come before the 402", async () => {
    expect((await t.request("/v1/panel?indicators=DGS10")).status).toBe(400);
    expect((await t.request("/v1/panel?indicators=ICSA")).status).toBe(400);
    expect((await t.request("/v1/panel?indicators=NOT_A_SERIES")).status).toBe(404);
  });
});
