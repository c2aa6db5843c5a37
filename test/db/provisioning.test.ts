// The provisioning and source-refresh rows (db/repos/provisioning.ts) on the backend of the run: one request_ref per
// provisioning, a new one only after a failure whose retry_at has passed, a stale failure never ends a newer
// provisioning; refresh records keep the last success across later runs.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Database } from "../../db/client";
import {
  beginProvisioning,
  clearProvisioning,
  findProvisioning,
  listSourceRefreshes,
  markProvisioningFailed,
  recordFailedAttempt,
  recordRefreshFinished,
  recordRefreshStarted,
} from "../../db/repos/provisioning";
import { indicatorId } from "../../db/seed/catalog";
import { makeTestDatabase } from "../support/db";

setDefaultTimeout(120_000);

let database: Database;
beforeAll(async () => {
  database = await makeTestDatabase();
});
afterAll(() => database.close());

const T0 = new Date("2026-11-22T12:00:00.000Z");
const plus = (s: number) => new Date(T0.getTime() + s * 1000);
const REF = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

describe("provisioning rows", () => {
  test("begin, join, fail, wait, begin anew; a stale failure changes nothing; clear", async () => {
    const db = database.db;
    const k = { indicatorId: indicatorId("fred", "UNRATE"), regionCode: "US" };
    const a = await beginProvisioning(db, k, { requestRef: REF(1), provider: "fred", now: T0 });
    expect(a.started).toBe(true);
    expect(a.row).toMatchObject({
      requestRef: REF(1),
      state: "provisioning",
      provider: "fred",
      failedAttempts: 0,
      retryAt: null,
      requestedAt: T0,
    });

    // Concurrent and later requests join it.
    const joined = await Promise.all(
      [2, 3, 4].map((n) => beginProvisioning(db, k, { requestRef: REF(n), provider: "fred", now: plus(1) })),
    );
    expect(joined.map((j) => [j.started, j.row.requestRef])).toEqual([
      [false, REF(1)],
      [false, REF(1)],
      [false, REF(1)],
    ]);

    await recordFailedAttempt(db, k, { provider: "fred", error: "FRED answered 500", now: plus(2) });
    expect(await findProvisioning(db, k)).toMatchObject({
      state: "provisioning",
      failedAttempts: 1,
      lastError: "FRED answered 500",
      updatedAt: plus(2),
    });

    await markProvisioningFailed(db, k, {
      requestRef: REF(1),
      provider: "fred",
      error: "gave up",
      retryAt: plus(600),
      now: plus(3),
    });
    expect(await findProvisioning(db, k)).toMatchObject({
      state: "failed",
      failedAttempts: 2,
      lastError: "gave up",
      retryAt: plus(600),
    });

    // Until retry_at the failure stands; at retry_at a request starts a new provisioning with its own ref.
    expect(await beginProvisioning(db, k, { requestRef: REF(5), provider: "fred", now: plus(599) })).toMatchObject({
      started: false,
      row: { state: "failed", requestRef: REF(1) },
    });
    const renewed = await beginProvisioning(db, k, { requestRef: REF(6), provider: "fred", now: plus(600) });
    expect(renewed).toMatchObject({
      started: true,
      row: { state: "provisioning", requestRef: REF(6), failedAttempts: 0, lastError: null, retryAt: null },
    });

    // The old provisioning's late failure (a dead-lettered job of ref 1) does not end the new one.
    await markProvisioningFailed(db, k, {
      requestRef: REF(1),
      provider: "fred",
      error: "late",
      retryAt: plus(900),
      now: plus(601),
    });
    expect(await findProvisioning(db, k)).toMatchObject({ state: "provisioning", requestRef: REF(6) });

    await clearProvisioning(db, k);
    expect(await findProvisioning(db, k)).toBeNull();
  });

  test("a failure with no row (its series' row was cleared) is recorded with its ref", async () => {
    const k = { indicatorId: indicatorId("fred", "GDP"), regionCode: "US" };
    await markProvisioningFailed(database.db, k, {
      requestRef: REF(7),
      provider: "fred",
      error: "no data",
      retryAt: plus(60),
      now: T0,
    });
    expect(await findProvisioning(database.db, k)).toMatchObject({
      state: "failed",
      requestRef: REF(7),
      failedAttempts: 1,
      retryAt: plus(60),
      requestedAt: T0,
    });
  });
});

describe("source refreshes", () => {
  test("running, ok, running again (the last success kept), failed", async () => {
    const db = database.db;
    await recordRefreshStarted(db, "fred", T0);
    expect(await listSourceRefreshes(db)).toEqual([
      {
        source: "fred",
        lastStartedAt: T0,
        lastFinishedAt: null,
        status: "running",
        changedSeries: null,
        lastError: null,
        lastSuccessAt: null,
      },
    ]);
    await recordRefreshFinished(db, "fred", { ok: true, changedSeries: 3 }, plus(10));
    await recordRefreshStarted(db, "fred", plus(100));
    await recordRefreshFinished(db, "fred", { ok: false, error: "FRED answered 503" }, plus(110));
    await recordRefreshStarted(db, "bls", plus(120));
    expect(await listSourceRefreshes(db)).toEqual([
      {
        source: "bls",
        lastStartedAt: plus(120),
        lastFinishedAt: null,
        status: "running",
        changedSeries: null,
        lastError: null,
        lastSuccessAt: null,
      },
      {
        source: "fred",
        lastStartedAt: plus(100),
        lastFinishedAt: plus(110),
        status: "failed",
        changedSeries: null,
        lastError: "FRED answered 503",
        lastSuccessAt: plus(10),
      },
    ]);
  });
});
