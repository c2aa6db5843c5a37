// Resolve only reads: for a series offered but not held, resolving a paid read (observations, latest single and batch,
// a chart) writes nothing, sends no job and counts nothing against the provisioning budget; it hands back what to
// provision. Only starting that provision (the paid pipeline does, before admission) records the row and queues the job.
// And one head lookup per request: a cold keyed read looks the series head up once, at resolve.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { indicatorId } from "../../db/seed/catalog";
import { findProvisioning } from "../../db/repos/provisioning";
import { seriesJobKey } from "../../src/domain/provisioning";
import { PROVISION_QUEUE } from "../../src/jobs/queues";
import type { JobQueue, RateLimitStore } from "../../src/ports";
import { chartQuerySchema } from "../../src/schemas/chart";
import { observationsQuerySchema } from "../../src/schemas/observations";
import { resolveChart } from "../../src/services/chart";
import { resolveLatestBatch } from "../../src/services/latest";
import { resolveObservations } from "../../src/services/observations";
import { OPEN_CALLER } from "../../src/services/provisioning-budget";
import { readContext, type ReadContext } from "../../src/services/series-read";
import { fredUs, makeJobsTestApp } from "../support/jobs";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(120_000);

const haveData = sharedDataPath("fred-macro-us", "UNRATE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));
const d = haveData ? describe : describe.skip;

let t: Awaited<ReturnType<typeof makeJobsTestApp>>;
beforeAll(async () => {
  if (!haveData) return;
  // This node only enqueues: a job sent stays queued where the test can find it.
  t = await makeJobsTestApp({ runsJobs: false, unheld: fredUs("UNRATE", "CPIAUCSL") });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Every call that can write, through the database handle, the job queue and the counters a read is given. */
type Effects = { db: string[]; jobs: number; counted: number };

/** The database handle with its writing entry points (insert, update, delete, raw SQL, transactions) counted. */
function countingDb<T extends object>(db: T, effects: Effects): T {
  const writing = new Set(["insert", "update", "delete", "execute", "transaction", "batch"]);
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== "string" || !writing.has(prop) || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        effects.db.push(prop);
        return value.apply(target, args);
      };
    },
  });
}

function observedContext(): { ctx: ReadContext; effects: Effects } {
  const effects: Effects = { db: [], jobs: 0, counted: 0 };
  const jobs: JobQueue = Object.assign(Object.create(t.deps.jobs), {
    provision: (job: Parameters<JobQueue["provision"]>[0], opts?: Parameters<JobQueue["provision"]>[1]) => {
      effects.jobs++;
      return t.deps.jobs.provision(job, opts);
    },
  });
  const rateLimits: RateLimitStore = Object.assign(Object.create(t.deps.rateLimits), {
    hit: (subject: string, window: number, ttlMs: number) => {
      effects.counted++;
      return t.deps.rateLimits.hit(subject, window, ttlMs);
    },
  });
  const database = { ...t.deps.database, db: countingDb(t.deps.database.db, effects) };
  return { ctx: readContext({ ...t.deps, database, jobs, rateLimits }, { provisioning: true }), effects };
}

const unrate = { indicatorId: indicatorId("fred", "UNRATE"), regionCode: "US" };
const jobsOf = (k: typeof unrate) =>
  t.jobs.boss!.findJobs(PROVISION_QUEUE, { key: seriesJobKey(k.indicatorId, k.regionCode) });

d("resolve writes nothing for a series not held", () => {
  test("observations, latest (batch) and a chart resolve to what to provision: no write, no job, no count, no row", async () => {
    const { ctx, effects } = observedContext();
    const obs = await resolveObservations(ctx, observationsQuerySchema.parse({ indicator: "UNRATE", region: "US" }));
    expect(obs.kind).toBe("not-held");
    expect(obs.kind === "not-held" && [obs.provision.indicator.code, obs.provision.region.code]).toEqual([
      "UNRATE",
      "US",
    ]);

    const batch = await resolveLatestBatch(ctx, { codes: ["UNRATE", "PAYEMS", "CPIAUCSL"], region: "US" });
    expect(batch.provisions.map((p) => p.indicator.code)).toEqual(["UNRATE", "CPIAUCSL"]);
    expect(batch.targets.map((x) => x.read.kind)).toEqual(["not-held", "held", "not-held"]);

    const chart = await resolveChart(ctx, chartQuerySchema.parse({ indicator: "PAYEMS,UNRATE", region: "US" }));
    expect(chart.kind).toBe("not-held");

    expect(effects).toEqual({ db: [], jobs: 0, counted: 0 });
    expect(await findProvisioning(t.store.db, unrate)).toBeNull();
    expect((await jobsOf(unrate)).length).toBe(0);
  });

  test("starting the provision is what writes: the row with its request_ref and one job", async () => {
    const { ctx, effects } = observedContext();
    const obs = await resolveObservations(ctx, observationsQuerySchema.parse({ indicator: "UNRATE", region: "US" }));
    if (obs.kind !== "not-held") throw new Error("UNRATE should not be held");
    expect(effects.db).toEqual([]);

    const started = await obs.provision.start(OPEN_CALLER);
    expect(started.kind).toBe("provisioning");
    expect(effects.db.length).toBeGreaterThan(0);
    expect(effects.jobs).toBe(1);
    const row = await findProvisioning(t.store.db, unrate);
    expect(started.kind === "provisioning" && started.body.request_ref).toBe(row!.requestRef);
    expect((await jobsOf(unrate)).length).toBe(1);
  });

  test("over HTTP the 202 comes from the pipeline with the same request_ref, and a held series is read with one head lookup", async () => {
    const r = await t.getJson("/v1/observations?indicator=UNRATE&region=US");
    expect(r.status).toBe(202);
    expect(r.body.request_ref).toBe((await findProvisioning(t.store.db, unrate))!.requestRef);

    // The test caches trust no head (revalidateMs 0): every lookup is counted as a miss.
    const stats = t.deps.caches.series.stats.head;
    const lookups = () => stats.hits + stats.misses;
    for (const path of [
      "/v1/observations?indicator=PAYEMS&region=US&limit=7",
      "/v1/observations/latest?indicator=PAYEMS&region=US",
      "/v1/insights?indicator=PAYEMS&region=US",
    ]) {
      const before = lookups();
      expect((await t.request(path)).status).toBe(200);
      expect([path, lookups() - before]).toEqual([path, 1]);
    }
  });
});
