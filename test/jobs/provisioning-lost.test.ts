// A provisioning job that ends without its handler's last word — its worker stalled or died past the expiry on the
// last attempt — lands in the dead letter queue `provision-lost`, whose worker marks the series failed: requests get
// the clear error instead of waiting forever. If the stalled fetch finishes after all, its data is kept and served.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { fredUs, makeJobsTestApp, waitFor, type JobsTestApp } from "../support/jobs";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(120_000);

const haveData = sharedDataPath("fred-macro-us", "PCEPILFE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));

let t: JobsTestApp;
beforeAll(async () => {
  if (!haveData) return;
  // One attempt, taken to be lost after 1 s.
  t = await makeJobsTestApp({
    env: { PROVISION_RETRY_LIMIT: "0", PROVISION_EXPIRE_SECONDS: "1", PROVISION_FAILURE_COOLDOWN_SECONDS: "300" },
    unheld: fredUs("PCEPILFE"),
  });
}, 120_000);
afterAll(async () => {
  t?.fetcher.release();
  await t?.close();
});

describe.skipIf(!haveData)("a lost provisioning job", () => {
  test("expires on its last attempt: the series is marked failed (502 naming the upstream), not an endless 202", async () => {
    const path = "/v1/observations?indicator=PCEPILFE&region=US";
    t.fetcher.set("PCEPILFE", { kind: "stall" });
    const first = await t.getJson(path);
    expect(first.status).toBe(202);
    const lost = await waitFor("the job to be given up", async () => {
      const r = await t.getJson(path);
      return r.status === 502 ? r : undefined;
    });
    expect(lost.res.headers.get("retry-after")).toBe("300");
    expect(lost.body.error).toMatchObject({
      code: "INTERNAL_ERROR",
      message: expect.stringContaining(
        "The upstream 'fred' could not provide 'PCEPILFE' for United States (US): the fetch did not finish (the worker running it stopped or timed out on every attempt).",
      ),
      details: { upstream: "fred", retry_after_seconds: 300, request_ref: first.body.request_ref },
    });
    // The stalled fetch completes after all: its rows are kept, and the series is served.
    t.fetcher.release();
    await waitFor("the late fetch to be served", async () => (await t.getJson(path)).status === 200);
  });
});
