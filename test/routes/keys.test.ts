// Free keys end to end: signup, authentication, ping, per-minute rate limits, rotation and revocation
// (spec "API key" state table rows for keys without a paid subscription).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { makeTestApp, type TestApp } from "../support/app";
import { bearer, fromIp, jsonBody, testKey } from "../support/keys";
import { sha256Hex } from "../../src/domain/keys";
import { meterRequest } from "../../src/services/keys";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
}, 120_000);
afterAll(() => t.close());

const START = "2026-11-22T12:00:30Z";
const WINDOW_END = Date.UTC(2026, 10, 22, 12, 1, 0) / 1000;
const call = async (path: string, init: RequestInit = {}, ip = "203.0.113.1"): Promise<Response> => t.app.request(path, init, fromIp(ip));
const body = async (res: Response) => (await res.json()) as any;
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

describe("POST /v1/signup", () => {
  test("201: a free key returned once, stored only as a hash", async () => {
    t.clock.set(START);
    const res = await call("/v1/signup", jsonBody({ email: "Ada@Example.com" }), freshIp());
    expect(res.status).toBe(201);
    const b = await body(res);
    expect(b.data.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(b.data).toMatchObject({ key_hint: `svc_live_…${b.data.key.slice(-4)}`, plan: "free", rate_limit_per_minute: 60, docs_url: "http://localhost/docs" });
    const rows = (await t.database.db.execute(sql`select * from api_keys where hint = ${b.data.key_hint}`)) as any;
    const list = Array.isArray(rows) ? rows : rows.rows;
    expect(list.length).toBe(1);
    expect(list[0].secret_hash).toBe(sha256Hex(b.data.key));
    expect(JSON.stringify(list[0])).not.toContain(b.data.key);
    expect(list[0].email).toBe("ada@example.com");
  });

  test("attribution fields up to 120 characters are accepted and never stored", async () => {
    const marker = "m".repeat(110) + "ATTRIBUTE1";
    const res = await call("/v1/signup", jsonBody({ email: "b@example.com", source: marker, utm_source: marker, utm_medium: marker, utm_campaign: marker }), freshIp());
    expect(res.status).toBe(201);
    for (const table of ["api_keys", "client_events"]) {
      const rows = (await t.database.db.execute(sql.raw(`select * from ${table}`))) as any;
      expect(JSON.stringify(Array.isArray(rows) ? rows : rows.rows)).not.toContain("ATTRIBUTE1");
    }
  });

  test("400 for an attribution field of 121 characters, a bad email, or no email", async () => {
    for (const bad of [{ email: "c@example.com", utm_campaign: "x".repeat(121) }, { email: "not-an-email" }, {}]) {
      const res = await call("/v1/signup", jsonBody(bad), freshIp());
      expect(res.status).toBe(400);
      expect((await body(res)).error.code).toBe("INVALID_PARAMETER");
    }
  });

  test("5 signups per client address per 24 hours; the 6th is 429; another address is unaffected; a slot frees 24 h after the first", async () => {
    t.clock.set(START);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      expect((await call("/v1/signup", jsonBody({ email: `s${i}@example.com` }), ip)).status).toBe(201);
    }
    const refused = await call("/v1/signup", jsonBody({ email: "s5@example.com" }), ip);
    expect(refused.status).toBe(429);
    const refusal = (await body(refused)).error;
    expect(refusal.code).toBe("RATE_LIMIT_EXCEEDED");
    // The first signup was at START+1s; it leaves the window 24 h later. The header counts seconds; the message
    // says it in hours and minutes, rounded up (86,396 s = 23 h 59 min 56 s).
    expect(refused.headers.get("retry-after")).toBe(String(86_400 - 4));
    expect(refusal.message).toBe("At most 5 signups per client address per 24 hours; retry in 24 h.");
    expect((await call("/v1/signup", jsonBody({ email: "other@example.com" }), freshIp())).status).toBe(201);
    t.clock.set(new Date(new Date(START).getTime() + 1000 + 86_400_000 - 1));
    expect((await call("/v1/signup", jsonBody({ email: "s6@example.com" }), ip)).status).toBe(429);
    t.clock.advance(1);
    expect((await call("/v1/signup", jsonBody({ email: "s7@example.com" }), ip)).status).toBe(201);
  });
});

test("IPv6: the signup limit counts a /64 as one address (5 from 2001:db8:5:1::/64 in all); the next /64 is another", async () => {
  t.clock.set(START);
  for (let i = 1; i <= 5; i++) expect((await call("/v1/signup", jsonBody({ email: `v6-${i}@example.com` }), `2001:db8:5:1::${i.toString(16)}`)).status).toBe(201);
  const refused = await call("/v1/signup", jsonBody({ email: "v6-6@example.com" }), "2001:db8:5:1:ffff:ffff:ffff:ffff");
  expect(refused.status).toBe(429);
  expect((await call("/v1/signup", jsonBody({ email: "v6-7@example.com" }), "2001:db8:5:2::1")).status).toBe(201);
});

test("10 concurrent signups from one address: exactly 5 keys", async () => {
  t.clock.set(START);
  const ip = freshIp();
  const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => call("/v1/signup", jsonBody({ email: `c${i}@example.com` }), ip).then((r) => r.status)));
  expect(statuses.filter((s) => s === 201).length).toBe(5);
  expect(statuses.filter((s) => s === 429).length).toBe(5);
});

describe("authentication", () => {
  test("Bearer and X-API-Key both authenticate GET /v1/ping", async () => {
    t.clock.set(START);
    const { key, row } = await testKey(t);
    for (const headers of [bearer(key), { "x-api-key": key }]) {
      const res = await call("/v1/ping", { headers });
      expect(res.status).toBe(200);
      expect((await body(res)).data).toMatchObject({ status: "ok", key_hint: row.hint, plan: "free", mode: "live", premium_access: false, rate_limit_per_minute: 60 });
    }
  });

  test("401 INVALID_API_KEY: missing, malformed, unknown, and two different keys", async () => {
    const { key } = await testKey(t);
    const other = await testKey(t);
    const cases: Record<string, string>[] = [
      {},
      { authorization: "Bearer svc_live_tooShort" },
      { "x-api-key": `svc_live_${"A".repeat(32)}` },
      { authorization: `Bearer ${key}`, "x-api-key": other.key },
    ];
    for (const headers of cases) {
      const res = await call("/v1/ping", { headers });
      expect(res.status).toBe(401);
      expect((await body(res)).error.code).toBe("INVALID_API_KEY");
    }
  });

  test("a malformed key is refused on every route, even a free catalog one", async () => {
    const res = await call("/v1/regions/06", { headers: { authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
  });

  test("401 EXPIRED_API_KEY once the key's expiry passes (works until the instant before)", async () => {
    t.clock.set(START);
    const { key } = await testKey(t, { expiresAt: new Date(new Date(START).getTime() + 60_000) });
    t.clock.advance(59_999);
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(200);
    t.clock.advance(1);
    const res = await call("/v1/ping", { headers: bearer(key) });
    expect(res.status).toBe(401);
    const error = (await body(res)).error;
    expect(error.code).toBe("EXPIRED_API_KEY");
    // What to do next, not only what went wrong.
    expect(error.message).toBe(
      `This key expired at ${new Date(new Date(START).getTime() + 60_000).toISOString()}: ask whoever issued it for a new one, or get a free key with POST /v1/signup (or at /keys in a browser).`,
    );
  });

  test("an unknown key's 401 says to check the key, use a rotated key's successor, recover or sign up", async () => {
    const res = await call("/v1/ping", { headers: { "x-api-key": `svc_live_${"A".repeat(32)}` } });
    const error = (await body(res)).error;
    expect(error.code).toBe("INVALID_API_KEY");
    expect(error.message).toStartWith("Unknown API key: check that the whole key was sent");
    expect(error.message).toContain("POST /v1/keys/recover");
    expect(error.message).toContain("POST /v1/signup");
  });

  test("svc_test_ keys authenticate", async () => {
    const { key } = await testKey(t, { mode: "test" });
    expect(key.startsWith("svc_test_")).toBe(true);
    const res = await call("/v1/ping", { headers: bearer(key) });
    expect((await body(res)).data.mode).toBe("test");
  });
});

describe("per-minute rate limit", () => {
  test("headers on 200; the 61st request in a window is 429 with Retry-After; the next window starts over", async () => {
    t.clock.set(START);
    const { key } = await testKey(t);
    const first = await call("/v1/ping", { headers: bearer(key) });
    expect(first.headers.get("x-ratelimit-limit")).toBe("60");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(first.headers.get("x-ratelimit-reset")).toBe(String(WINDOW_END));
    for (let i = 2; i <= 60; i++) {
      const r = await call("/v1/ping", { headers: bearer(key) });
      expect(r.status).toBe(200);
      if (i === 60) expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    }
    const refused = await call("/v1/ping", { headers: bearer(key) });
    expect(refused.status).toBe(429);
    expect((await body(refused)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("60");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("x-ratelimit-reset")).toBe(String(WINDOW_END));
    t.clock.set(new Date(WINDOW_END * 1000));
    const next = await call("/v1/ping", { headers: bearer(key) });
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(next.headers.get("x-ratelimit-reset")).toBe(String(WINDOW_END + 60));
  });

  test("an operator-set limit applies (2/min: the 3rd is refused)", async () => {
    t.clock.set(START);
    const { key } = await testKey(t, { rateLimitPerMinute: 2 });
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(200);
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(200);
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(429);
  });

  // Before the fix, /v1/ping, the documented way to read a key's usage, was refused 429 exactly when the key was at its
  // limit (it counted in the data window). It counts in a window of its own now.
  test("a key at its limit (2/min used on data routes) still gets 200 from /v1/ping; the data window stays spent", async () => {
    t.clock.set(START);
    const { key } = await testKey(t, { rateLimitPerMinute: 2 });
    for (let i = 0; i < 2; i++) expect((await call("/v1/sources", { headers: bearer(key) })).status).toBe(200);
    expect((await call("/v1/sources", { headers: bearer(key) })).status).toBe(429);
    const ping = await call("/v1/ping", { headers: bearer(key) });
    expect(ping.status).toBe(200);
    expect((await body(ping)).data.rate_limit_per_minute).toBe(2);
    expect((await call("/v1/sources", { headers: bearer(key) })).status).toBe(429);
  });

  test("200 parallel requests on a 60/min key let exactly 60 through", async () => {
    t.clock.set(START);
    const { key } = await testKey(t);
    const statuses = await Promise.all(Array.from({ length: 200 }, () => call("/v1/ping", { headers: bearer(key) }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(60);
    expect(statuses.filter((s) => s === 429).length).toBe(140);
  });

  test("key management is not rate limited: an exhausted key can still rotate", async () => {
    t.clock.set(START);
    const { key } = await testKey(t, { rateLimitPerMinute: 1 });
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(200);
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(429);
    const rotated = await call("/v1/keys/rotate", { method: "POST", headers: bearer(key) });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("x-ratelimit-limit")).toBe(null);
    // The window's count belongs to the key, not the secret: it carries over.
    expect((await call("/v1/ping", { headers: bearer((await body(rotated)).data.key) })).status).toBe(429);
  });
});

describe("POST /v1/keys/rotate (free key)", () => {
  test("new key in the response; the old secret fails at once; plan, limit and usage carry over", async () => {
    t.clock.set(START);
    const { key, row } = await testKey(t, { rateLimitPerMinute: 7, scopes: ["svc-premium"] });
    await meterRequest(t.deps, row.id);
    await meterRequest(t.deps, row.id);
    const res = await call("/v1/keys/rotate", { method: "POST", headers: bearer(key) });
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.data).toEqual({ key: b.data.key, key_hint: `svc_live_…${b.data.key.slice(-4)}`, previous_key_hint: row.hint, delivery: "response" });
    expect(b.data.key).not.toBe(key);
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(401);
    const ping = await body(await call("/v1/ping", { headers: bearer(b.data.key) }));
    expect(ping.data).toMatchObject({ plan: "free", rate_limit_per_minute: 7, scopes: ["svc-premium"], premium_access: true, usage: { month: "2026-11", requests: 2 } });
  });

  test("5 rotations per 24 hours: the 6th is 429 and the current key keeps working; a slot frees 24 h after the first", async () => {
    t.clock.set(START);
    let { key } = await testKey(t);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(60_000);
      const r = await call("/v1/keys/rotate", { method: "POST", headers: bearer(key) });
      expect(r.status).toBe(200);
      key = (await body(r)).data.key;
    }
    const firstAt = new Date(START).getTime() + 60_000;
    const refused = await call("/v1/keys/rotate", { method: "POST", headers: bearer(key) });
    expect(refused.status).toBe(429);
    expect((await body(refused)).error.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(refused.headers.get("retry-after")).toBe(String(86_400 - 240));
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(200);
    t.clock.set(new Date(firstAt + 86_400_000 - 1));
    expect((await call("/v1/keys/rotate", { method: "POST", headers: bearer(key) })).status).toBe(429);
    t.clock.set(new Date(firstAt + 86_400_000));
    const again = await call("/v1/keys/rotate", { method: "POST", headers: bearer(key) });
    expect(again.status).toBe(200);
  });

  test("concurrent rotations of one key leave exactly one live secret", async () => {
    t.clock.set(START);
    const { key, row } = await testKey(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => call("/v1/keys/rotate", { method: "POST", headers: bearer(key) })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBe(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(401);
      expect((await body(r)).error.code).toBe("INVALID_API_KEY");
    }
    const fresh = (await body(ok[0]!)).data.key;
    expect((await call("/v1/ping", { headers: bearer(fresh) })).status).toBe(200);
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(401);
    const rows = (await t.database.db.execute(sql`select secret_hash from api_keys where id = ${row.id}`)) as any;
    const list = Array.isArray(rows) ? rows : rows.rows;
    expect(list.map((r: any) => r.secret_hash)).toEqual([sha256Hex(fresh)]);
  });

  test("401 without a key", async () => {
    expect((await call("/v1/keys/rotate", { method: "POST" })).status).toBe(401);
  });
});

describe("POST /v1/keys/revoke (no paid subscription)", () => {
  test("revoked permanently: 200 with the hint, then 401 for every use", async () => {
    const { key, row } = await testKey(t);
    const res = await call("/v1/keys/revoke", { method: "POST", headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { revoked: true, key_hint: row.hint, subscription_cancelled: false } });
    const refused = await call("/v1/ping", { headers: bearer(key) });
    expect(refused.status).toBe(401);
    // A revoked key is told so, with the next step (an unknown key is told to check it instead).
    expect((await body(refused)).error).toEqual({
      code: "INVALID_API_KEY",
      message: "This API key was revoked and no longer works: get a free key with POST /v1/signup (or at /keys in a browser), or ask whoever issued it for a new one.",
    });
    expect((await call("/v1/keys/revoke", { method: "POST", headers: bearer(key) })).status).toBe(401);
    expect((await call("/v1/keys/rotate", { method: "POST", headers: bearer(key) })).status).toBe(401);
  });

  test("cancel_subscription on a key without one just revokes", async () => {
    const { key } = await testKey(t);
    const res = await call("/v1/keys/revoke", jsonBody({ cancel_subscription: true }, bearer(key)));
    expect(res.status).toBe(200);
    expect((await body(res)).data.subscription_cancelled).toBe(false);
  });

  test("400 for a non-boolean cancel_subscription", async () => {
    const { key } = await testKey(t);
    const res = await call("/v1/keys/revoke", jsonBody({ cancel_subscription: "yes" }, bearer(key)));
    expect(res.status).toBe(400);
    expect((await call("/v1/ping", { headers: bearer(key) })).status).toBe(200);
  });
});

describe("recovery of a free key", () => {
  test("202 and no token: free keys cannot be recovered", async () => {
    const res = await call("/v1/keys/recover", jsonBody({ email: "Ada@Example.com" }), freshIp());
    expect(res.status).toBe(202);
    const rows = (await t.database.db.execute(sql`select count(*)::int as n from recovery_tokens`)) as any;
    expect((Array.isArray(rows) ? rows : rows.rows)[0].n).toBe(0);
  });
});
