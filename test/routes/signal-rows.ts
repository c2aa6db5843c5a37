// The signal intervals test/routes/signals*.test.ts store (ROWS, detected at AT), with evidence shaped as the
// detectors write it.
import { afterAll, beforeAll } from "bun:test";
import { applyIntervalChanges, type NewSignalRow } from "../../db/repos/signals";
import { indicatorId } from "../../db/seed/catalog";
import { testKey } from "../support/keys";
import { makePaymentsApp, offlineX402 } from "../support/payments";

export const AT = new Date("2026-11-01T00:00:00Z");
export const ts = (d: string) => new Date(`${d}T00:00:00Z`);

export const extreme = (date: string, move: number, z: number) => ({
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
export const ROWS: Record<string, Omit<NewSignalRow, "detectedAt" | "lastSeenAt">> = {
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

/** The payments app of the signals tests with ROWS stored and a premium key (`idOf`: each row's signal id). A function, so each file gets its own (test files may share one module registry). */
export function signalsApp() {
  let t: Awaited<ReturnType<typeof makePaymentsApp>>;
  let premium: Record<string, string> = {};
  const idOf: Record<string, string> = {};
  async function store(rows: Omit<NewSignalRow, "detectedAt" | "lastSeenAt">[]) {
    await applyIntervalChanges(t.database.db, {
      inserts: rows.map((r) => ({ ...r, detectedAt: AT, lastSeenAt: AT })),
      updates: [],
      deletes: [],
    });
  }
  async function get(path: string, headers: Record<string, string> = premium) {
    const res = await t.request(path, { headers });
    return { res, status: res.status, body: (await res.json()) as any };
  }
  beforeAll(async () => {
    t = await makePaymentsApp({
      testRoute: false,
      x402: offlineX402(SIGNALS_PAY_TO),
    });
    await store(Object.values(ROWS));
    premium = (await testKey(t, { scopes: ["svc-premium"] })).headers;
    const listed = (await (await t.request("/v1/signals?strength=weak&limit=500", { headers: premium })).json()) as any;
    for (const s of listed.data) {
      const name = Object.entries(ROWS).find(
        ([, r]) => r.validFrom.toISOString() === s.valid_from && r.type === s.type && r.regionCode === s.region.code,
      )![0];
      idOf[name] = s.id;
    }
  }, 120_000);
  afterAll(() => t?.close());
  return {
    get t() {
      return t;
    },
    get premium() {
      return premium;
    },
    idOf,
    store,
    get,
  };
}

export const SIGNALS_PAY_TO = "0x4374713F62239c69e6912a4D7235B2a365397004";
