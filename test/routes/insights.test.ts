// GET /v1/insights behind the real key and payment rails, grouped by status: facts worked out by hand on series
// written here, the seeded sample data, window bounds at and past their edges, 401, 402 on both rails, 403 for
// premium series, 404 before any payment.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { decodeBase64Json } from "payments";
import { insightsResponseSchema } from "../../src/schemas/insights";
import { detectSignalsFor } from "../../src/services/signal-detection";
import { indicatorId } from "../../db/seed/catalog";
import { testKey } from "../support/keys";
import { fredRows } from "../support/snapshot";
import { APERTURE_CHALLENGE, makePaymentsApp, offlineX402 } from "../support/payments";
import { deriveOnly } from "../support/derive";
import { clearIndicator, clearSeries, monthStarts, writeSeries, type Row } from "../support/series";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: Awaited<ReturnType<typeof makePaymentsApp>>;
let free: Record<string, string>;
let premium: Record<string, string>;
const PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";

beforeAll(async () => {
  t = await makePaymentsApp({
    testRoute: false,
    x402: offlineX402(PAY_TO),
  });
  const db = t.database.db;
  // The unemployment rate of Texas, January to August 2025 (multiples of 0.5: every difference is exact), and three
  // other states in August 2025, in place of the seeded monthly LAUS rates.
  await clearIndicator(db, "bls", "LASST03");
  await writeSeries(
    db,
    "bls",
    "LASST03",
    "48",
    monthStarts("2025-01", 8).map((d, k): Row => [d, [4.0, 4.5, 4.5, 4.0, 4.5, 5.0, 5.5, 6.0][k]]),
  );
  await writeSeries(db, "bls", "LASST03", "06", [["2025-08-01", 5.5]]);
  await writeSeries(db, "bls", "LASST03", "36", [["2025-08-01", 6.0]]);
  await writeSeries(db, "bls", "LASST03", "12", [["2025-08-01", 3.0]]);
  // U6RATE: 25 months moving +0.5 / -0.5, then a jump of 10 points: an open, strong, upward extreme (in place of the
  // seeded FRED history).
  await clearSeries(db, "fred", "U6RATE", "US");
  await writeSeries(
    db,
    "fred",
    "U6RATE",
    "US",
    monthStarts("2024-09", 26).map((d, k): Row => [d, k === 25 ? 18 : k % 2 === 0 ? 8 : 8.5]),
  );
  await detectSignalsFor({ ...t.store, now: () => t.clock.now() }, [
    { indicatorId: indicatorId("fred", "U6RATE"), regionCode: "US" },
  ]);
  // UNRATE, the input of the premium svc:sahm_rule.
  await writeSeries(
    db,
    "fred",
    "UNRATE",
    "US",
    monthStarts("2023-01", 24).map((d, k): Row => [d, 3.5 + (k >= 18 ? 0.5 : 0)]),
  );
  // The one svc: series these tests read, derived from the written UNRATE as the write paths derive it (reads never
  // do); not the others these writes feed (every state's svc:unemployment_gap), which no test here reads.
  await deriveOnly(t.store, new Date("2026-01-15T00:00:00Z"), ["svc:sahm_rule"]);
  free = (await testKey(t)).headers;
  premium = (await testKey(t, { scopes: ["svc-premium"] })).headers;
}, 120_000);
afterAll(() => t?.close());

const get = async (qs: string, headers: Record<string, string> = free) => {
  const res = await t.request(`/v1/insights?${qs}`, { headers });
  return { res, status: res.status, body: (await res.json()) as any };
};
const byKind = (facts: any[]) => Object.fromEntries(facts.map((f) => [f.kind, f]));

describe("200", () => {
  test("facts worked out by hand, ranked by salience; meta and attribution", async () => {
    const { status, body } = await get("indicator=LASST03&region=TX");
    expect(status).toBe(200);
    insightsResponseSchema.parse(body);
    expect(body.meta).toEqual({
      indicator: "LASST03",
      region: "48",
      unit: "percent",
      window: "all",
      observation_count: 8,
      window_start: "2025-01-01",
      window_end: "2025-08-01",
      frequency: "monthly",
      source_attribution: {
        source: "bls",
        agency: "U.S. Bureau of Labor Statistics",
        text: "Source: U.S. Bureau of Labor Statistics.",
        license: null,
      },
      // August 2025 as of the test clock (2026-11-22): 15 months behind, stale since December 2025.
      freshness: {
        newest_period: "2025-08-01",
        cadence: "monthly",
        periods_behind: 15,
        max_periods_behind: 3,
        stale: true,
        stale_from: "2025-12-01",
      },
    });
    expect(body.facts.map((f: any) => [f.kind, f.salience])).toEqual([
      ["watermark_high_distance", 0.615],
      ["longest_run", 0.462],
      ["peer_rank", 0.444],
      ["trend", body.facts[3].salience],
      ["latest_delta", 0.047],
      ["watermark_low_distance", 0],
    ]);
    const f = byKind(body.facts);
    expect(f.latest_delta.text).toBe(
      "The unemployment rate in Texas rose 0.5 percentage points to 6.0% in August 2025, from 5.5% in July 2025.",
    );
    expect(f.watermark_high_distance.text).toBe(
      "The unemployment rate in Texas, at 6.0% in August 2025, is at its highest since January 2025: the worst reading in that time.",
    );
    expect(f.peer_rank.params).toMatchObject({ rank: 1, of: 4, peers: "4 states", tied: true, tone: "negative" });
    expect(f.peer_rank.text).toBe(
      "The unemployment rate in Texas, at 6.0%, was tied for the highest among 4 states in August 2025: the worst among them.",
    );
    expect(f.longest_run.text).toBe(
      "The unemployment rate in Texas has risen for 4 consecutive months, from May 2025 to August 2025: its longest run of rises since January 2025.",
    );
    expect(body.signals).toEqual([]);
  });

  test("a concept resolves as on /v1/observations and is disclosed; the facts are the same", async () => {
    const byCode = await get("indicator=LASST03&region=48");
    const byConcept = await get("indicator=unemployment_rate&region=texas");
    expect(byConcept.status).toBe(200);
    expect(byConcept.body.meta.concept).toEqual({
      code: "unemployment_rate",
      resolved_indicator: "LASST03",
      source: "bls",
    });
    expect(byConcept.body.facts).toEqual(byCode.body.facts);
  });

  test("a window: 2m covers June to August (both ends), and the facts follow", async () => {
    const { body } = await get("indicator=LASST03&region=48&window=2m");
    expect([body.meta.window, body.meta.observation_count, body.meta.window_start]).toEqual(["2m", 3, "2025-06-01"]);
    expect(byKind(body.facts).watermark_low_distance.text).toBe(
      "The unemployment rate in Texas, at 6.0% in August 2025, is 1.0 percentage points above the lowest reading over the past 2 months, 5.0% in June 2025.",
    );
  });

  test("the seeded FRED files: payrolls in May 2026 against April (June-2026 vintage), worked out from PAYEMS.csv", async () => {
    const rows = fredRows("PAYEMS");
    const { date, value } = rows.at(-1)!;
    const { date: previousDate, value: previous } = rows.at(-2)!;
    const { status, body } = await get("indicator=PAYEMS&region=US");
    expect(status).toBe(200);
    const f = byKind(body.facts);
    const change = value! - previous!;
    expect([date, previousDate, change]).toEqual(["2026-05-01", "2026-04-01", 172]);
    expect(f.latest_delta.params).toMatchObject({
      date,
      value,
      previous_date: previousDate,
      previous_value: previous,
      change,
      direction: "up",
      tone: "positive",
    });
    const high = Math.max(...rows.map((r) => r.value ?? -Infinity));
    expect(f.watermark_high_distance.params).toMatchObject({ high });
    expect(body.meta.observation_count).toBe(rows.filter((r) => r.value !== null).length);
    expect(body.meta.source_attribution.text).toBe(
      "Source: U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis.",
    );
  });

  test("the series' active signals, in the InsightSignal shape with vocabulary adjusted for polarity", async () => {
    // The jump is in October 2026, current as of the test clock (2026-11-22): active signals are listed.
    const { body } = await get("indicator=U6RATE");
    expect(body.meta.freshness).toMatchObject({ newest_period: "2026-10-01", stale: false });
    const extreme = body.signals.find((s: any) => s.kind === "extreme");
    expect(extreme).toMatchObject({
      indicator: "U6RATE",
      region: "US",
      kind: "extreme",
      salience: 0.9,
      strength: "strong",
      direction: "up",
      observed_at: "2026-10-01T00:00:00.000Z",
      summary: "Alarming jump since 2026-10-01",
      vocabulary: { glyph: "▲", label: "Alarming jump", tone: "negative" },
      evidence: { move: 10, last_date: "2026-10-01" },
    });
    expect(extreme.text).toBe(
      "Exceptional rise in the U-6 unemployment rate in the United States since October 2026: up 10.0 percentage points in October 2026 from 8.0%, a robust z-score of 13.5 against the previous 24 month-on-month moves.",
    );
  });

  test("a series behind schedule lists no active signals, though its interval is open", async () => {
    // Four months later (2027-03-01) October 2026 is more than a quarter old: the same open interval is not news.
    t.clock.set("2027-03-01T00:00:00Z");
    try {
      const { body } = await get("indicator=U6RATE");
      expect([body.meta.freshness.stale, body.signals]).toEqual([true, []]);
    } finally {
      t.clock.set("2026-11-22T12:00:00Z");
    }
  });

  test("a premium series with premium access, priced as derived", async () => {
    const { status, body } = await get("indicator=svc:sahm_rule", premium);
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({ indicator: "svc:sahm_rule", region: "US", unit: "percentage points" });
    expect(body.meta.source_attribution.text).toBe(
      "Computed by this service from UNRATE (U.S. Bureau of Labor Statistics, retrieved from FRED, Federal Reserve Bank of St. Louis).",
    );
  });
});

describe("400", () => {
  test("window bounds: accepted at the maximum, refused one past it; other forms refused", async () => {
    for (const w of ["all", "1d", "365250d", "12000m", "1000y"])
      expect({ w, status: (await get(`indicator=LASST03&region=48&window=${w}`)).status }).toEqual({ w, status: 200 });
    for (const w of ["0d", "365251d", "12001m", "1001y", "012m", "12M", "1.5y", "-1y", "12w", "", "all%20"]) {
      const { status, body } = await get(`indicator=LASST03&region=48&window=${w}`);
      expect({ w, status, code: body.error?.code, parameter: body.error?.details?.parameter }).toEqual({
        w,
        status: 400,
        code: "INVALID_PARAMETER",
        parameter: "window",
      });
    }
  });
  test("a missing indicator, a repeated parameter, a concept without region", async () => {
    expect((await get("region=48")).body.error.details.parameter).toBe("indicator");
    expect((await get("indicator=LASST03&indicator=UNRATE")).status).toBe(400);
    const concept = await get("indicator=unemployment_rate");
    expect([concept.status, concept.body.error.details.parameter]).toEqual([400, "region"]);
  });
});

describe("401, 402, 403", () => {
  test("a bad key is 401", async () => {
    const { status, body } = await get("indicator=LASST03&region=48", {
      authorization: "Bearer svc_live_not-a-real-key",
    });
    expect([status, body.error.code]).toEqual([401, "INVALID_API_KEY"]);
  });
  test("no credential: 402 with both rails, priced like observations (0.01; 0.05 for svc: series)", async () => {
    for (const [qs, amount] of [
      ["indicator=LASST03&region=48", "10000"],
      ["indicator=svc:sahm_rule", "50000"],
    ] as const) {
      const { res, body } = await get(qs, {});
      expect(res.status).toBe(402);
      expect(body.error.code).toBe("PAYMENT_REQUIRED");
      const required = decodeBase64Json(res.headers.get("payment-required")!) as any;
      expect(required.accepts[0]).toMatchObject({ scheme: "exact", amount, payTo: PAY_TO });
      expect(required.resource.url).toEndWith(`/v1/insights?${qs}`);
      expect(res.headers.get("www-authenticate")).toMatch(APERTURE_CHALLENGE);
    }
  });
  test("a premium series without premium access: 403 CATEGORY_NOT_ALLOWED", async () => {
    const { status, body } = await get("indicator=svc:sahm_rule");
    expect([status, body.error.code]).toEqual([403, "CATEGORY_NOT_ALLOWED"]);
  });
});

describe("404, free", () => {
  test("unknown indicator, region not offered, offered but not held, concept not curated for the kind", async () => {
    for (const qs of [
      "indicator=NOPE_NOT_A_CODE",
      "indicator=LASST03&region=US",
      "indicator=LASST03&region=01",
      "indicator=gdp&region=48",
    ]) {
      const { res, body } = await get(qs, {});
      expect({ qs, status: res.status, code: body.error.code, paid: res.headers.get("payment-required") }).toEqual({
        qs,
        status: 404,
        code: "RESOURCE_NOT_FOUND",
        paid: null,
      });
    }
  });
});
