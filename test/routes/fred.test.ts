// The FRED-compatible surface on the real app over the seeded snapshot (both FRED vintages): FRED's documents and
// errors, keys in `api_key`, the revision store read through the real-time parameters and output types (checked
// against /v1/observations?include_revisions=true), and a 402 with the payment challenge in FRED's error shape.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createLogger } from "../../src/logger";
import { keyUsage } from "../../src/services/keys";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";
import { makePaymentsApp } from "../support/payments";

setDefaultTimeout(120_000);

let t: TestApp;
let key: string;
let keyId: string;
const logLines: string[] = [];
beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true, logger: createLogger("debug", (line) => void logLines.push(line)) });
  t.clock.set("2026-11-29T12:00:00Z");
  const k = await testKey(t, { plan: "developer" as never });
  key = k.key;
  keyId = k.row.id;
}, 120_000);
afterAll(() => t.close());

const get = (path: string) => t.app.request(path.includes("?") ? `${path}&api_key=${key}` : `${path}?api_key=${key}`);
const json = async (res: Response) => (await res.json()) as any;

type Revision = { date: string; value: number | null; revision: number; source_updated_at: string | null };
async function revisions(code: string, start: string, end: string): Promise<Revision[]> {
  const res = await t.app.request(
    `/v1/observations?indicator=${code}&region=US&include_revisions=true&order=asc&limit=1000&start_date=${start}&end_date=${end}`,
    { headers: { authorization: `Bearer ${key}` } },
  );
  expect(res.status).toBe(200);
  return (await json(res)).data;
}

describe("GET /fred/series/observations", () => {
  test("JSON: FRED's fields, values as strings, '.' for the October 2025 release that never came", async () => {
    const res = await get(
      "/fred/series/observations?series_id=UNRATE&file_type=json&observation_start=2025-08-01&observation_end=2025-12-01",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = await json(res);
    expect(Object.keys(body)).toEqual([
      "realtime_start",
      "realtime_end",
      "observation_start",
      "observation_end",
      "units",
      "output_type",
      "file_type",
      "order_by",
      "sort_order",
      "count",
      "offset",
      "limit",
      "observations",
    ]);
    expect(body).toMatchObject({
      realtime_start: "2026-11-29",
      realtime_end: "2026-11-29",
      units: "lin",
      output_type: 1,
      file_type: "json",
      order_by: "observation_date",
      sort_order: "asc",
      offset: 0,
      limit: 100000,
    });
    const oct = body.observations.find((o: any) => o.date === "2025-10-01");
    expect(oct).toEqual({ realtime_start: "2026-11-29", realtime_end: "2026-11-29", date: "2025-10-01", value: "." });
    for (const o of body.observations) expect(typeof o.value).toBe("string");
    expect(body.count).toBe(body.observations.length);
  });

  test("XML by default; the key is never repeated", async () => {
    const res = await get("/fred/series/observations?series_id=GDPC1&limit=2&sort_order=desc");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/xml");
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8" \?>\n<observations realtime_start="2026-11-29"/);
    expect(xml.match(/<observation /g)?.length).toBe(2);
    expect(xml).not.toContain(key);
  });

  test("units and frequency as FRED computes them (CPIAUCSL pc1 at quarterly averages)", async () => {
    const lin = await json(
      await get(
        "/fred/series/observations?series_id=CPIAUCSL&file_type=json&frequency=q&observation_start=2024-01-01&observation_end=2025-01-01",
      ),
    );
    const pc1 = await json(
      await get(
        "/fred/series/observations?series_id=CPIAUCSL&file_type=json&frequency=q&units=pc1&observation_start=2025-01-01&observation_end=2025-01-01",
      ),
    );
    const q = Object.fromEntries(lin.observations.map((o: any) => [o.date, Number(o.value)]));
    expect(pc1.observations[0].value).toBe(((q["2025-01-01"] / q["2024-01-01"] - 1) * 100).toFixed(5));
  });

  test("bounds: limit 100000 passes, 100001 and an unknown series are FRED's 400s, not metered", async () => {
    const before = await keyUsage(t.deps, keyId, "2026-11");
    expect((await get("/fred/series/observations?series_id=UNRATE&file_type=json&limit=100000")).status).toBe(200);
    const over = await get("/fred/series/observations?series_id=UNRATE&file_type=json&limit=100001");
    expect(over.status).toBe(400);
    expect(await json(over)).toEqual({
      error_code: 400,
      error_message: "Bad Request.  Variable limit is not between 1 and 100000.",
    });
    const missing = await get("/fred/series/observations?series_id=NOSUCHSERIES");
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('<error code="400" message="Bad Request.  The series does not exist."/>');
    const finer = await get("/fred/series/observations?series_id=UNRATE&file_type=json&frequency=d");
    expect(finer.status).toBe(400);
    expect((await json(finer)).error_message).toBe(
      "Bad Request.  Variable frequency can not be higher than the native frequency of the series.",
    );
    expect(await keyUsage(t.deps, keyId, "2026-11")).toBe(before + 1);
  });

  test("ALFRED: output types 2 and 4 and a real-time window agree with /v1 include_revisions", async () => {
    const revs = await revisions("UNRATE", "2020-01-01", "2025-12-01");
    const revised = revs.filter((r) => r.revision > 1);
    expect(revised.length).toBeGreaterThan(0);
    const date = revised[0].date;
    const all = (await revisions("UNRATE", date, date)).sort((a, b) => a.revision - b.revision);
    const base = `/fred/series/observations?series_id=UNRATE&file_type=json&observation_start=${date}&observation_end=${date}&realtime_start=1776-07-04&realtime_end=9999-12-31`;
    const two = await json(await get(`${base}&output_type=2`));
    const printed = (v: number | null) => (v === null ? "." : v.toFixed(1));
    const vintages = all.map((r) => r.source_updated_at!.slice(0, 10));
    expect(two.observations).toEqual([
      {
        date,
        ...Object.fromEntries(all.map((r, i) => [`UNRATE_${vintages[i].replaceAll("-", "")}`, printed(r.value)])),
      },
    ]);
    const four = await json(await get(`${base}&output_type=4`));
    expect(four.observations[0]).toMatchObject({ date, realtime_start: vintages[0], value: printed(all[0].value) });
    // What the first vintage said, asked on a day between the two vintages.
    const between = await json(
      await get(
        `/fred/series/observations?series_id=UNRATE&file_type=json&observation_start=${date}&observation_end=${date}&realtime_start=2026-02-01&realtime_end=2026-02-01`,
      ),
    );
    expect(between.observations).toEqual([
      { realtime_start: "2026-02-01", realtime_end: "2026-02-01", date, value: printed(all[0].value) },
    ]);
  });
});

describe("keys in api_key", () => {
  test("a key of this service's form that is not registered: 401 in FRED's shape, the key not repeated", async () => {
    const bogus = `svc_live_${"x".repeat(32)}`;
    const res = await t.app.request(`/fred/series/observations?series_id=UNRATE&file_type=json&api_key=${bogus}`);
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(text).not.toContain(bogus);
    expect(JSON.parse(text)).toMatchObject({ error_code: 401, error: { code: "INVALID_API_KEY" } });
  });

  test("the same URL with two keys: each admitted and metered as its own, the page shared", async () => {
    const other = await testKey(t);
    const path = "/fred/series/observations?series_id=PAYEMS&file_type=json&limit=3";
    const before = [await keyUsage(t.deps, keyId, "2026-11"), await keyUsage(t.deps, other.row.id, "2026-11")];
    const a = await t.app.request(`${path}&api_key=${key}`);
    const b = await t.app.request(`${path}&api_key=${other.key}`);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await a.text()).toBe(await b.text());
    expect([await keyUsage(t.deps, keyId, "2026-11"), await keyUsage(t.deps, other.row.id, "2026-11")]).toEqual([
      before[0] + 1,
      before[1] + 1,
    ]);
  });
});

describe("series, search, vintage dates, ids", () => {
  test("GET /fred/series: FRED's metadata fields", async () => {
    const body = await json(await t.app.request("/fred/series?series_id=UNRATE&file_type=json"));
    expect(body.seriess[0]).toMatchObject({
      id: "UNRATE",
      frequency: "Monthly",
      frequency_short: "M",
      seasonal_adjustment_short: "SA",
      realtime_start: "2026-11-29",
    });
    expect(Object.keys(body.seriess[0])).toEqual([
      "id",
      "realtime_start",
      "realtime_end",
      "title",
      "observation_start",
      "observation_end",
      "frequency",
      "frequency_short",
      "units",
      "units_short",
      "seasonal_adjustment",
      "seasonal_adjustment_short",
      "last_updated",
      "popularity",
      "notes",
    ]);
  });

  test("GET /fred/series/vintagedates: both vintages of UNRATE", async () => {
    const body = await json(await t.app.request("/fred/series/vintagedates?series_id=UNRATE&file_type=json"));
    expect(body).toMatchObject({
      order_by: "vintage_date",
      sort_order: "asc",
      realtime_start: "1776-07-04",
      realtime_end: "9999-12-31",
    });
    expect(body.vintage_dates.length).toBe(2);
    expect(body.vintage_dates[0]).toBe("2026-01-02");
  });

  test("GET /fred/series/search finds FRED codes and state rates by FRED's id pattern", async () => {
    const body = await json(
      await t.app.request("/fred/series/search?search_text=unemployment%20rate&file_type=json&limit=1000"),
    );
    const ids = body.seriess.map((s: any) => s.id);
    expect(ids).toContain("UNRATE");
    expect(body.count).toBeGreaterThanOrEqual(ids.length);
    const byId = await json(
      await t.app.request("/fred/series/search?search_text=TX*&search_type=series_id&file_type=json"),
    );
    expect(byId.seriess.map((s: any) => s.id)).toContain("TXUR");
    const tx = await json(await t.app.request("/fred/series?series_id=TXUR&file_type=json"));
    expect(tx.seriess[0]).toMatchObject({ id: "TXUR", frequency_short: "M" });
    expect(tx.seriess[0].title).toContain("Texas");
  });
});

test("no log line, at debug level, carries a key sent as api_key", () => {
  // Requests log nothing by default (failures log their path, never the query): this guards against that changing.
  expect(logLines.filter((l) => l.includes(key) || l.includes("api_key="))).toEqual([]);
});

describe("402 in FRED's shape", () => {
  test("no key, or a FRED key: 402 with the L402 challenge, the body FRED's error; the key is not echoed", async () => {
    const p = await makePaymentsApp({ testRoute: false });
    try {
      for (const q of ["", "&api_key=abcdefghijklmnopqrstuvwxyz012345"]) {
        const res = await p.app.request(`/fred/series/observations?series_id=UNRATE&file_type=json${q}`);
        expect(res.status).toBe(402);
        expect(res.headers.get("www-authenticate")).toMatch(/^L402 /);
        const text = await res.text();
        expect(text).not.toContain("abcdefghijklmnopqrstuvwxyz012345");
        const body = JSON.parse(text);
        expect(body.error_code).toBe(402);
        expect(body.error_message).toContain("Payment Required.");
      }
      const xml = await p.app.request("/fred/series/observations?series_id=UNRATE");
      expect(xml.status).toBe(402);
      expect(await xml.text()).toContain('<error code="402" message="Payment Required.');
    } finally {
      await p.close();
    }
  });
});
