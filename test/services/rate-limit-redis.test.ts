// test-tier: database (two servers on one PostgreSQL database)
// Rate limits shared through Redis: exact counts under concurrency in one process, and one limit enforced
// across two real server processes. Uses TEST_REDIS_URL, else redis://127.0.0.1:6379 when reachable; skips otherwise.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { RedisClient } from "bun";
import { makeTestApp } from "../support/app";
import { sharedRedis } from "../support/redis";
import { bearer, testKey } from "../support/keys";
import { redisRateLimitStore } from "../../src/services/rate-limit-stores";
import { UNCORKED_BODY_BYTES } from "../../src/http/content-coding";
import { testBackend } from "../support/db";
import { openDatabase } from "../../db/client";
import { createKeyRuntime } from "../../src/services/key-runtime";
import { createLogger } from "../../src/logger";
import { issueKey } from "../../src/services/keys";
import { cryptoRandom, systemClock } from "../../src/deps";
import postgres from "postgres";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

/** A fresh, migrated PostgreSQL database on TEST_DATABASE_URL's server. */
async function sharedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `svc_redis_${process.pid}_${Date.now().toString(36)}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe(`CREATE DATABASE ${name}`);
  await sql.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const s = postgres(admin, { max: 1, onnotice: () => {} });
      await s.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await s.end();
    },
  };
}

const { url: REDIS_URL, skip: redisSkip } = await sharedRedis();

/** How many EVAL calls Redis has run so far. */
async function evalCalls(client: RedisClient): Promise<number> {
  const info = String(await client.send("INFO", ["commandstats"]));
  return Number(/cmdstat_eval:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

const haveRedis = redisSkip === null;
if (redisSkip) console.warn(`skipped: ${redisSkip}`);
const prefix = `svc:test:${crypto.randomUUID()}:`;

describe.skipIf(!haveRedis)("Redis rate-limit counters", () => {
  test("300 concurrent hits on one window get the distinct counts 1..300", async () => {
    const store = redisRateLimitStore(REDIS_URL, { prefix });
    try {
      const counts = await Promise.all(Array.from({ length: 300 }, () => store.hit("k1", 42, 60_000)));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
      expect(await store.hit("k1", 43, 60_000)).toBe(1);
    } finally {
      store.close();
    }
  });

  test("hits of one turn go to Redis as one call; hits of several keys and windows in it each get their own count", async () => {
    const store = redisRateLimitStore(REDIS_URL, { prefix });
    const monitor = new RedisClient(REDIS_URL);
    try {
      const before = await evalCalls(monitor);
      const counts = await Promise.all([
        store.hit("b1", 7, 60_000),
        store.hit("b2", 7, 60_000),
        store.hit("b1", 7, 60_000),
        store.hit("b1", 8, 60_000),
      ]);
      expect(counts).toEqual([1, 1, 2, 1]);
      expect((await evalCalls(monitor)) - before).toBe(1);
      // A window's first hit sets its expiry: a second past the window's end.
      const ttl = Number(await monitor.send("PTTL", [`${prefix}b1:7`]));
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      store.close();
      monitor.close();
    }
  });

  test("a memoised page on Redis counters: the same bytes as the full pipeline (over a socket too, as one chunk), and exactly N of 100 parallel requests on an N/min key", async () => {
    const t = await makeTestApp({
      keyAccess: true,
      rateLimits: redisRateLimitStore(REDIS_URL, { prefix: `${prefix}memo:` }),
      config: { seriesCacheRevalidateMs: 3_600_000 },
    });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: t.app.fetch, development: false });
    try {
      t.clock.set("2026-11-22T12:00:30Z");
      // A page whose answer, completed once Redis counted it, is written as one chunk (src/http/content-coding.ts bodyToWrite).
      const page = "/v1/observations?indicator=PAYEMS&region=US&limit=100";
      // On PostgreSQL the first read takes the catalog's first cross-process fingerprint (a new generation): a page
      // resolved across that change is not recorded, so the test starts after it.
      await t.request("/v1/indicators/PAYEMS");
      const warm = await testKey(t, { rateLimitPerMinute: 1000, plan: "professional" });
      const full = await t.request(page, { headers: warm.headers });
      expect(full.status).toBe(200);
      const fullBody = await full.text();
      expect(Buffer.byteLength(fullBody)).toBeGreaterThanOrEqual(UNCORKED_BODY_BYTES);
      const served = t.app.pages!.served;
      const again = await t.request(page, { headers: warm.headers });
      expect(t.app.pages!.served).toBe(served + 1);
      expect(await again.text()).toBe(fullBody);
      expect(again.headers.get("x-ratelimit-remaining")).toBe("998");

      // Over a socket, the memo's answer waits for Redis: Bun writes it as one chunk, not a send per header token
      // (uncompressed, as the full read above: a fetch asks for compressed bodies by default).
      const overSocket = await fetch(`http://127.0.0.1:${server.port}${page}`, {
        headers: { ...warm.headers, "accept-encoding": "identity" },
      });
      expect(t.app.pages!.served).toBe(served + 2);
      expect(overSocket.status).toBe(200);
      expect(overSocket.headers.get("transfer-encoding")).toBe("chunked");
      expect(overSocket.headers.get("content-length")).toBeNull();
      expect(overSocket.headers.get("x-ratelimit-remaining")).toBe("997");
      expect(await overSocket.text()).toBe(fullBody);

      const { key } = await testKey(t, { rateLimitPerMinute: 30, plan: "professional" });
      // The ping (which caches the key) counts in a window of its own: all 30 of the data window are left.
      await t.request("/v1/ping", { headers: bearer(key) });
      const statuses = await Promise.all(
        Array.from({ length: 100 }, async () => (await t.request(page, { headers: bearer(key) })).status),
      );
      expect(statuses.filter((s) => s === 200).length).toBe(30);
      expect(statuses.filter((s) => s === 429).length).toBe(70);
    } finally {
      server.stop(true);
      await t.close();
    }
  });

  test("200 parallel requests on a 60/min key let exactly 60 through with Redis counters", async () => {
    const t = await makeTestApp({ rateLimits: redisRateLimitStore(REDIS_URL, { prefix }) });
    try {
      t.clock.set("2026-11-22T12:00:30Z");
      const { key } = await testKey(t);
      const statuses = await Promise.all(
        Array.from({ length: 200 }, async () => (await t.app.request("/v1/ping", { headers: bearer(key) })).status),
      );
      expect(statuses.filter((s) => s === 200).length).toBe(60);
      expect(statuses.filter((s) => s === 429).length).toBe(140);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe.skipIf(!haveRedis)("two server processes sharing Redis", () => {
  const procs: Bun.Subprocess[] = [];
  const servers: { port: number; key: string }[] = [];

  let shared: { url: string; drop(): Promise<void> } | null = null;

  beforeAll(async () => {
    const seed = String(1 + Math.floor(Math.random() * 1_000_000));
    const env: Record<string, string | undefined> = {
      ...process.env,
      REDIS_URL,
      KEY_SEED: seed,
      FIXED_NOW: "2026-11-22T12:00:30Z",
      DATABASE_URL: undefined,
    };
    if (testBackend === "postgres") {
      // Both processes on one PostgreSQL database, holding one key created here.
      shared = await sharedDatabase();
      const database = await openDatabase({ url: shared.url, poolSize: 2 });
      const keys = createKeyRuntime({ database, logger: createLogger("silent"), redisUrl: null });
      const { key } = await issueKey({ database, keys, clock: systemClock, random: cryptoRandom } as any, {
        plan: "free",
      });
      await keys.close();
      await database.close();
      Object.assign(env, { DATABASE_URL: shared.url, KEY: key });
    }
    for (let i = 0; i < 2; i++) {
      const proc = Bun.spawn(["bun", "test/fixtures/keyed-server.ts"], {
        cwd: `${import.meta.dir}/../..`,
        env,
        stdout: "pipe",
        stderr: "inherit",
      });
      procs.push(proc);
    }
    for (const proc of procs) {
      const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
      let text = "";
      while (!text.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("fixture server exited before listening");
        text += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      servers.push(JSON.parse(text.split("\n")[0]!));
    }
  }, 120_000);

  afterAll(async () => {
    for (const p of procs) p.kill();
    await Promise.all(procs.map((p) => p.exited));
    await shared?.drop();
  });

  test("the same key on both servers is limited once: 100 requests split across them let exactly 60 through", async () => {
    expect(servers[0]!.key).toBe(servers[1]!.key);
    const key = servers[0]!.key;
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${servers[i % 2]!.port}/v1/ping`, { headers: bearer(key) });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200).length).toBe(60);
    expect(statuses.filter((s) => s === 429).length).toBe(40);
    // Both servers agree the window is spent.
    for (const s of servers) {
      const res = await fetch(`http://127.0.0.1:${s.port}/v1/ping`, { headers: bearer(key) });
      expect(res.status).toBe(429);
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(res.headers.get("retry-after")).toBe("30");
    }
  }, 60_000);

  // Needs both processes on one database: the PostgreSQL run.
  test.skipIf(testBackend !== "postgres")(
    "a key revoked through one server fails at once on the other (cache invalidation through Redis)",
    async () => {
      const key = servers[0]!.key;
      // Server 1 has the key cached (its clock is frozen, so only an invalidation can drop it within the TTL).
      expect((await fetch(`http://127.0.0.1:${servers[1]!.port}/v1/ping`, { headers: bearer(key) })).status).toBe(429);
      const revoked = await fetch(`http://127.0.0.1:${servers[0]!.port}/v1/keys/revoke`, {
        method: "POST",
        headers: bearer(key),
      });
      expect(revoked.status).toBe(200);
      const after = await fetch(`http://127.0.0.1:${servers[1]!.port}/v1/ping`, { headers: bearer(key) });
      expect(after.status).toBe(401);
    },
    60_000,
  );
});
