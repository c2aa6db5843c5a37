// The billing cycle on the job engine: a `billing` queue worked by the processes that hold the billing dependencies,
// fed by a one-minute pg-boss schedule and by one run when such a process starts; health lists the queue. No timer.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { type JobRuntime } from "../../src/jobs/runtime";
import { BILLING_QUEUE } from "../../src/jobs/queues";
import { anotherJobEngine, makeJobsTestApp, waitFor, type JobsTestApp } from "../support/jobs";

// bun resets the default timeout per file: this file starts databases and job engines.
setDefaultTimeout(120_000);

let t: JobsTestApp;
let node: JobRuntime;

const billingJobs = async (boss: PgBoss) =>
  (await boss.findJobs(BILLING_QUEUE))
    .filter((j) => j.state === "completed")
    .map((j) => j.output as { month: string; errors: string[] });

beforeAll(async () => {
  t = await makeJobsTestApp();
  t.clock.set("2026-12-01T12:00:00Z");
  // Applied more than 90 days ago: the cycle forgets it.
  await t.database.db.execute(
    sql`insert into usage_batches (id, requests, applied_at) values ('old-batch', 1, '2026-08-01T00:00:00Z')`,
  );
  // An API node: works the billing queue with its mail and meter (the engine above runs the other jobs).
  node = anotherJobEngine(t, { runsJobs: false, billing: { deps: t.deps, baseUrl: "https://api.example.test" } });
  await node.start();
}, 300_000);
afterAll(async () => {
  await node?.stop();
  await t?.close();
});

test("a node that holds the billing dependencies runs the cycle once when it starts, through the queue", async () => {
  const [run] = await waitFor("the start's billing run", async () => {
    const done = await billingJobs(node.boss!);
    return done.length > 0 && done;
  });
  expect(run).toEqual({ month: "2026-11", invoiced: 0, retried: 0, ended: 0, errors: [] } as never);
  const left = await t.database.db.execute(sql`select id from usage_batches where id = 'old-batch'`);
  expect((Array.isArray(left) ? left : (left as { rows: unknown[] }).rows).length).toBe(0);
});

test("the engine that runs jobs schedules the cycle every minute, once across processes", async () => {
  const schedules = await t.jobs.boss!.getSchedules(BILLING_QUEUE);
  expect(schedules.map((s) => ({ key: s.key, cron: s.cron }))).toEqual([{ key: "billing-cycle", cron: "* * * * *" }]);
});

test("a run asked for now is worked by the node; health lists the billing queue", async () => {
  const before = (await billingJobs(node.boss!)).length;
  // One run at a time: null when the minute's schedule has just queued one, which is then the run we wait for.
  await node.billingNow();
  await waitFor("the next billing run", async () => (await billingJobs(node.boss!)).length >= before + 1);
  const health = await t.getJson("/api/health");
  expect(health.body.jobs.queues.map((q: { queue: string }) => q.queue)).toContain(BILLING_QUEUE);
});
