// FRED's parameter names and values on /v1: still a 400 INVALID_PARAMETER (the spec fixes the query
// parameters), with our equivalent in the message and in details.fred; our own names keep working; an `api_key`
// given in the URL is named, its value never comes back in a response or a log line.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createLogger } from "../../src/logger";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";
import { fredRows, fredValue } from "../support/snapshot";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
let headers: Record<string, string>;
const logLines: string[] = [];

beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true, logger: createLogger("debug", (line) => void logLines.push(line)) });
  t.clock.set("2026-11-22T12:00:10Z");
  ({ headers } = await testKey(t, { rateLimitPerMinute: 1000 }));
}, 120_000);
afterAll(() => t?.close());

// CPIAUCSL (monthly, US) as shipped: 1980-01 .. 2025-11.
const CPI = fredRows("CPIAUCSL");
const BASE = "/v1/observations?indicator=CPIAUCSL&region=US";
const get = (qs: string, h: Record<string, string> = headers) => t.getJson(`${BASE}&${qs}`, { headers: h });

async function refused(qs: string) {
  const r = await get(qs);
  expect(r.status).toBe(400);
  expect(r.body.error.code).toBe("INVALID_PARAMETER");
  return r.body.error as { message: string; details: { parameter: string; parameters: string[]; allowed?: string[]; fred?: { fred: string; ours: string[]; message: string }[] } };
}

describe("FRED parameter names: 400 naming ours", () => {
  const cases: [qs: string, fred: string, ours: string[], says: string][] = [
    ["observation_start=2020-01-01", "observation_start", ["start_date"], "FRED's observation_start is start_date here"],
    ["observation_end=2024-12-31", "observation_end", ["end_date"], "FRED's observation_end is end_date here"],
    ["series_id=UNRATE", "series_id", ["indicator"], "FRED's series_id is indicator here"],
    ["units=pch", "units=pch", ["transform=mom", "transform=qoq", "transform=yoy"], "is transform=mom on a monthly series, transform=qoq on a quarterly one and transform=yoy on an annual one"],
    ["units=pc1", "units=pc1", ["transform=yoy"], "FRED's units=pc1 (percent change from a year ago) is transform=yoy here"],
    ["units=chg", "units=chg", [], "has no equivalent here: no transform offers an absolute change"],
    ["units=log", "units=log", ["transform=log"], "FRED's units=log (natural log) is transform=log here"],
    ["aggregation_method=avg", "aggregation_method=avg", ["resample_method=mean"], "is resample_method=mean here"],
    ["aggregation_method=eop", "aggregation_method=eop", ["resample_method=last"], "is resample_method=last here"],
    ["aggregation_method=sum", "aggregation_method=sum", ["resample_method=sum"], "is resample_method=sum here"],
    ["api_key=0123456789abcdef", "api_key", ["Authorization: Bearer <key>", "X-API-Key: <key>"], "send the key in the 'Authorization: Bearer <key>' or 'X-API-Key: <key>' header, never in the URL"],
  ];
  for (const [qs, fred, ours, says] of cases) {
    test(qs, async () => {
      const e = await refused(qs);
      const name = qs.split("=")[0]!;
      expect(e.message).toStartWith(`Unknown parameter "${name}". `);
      expect(e.message).toContain(says);
      // Our own names are still listed.
      expect(e.message).toEndWith("GET /v1/observations takes: indicator, source, region, start_date, end_date, include_revisions, limit, offset, order, transform, frequency, resample_method.");
      expect(e.details.parameter).toBe(name);
      expect(e.details.fred).toHaveLength(1);
      expect(e.details.fred![0]).toMatchObject({ fred, ours });
      expect(e.details.fred![0]!.message).toContain(says);
    });
  }

  test("several at once: each translated, in the order given", async () => {
    const e = await refused("observation_start=2020-01-01&observation_end=2024-12-31&units=pc1");
    expect(e.details.parameters).toEqual(["observation_start", "observation_end", "units"]);
    expect(e.details.fred!.map((f) => f.fred)).toEqual(["observation_start", "observation_end", "units=pc1"]);
  });

  test("a name that is not FRED's is refused as before, without details.fred", async () => {
    const e = await refused("start=2020-01-01");
    expect(e.message).toBe(
      'Unknown parameter "start". GET /v1/observations takes: indicator, source, region, start_date, end_date, include_revisions, limit, offset, order, transform, frequency, resample_method.',
    );
    expect(e.details.fred).toBeUndefined();
  });

  test("an operation without the equivalent parameter gets no translation to it", async () => {
    const r = await t.getJson("/v1/observations/latest?indicator=CPIAUCSL&observation_start=2020-01-01", { headers });
    expect(r.status).toBe(400);
    expect(r.body.error.details.fred).toBeUndefined();
  });
});

describe("FRED values on our parameters", () => {
  test("frequency=m names monthly; q and a name quarterly and annual", async () => {
    const e = await refused("frequency=m");
    expect(e.details.parameter).toBe("frequency");
    expect(e.message).toBe("Invalid parameter frequency: frequency: must be one of monthly, quarterly, annual. FRED's frequency=m (monthly) is frequency=monthly here.");
    expect(e.details.fred).toEqual([{ fred: "frequency=m", ours: ["frequency=monthly"], message: "FRED's frequency=m (monthly) is frequency=monthly here." }]);
    expect((await refused("frequency=q")).details.fred![0]!.ours).toEqual(["frequency=quarterly"]);
    expect((await refused("frequency=a")).details.fred![0]!.ours).toEqual(["frequency=annual"]);
  });

  test("the catalog's frequency filter takes daily and weekly too: d and w name them there", async () => {
    const r = await t.getJson("/v1/indicators?frequency=w");
    expect(r.status).toBe(400);
    expect(r.body.error.details.fred[0].ours).toEqual(["frequency=weekly"]);
    // Observations resample to monthly, quarterly or annual only: daily is not offered as a fix.
    expect((await refused("frequency=d")).details.fred).toBeUndefined();
  });

  test("transform=pch and resample_method=eop read as FRED's codes", async () => {
    expect((await refused("transform=pch")).details.fred![0]!.ours).toEqual(["transform=mom", "transform=qoq", "transform=yoy"]);
    expect((await refused("frequency=quarterly&resample_method=eop")).message).toContain("FRED's aggregation_method=eop (end of period) is resample_method=last here.");
  });
});

describe("our own names", () => {
  test("start_date, end_date, transform, frequency and resample_method still work", async () => {
    const r = await get("start_date=1947-01-01&end_date=1949-12-31&transform=yoy&frequency=quarterly&resample_method=last&order=asc");
    expect(r.status).toBe(200);
    expect(r.body.meta.transform).toBe("yoy");
    expect(r.body.meta.resample).toMatchObject({ method: "last" });
    // 1948Q1 .. 1949Q4 have a comparator a year earlier in the series; 1947's quarters (its first year) do not.
    expect(r.body.data.map((d: { period_start: string; value: number | null }) => [d.period_start, d.value !== null])).toEqual([
      ["1947-01-01", false], ["1947-04-01", false], ["1947-07-01", false], ["1947-10-01", false],
      ["1948-01-01", true], ["1948-04-01", true], ["1948-07-01", true], ["1948-10-01", true],
      ["1949-01-01", true], ["1949-04-01", true], ["1949-07-01", true], ["1949-10-01", true],
    ]);
    // resample_method=last: 1948Q1 is March 1948, its comparator March 1947.
    const [march48, march47] = [fredValue(CPI, "1948-03-01")!, fredValue(CPI, "1947-03-01")!];
    expect(r.body.data[4].value).toBeCloseTo(((march48 - march47) / march47) * 100, 10);
    expect((await get("transform=mom&limit=1")).status).toBe(200);
  });
});

describe("api_key in the URL is a secret", () => {
  const secret = "svc_live_fredhabitsecret0123456789abcdef";
  test("named, never echoed: with or without a key header, on paid, key-only and free routes, twice", async () => {
    const lines = logLines.length;
    const targets = [
      `${BASE}&api_key=${secret}`,
      `${BASE}&api_key=${secret}&observation_start=2020-01-01`,
      `/v1/ping?api_key=${secret}`,
      `/v1/indicators?api_key=${secret}`,
      `/v1/observations?series_id=UNRATE&api_key=${encodeURIComponent(secret)}&file_type=json`,
    ];
    for (const target of targets) {
      for (const h of [{}, headers, {}]) {
        const res = await t.app.request(target, { headers: h });
        const text = await res.text();
        expect(res.status).toBe(400);
        expect(text).toContain("api_key");
        expect(text).not.toContain(secret);
        expect(text).not.toContain("fredhabitsecret");
        for (const [, v] of res.headers) expect(v).not.toContain("fredhabitsecret");
        expect(JSON.parse(text).error.details.fred.map((f: { fred: string }) => f.fred)).toContain("api_key");
      }
    }
    expect(logLines.slice(lines).join("\n")).not.toContain("fredhabitsecret");
  });
});
