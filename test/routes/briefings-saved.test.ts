// Saved briefings behind the real key rails, grouped by status: saving one (201, every bound at and past its edge,
// 401, 403 without premium access or outside the key's regions, 404 for an unknown region, the per-key maximum); a
// key's own briefings, their runs and deletion, never another key's (404, as for an unknown or malformed id); Key
// routes counted against the key's window (429) and never metered. The public briefings are briefings.test.ts.
import { beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { publicBriefingId } from "../../db/seed/briefings";
import { usageMonth } from "../../src/domain/access";
import { BRIEFING_RUNS_LIMIT, MAX_BRIEFINGS_PER_KEY } from "../../src/domain/briefings";
import { createLogger } from "../../src/logger";
import {
  briefingDetailResponseSchema,
  briefingListResponseSchema,
  briefingRunListResponseSchema,
  deleteBriefingResponseSchema,
} from "../../src/schemas/briefings";
import { runBriefing } from "../../src/services/briefings";
import { keyUsage } from "../../src/services/keys";
import { answeringAsker, briefingsApp, failingAsker, VALID_BRIEFING, WEEK_MS } from "../support/briefings";
import { testKey } from "../support/keys";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = briefingsApp();
const { call, get, post, del, runOnce } = fx;
const valid = VALID_BRIEFING;

describe("POST /v1/briefings", () => {
  test("201: saved with its canonical region, window, weekly schedule and no run yet; listed", async () => {
    const { status, body } = await post({ ...valid, name: "  Texas jobs  ", region: "TX", window: "2y" });
    expect(status).toBe(201);
    const d = briefingDetailResponseSchema.parse(body).data;
    expect(d).toMatchObject({
      name: "Texas jobs",
      question: valid.question,
      cadence: "weekly",
      region: "48",
      window: "2y",
      created_at: fx.t.clock.now().toISOString(),
      last_run_at: null,
      latest_run: null,
    });
    // Next Monday (the test clock is on a Sunday or later), 06:00 to 11:59 UTC.
    const next = new Date(d.next_run_at);
    expect([next.getUTCDay(), next.getUTCHours() >= 6 && next.getUTCHours() < 12]).toEqual([1, true]);
    expect(next.getTime() - fx.t.clock.now().getTime()).toBeGreaterThan(0);
    expect(next.getTime() - fx.t.clock.now().getTime()).toBeLessThanOrEqual(WEEK_MS);
    const listed = await get("/v1/briefings");
    expect(briefingListResponseSchema.parse(listed.body).data.map((b) => b.id)).toContain(d.id);
  });

  test("without region and window: both null", async () => {
    const { status, body } = await post(valid);
    expect(status).toBe(201);
    expect([body.data.region, body.data.window]).toEqual([null, null]);
  });

  test("400: name 1 to 120 and question 1 to 500 characters, at and past each edge; blank text", async () => {
    const ok = [{ name: "n" }, { name: "n".repeat(120) }, { question: "q" }, { question: "q".repeat(500) }];
    for (const change of ok)
      expect({ change: Object.keys(change), status: (await post({ ...valid, ...change })).status }).toEqual({
        change: Object.keys(change),
        status: 201,
      });
    const bad: [Record<string, unknown>, string][] = [
      [{ name: "" }, "name"],
      [{ name: "n".repeat(121) }, "name"],
      [{ name: "   " }, "name"],
      [{ question: "" }, "question"],
      [{ question: "q".repeat(501) }, "question"],
      [{ question: " \t " }, "question"],
      [{ name: 5 }, "name"],
    ];
    for (const [change, field] of bad) {
      const { status, body } = await post({ ...valid, ...change });
      expect({ change, status, code: body.error.code }).toEqual({ change, status: 400, code: "INVALID_PARAMETER" });
      expect(JSON.stringify(body.error)).toContain(field);
    }
  });

  test("400: cadence is required and only weekly; name and question are required", async () => {
    for (const body of [
      { name: valid.name, question: valid.question },
      { ...valid, cadence: "daily" },
      { ...valid, cadence: "Weekly" },
      { ...valid, cadence: "monthly" },
      { question: valid.question, cadence: "weekly" },
      { name: valid.name, cadence: "weekly" },
    ]) {
      const r = await post(body);
      expect({ body, status: r.status, code: r.body.error.code }).toEqual({
        body,
        status: 400,
        code: "INVALID_PARAMETER",
      });
    }
  });

  test("400: window is all or N with d, m, y within its bounds", async () => {
    for (const window of ["all", "30d", "365250d", "12000m", "1000y"])
      expect({ window, status: (await post({ ...valid, window })).status }).toEqual({ window, status: 201 });
    for (const window of ["", "0d", "365251d", "12001m", "1001y", "12w", "5Y", "5 y", "forever"]) {
      const r = await post({ ...valid, window });
      expect({ window, status: r.status, code: r.body.error.code }).toEqual({
        window,
        status: 400,
        code: "INVALID_PARAMETER",
      });
    }
  });

  test("404: an unknown region; 400: an empty one; a body that is not JSON is 400", async () => {
    const unknown = await post({ ...valid, region: "atlantis" });
    expect([unknown.status, unknown.body.error.code, unknown.body.error.message]).toEqual([
      404,
      "RESOURCE_NOT_FOUND",
      "Unknown region 'atlantis'",
    ]);
    expect((await post({ ...valid, region: "" })).status).toBe(400);
    const raw = await call("/v1/briefings", {
      method: "POST",
      headers: { ...fx.premium.headers, "content-type": "application/json" },
      body: "{not json",
    });
    expect([raw.status, raw.body.error.code]).toEqual([400, "INVALID_PARAMETER"]);
  });

  test("401 without a key or with a bad one; 403 for a key without premium access; 403 outside the key's regions", async () => {
    for (const headers of [{}, { authorization: "Bearer svc_live_not-a-real-key" }] as Record<string, string>[]) {
      const r = await post(valid, headers);
      expect([r.status, r.body.error.code]).toEqual([401, "INVALID_API_KEY"]);
    }
    const free = await post(valid, (await testKey(fx.t)).headers);
    expect([free.status, free.body.error.code]).toEqual([403, "CATEGORY_NOT_ALLOWED"]);
    expect(free.body.error.message).toBe(
      "Saving a briefing is premium: it needs a Developer or Professional key, or a key granting the 'svc-premium' scope.",
    );
    // A Developer key is premium without the scope.
    expect((await post(valid, (await testKey(fx.t, { plan: "developer" })).headers)).status).toBe(201);
    const california = (await testKey(fx.t, { scopes: ["svc-premium"], allowedRegions: ["06"] })).headers;
    const outside = await post({ ...valid, region: "TX" }, california);
    expect([outside.status, outside.body.error.code]).toEqual([403, "REGION_NOT_ALLOWED"]);
    expect((await post({ ...valid, region: "california" }, california)).status).toBe(201);
  });

  test(`a key keeps at most ${MAX_BRIEFINGS_PER_KEY}: the next one is refused until one is deleted`, async () => {
    const { headers } = await testKey(fx.t, { plan: "professional" });
    let last = "";
    for (let i = 0; i < MAX_BRIEFINGS_PER_KEY; i++) {
      const r = await post({ ...valid, name: `b${i}` }, headers);
      expect(r.status).toBe(201);
      last = r.body.data.id;
    }
    const over = await post(valid, headers);
    expect([over.status, over.body.error.code, over.body.error.details]).toEqual([
      400,
      "INVALID_PARAMETER",
      { limit: MAX_BRIEFINGS_PER_KEY },
    ]);
    expect((await get("/v1/briefings", headers)).body.meta).toEqual({
      count: MAX_BRIEFINGS_PER_KEY,
      max_per_key: MAX_BRIEFINGS_PER_KEY,
    });
    expect((await del(last, headers)).status).toBe(200);
    expect((await post(valid, headers)).status).toBe(201);
  });
});

describe("a key's own briefings: GET, runs, DELETE", () => {
  let owner: Awaited<ReturnType<typeof testKey>>;
  let other: Awaited<ReturnType<typeof testKey>>;
  let id: string;
  beforeAll(async () => {
    owner = await testKey(fx.t, { plan: "professional" });
    other = await testKey(fx.t, { plan: "professional" });
    id = (await post({ ...valid, region: "48" }, owner.headers)).body.data.id;
  });

  test("GET /v1/briefings lists only the calling key's briefings", async () => {
    expect((await get("/v1/briefings", owner.headers)).body.data.map((b: any) => b.id)).toEqual([id]);
    expect((await get("/v1/briefings", other.headers)).body).toEqual({
      data: [],
      meta: { count: 0, max_per_key: MAX_BRIEFINGS_PER_KEY },
    });
  });

  test("another key's id, an unknown id, a malformed id and a public briefing's id are the same 404 on GET, runs and DELETE", async () => {
    const ids: [string, Record<string, string>][] = [
      [id, other.headers],
      ["3b241101-e2bb-4255-8caf-4136c566a962", owner.headers],
      ["not-an-id", owner.headers],
      ["1%27%20or%201%3D1", owner.headers],
      [publicBriefingId("us-labor-market"), owner.headers],
      ["x".repeat(200), owner.headers],
    ];
    for (const [probe, headers] of ids) {
      for (const r of [
        await get(`/v1/briefings/${probe}`, headers),
        await get(`/v1/briefings/${probe}/runs`, headers),
        await del(probe, headers),
      ]) {
        expect({ probe, status: r.status, code: r.body.error.code }).toEqual({
          probe,
          status: 404,
          code: "RESOURCE_NOT_FOUND",
        });
        expect(r.body.error.message).toStartWith("No briefing '");
      }
    }
    // The other key's attempt deleted nothing.
    expect((await get(`/v1/briefings/${id}`, owner.headers)).status).toBe(200);
  });

  test("GET /v1/briefings/{id}: no run yet, then the latest good run; a failed run never replaces it; runs list them all", async () => {
    const before = briefingDetailResponseSchema.parse((await get(`/v1/briefings/${id}`, owner.headers)).body).data;
    expect([before.latest_run, before.last_run_at]).toEqual([null, null]);
    expect((await get(`/v1/briefings/${id}/runs`, owner.headers)).body).toEqual({
      data: [],
      meta: { limit: BRIEFING_RUNS_LIMIT.default, count: 0 },
    });

    const asker = answeringAsker("2025-09");
    const good = (await runOnce(id, asker)) as any;
    // Asked at the briefing depth, with its region and premium signals.
    expect(asker.asked).toEqual([{ input: { q: valid.question, depth: "briefing", region: "48" }, signals: true }]);
    const failed = (await runOnce(id, failingAsker())) as any;
    const detail = briefingDetailResponseSchema.parse((await get(`/v1/briefings/${id}`, owner.headers)).body).data;
    expect(detail.latest_run!.id).toBe(good.run.id);
    expect(detail.last_run_at).toBe(good.run.finishedAt.toISOString());
    expect(detail.latest_run).toMatchObject({
      status: "ok",
      error: null,
      response: { status: "ok", grounded: true, truncated: false, meta: { depth: "briefing" } },
    });

    const runs = briefingRunListResponseSchema.parse((await get(`/v1/briefings/${id}/runs`, owner.headers)).body);
    expect(runs.data.map((r) => [r.id, r.status])).toEqual([
      [failed.run.id, "failed"],
      [good.run.id, "ok"],
    ]);
    expect(runs.data[0]).toMatchObject({
      response: null,
      error:
        "The question could not be answered this time (an internal error, logged for the operator); the next run tries again.",
    });
    // The fault's own text stays in the operator's log.
    expect(JSON.stringify(runs)).not.toContain("connection terminated");
    expect(runs.data[1]!.scheduled_for < runs.data[0]!.scheduled_for).toBe(true);
  });

  test(`runs: limit ${BRIEFING_RUNS_LIMIT.min} to ${BRIEFING_RUNS_LIMIT.max}, default ${BRIEFING_RUNS_LIMIT.default}, newest first`, async () => {
    const many = (await post(valid, owner.headers)).body.data.id;
    const asker = answeringAsker();
    for (let i = 0; i < 25; i++) expect((await runOnce(many, asker)).kind).toBe("stored");
    const all = (await get(`/v1/briefings/${many}/runs?limit=100`, owner.headers)).body;
    expect(all.meta).toEqual({ limit: 100, count: 25 });
    const started = all.data.map((r: any) => r.started_at);
    expect(started).toEqual([...started].sort().reverse());
    expect((await get(`/v1/briefings/${many}/runs`, owner.headers)).body.data.map((r: any) => r.id)).toEqual(
      all.data.slice(0, 20).map((r: any) => r.id),
    );
    expect((await get(`/v1/briefings/${many}/runs?limit=1`, owner.headers)).body.data.map((r: any) => r.id)).toEqual([
      all.data[0].id,
    ]);
    for (const limit of ["0", "101", "-1", "1.5", "abc", "", "1e2"]) {
      const r = await get(`/v1/briefings/${many}/runs?limit=${limit}`, owner.headers);
      expect({ limit, status: r.status, code: r.body.error.code }).toEqual({
        limit,
        status: 400,
        code: "INVALID_PARAMETER",
      });
    }
  });

  test("DELETE: gone with its runs, from every route; a second DELETE is 404", async () => {
    const doomed = (await post(valid, owner.headers)).body.data.id;
    await runOnce(doomed, answeringAsker());
    const r = await del(doomed, owner.headers);
    expect(r.status).toBe(200);
    expect(deleteBriefingResponseSchema.parse(r.body)).toEqual({ data: { id: doomed, deleted: true } });
    expect((await get(`/v1/briefings/${doomed}`, owner.headers)).status).toBe(404);
    expect((await get(`/v1/briefings/${doomed}/runs`, owner.headers)).status).toBe(404);
    expect((await get("/v1/briefings", owner.headers)).body.data.map((b: any) => b.id)).not.toContain(doomed);
    expect((await del(doomed, owner.headers)).status).toBe(404);
    const left = (await fx.t.database.db.execute(
      sql`select count(*)::int as n from briefing_runs where briefing_id = ${doomed}`,
    )) as any;
    expect((Array.isArray(left) ? left : left.rows)[0].n).toBe(0);
  });

  test("one good run per weekly occurrence, whichever process runs it; failed runs of it are all kept", async () => {
    const b = (await post(valid, owner.headers)).body.data.id;
    const deps = { db: fx.t.database.db, clock: fx.t.clock, logger: createLogger("silent") };
    const first = (await runBriefing(deps, answeringAsker("a"), b)) as any;
    const failedA = await runBriefing(deps, failingAsker(), b);
    const failedB = await runBriefing(deps, failingAsker(), b);
    // The same occurrence again (as a second process would run it): not stored.
    expect(await runBriefing(deps, answeringAsker("b"), b)).toEqual({
      kind: "duplicate",
      scheduledFor: first.run.scheduledFor,
    });
    expect([failedA.kind, failedB.kind]).toEqual(["stored", "stored"]);
    const runs = (await get(`/v1/briefings/${b}/runs`, owner.headers)).body.data;
    expect(runs.map((r: any) => r.status)).toEqual(["failed", "failed", "ok"]);
    expect(new Set(runs.map((r: any) => r.scheduled_for)).size).toBe(1);
    expect((await get(`/v1/briefings/${b}`, owner.headers)).body.data.latest_run.response.answer).toBe(
      "Texas unemployment rate, a: 4.1 percent.",
    );
  });

  test("a run of a briefing whose key was revoked is skipped", async () => {
    const gone = await testKey(fx.t, { plan: "professional" });
    const b = (await post(valid, gone.headers)).body.data.id;
    expect((await call("/v1/keys/revoke", { method: "POST", headers: gone.headers })).status).toBe(200);
    expect(await runOnce(b, answeringAsker())).toEqual({ kind: "skipped" });
  });
});

describe("Key routes: counted against the key's window, never metered", () => {
  test("rate-limit headers on each answer; usage stays 0; past the limit, 429", async () => {
    const limited = await testKey(fx.t, { scopes: ["svc-premium"], rateLimitPerMinute: 4 });
    const month = usageMonth(fx.t.clock.now());
    const created = await post(valid, limited.headers);
    expect(created.status).toBe(201);
    expect([created.res.headers.get("x-ratelimit-limit"), created.res.headers.get("x-ratelimit-remaining")]).toEqual([
      "4",
      "3",
    ]);
    const id = created.body.data.id;
    for (const [path, remaining] of [
      ["/v1/briefings", "2"],
      [`/v1/briefings/${id}`, "1"],
      [`/v1/briefings/${id}/runs`, "0"],
    ] as const) {
      const r = await get(path, limited.headers);
      expect([path, r.status, r.res.headers.get("x-ratelimit-remaining")]).toEqual([path, 200, remaining]);
    }
    const over = await del(id, limited.headers);
    expect([over.status, over.body.error.code, over.res.headers.get("retry-after") !== null]).toEqual([
      429,
      "RATE_LIMIT_EXCEEDED",
      true,
    ]);
    expect(await keyUsage(fx.t.deps, limited.row.id, month)).toBe(0);
  });
});
