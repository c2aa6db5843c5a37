// The server's side of the job thread (src/startup/job-start.ts) over stand-in threads: a thread that fails after it
// started is logged, health is told (runsJobs false) and it is started again (its port to the database let go of
// first); a thread that does not start fails the start (the server retries); stop asks the thread to stop, and ends
// one that does not answer.
import { expect, test } from "bun:test";
import { WriteEvents } from "../../db/events";
import { loadConfig } from "../../src/config";
import type { JobRuntime } from "../../src/jobs/runtime";
import type { Logger } from "../../src/logger";
import type { JobThreadHandle } from "../../src/startup/job-start";
import { jobsOnThread } from "../../src/startup/job-start";
import type { FromJobThread, ToJobThread } from "../../src/startup/messages";

type Stand = {
  sent: ToJobThread[];
  ended: boolean;
  tell(m: FromJobThread): void;
  exit(why: string | null): void;
};

function harness(answer: (stand: Stand, m: ToJobThread) => void) {
  const threads: Stand[] = [];
  const errors: { msg: string; fields?: Record<string, unknown> }[] = [];
  const logger = {
    debug() {},
    info() {},
    warn() {},
    error: (msg: string, fields?: Record<string, unknown>) => void errors.push({ msg, fields }),
  } as unknown as Logger;
  const local = {
    runsJobs: false,
    started: 0,
    stopped: 0,
    async start() {
      this.started++;
    },
    async stop() {
      this.stopped++;
    },
    depth: async () => [],
  };
  let released = 0;
  let portsGiven = 0;
  const events = new WriteEvents();
  const heard: unknown[] = [];
  events.onSeriesWritten((c) => heard.push(...c));
  const startThread = (): JobThreadHandle => {
    let onMessage!: (m: FromJobThread) => void;
    let onExit!: (why: string | null) => void;
    const stand: Stand = {
      sent: [],
      ended: false,
      tell: (m) => onMessage(m),
      exit: (why) => onExit(why),
    };
    threads.push(stand);
    return {
      post(m) {
        stand.sent.push(m);
        queueMicrotask(() => answer(stand, m));
      },
      listen(message, exit) {
        onMessage = message;
        onExit = exit;
      },
      end: () => void (stand.ended = true),
    };
  };
  const jobs = jobsOnThread(local as unknown as JobRuntime, {
    config: loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent" }),
    logger,
    events,
    database: {
      jobPort: () => (portsGiven++, new MessageChannel().port2),
      releaseJobPort: () => void released++,
    },
    startThread,
  });
  return { jobs, threads, errors, local, heard, released: () => released, portsGiven: () => portsGiven };
}

const startsAndStops = (stand: Stand, m: ToJobThread) =>
  stand.tell("start" in m ? { started: true } : { stopped: true });

test("a job thread that fails after it started is logged, reported to health, and started again", async () => {
  const h = harness(startsAndStops);
  await h.jobs.start();
  expect(h.local.started).toBe(1);
  expect(h.jobs.runsJobs).toBe(true);
  // Its writes reach this thread's write events.
  h.threads[0]!.tell({ events: { series: [{ indicatorId: "i", regionCode: "US" }] } });
  expect(h.heard).toEqual([{ indicatorId: "i", regionCode: "US" }]);

  h.threads[0]!.exit("boom");
  expect(h.jobs.runsJobs).toBe(false);
  expect(h.threads[0]!.ended).toBe(true);
  expect(h.released()).toBe(1);
  expect(h.errors).toEqual([
    { msg: "the job thread failed; starting it again", fields: { error: "boom", attempt: 1, retry_in_ms: 1000 } },
  ]);
  // Started again after its wait, with a new port to the database.
  while (h.threads.length < 2 || !h.jobs.runsJobs) await Bun.sleep(20);
  expect(h.portsGiven()).toBe(2);
  await h.jobs.stop();
  expect(h.threads[1]!.sent.map((m) => Object.keys(m)[0])).toEqual(["start", "stop"]);
  expect(h.threads[1]!.ended).toBe(true);
  expect(h.local.stopped).toBe(1);
});

test("a job thread whose engine does not start fails the start: the server tries again", async () => {
  const h = harness((stand, m) =>
    stand.tell("start" in m ? { failed: "the database is unavailable" } : { stopped: true }),
  );
  await expect(h.jobs.start()).rejects.toThrow("the job thread did not start: the database is unavailable");
  expect(h.jobs.runsJobs).toBe(false);
  expect(h.threads[0]!.ended).toBe(true);
  expect(h.released()).toBe(1);
  // Not restarted behind the server's back: the server's own retry starts it again.
  expect(h.errors).toEqual([]);
});

test("a stop ends a thread that was asked to stop", async () => {
  const h = harness(startsAndStops);
  await h.jobs.start();
  await h.jobs.stop();
  expect(h.threads[0]!.ended).toBe(true);
  expect(h.released()).toBe(1);
  // Gone on request: not taken for a failure.
  expect(h.errors).toEqual([]);
  expect(h.threads).toHaveLength(1);
});

test("an administrator's detection is carried out by the thread; its answer or error comes back; a thread that ends fails it", async () => {
  const summary = { series: 3, observations: 40, inserted: 1, updated: 0, removed: 0, unchanged: 2 };
  const h = harness((stand, m) => {
    if ("start" in m) stand.tell({ started: true });
    else if ("stop" in m) stand.tell({ stopped: true });
    else if (m.detect.indicatorIds?.[0] === "bad")
      stand.tell({ detected: { id: m.detect.id, error: "no such series" } });
    else if (m.detect.indicatorIds?.[0] !== "hang") stand.tell({ detected: { id: m.detect.id, summary } });
  });
  // Asked before the server started its job engine: waits for the thread's start.
  const early = h.jobs.detectSignals!();
  await h.jobs.start();
  expect(await early).toEqual(summary);
  expect(await h.jobs.detectSignals!(["i1"])).toEqual(summary);
  await expect(h.jobs.detectSignals!(["bad"])).rejects.toThrow("no such series");
  expect(h.threads[0]!.sent.filter((m) => "detect" in m)).toEqual([
    { detect: { id: 1, indicatorIds: null } },
    { detect: { id: 2, indicatorIds: ["i1"] } },
    { detect: { id: 3, indicatorIds: ["bad"] } },
  ]);
  const waiting = h.jobs.detectSignals!(["hang"]);
  while (!h.threads[0]!.sent.some((m) => "detect" in m && m.detect.indicatorIds?.[0] === "hang")) await Bun.sleep(1);
  h.threads[0]!.exit("boom");
  await expect(waiting).rejects.toThrow("the job thread ended before the detection did: boom");
  // While it is down, a detection is refused at once rather than left waiting.
  await expect(h.jobs.detectSignals!()).rejects.toThrow("the job thread is not running");
  await h.jobs.stop();
});
