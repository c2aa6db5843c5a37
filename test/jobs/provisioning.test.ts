// On-demand provisioning through the HTTP API with the real job engine (pg-boss over the test database, PGlite or,
// with TEST_DATABASE_URL, PostgreSQL) and a fetcher that writes real FRED rows: 202 -> retry -> 200; one job and one
// fetch under 50 concurrent requests; retries with the same request_ref; the upstream giving up (502 naming it, then
// a new try once retry_at has passed); series nothing can fetch (404 naming `svc import`); batch latest.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { errorEnvelopeSchema } from "../../src/schemas/errors";
import { provisioningBodySchema } from "../../src/schemas/provisioning";
import { latestBatchResponseSchema, observationsResponseSchema } from "../../src/schemas/observations";
import { PROVISION_QUEUE } from "../../src/jobs/queues";
import { seriesJobKey } from "../../src/domain/provisioning";
import { indicatorId } from "../../db/seed/catalog";
import { fredRows } from "../support/fetcher";
import { findProvisioning } from "../../db/repos/provisioning";
import { cryptoRandom } from "../../src/deps";
import { OPEN_CALLER, provisioningBudget } from "../../src/services/provisioning-budget";
import { memoryRateLimitStore } from "../../src/services/rate-limit-stores";
import { indicatorById } from "../../src/services/concepts";
import { notHeld } from "../../src/services/provisioning";
import { regionIndex } from "../../src/services/regions";
import { fredUs, makeJobsTestApp, waitFor, type JobsTestApp } from "../support/jobs";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(120_000);

const haveData = sharedDataPath("fred-macro-us", "UNRATE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));
const d = haveData ? describe : describe.skip;

let t: JobsTestApp;
beforeAll(async () => {
  if (!haveData) return;
  // Two retries after the first attempt; requests are told to come back 10 minutes after the upstream gave up.
  t = await makeJobsTestApp({
    env: { PROVISION_RETRY_LIMIT: "2", PROVISION_FAILURE_COOLDOWN_SECONDS: "600" },
    // The World Bank's US unemployment rate goes too: held, the concept would resolve to it rather than provision UNRATE.
    unheld: [
      ...fredUs("UNRATE", "CPIAUCSL", "FEDFUNDS", "GDP", "INDPRO", "M2SL", "HOUST"),
      ["worldbank", "SL.UEM.TOTL.ZS", "US"],
      ["bls", "LASST03", "48"],
    ],
  });
}, 120_000);
afterAll(async () => {
  t?.fetcher.release();
  await t?.close();
});

const obs = (code: string, extra = "") => `/v1/observations?indicator=${code}&region=US&limit=1000${extra}`;

async function untilStatus(path: string, status: number) {
  return waitFor(`${path} to answer ${status}`, async () => {
    const r = await t.getJson(path);
    return r.status === status ? r : undefined;
  });
}

async function jobsOf(code: string) {
  return t.jobs.boss!.findJobs(PROVISION_QUEUE, { key: seriesJobKey(indicatorId("fred", code), "US") });
}

d("202 -> retry -> 200", () => {
  test("a series offered but not held answers 202 with the provisioning body, the same request_ref while it is fetched, then the data", async () => {
    t.fetcher.set("UNRATE", { kind: "stall" });
    const first = await t.getJson(obs("UNRATE"));
    expect(first.status).toBe(202);
    expect(first.res.headers.get("retry-after")).toBe("5");
    expect(first.res.headers.get("cache-control")).toBe("no-store");
    const body = provisioningBodySchema.parse(first.body);
    expect(body).toEqual({
      status: "provisioning",
      indicator: "UNRATE",
      region: "US",
      retry_after_seconds: 5,
      request_ref: body.request_ref,
    });

    // The fetch is under way (stalled): every retry is a 202 carrying the same ref; the concept names the catalog code.
    await waitFor("the fetch to start", () => t.fetcher.stalled === 1);
    const again = await t.getJson(obs("UNRATE"));
    expect([again.status, again.body.request_ref]).toEqual([202, body.request_ref]);
    const viaConcept = await t.getJson("/v1/observations?indicator=unemployment_rate&region=US");
    expect(viaConcept.status).toBe(202);
    expect(viaConcept.body).toMatchObject({ indicator: "UNRATE", region: "US", request_ref: body.request_ref });
    const latest = await t.getJson("/v1/observations/latest?indicator=UNRATE");
    expect([latest.status, latest.body.request_ref]).toEqual([202, body.request_ref]);

    t.fetcher.release();
    const done = await untilStatus(obs("UNRATE", "&order=asc"), 200);
    const page = observationsResponseSchema.parse(done.body);
    const rows = fredRows("UNRATE");
    expect(page.meta.total).toBe(rows.length);
    expect(page.data.slice(0, 2).map((r) => [(r as { date: string }).date, r.value])).toEqual([
      ["1980-01-01", 6.3],
      ["1980-02-01", 6.3],
    ]);
    expect((await t.getJson("/v1/observations/latest?indicator=unemployment_rate&region=US")).status).toBe(200);
    expect(t.fetcher.count("UNRATE")).toBe(1);
    // The provisioning is over once its job completed: after the write, the job derives the svc: series UNRATE feeds
    // (reads never do), so the series is readable before the job is done.
    await waitFor(
      "the job to complete",
      async () => (await jobsOf("UNRATE")).map((j) => j.state).join() === "completed",
    );
    const sahm = await t.getJson("/v1/observations/latest?indicator=svc:sahm_rule");
    expect(sahm.status).toBe(200);
  });

  test("50 concurrent requests for one series make one job and one fetch", async () => {
    t.fetcher.set("CPIAUCSL", { kind: "stall" });
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.getJson(obs("CPIAUCSL"))));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([202]));
    expect(new Set(answers.map((a) => a.body.request_ref)).size).toBe(1);
    expect((await jobsOf("CPIAUCSL")).length).toBe(1);
    await waitFor("the fetch to start", () => t.fetcher.stalled === 1);
    t.fetcher.release();
    await untilStatus(obs("CPIAUCSL"), 200);
    expect(t.fetcher.count("CPIAUCSL")).toBe(1);
    expect((await jobsOf("CPIAUCSL")).length).toBe(1);
  });

  test("batch latest reports a series not held in its errors with the provisioning body, and starts it", async () => {
    const r = await t.getJson("/v1/observations/latest?indicators=PAYEMS,FEDFUNDS&region=US");
    expect(r.status).toBe(207);
    const b = latestBatchResponseSchema.parse(r.body);
    expect(b.data.map((x) => x.indicator)).toEqual(["PAYEMS"]);
    expect(b.errors).toEqual([
      {
        indicator: "FEDFUNDS",
        code: "RESOURCE_NOT_FOUND",
        message: expect.stringContaining(
          "Not held yet: 'FEDFUNDS' for United States (US) is being fetched from its upstream",
        ),
        details: {
          indicator: "FEDFUNDS",
          region: "US",
          held: false,
          provisioning: expect.objectContaining({
            status: "provisioning",
            indicator: "FEDFUNDS",
            retry_after_seconds: 5,
          }),
        },
      },
    ]);
    provisioningBodySchema.parse(b.errors[0]!.details!.provisioning);
    await waitFor(
      "FEDFUNDS in the batch",
      async () => (await t.getJson("/v1/observations/latest?indicators=PAYEMS,FEDFUNDS&region=US")).status === 200,
    );
    expect(t.fetcher.count("FEDFUNDS")).toBe(1);
  });
});

d("retries and the upstream giving up", () => {
  test("retryable failures are retried with backoff under the same request_ref until the fetch succeeds", async () => {
    t.fetcher.set("GDP", { kind: "fail", retryable: true, times: 2 });
    const first = await t.getJson(obs("GDP"));
    expect(first.status).toBe(202);
    const refs = new Set<string>([first.body.request_ref]);
    const done = await waitFor("GDP to be held", async () => {
      const r = await t.getJson(obs("GDP"));
      if (r.status === 202) refs.add(r.body.request_ref);
      return r.status === 200 ? r : undefined;
    });
    expect(done.body.meta.total).toBe(fredRows("GDP").length);
    expect(refs.size).toBe(1);
    // Two failures and the third attempt (the last the limit of 2 retries allows) succeeded.
    expect(t.fetcher.count("GDP")).toBe(3);
  });

  test("an upstream that fails for good: 502 naming it with Retry-After, no endless 202; after retry_at a request tries again", async () => {
    t.fetcher.set("INDPRO", {
      kind: "fail",
      retryable: false,
      times: 1,
      message: "Bad Request. The series does not exist.",
    });
    const first = await t.getJson(obs("INDPRO"));
    expect(first.status).toBe(202);
    const gaveUp = await untilStatus(obs("INDPRO"), 502);
    expect(t.fetcher.count("INDPRO")).toBe(1); // not retryable: one attempt
    // A request that read the row just before the job gave up re-sends the job after it ended (the race CI met):
    // that job finds its ref failed and fetches nothing. The 502 is written by the job before pg-boss marks it
    // completed, and the queue is exclusive (a send while the job is still active is dropped), so wait for its end.
    await waitFor("the first job to end", async () => {
      const jobs = await jobsOf("INDPRO");
      return jobs.length >= 1 && jobs.every((j) => j.state === "completed");
    });
    await t.jobs.provision({
      indicatorId: indicatorId("fred", "INDPRO"),
      regionCode: "US",
      requestRef: first.body.request_ref,
    });
    let states: string[] = [];
    await waitFor("the re-sent job to finish", async () => {
      const jobs = await jobsOf("INDPRO");
      states = jobs.map((j) => `${j.state} (retries ${j.retryCount})`);
      // At least the first job and this one (a request racing the first job's end may have re-sent one more).
      return jobs.length >= 2 && jobs.every((j) => j.state === "completed");
    }).catch((e) => {
      // On a timeout, the jobs' states say why.
      throw new Error(`${e instanceof Error ? e.message : e}; INDPRO's jobs: ${states.join(", ") || "none"}`);
    });
    expect(t.fetcher.count("INDPRO")).toBe(1);
    expect(gaveUp.res.headers.get("retry-after")).toBe("600");
    const env = errorEnvelopeSchema.parse(gaveUp.body);
    expect(env.error.code).toBe("INTERNAL_ERROR");
    expect(env.error.message).toBe(
      "The upstream 'fred' could not provide 'INDPRO' for United States (US): Bad Request. The series does not exist. Try again after 2026-11-22T12:10:00.000Z (in 10 min).",
    );
    expect(env.error.details).toEqual({
      indicator: "INDPRO",
      region: "US",
      held: false,
      upstream: "fred",
      retry_after_seconds: 600,
      retry_at: "2026-11-22T12:10:00.000Z",
      request_ref: first.body.request_ref,
    });
    // The batch form says the same per code.
    const batch = await t.getJson("/v1/observations/latest?indicators=INDPRO&region=US");
    expect(batch.body.errors[0]).toMatchObject({
      indicator: "INDPRO",
      code: "RESOURCE_NOT_FOUND",
      details: { upstream: "fred", retry_after_seconds: 600 },
    });

    t.clock.advance(599_000);
    const stillFailed = await t.getJson(obs("INDPRO"));
    expect([stillFailed.status, stillFailed.res.headers.get("retry-after")]).toEqual([502, "1"]);
    t.clock.advance(1_000);
    const retried = await t.getJson(obs("INDPRO"));
    expect(retried.status).toBe(202);
    expect(retried.body.request_ref).not.toBe(first.body.request_ref);
    await untilStatus(obs("INDPRO"), 200);
    expect(t.fetcher.count("INDPRO")).toBe(2);
    t.clock.set("2026-11-22T12:00:00Z");
  });

  test("retryable failures that outlast the retries end as the same clear error", async () => {
    t.fetcher.set("M2SL", { kind: "fail", retryable: true, message: "FRED answered 503 Service Unavailable" });
    expect((await t.getJson(obs("M2SL"))).status).toBe(202);
    const gaveUp = await untilStatus(obs("M2SL"), 502);
    expect(t.fetcher.count("M2SL")).toBe(3);
    expect(gaveUp.body.error.message).toContain(
      "The upstream 'fred' could not provide 'M2SL' for United States (US): FRED answered 503 Service Unavailable.",
    );
    t.fetcher.set("M2SL", { kind: "ok" });
  });

  test("an upstream that asks for longer than the cooldown is waited for", async () => {
    t.fetcher.set("HOUST", { kind: "fail", retryable: false, times: 1, retryAfterSeconds: 3600 });
    expect((await t.getJson(obs("HOUST"))).status).toBe(202);
    const gaveUp = await untilStatus(obs("HOUST"), 502);
    expect(gaveUp.res.headers.get("retry-after")).toBe("3600");
    expect(gaveUp.body.error.details).toMatchObject({ upstream: "fred", retry_after_seconds: 3600 });
  });
});

d("a read racing the job that made the series held", () => {
  test("a read that saw the series not held just before its job wrote it and cleared its row is served the series: no new request_ref, no job", async () => {
    // After GDP's provisioning ended (held, row cleared), a read whose look at the series came before the write
    // reaches the provisioning step: what notHeld is asked then.
    expect((await t.getJson(obs("GDP"))).status).toBe(200);
    const key = { indicatorId: indicatorId("fred", "GDP"), regionCode: "US" };
    expect(await findProvisioning(t.store.db, key)).toBeNull();
    const jobsBefore = (await jobsOf("GDP")).length;
    const provision = t.config.jobs.provision;
    const context = {
      fetcher: t.fetcher,
      jobs: t.jobs,
      random: cryptoRandom,
      settings: provision,
      caller: () => OPEN_CALLER,
      budget: provisioningBudget({
        rateLimits: memoryRateLimitStore(),
        limits: provision.limits,
        upstreamAllowance: () => null,
      }),
    };
    const indicator = (await indicatorById(t.store, key.indicatorId))!;
    const region = (await regionIndex(t.store)).byCode.get("US")!;
    const outcome = await notHeld(t.store, context, t.clock.now(), indicator, region);
    expect(outcome.kind).toBe("held");
    expect(outcome.kind === "held" && [outcome.head.observationCount, outcome.head.regionCode]).toEqual([
      fredRows("GDP").length,
      "US",
    ]);
    expect(await findProvisioning(t.store.db, key)).toBeNull();
    expect((await jobsOf("GDP")).length).toBe(jobsBefore);
  });
});

d("series nothing can fetch", () => {
  test("offered but no connector maps it: 404 naming the exact svc import command", async () => {
    const r = await t.getJson("/v1/observations?indicator=LASST03&region=TX");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(
      "No observations of 'LASST03' are held for Texas (48) yet, and no upstream connector fetches it on demand: load it from a CSV of date,value rows with 'svc import FILE --indicator LASST03 --region 48 --source bls'.",
    );
    expect(r.body.error.details).toEqual({
      indicator: "LASST03",
      region: "48",
      held: false,
      import_command: "svc import FILE --indicator LASST03 --region 48 --source bls",
    });
  });

  test("not offered: 404 at once, nothing queued", async () => {
    const r = await t.getJson("/v1/observations?indicator=CPILFESL&region=FR");
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe(
      "Indicator 'CPILFESL' is not offered for France (FR): it is offered for US only.",
    );
    expect(t.fetcher.count("CPILFESL")).toBe(0);
    expect(
      (await t.jobs.boss!.findJobs(PROVISION_QUEUE, { key: seriesJobKey(indicatorId("fred", "CPILFESL"), "FR") }))
        .length,
    ).toBe(0);
  });
});

d("the contract", () => {
  test("observations and latest document the 202 with Retry-After and the Provisioning body, and the upstream's 502", async () => {
    const doc = (await t.getJson("/openapi.json")).body;
    expect(doc.components.schemas.Provisioning).toMatchObject({
      type: "object",
      required: ["status", "indicator", "region", "retry_after_seconds", "request_ref"],
      properties: {
        status: { type: "string", enum: ["provisioning"] },
        retry_after_seconds: { type: "integer", minimum: 1 },
        request_ref: { type: "string", format: "uuid" },
      },
    });
    for (const path of ["/v1/observations", "/v1/observations/latest"]) {
      const responses = doc.paths[path].get.responses;
      expect(responses["202"].content["application/json"].schema).toEqual({
        $ref: "#/components/schemas/Provisioning",
      });
      expect(responses["202"].headers["Retry-After"].schema).toEqual({ type: "integer", minimum: 1 });
      expect(responses["502"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    }
  });
});
