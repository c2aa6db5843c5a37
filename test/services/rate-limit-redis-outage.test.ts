// A Redis outage under the rate limiter (faults issue, item 3): with a Redis server this test starts and stops, keyed
// requests keep being answered at once and counted in the process while Redis is gone, /api/health says degraded,
// and shared counting resumes when Redis is back. Skips where redis-server is not installed.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { RedisClient } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redisRateLimitStore } from "../../src/services/rate-limit-stores";
import { makeTestApp, type TestApp } from "../support/app";
import { bearer, testKey } from "../support/keys";
import { freePort } from "../../bench/lib/load";

setDefaultTimeout(60_000);

const redisServer = Bun.which("redis-server");
if (!redisServer) console.warn("skipped: redis-server is not installed");

let port = 0;
let dir = "";
let proc: ReturnType<typeof Bun.spawn> | null = null;

async function startRedis(): Promise<void> {
  proc = Bun.spawn([redisServer!, "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], { stdout: "ignore", stderr: "ignore" });
  for (let i = 0; i < 100; i++) {
    const c = new RedisClient(`redis://127.0.0.1:${port}`, { autoReconnect: false, maxRetries: 0, connectionTimeout: 200 });
    try {
      if ((await c.ping()) === "PONG") return;
    } catch {
    } finally {
      c.close();
    }
    await Bun.sleep(50);
  }
  throw new Error("redis-server did not start");
}

async function stopRedis(): Promise<void> {
  proc?.kill("SIGKILL");
  await proc?.exited;
  proc = null;
}

let t: TestApp;
let monotonic = 0;
const logged: string[] = [];

beforeAll(async () => {
  if (!redisServer) return;
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), "svc-redis-"));
  await startRedis();
  const logger = { warn: (m: string) => void logged.push(`warn ${m}`), info: (m: string) => void logged.push(`info ${m}`) };
  const rateLimits = redisRateLimitStore(`redis://127.0.0.1:${port}`, { timeoutMs: 200, retryAfterMs: 1000, logger, now: () => monotonic });
  t = await makeTestApp({ keyAccess: true, rateLimits });
  t.clock.set("2026-11-22T12:00:30Z");
});
afterAll(async () => {
  await t?.close();
  await stopRedis();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!redisServer)("a Redis outage under the rate limiter", () => {
  test("counts are shared through Redis; when it goes, requests are answered and counted in the process; health says degraded; when it is back, counts are shared again", async () => {
    const { key } = await testKey(t, { rateLimitPerMinute: 5 });
    const get = () => t.request("/v1/ping", { headers: bearer(key) });
    const remaining = async () => (await get()).headers.get("x-ratelimit-remaining");
    expect([await remaining(), await remaining()]).toEqual(["4", "3"]);
    expect((await t.getJson("/api/health")).body).toMatchObject({ status: "ok", rate_limits: { store: "redis", shared: true } });

    await stopRedis();
    // The first request after the outage finds Redis gone and is counted here; so are the next ones, at once.
    const during = [];
    for (let i = 0; i < 6; i++) {
      const res = await get();
      during.push([res.status, res.headers.get("x-ratelimit-remaining")]);
    }
    expect(during).toEqual([[200, "4"], [200, "3"], [200, "2"], [200, "1"], [200, "0"], [429, "0"]]);
    const health = await t.getJson("/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "degraded", rate_limits: { store: "redis", shared: false } });
    expect(logged.filter((l) => l.startsWith("warn"))).toHaveLength(1);

    await startRedis();
    // Past the retry interval the next batch asks Redis again, and its counts are Redis's (a new, empty server).
    monotonic += 1001;
    for (let i = 0; i < 50 && (await t.getJson("/api/health")).body.status !== "ok"; i++) {
      await get();
      await Bun.sleep(50);
      monotonic += 1001;
    }
    expect((await t.getJson("/api/health")).body).toMatchObject({ status: "ok", rate_limits: { shared: true } });
    expect(logged.some((l) => l.startsWith("info"))).toBe(true);
    // The store may have found Redis back by itself (it reconnects every retry interval): the next request counts there.
    await get();
    const counts = new RedisClient(`redis://127.0.0.1:${port}`);
    try {
      const keys = (await counts.send("KEYS", ["svc:rl:*"])) as string[];
      expect(keys.length).toBe(1);
    } finally {
      counts.close();
    }
  });

  // Before the fix, health said shared: true 1.5 s after Redis was gone (until a request failed) and degraded 10-12 s after
  // it was back (the client's own reconnect backoff). Now a lost connection says so at once, and the store
  // reconnects by itself every retry interval: both changes show in /api/health with no request in between.
  test("health follows Redis by itself: degraded once it is gone, ok once it is back, with no request in between", async () => {
    const status = async () => ((await t.getJson("/api/health")).body as { status: string }).status;
    expect(await status()).toBe("ok");
    await stopRedis();
    const until = async (want: string) => {
      for (let i = 0; i < 200; i++) {
        if ((await status()) === want) return want;
        await Bun.sleep(25);
      }
      return status();
    };
    expect(await until("degraded")).toBe("degraded");
    await startRedis();
    expect(await until("ok")).toBe("ok");
  });
});
