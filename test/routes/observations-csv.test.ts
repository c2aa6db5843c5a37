// Observations as CSV (Accept: text/csv): the JSON page's rows with a header row, its metadata in X- headers, the
// same paging, price and metering; the page memo keeps JSON and CSV apart.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { acceptedFormat } from "../../src/http/content-coding";
import { usageMonth } from "../../src/domain/access";
import { keyUsage } from "../../src/services/keys";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

let t: TestApp;
let headers: Record<string, string>;
let keyId: string;
const CSV = { accept: "text/csv" };

beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true, config: { seriesCacheRevalidateMs: 3_600_000 } });
  await t.request("/v1/indicators/UNRATE");
  const key = await testKey(t, { rateLimitPerMinute: 1000 });
  headers = key.headers;
  keyId = key.row.id;
});
afterAll(() => t?.close());

/** CSV text into header and rows of strings. */
const parse = (text: string) => {
  const [head, ...lines] = text.trimEnd().split("\r\n");
  return { columns: head!.split(","), rows: lines.map((l) => l.split(",")) };
};

describe("Accept negotiation", () => {
  test("CSV only when text/csv is preferred: named over JSON, or at least equal to a wildcard", () => {
    expect(acceptedFormat("text/csv")).toBe("csv");
    expect(acceptedFormat("text/csv, */*;q=0.8")).toBe("csv");
    expect(acceptedFormat("text/*")).toBe("csv");
    expect(acceptedFormat("application/json, text/csv")).toBe("json");
    expect(acceptedFormat("application/json;q=0.5, text/csv")).toBe("csv");
    expect(acceptedFormat("text/csv;q=0, */*")).toBe("json");
    expect(acceptedFormat("text/html,application/xhtml+xml,*/*;q=0.8")).toBe("json");
    expect(acceptedFormat(undefined)).toBe("json");
  });
});

describe("GET /v1/observations with Accept: text/csv", () => {
  test("the JSON page's rows, same paging; metadata in headers; missing values empty", async () => {
    const path = "/v1/observations?indicator=UNRATE&region=US&limit=5&offset=18&order=asc";
    const json = await t.getJson(path, { headers });
    const res = await t.request(path, { headers: { ...headers, ...CSV } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("vary")).toBe("Accept, Accept-Encoding");
    const { columns, rows } = parse(await res.text());
    expect(columns).toEqual([
      "date",
      "value",
      "indicator",
      "region",
      "unit",
      "source",
      "source_updated_at",
      "is_preliminary",
      "revision",
    ]);
    expect(rows.map((r) => [r[0], r[1] === "" ? null : Number(r[1])])).toEqual(
      json.body.data.map((d: any) => [d.date, d.value]),
    );
    expect({
      total: res.headers.get("x-total-count"),
      limit: res.headers.get("x-limit"),
      offset: res.headers.get("x-offset"),
      indicator: res.headers.get("x-indicator"),
      region: res.headers.get("x-region"),
      frequency: res.headers.get("x-frequency"),
    }).toEqual({
      total: String(json.body.meta.total),
      limit: "5",
      offset: "18",
      indicator: "UNRATE",
      region: "US",
      frequency: "monthly",
    });
    // October 2025 has no value (the shipped UNRATE's real gap): an empty field. November is the June-2026 vintage's
    // 4.5 (4.6 in January's).
    const gap = parse(
      await (
        await t.request(
          "/v1/observations?indicator=UNRATE&region=US&order=asc&start_date=2025-08-01&end_date=2025-11-01",
          { headers: { ...headers, ...CSV } },
        )
      ).text(),
    );
    expect(gap.rows.map((r) => r.slice(0, 2))).toEqual([
      ["2025-08-01", "4.3"],
      ["2025-09-01", "4.4"],
      ["2025-10-01", ""],
      ["2025-11-01", "4.5"],
    ]);
  });

  test("resampled buckets have their own columns; a transform is named in X-Transform", async () => {
    const res = await t.request(
      "/v1/observations?indicator=UNRATE&region=US&frequency=quarterly&transform=yoy&limit=2",
      { headers: { ...headers, ...CSV } },
    );
    expect(res.status).toBe(200);
    expect(parse(await res.text()).columns).toEqual(["period_start", "period_end", "period_type", "value"]);
    expect(res.headers.get("x-transform")).toBe("yoy");
    expect(res.headers.get("x-frequency")).toBe("quarterly");
  });

  test("priced and metered like JSON: each served page once; errors stay JSON envelopes", async () => {
    const month = usageMonth(t.clock.now());
    const before = await keyUsage(t.deps, keyId, month);
    const path = "/v1/observations?indicator=UNRATE&region=US&limit=3";
    for (let i = 0; i < 3; i++) expect((await t.request(path, { headers: { ...headers, ...CSV } })).status).toBe(200);
    expect(await keyUsage(t.deps, keyId, month)).toBe(before + 3);
    const missing = await t.request("/v1/observations?indicator=NOPE", { headers: { ...headers, ...CSV } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe("RESOURCE_NOT_FOUND");
    const anonymous = await t.request(path, { headers: CSV });
    expect(anonymous.status).toBe(401);
  });

  test("the page memo answers CSV with CSV and JSON with JSON for the same URL", async () => {
    const path = "/v1/observations?indicator=UNRATE&region=US&limit=4";
    const csv = await (await t.request(path, { headers: { ...headers, ...CSV } })).text();
    const json = await (await t.request(path, { headers })).text();
    const served = t.app.pages!.served;
    expect(await (await t.request(path, { headers: { ...headers, ...CSV } })).text()).toBe(csv);
    expect(await (await t.request(path, { headers })).text()).toBe(json);
    expect(t.app.pages!.served).toBe(served + 2);
    expect(csv.startsWith("date,value,")).toBe(true);
    expect(json.startsWith("{")).toBe(true);
  });
});
