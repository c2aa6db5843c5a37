// GET /v1/signals/active and GET /v1/signals behind the real key and payment rails, grouped by status: listing,
// filters, cursor paging that stays stable while intervals are written, limits at and past their edges, tampered
// and foreign cursors, 401, 402 on both rails, 403 for keys without premium access, free 404s.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeBase64Json } from "payments";
import { applyIntervalChanges, type NewSignalRow } from "../../db/repos/signals";
import { indicatorId } from "../../db/seed/catalog";
import { signalListResponseSchema } from "../../src/schemas/signals";
import { testKey } from "../support/keys";
import { APERTURE_CHALLENGE, makePaymentsApp } from "../support/payments";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let premium: Record<string, string>;
const PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";
const AT = new Date("2026-11-01T00:00:00Z");
const ts = (d: string) => new Date(`${d}T00:00:00Z`);

const extreme = (date: string, move: number, z: number) => ({
  statistic: "robust_z",
  date,
  z,
  threshold: 3.5,
  measure: "change",
  move,
  from_value: 4,
  baseline_moves: 120,
  decimals: 1,
  last_date: date,
});
const accel = (date: string, z: number) => ({
  statistic: "robust_z",
  date,
  z,
  threshold: 2,
  growth: "year_over_year_change",
  growth_now: 1.2,
  growth_before: 0.2,
  span_periods: 6,
  span_frequency: "monthly",
  decimals: 1,
  last_date: date,
});
const brk = (date: string) => ({
  method: "PELT",
  measure: "monthly percent change (log)",
  break_date: date,
  mean_before: -2.5,
  mean_after: 1.5,
  turning_point: true,
  decimals: 0,
  last_date: date,
});

/**
 * The intervals stored for these tests, by a short name (the series, type and start). Active means open on a series
 * that is current as of the test clock (2026-11-22): for a monthly series, a last confirmed month of August 2026 or
 * later (src/domain/freshness.ts). payems_break is open since May 2020 and fl_stale since July 2026: neither is.
 */
const ROWS: Record<string, Omit<NewSignalRow, "detectedAt" | "lastSeenAt">> = {
  payems_extreme: {
    indicatorId: indicatorId("fred", "PAYEMS"),
    regionCode: "US",
    type: "extreme",
    direction: "down",
    strength: "strong",
    validFrom: ts("2020-04-01"),
    validTo: ts("2020-05-01"),
    evidence: { ...extreme("2020-04-01", -13.6, -241), measure: "percent_change" },
  },
  payems_break: {
    indicatorId: indicatorId("fred", "PAYEMS"),
    regionCode: "US",
    type: "trend_break",
    direction: "up",
    strength: "neutral",
    validFrom: ts("2020-05-01"),
    validTo: null,
    evidence: brk("2020-05-01"),
  },
  unrate_sahm: {
    indicatorId: indicatorId("fred", "UNRATE"),
    regionCode: "US",
    type: "trend_break",
    direction: "up",
    strength: "neutral",
    validFrom: ts("2024-07-01"),
    validTo: ts("2024-10-01"),
    evidence: {
      rule: "sahm_rule",
      statistic: 0.57,
      threshold: 0.5,
      three_month_average: 4.17,
      low_of_previous_12_months: 3.6,
      decimals: 1,
      last_date: "2024-09-01",
    },
  },
  tx_accel: {
    indicatorId: indicatorId("bls", "LASST03"),
    regionCode: "48",
    type: "acceleration",
    direction: "up",
    strength: "weak",
    validFrom: ts("2025-03-01"),
    validTo: null,
    evidence: accel("2026-10-01", 2.4),
  },
  ca_extreme: {
    indicatorId: indicatorId("bls", "LASST03"),
    regionCode: "06",
    type: "extreme",
    direction: "up",
    strength: "strong",
    validFrom: ts("2026-09-01"),
    validTo: null,
    evidence: extreme("2026-09-01", 1.5, 12.1),
  },
  fl_stale: {
    indicatorId: indicatorId("bls", "LASST03"),
    regionCode: "12",
    type: "extreme",
    direction: "up",
    strength: "neutral",
    validFrom: ts("2026-07-01"),
    validTo: null,
    evidence: extreme("2026-07-01", 0.9, 4.1),
  },
  spread_inversion: {
    indicatorId: indicatorId("fred", "T10Y2Y"),
    regionCode: "US",
    type: "extreme",
    direction: "down",
    strength: "strong",
    validFrom: ts("2022-07-06"),
    validTo: ts("2024-09-06"),
    evidence: {
      rule: "yield_curve_inversion",
      statistic: -1.08,
      threshold: 0,
      deepest_date: "2023-07-03",
      inverted_observations: 540,
      decimals: 2,
      last_date: "2024-09-05",
    },
  },
  harris_accel: {
    indicatorId: indicatorId("bls", "LAUCN03"),
    regionCode: "48201",
    type: "acceleration",
    direction: "down",
    strength: "neutral",
    validFrom: ts("2025-01-01"),
    validTo: null,
    evidence: accel("2026-08-01", -3.1),
  },
};
let idOf: Record<string, string> = {};

async function store(rows: Omit<NewSignalRow, "detectedAt" | "lastSeenAt">[]) {
  await applyIntervalChanges(t.database.db, {
    inserts: rows.map((r) => ({ ...r, detectedAt: AT, lastSeenAt: AT })),
    updates: [],
    deletes: [],
  });
}

beforeAll(async () => {
  t = await makePaymentsApp({
    testRoute: false,
    x402: {
      networks: [{ network: "eip155:84532", payTo: PAY_TO, rpcUrl: null }],
      settlement: { mode: "facilitator", url: "http://127.0.0.1:9" },
    },
  });
  await store(Object.values(ROWS));
  const listed = (await (
    await t.request("/v1/signals?strength=weak&limit=500", {
      headers: (premium = (await testKey(t, { scopes: ["svc-premium"] })).headers),
    })
  ).json()) as any;
  for (const s of listed.data) {
    const name = Object.entries(ROWS).find(
      ([, r]) => r.validFrom.toISOString() === s.valid_from && r.type === s.type && r.regionCode === s.region.code,
    )![0];
    idOf[name] = s.id;
  }
}, 120_000);
afterAll(() => t?.close());

const get = async (path: string, headers: Record<string, string> = premium) => {
  const res = await t.request(path, { headers });
  return { res, status: res.status, body: (await res.json()) as any };
};
const names = (body: any) => body.data.map((s: any) => Object.entries(idOf).find(([, id]) => id === s.id)?.[0] ?? s.id);

describe("200: active signals", () => {
  test("open intervals of current series, of at least neutral strength, newest first, with the Signal shape", async () => {
    const { status, body } = await get("/v1/signals/active");
    expect(status).toBe(200);
    signalListResponseSchema.parse(body);
    // Not payems_break (May 2020) nor fl_stale (July 2026: four months behind); harris_accel's August 2026 is the edge.
    expect(names(body)).toEqual(["ca_extreme", "harris_accel"]);
    expect(body.meta).toEqual({ count: 2, limit: 100, filters: { strength: "neutral" } });
    expect(body.data[0]).toEqual({
      id: idOf.ca_extreme,
      indicator: {
        code: "LASST03",
        name: "Unemployment Rate by State (LAUS, seasonally adjusted)",
        category: "labor",
        unit: "percent",
        frequency: "monthly",
        source: { slug: "bls", name: "U.S. Bureau of Labor Statistics" },
      },
      region: { code: "06", name: "California" },
      type: "extreme",
      strength: "strong",
      direction: "up",
      valid_from: "2026-09-01T00:00:00.000Z",
      valid_to: null,
      detected_at: "2026-11-01T00:00:00.000Z",
      last_seen_at: "2026-11-01T00:00:00.000Z",
      evidence: ROWS.ca_extreme.evidence,
      vocabulary: { glyph: "▲", label: "Alarming jump", tone: "negative" },
      text: "Exceptional rise in the unemployment rate in California since September 2026: up 1.5 percentage points in September 2026 from 4.0%, a robust z-score of 12.1 against the previous 120 month-on-month moves.",
    });
  });
  test("minimum strength, and filters repeatable or comma-separated, codes or concepts, regions as people type them", async () => {
    expect(names((await get("/v1/signals/active?strength=weak")).body)).toEqual([
      "ca_extreme",
      "tx_accel",
      "harris_accel",
    ]);
    expect(names((await get("/v1/signals/active?strength=strong")).body)).toEqual(["ca_extreme"]);
    const comma = await get("/v1/signals/active?strength=weak&type=acceleration,trend_break");
    const repeated = await get("/v1/signals/active?strength=weak&type=acceleration&type=trend_break");
    expect(names(comma.body)).toEqual(["tx_accel", "harris_accel"]);
    expect(repeated.body).toEqual(comma.body);
    const concept = await get(
      "/v1/signals/active?strength=weak&indicator=unemployment_rate&region=TX,california,48201",
    );
    expect(names(concept.body)).toEqual(["ca_extreme", "tx_accel", "harris_accel"]);
    expect(concept.body.meta.filters).toEqual({
      indicator: ["LASST03", "LAUCN03", "LAUCN03A", "LAUST03A", "SL.UEM.TOTL.ZS", "UNRATE"],
      region: ["48", "06", "48201"],
      strength: "weak",
    });
    // The May 2020 trend break is still open in the data, which end there: not news, so not active.
    expect(names((await get("/v1/signals/active?indicator=payems")).body)).toEqual([]);
    const history = (await get("/v1/signals?indicator=payems&active=false")).body;
    expect(names(history)).toEqual(["payems_break", "payems_extreme"]);
    expect(history.data[0].text).toEndWith(
      " Its data end in May 2020, behind schedule for a monthly series: not current news.",
    );
    expect(history.data[1].text).not.toContain("behind schedule");
  });
});

describe("200: history", () => {
  test("every interval, open and closed; active, from and to narrow it", async () => {
    expect(names((await get("/v1/signals?strength=weak")).body)).toEqual([
      "ca_extreme",
      "fl_stale",
      "tx_accel",
      "harris_accel",
      "unrate_sahm",
      "spread_inversion",
      "payems_break",
      "payems_extreme",
    ]);
    expect(names((await get("/v1/signals?strength=weak&active=false")).body)).toEqual([
      "fl_stale",
      "unrate_sahm",
      "spread_inversion",
      "payems_break",
      "payems_extreme",
    ]);
    expect(names((await get("/v1/signals?strength=weak&active=true")).body)).toEqual([
      "ca_extreme",
      "tx_accel",
      "harris_accel",
    ]);
    expect(names((await get("/v1/signals?strength=weak&from=2024-01-01")).body)).toEqual([
      "ca_extreme",
      "fl_stale",
      "tx_accel",
      "harris_accel",
      "unrate_sahm",
      "spread_inversion",
      "payems_break",
    ]);
    expect(names((await get("/v1/signals?strength=weak&to=2020-12-31")).body)).toEqual([
      "payems_break",
      "payems_extreme",
    ]);
    expect(names((await get("/v1/signals?from=2020-04-15&to=2020-04-30")).body)).toEqual(["payems_extreme"]);
    const sahm = (await get("/v1/signals?indicator=UNRATE")).body.data[0];
    expect(sahm.vocabulary).toEqual({ glyph: "↗", label: "Sahm rule recession signal", tone: "negative" });
    expect(sahm.text).toBe(
      "The Sahm rule signalled a recession from July 2024 to October 2024 for the unemployment rate in the United States: at its peak the three-month average unemployment rate, 4.17%, was 0.57 percentage points above its low of the previous 12 months (3.60%); the rule triggers at 0.50.",
    );
  });

  test("paging by cursor: every interval once, in order, while new ones are written between pages", async () => {
    const seen: string[] = [];
    let page = await get("/v1/signals?strength=weak&limit=2");
    seen.push(...names(page.body));
    expect(page.body.meta.count).toBe(2);
    // Written after the first page: one newer than every row (it belongs before the cursor) and one older.
    await store([
      { ...ROWS.ca_extreme, regionCode: "36", validFrom: ts("2026-10-01"), evidence: extreme("2026-10-01", 2, 9) },
      { ...ROWS.payems_extreme, validFrom: ts("2019-01-01"), validTo: ts("2019-02-01") },
    ]);
    while (page.body.meta.next_cursor) {
      page = await get(`/v1/signals?strength=weak&limit=2&cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
      expect(page.status).toBe(200);
      seen.push(...names(page.body));
    }
    const originals = [
      "ca_extreme",
      "fl_stale",
      "tx_accel",
      "harris_accel",
      "unrate_sahm",
      "spread_inversion",
      "payems_break",
      "payems_extreme",
    ];
    expect(seen.slice(0, 8)).toEqual(originals);
    expect(seen).toHaveLength(9);
    expect(new Set(seen).size).toBe(9);
    // The page size may change between pages of one query.
    const first = await get("/v1/signals?strength=weak&limit=1");
    const next = await get(
      `/v1/signals?strength=weak&limit=3&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
    );
    expect(next.status).toBe(200);
  });

  test("limit at its bounds: 1 and 500", async () => {
    const one = await get("/v1/signals?limit=1");
    expect([one.status, one.body.meta.count, one.body.meta.limit, typeof one.body.meta.next_cursor]).toEqual([
      200,
      1,
      1,
      "string",
    ]);
    const max = await get("/v1/signals?limit=500&strength=weak");
    expect([max.status, max.body.meta.limit, max.body.meta.next_cursor]).toEqual([200, 500, undefined]);
  });
});

describe("400", () => {
  const expect400 = async (path: string, parameter: string) => {
    const { status, body } = await get(path);
    expect({ path, status, code: body.error?.code, parameter: body.error?.details?.parameter }).toEqual({
      path,
      status: 400,
      code: "INVALID_PARAMETER",
      parameter,
    });
  };
  test("limit past its bounds, and not a number", async () => {
    for (const v of ["0", "501", "-1", "abc", "", "1.5"]) {
      await expect400(`/v1/signals/active?limit=${v}`, "limit");
      await expect400(`/v1/signals?limit=${v}`, "limit");
    }
  });
  test("enums, dates, booleans, list sizes", async () => {
    await expect400("/v1/signals/active?strength=huge", "strength");
    await expect400("/v1/signals/active?type=bogus", "type");
    await expect400("/v1/signals/active?type=extreme,bogus", "type");
    await expect400("/v1/signals/active?type=,", "type");
    await expect400(`/v1/signals/active?region=${Array.from({ length: 101 }, (_, k) => `r${k}`).join(",")}`, "region");
    await expect400("/v1/signals?from=2024-02-30", "from");
    await expect400("/v1/signals?from=2025-01-02&to=2025-01-01", "from");
    await expect400("/v1/signals?active=yes", "active");
  });
  test("a tampered, foreign or made-up cursor", async () => {
    const cursor = (await get("/v1/signals?strength=weak&limit=1")).body.meta.next_cursor as string;
    const [payload, sum] = cursor.split(".");
    const altered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), f: "2030-01-01T00:00:00.000Z" }),
    ).toString("base64url");
    await expect400(`/v1/signals?strength=weak&cursor=${altered}.${sum}`, "cursor");
    await expect400(
      `/v1/signals?strength=weak&cursor=${payload}.${sum.slice(0, -1)}${sum.endsWith("A") ? "B" : "A"}`,
      "cursor",
    );
    // Foreign: another endpoint, or other filters.
    await expect400(`/v1/signals/active?strength=weak&cursor=${cursor}`, "cursor");
    await expect400(`/v1/signals?strength=strong&cursor=${cursor}`, "cursor");
    await expect400("/v1/signals?cursor=not-a-cursor", "cursor");
  });
});

describe("401, 402, 403", () => {
  test("a bad key is 401", async () => {
    const { status, body } = await get("/v1/signals/active", { "x-api-key": "svc_live_not-a-real-key" });
    expect([status, body.error.code]).toEqual([401, "INVALID_API_KEY"]);
  });
  test("no credential: 402 with both rails, 0.05 per request", async () => {
    for (const path of ["/v1/signals/active", "/v1/signals?strength=weak"]) {
      const { res, body } = await get(path, {});
      expect(res.status).toBe(402);
      expect(body.error.code).toBe("PAYMENT_REQUIRED");
      const required = decodeBase64Json(res.headers.get("payment-required")!) as any;
      expect(required.accepts[0]).toMatchObject({ scheme: "exact", amount: "50000", payTo: PAY_TO });
      expect(res.headers.get("www-authenticate")).toMatch(APERTURE_CHALLENGE);
    }
  });
  test("a key without premium access: 403 CATEGORY_NOT_ALLOWED on both endpoints", async () => {
    const free = (await testKey(t)).headers;
    for (const path of ["/v1/signals/active", "/v1/signals"]) {
      const { status, body } = await get(path, free);
      expect([path, status, body.error.code]).toEqual([path, 403, "CATEGORY_NOT_ALLOWED"]);
    }
  });
  test("a key restricted to Texas: its own region listed; California, or every region (no filter), 403 REGION_NOT_ALLOWED", async () => {
    const texas = (await testKey(t, { scopes: ["svc-premium"], allowedRegions: ["48"] })).headers;
    const own = await get("/v1/signals?region=48&strength=weak", texas);
    expect(own.status).toBe(200);
    expect(own.body.data.map((s: any) => s.region.code)).toEqual(["48"]);
    for (const path of [
      "/v1/signals?region=06",
      "/v1/signals/active?region=06",
      "/v1/signals?region=48,06",
      "/v1/signals",
      "/v1/signals/active?indicator=LASST03",
    ]) {
      const { status, body } = await get(path, texas);
      expect([path, status, body.error.code]).toEqual([path, 403, "REGION_NOT_ALLOWED"]);
      expect(body.data).toBeUndefined();
    }
    expect((await get("/v1/signals", texas)).body.error.message).toBe(
      "This key reads only regions 48: name them with 'region' (region=48) rather than asking for every region.",
    );
  });
});

describe("404, free", () => {
  test("an unknown indicator or region is not charged", async () => {
    for (const path of [
      "/v1/signals/active?indicator=NOPE_NOT_A_CODE",
      "/v1/signals?region=atlantis",
      "/v1/signals?indicator=PAYEMS,NOPE_NOT_A_CODE",
    ]) {
      const { res, body } = await get(path, {});
      expect({ path, status: res.status, code: body.error.code, paid: res.headers.get("payment-required") }).toEqual({
        path,
        status: 404,
        code: "RESOURCE_NOT_FOUND",
        paid: null,
      });
    }
  });
});
