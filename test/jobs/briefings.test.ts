// Briefing runs on the real job engine (pg-boss over the test database, src/jobs/runtime.ts):
// - one pg-boss schedule per briefing, its weekly slot in UTC: the public ones from the start, a saved one from its
//   creation (with a first run queued and stored at once) until its deletion;
// - an engine that starts reconciles the schedules with the briefings table: a briefing saved while no engine ran is
//   scheduled and run, a schedule whose briefing is gone is removed;
// - a failing asker stores a failed run (retried later by the queue), and the public read still serves the last good run;
// - two engines on one database: a due tick of a briefing's schedule is sent once and runs once;
// - runs survive a restart: a run queued by an API node that stopped before any worker ran it is run after the
//   restart, and the stored runs are still served after another one.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { listRunsOfBriefing } from "../../db/repos/briefings";
import { PUBLIC_BRIEFINGS, publicBriefingId } from "../../db/seed/briefings";
import { slotCron, weeklySlot } from "../../src/domain/briefings";
import { BRIEFING_QUEUE, BRIEFING_TZ } from "../../src/jobs/queues";
import { noJobs } from "../../src/ports";
import { answeringAsker, failingAsker } from "../support/briefings";
import { makeTestDatabase, sharedDatabase, testBackend } from "../support/db";
import { anotherJobEngine, makeJobsTestApp, waitFor } from "../support/jobs";
import { jsonBody, testKey } from "../support/keys";
import { makeTestApp } from "../support/app";
import { ManualClock } from "../support/clock";

setDefaultTimeout(120_000);

const rowsOf = (r: any) => (Array.isArray(r) ? r : r.rows) as any[];
const question = {
  name: "Texas jobs",
  question: "How is the unemployment rate in Texas moving?",
  cadence: "weekly",
  region: "48",
};

/** The briefing queue's schedules: key -> [cron, timezone, data]. */
async function schedulesOf(boss: {
  getSchedules(name: string): Promise<{ key: string; cron: string; timezone: string; data?: object }[]>;
}) {
  return new Map((await boss.getSchedules(BRIEFING_QUEUE)).map((s) => [s.key, [s.cron, s.timezone, s.data]]));
}

const weekly = (id: string) => [slotCron(weeklySlot(id)), BRIEFING_TZ, { briefingId: id }];

describe("schedules and first runs", () => {
  test("the public briefings are scheduled weekly in UTC; a saved one from creation (first run stored at once) until deletion", async () => {
    const asker = answeringAsker("2025-09");
    const t = await makeJobsTestApp({ keyAccess: true, asker });
    try {
      const boss = t.jobs.boss!;
      const publicIds = PUBLIC_BRIEFINGS.map((b) => publicBriefingId(b.slug));
      expect(await schedulesOf(boss)).toEqual(new Map(publicIds.map((id) => [id, weekly(id)])));
      // The seed's runs are there: nothing was queued for them.
      expect(asker.asked).toEqual([]);

      const { headers } = await testKey(t, { plan: "professional" });
      const created = await t.getJson("/v1/briefings", jsonBody(question, headers));
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      expect((await schedulesOf(boss)).get(id)).toEqual(weekly(id));
      // The slot the API reports is the schedule's.
      const next = new Date(created.body.data.next_run_at);
      expect(slotCron({ weekday: next.getUTCDay(), hour: next.getUTCHours(), minute: next.getUTCMinutes() })).toBe(
        slotCron(weeklySlot(id)),
      );

      const detail = await waitFor("the first run", async () => {
        const r = await t.getJson(`/v1/briefings/${id}`, { headers });
        return r.body.data.latest_run ? r.body.data : undefined;
      });
      expect(detail.latest_run).toMatchObject({
        status: "ok",
        error: null,
        response: { answer: "Texas unemployment rate, 2025-09: 4.1 percent." },
      });
      expect(asker.asked).toEqual([
        { input: { q: question.question, depth: "briefing", region: "48" }, signals: true },
      ]);

      expect((await t.getJson(`/v1/briefings/${id}`, { method: "DELETE", headers })).status).toBe(200);
      const after = await schedulesOf(boss);
      expect(after.has(id)).toBe(false);
      expect(after.size).toBe(publicIds.length);
    } finally {
      await t.close();
    }
  });

  test("an engine that starts schedules and runs a briefing saved while none ran, and removes a schedule whose briefing is gone", async () => {
    const database = await makeTestDatabase();
    // Saved through an app without a job engine (noJobs): its row only.
    const bare = await makeTestApp({ database, jobs: noJobs, keyAccess: true });
    const { key } = await testKey(bare, { plan: "professional" });
    const created = await bare.getJson("/v1/briefings", jsonBody(question, { authorization: `Bearer ${key}` }));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await bare.deps.keys.close();

    // A schedule left by a briefing deleted while no engine ran.
    const asker = answeringAsker();
    const first = await makeJobsTestApp({ database, asker });
    const orphan = "6f1c1e2a-3b4d-4c5e-8f60-718293a4b5c6";
    await first.jobs.boss!.schedule(
      BRIEFING_QUEUE,
      "0 6 * * 1",
      { briefingId: orphan },
      { key: orphan, tz: BRIEFING_TZ },
    );
    expect((await schedulesOf(first.jobs.boss!)).get(id)).toEqual(weekly(id));
    await waitFor(
      "the saved briefing's first run",
      async () => (await listRunsOfBriefing(database.db, id, 10)).length === 1,
    );
    expect(asker.asked.map((a) => a.input.q)).toEqual([question.question]);
    await first.jobs.stop();

    const second = anotherJobEngine(first, { asker });
    await second.start();
    try {
      const schedules = await schedulesOf(second.boss!);
      expect(schedules.has(orphan)).toBe(false);
      expect(schedules.get(id)).toEqual(weekly(id));
      // It has a good run now: the restart queued nothing.
      await Bun.sleep(1500);
      expect(asker.asked.length).toBe(1);
    } finally {
      await second.stop();
      await first.close();
    }
  });
});

describe("a failing run", () => {
  test("is stored with its error and retried by the queue; the public read still serves the last good run", async () => {
    const asker = failingAsker('relation "observations" does not exist');
    const t = await makeJobsTestApp({ keyAccess: true, asker });
    try {
      const { headers } = await testKey(t);
      const slug = "us-inflation";
      const id = publicBriefingId(slug);
      const before = await t.getJson(`/v1/briefings/public/${slug}`, { headers });
      expect(before.status).toBe(200);

      await t.jobs.runBriefingNow(id);
      const failed = await waitFor("the failed run", async () =>
        (await listRunsOfBriefing(t.database.db, id, 10)).find((r) => r.status === "failed"),
      );
      expect(failed).toMatchObject({
        response: null,
        grounded: null,
        truncated: null,
        error:
          "The question could not be answered this time (an internal error, logged for the operator); the next run tries again.",
      });
      expect(asker.calls).toBe(1);
      // The job failed and waits for its retry.
      const job = await waitFor("the job to wait for its retry", async () => {
        const rows = rowsOf(
          await t.database.db.execute(
            sql`select state, retry_limit from pgboss.job where name = ${BRIEFING_QUEUE} and singleton_key = ${id}`,
          ),
        );
        return rows.find((r) => r.state === "retry");
      });
      expect(job.retry_limit).toBe(2);

      const after = await t.getJson(`/v1/briefings/public/${slug}`, { headers });
      expect(after.status).toBe(200);
      expect(after.body.data.run).toEqual(before.body.data.run);
      const listed = (await t.getJson("/v1/briefings/public")).body.data.find((b: any) => b.slug === slug);
      expect(listed.last_run_at).toBe(before.body.data.run.finished_at);
    } finally {
      await t.close();
    }
  });
});

describe(`two job engines on one database (${testBackend})`, () => {
  test("a due tick of a briefing's schedule is sent once and runs once", async () => {
    const asker = answeringAsker();
    const a = await makeJobsTestApp({ keyAccess: true, asker });
    const b = anotherJobEngine(a, { asker });
    await b.start();
    try {
      const { headers } = await testKey(a, { plan: "professional" });
      const created = await a.getJson("/v1/briefings", jsonBody(question, headers));
      const id = created.body.data.id as string;
      await waitFor("the first run", async () => (await listRunsOfBriefing(a.database.db, id, 10)).length === 1);
      // The next week's tick: the clock moves on a week, and the briefing's schedule is made due now (seconds cron in
      // the database's time) instead of waiting for its Monday slot. Both engines pass over schedules every second.
      a.clock.advance(7 * 86_400_000);
      const now = rowsOf(await a.database.db.execute(sql`select extract(epoch from now()) * 1000 as ms`))[0].ms;
      const due = new Date(Number(now) - 2000);
      await a.jobs.boss!.schedule(
        BRIEFING_QUEUE,
        `${due.getUTCSeconds()} ${due.getUTCMinutes()} ${due.getUTCHours()} * * *`,
        { briefingId: id },
        { key: id, tz: BRIEFING_TZ, singletonKey: id },
      );
      await waitFor(
        "the tick's run",
        async () => (await listRunsOfBriefing(a.database.db, id, 10)).length === 2,
        60_000,
      );
      // Several more passes of both engines see the occurrence still inside its minute: none sends it again.
      await Bun.sleep(4000);
      const runs = await listRunsOfBriefing(a.database.db, id, 10);
      expect(runs.map((r) => r.status)).toEqual(["ok", "ok"]);
      const jobs = rowsOf(
        await a.database.db.execute(
          sql`select state from pgboss.job where name = ${BRIEFING_QUEUE} and data->>'briefingId' = ${id}`,
        ),
      );
      // The first run (at creation) and the tick's.
      expect(jobs.map((j) => j.state).sort()).toEqual(["completed", "completed"]);
      expect(asker.asked.length).toBe(2);
    } finally {
      await b.stop();
      await a.close();
    }
  });
});

describe(`runs survive a restart (${testBackend})`, () => {
  test("a run queued by an API node that stopped is run after the restart; stored runs are served after another restart", async () => {
    // A database closed and opened again across the restarts.
    const shared = await sharedDatabase();
    const open = () => shared.open(4);
    const clock = new ManualClock();

    // An API node (JOBS=off) saves a briefing: its schedule and first run are queued, and nothing runs them.
    const api = await makeJobsTestApp({ database: await open(), clock, keyAccess: true, runsJobs: false });
    const { key } = await testKey(api, { plan: "professional" });
    const headers = { authorization: `Bearer ${key}` };
    const id = (await api.getJson("/v1/briefings", jsonBody(question, headers))).body.data.id as string;
    const queued = rowsOf(
      await api.database.db.execute(
        sql`select state from pgboss.job where name = ${BRIEFING_QUEUE} and singleton_key = ${id}`,
      ),
    );
    expect(queued.map((j) => j.state)).toEqual(["created"]);
    await api.close();

    // The restart: a node that runs jobs takes the queued run.
    const asker = answeringAsker("2025-10");
    const worker = await makeJobsTestApp({ database: await open(), clock, keyAccess: true, asker });
    await waitFor("the queued run", async () => (await listRunsOfBriefing(worker.database.db, id, 10)).length === 1);
    expect(asker.asked.length).toBe(1);
    await worker.close();

    // Another restart: the run is still there, served as the briefing's latest.
    const later = await makeJobsTestApp({ database: await open(), clock, keyAccess: true, asker });
    try {
      const detail = await later.getJson(`/v1/briefings/${id}`, { headers });
      expect(detail.status).toBe(200);
      expect(detail.body.data.latest_run).toMatchObject({
        status: "ok",
        response: { answer: "Texas unemployment rate, 2025-10: 4.1 percent." },
      });
      expect((await later.getJson(`/v1/briefings/${id}/runs`, { headers })).body.meta.count).toBe(1);
      expect((await schedulesOf(later.jobs.boss!)).get(id)).toEqual(weekly(id));
      // Nothing was queued again for it.
      await Bun.sleep(1500);
      expect(asker.asked.length).toBe(1);
    } finally {
      await later.close();
    }
  });
});
