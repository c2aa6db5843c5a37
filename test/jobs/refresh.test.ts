// Scheduled refresh: one pg-boss cron schedule per source from configuration (defaults after each agency's release
// times, REFRESH_SCHEDULES overrides, `off` removes one); a refresh run revises held series (a changed value becomes a
// new revision), recomputes the derived svc: series whose inputs changed, and is recorded per source, which
// /api/health reports with the queues' depth.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { findSeries } from "../../db/repos/observations";
import { indicatorId } from "../../db/seed/catalog";
import { REFRESH_QUEUE } from "../../src/jobs/queues";
import { healthReportSchema } from "../../src/schemas/discovery";
import { fredUs, makeJobsTestApp, waitFor, type JobsTestApp } from "../support/jobs";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(120_000);

const haveData = sharedDataPath("fred-macro-us", "UNRATE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));
const d = haveData ? describe : describe.skip;

let t: JobsTestApp;
beforeAll(async () => {
  if (!haveData) return;
  t = await makeJobsTestApp({
    env: { REFRESH_SCHEDULES: "census=off; fred=0 18 * * 1-5", REFRESH_TZ: "America/Chicago" },
    unheld: fredUs("AHETPI", "CPIAUCSL"),
  });
}, 120_000);
afterAll(() => t?.close());

const CPI = indicatorId("fred", "CPIAUCSL");
const REAL_EARNINGS = "svc:real_avg_hourly_earnings";
const REAL = indicatorId("svc", REAL_EARNINGS);

async function health() {
  const r = await t.getJson("/api/health");
  expect(r.status).toBe(200);
  return healthReportSchema.parse(r.body);
}

d("refresh schedules", () => {
  test("one cron schedule per configured source, in REFRESH_TZ; a source set off has none", async () => {
    const schedules = (await t.jobs.boss!.getSchedules(REFRESH_QUEUE)).map((s) => [s.key, s.cron, s.timezone, s.data]);
    expect(schedules.sort()).toEqual([
      ["bls", "45 8 * * 1-5", "America/Chicago", { source: "bls" }],
      ["fred", "0 18 * * 1-5", "America/Chicago", { source: "fred" }],
      ["worldbank", "0 5 * * 0", "America/Chicago", { source: "worldbank" }],
    ]);
  });
});

d("a refresh run", () => {
  test("revises held series, recomputes the svc: series fed by them, and is recorded per source for /api/health", async () => {
    // Provision both inputs of the real-earnings series (202, then held): the provisioning job that writes the second
    // one derives it (reads never do), so it is read once that job is done.
    for (const code of ["AHETPI", "CPIAUCSL"])
      expect((await t.getJson(`/v1/observations?indicator=${code}&region=US`)).status).toBe(202);
    await waitFor(
      "both held",
      async () => (await t.getJson("/v1/observations/latest?indicators=AHETPI,CPIAUCSL&region=US")).status === 200,
    );
    const realSeptember = () =>
      t.getJson(`/v1/observations?indicator=${REAL_EARNINGS}&region=US&start_date=2025-09-01&end_date=2025-09-01`);
    const before = await waitFor("the real-earnings series derived by the provisioning job", async () => {
      const r = await realSeptember();
      return r.status === 200 ? r : undefined;
    });
    const derivedVersion = (await findSeries(t.database.db, REAL, "US"))!.version;

    // The upstream revised every CPI month of 2025 up by one point.
    const revise = (rows: { date: string; value: number | null }[]) =>
      rows.map((r) => (r.date >= "2025-01-01" && r.value !== null ? { ...r, value: r.value + 1 } : r));
    t.fetcher.heldForRefresh = [{ source: "fred", indicatorId: CPI, code: "CPIAUCSL", region: "US" }];
    t.fetcher.revise = revise;
    await t.jobs.refreshNow("fred");
    const report = await waitFor("the fred refresh to be recorded", async () => {
      const h = await health();
      return h.jobs?.refresh.find((r) => r.source === "fred" && r.status === "ok") ? h : undefined;
    });
    expect(report.jobs!.refresh.find((r) => r.source === "fred")).toEqual({
      source: "fred",
      schedule: "0 18 * * 1-5",
      timezone: "America/Chicago",
      status: "ok",
      last_started_at: "2026-11-22T12:00:00.000Z",
      last_finished_at: "2026-11-22T12:00:00.000Z",
      last_success_at: "2026-11-22T12:00:00.000Z",
      changed_series: 1,
      error: null,
    });
    expect(report.jobs!.refresh.find((r) => r.source === "census")).toMatchObject({ schedule: null, status: "never" });
    expect(report.jobs!.runs_here).toBe(true);
    expect(report.jobs!.queues!.map((q) => q.queue)).toEqual([
      "provision",
      "provision-lost",
      "refresh",
      "briefing",
      "detect",
      "billing",
    ]);

    // The revision: September 2025 has revisions 1 and 2, one point apart.
    const revisions = await t.getJson(
      "/v1/observations?indicator=CPIAUCSL&region=US&include_revisions=true&start_date=2025-09-01&end_date=2025-09-01",
    );
    const [r1, r2] = [...revisions.body.data].sort((a, b) => a.revision - b.revision);
    expect([r1.date, r1.revision, r2.date, r2.revision]).toEqual(["2025-09-01", 1, "2025-09-01", 2]);
    expect(r2.value).toBeCloseTo(r1.value + 1, 10);
    // The derived series was recomputed by the refresh itself (before anything read it), and reads the revision.
    expect((await findSeries(t.database.db, REAL, "US"))!.version).toBeGreaterThan(derivedVersion);
    const after = await realSeptember();
    expect(after.body.data[0].value).toBeLessThan(before.body.data[0].value);

    // A refresh that changes nothing records zero changed series (health's jobs section is read at most once a
    // second, so the first run's record may still be shown for a moment: the wait fails if the second never shows).
    await t.jobs.refreshNow("fred");
    await waitFor("the second fred refresh", () => t.fetcher.refreshed.filter((s) => s === "fred").length === 2);
    const second = await waitFor("it to be recorded with nothing changed", async () =>
      (await health()).jobs!.refresh.find((r) => r.source === "fred" && r.status === "ok" && r.changed_series === 0),
    );
    expect(second).toMatchObject({ status: "ok", changed_series: 0, error: null });
  });

  test("a failing refresh is recorded with its error (and retried later by the queue)", async () => {
    t.fetcher.refreshFails.add("bls");
    await t.jobs.refreshNow("bls");
    const row = await waitFor("the bls failure", async () =>
      (await health()).jobs!.refresh.find((r) => r.source === "bls" && r.status === "failed"),
    );
    expect(row).toMatchObject({
      status: "failed",
      error: "bls answered 503 Service Unavailable",
      last_success_at: null,
      changed_series: null,
    });
  });
});
