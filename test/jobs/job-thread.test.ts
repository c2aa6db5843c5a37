// The job thread (src/startup/job-thread.ts, driven by src/startup/job-start.ts) as `svc serve` runs it with JOBS=on,
// on the run's database (PGlite: its statements reach the test's PGlite over a port, as they reach the database's
// thread; PostgreSQL: a pool of its own). The app's own engine only enqueues, so whatever job runs, runs on that
// thread: a series offered but not held is fetched from the fake upstream and served, the server's caches hear the
// thread's writes, detection drains what it wrote, health says jobs run here, and a stop ends the thread and lets go
// of what it held.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { checkHealth } from "../../src/services/health";
import { observationsResponseSchema } from "../../src/schemas/observations";
import type { SeriesChange } from "../../db/events";
import { FakeUpstream } from "../support/fake-upstream";
import { testBackend } from "../support/db";
import { fredUs, makeUpstreamJobsTestApp, waitFor } from "../support/jobs";
import { fredCsv } from "../support/upstream-data";

setDefaultTimeout(120_000);

const UNRATE = fredCsv("UNRATE");
if (!UNRATE) console.warn("skipped: ../shared/data (fred-macro-us) is not here");
const d = UNRATE ? describe : describe.skip;

let fake: FakeUpstream;
let t: Awaited<ReturnType<typeof makeUpstreamJobsTestApp>>;
const heard: SeriesChange[] = [];
beforeAll(async () => {
  if (!UNRATE) return;
  fake = await FakeUpstream.start();
  fake.setFredSeries("UNRATE", UNRATE, "2025-12-05 07:44:02-06");
  t = await makeUpstreamJobsTestApp(fake, { onThread: true, unheld: fredUs("UNRATE"), env: fake.env() });
  t.database.events.onSeriesWritten((changed) => heard.push(...changed));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const rowsOf = (r: unknown) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { n: number }[];
const indicatorId = async (code: string) =>
  (
    rowsOf(await t.database.db.execute(sql`select id from indicators where code = ${code}`))[0] as unknown as {
      id: string;
    }
  ).id;
const count = async (query: ReturnType<typeof sql>) => rowsOf(await t.database.db.execute(query))[0]!.n;

d(`jobs on the job thread (${testBackend})`, () => {
  test("the app's engine only enqueues; health says jobs run here, with the queues' depth", async () => {
    expect(t.jobs.runsJobs).toBe(false);
    expect(t.onThread!.runsJobs).toBe(true);
    const report = await checkHealth(
      t.database,
      { kind: "memory", shared: () => true },
      { version: "test", jobs: { queue: t.onThread!, database: t.database, config: t.config.jobs } },
    );
    expect(report.jobs?.runs_here).toBe(true);
    expect(report.jobs?.queues?.map((q) => q.queue)).toContain("provision");
  });

  test("a series offered but not held is fetched on the job thread and served; the server's caches hear of it", async () => {
    const path = "/v1/observations?indicator=UNRATE&region=US&order=asc&limit=1000";
    const first = await t.getJson(path);
    expect(first.status).toBe(202);
    const served = await waitFor("UNRATE to be served", async () => {
      const r = await t.getJson(path);
      return r.status === 200 ? observationsResponseSchema.parse(r.body) : undefined;
    });
    expect(served.data.length).toBe(UNRATE!.length);
    expect(fake.requests.some((r) => r.provider === "fred")).toBe(true);
    // Told by the job thread's message (after its commit, so perhaps after the read): nothing here wrote the series.
    const id = await indicatorId("UNRATE");
    await waitFor("the job thread's write to be heard here", () =>
      heard.some((c) => c.indicatorId === id && c.regionCode === "US"),
    );
  });

  test("detection runs on the job thread: a change this thread announces is drained there", async () => {
    // A seeded series queued for detection, as a write of the server's own leaves it; its announcement queues the job.
    const gdp = await indicatorId("GDP");
    await t.database.db.execute(
      sql`insert into series_changes (indicator_id, region_code, seq) values (${gdp}, 'US', nextval('series_changes_seq')) on conflict do nothing`,
    );
    expect(await count(sql`select count(*)::int as n from series_changes where indicator_id = ${gdp}`)).toBe(1);
    t.database.events.seriesWritten([{ indicatorId: gdp, regionCode: "US" }]);
    await waitFor(
      "the job thread to drain the detection outbox",
      async () => (await count(sql`select count(*)::int as n from series_changes`)) === 0,
    );
  });

  test("an administrator's detection (svc signals detect beside the server) runs on the job thread", async () => {
    const gdp = await indicatorId("GDP");
    const s = await t.deps.jobs.detectSignals!([gdp]);
    expect(s.series).toBe(1);
    expect(s.observations).toBeGreaterThan(100);
    const stored = await count(sql`select count(*)::int as n from signal_intervals where indicator_id = ${gdp}`);
    expect(stored).toBeGreaterThan(0);
    expect(s.inserted + s.updated + s.unchanged).toBe(stored);
    // What fails there comes back as the failure, with its message.
    await expect(t.deps.jobs.detectSignals!(["not-an-id"])).rejects.toThrow(/not-an-id/);
  });

  test("stop ends the job thread and lets go of what it held", async () => {
    // The provisioning job may still be deriving what UNRATE feeds: it gets the engine's grace, then is left to expire.
    await t.onThread!.stop();
    expect(t.jobs.boss).toBeNull();
    if (testBackend === "postgres") {
      const left = await count(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'svc-jobs'`,
      );
      expect(left).toBe(0);
    }
    // The database still answers (nothing the thread opened holds it).
    expect(await t.database.ping()).toBe(true);
  });
});
