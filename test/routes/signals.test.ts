// GET /v1/signals/active and GET /v1/signals behind the real key and payment rails, their 200s: listing, filters,
// cursor paging that stays stable while intervals are written (the intervals of test/routes/signal-rows.ts). Refusals
// (400, 401, 402 on both rails, 403, 404) are signals-refusals.test.ts.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { signalListResponseSchema } from "../../src/schemas/signals";
import { extreme, ROWS, ts, signalsApp } from "./signal-rows";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = signalsApp();
const { idOf, store, get } = fx;

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
