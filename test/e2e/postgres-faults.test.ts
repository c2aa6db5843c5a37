// PostgreSQL faults (faults issue, items 4, 7 and 8), on a PostgreSQL instance this test starts and stops itself
// (initdb + pg_ctl; skipped with a message where they cannot run):
// - an outage under load: before the fix, requests waited in postgres.js's reconnect backoff for as long as the
//   server was down (7-26 s, many never answered). Now each one is answered at once, 503 with the envelope and
//   Retry-After, /api/health says 503, no log line carries a query parameter, and service resumes by itself when
//   the server is back;
// - several nodes starting at once on an empty database: before the fix one died in migrations (duplicate key on
//   pg_type). Now migrations and the first-start seed run under an advisory lock: every node starts, the seed runs
//   once.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { openDatabase } from "../../db/client";
import { sha256Hex } from "../../src/domain/keys";
import { createLogger } from "../../src/logger";
import { postgresUnavailable, startPostgres, type PgInstance } from "../../bench/lib/instances";
import { makeTestApp, type TestApp } from "../support/app";
import { testKey } from "../support/keys";

setDefaultTimeout(120_000);

const ROOT = resolve(import.meta.dir, "../..");
const skip = postgresUnavailable();
if (skip) console.warn(`skipped (PostgreSQL faults): ${skip}`);

let pg: PgInstance;
const dirs: string[] = [];

beforeAll(async () => {
  if (!skip) pg = await startPostgres();
});
afterAll(async () => {
  await pg?.destroy();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function createDatabase(name: string): Promise<string> {
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const u = new URL(pg.url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Resolves with `p`, or rejects if it has not settled after `ms` (a request that hangs fails the test). */
function settlesWithin<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, Bun.sleep(ms).then(() => Promise.reject(new Error(`${what}: no answer after ${ms} ms`)))]);
}

describe.skipIf(!!skip)("a PostgreSQL outage", () => {
  let t: TestApp;
  const logged: string[] = [];

  test("requests are answered 503 at once with the envelope and Retry-After while the server is down, without query parameters in the log, and served again when it is back", async () => {
    const url = await createDatabase("outage");
    const database = await openDatabase({ url, poolSize: 4, connectTimeoutMs: 1000, statementTimeoutMs: 5000, log: createLogger("info", (l) => logged.push(l)) });
    t = await makeTestApp({ database, keyAccess: true, logger: createLogger("debug", (l) => logged.push(l)) });
    const { key, headers } = await testKey(t, { rateLimitPerMinute: 100_000 });
    // /v1/ping reads the key's usage from the database on every request.
    const ping = () => t.app.request("/v1/ping", { headers });
    expect((await ping()).status).toBe(200);

    await pg.stop();
    // A burst, all at once, then the health check: every one is answered (the old code left them waiting until the
    // server came back, which here is never, so they would hang past the deadline).
    const burst = await settlesWithin(Promise.all(Array.from({ length: 100 }, () => ping())), 20_000, "burst during the outage");
    const statuses = burst.map((r) => r.status);
    // A request may find the key still cached (1 s) and fail on its usage read: every one is a 503.
    expect(new Set(statuses)).toEqual(new Set([503]));
    for (const res of [burst[0]!, burst[99]!]) {
      expect(res.headers.get("retry-after")).toBe("2");
      expect(await res.json()).toEqual({ error: { code: "SERVICE_UNAVAILABLE", message: "The database is not answering; retry shortly.", details: { retry_after_seconds: 2 } } });
    }
    const health = await settlesWithin(Promise.resolve(t.app.request("/api/health")), 20_000, "health during the outage");
    expect(health.status).toBe(503);

    await pg.start();
    // Back without a restart: the connection gate tries the server again within half a second.
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await ping()).status;
      if (status !== 200) await Bun.sleep(100);
    }
    expect(status).toBe(200);
    expect((await t.app.request("/api/health")).status).toBe(200);

    // The outage was logged once each way; nothing logged carries the presented key's hash.
    const text = logged.join("\n");
    expect(text).not.toContain(sha256Hex(key));
    const msgs = logged.map((l) => JSON.parse(l).msg);
    expect(msgs.filter((m) => m.startsWith("database unreachable")).length).toBe(1);
    expect(msgs.filter((m) => m === "database answers again").length).toBe(1);
    await t.close();
  });
});

describe.skipIf(!!skip)("nodes starting at once on an empty database", () => {
  test("four `svc migrate` at once on an empty database all succeed", async () => {
    const url = await createDatabase("migrate_race");
    const env = { ...process.env, DATABASE_URL: url, LOG_LEVEL: "error", DATA_DIR: mkdtempSync(join(tmpdir(), "svc-migrate-")) };
    dirs.push(env.DATA_DIR);
    const procs = Array.from({ length: 4 }, () => Bun.spawn([process.execPath, "src/cli.ts", "migrate"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" }));
    const results = await Promise.all(procs.map(async (p) => ({ code: await p.exited, err: await new Response(p.stderr).text() })));
    expect(results).toEqual(Array.from({ length: 4 }, () => ({ code: 0, err: "" })));
  });

  test("three `svc serve` at once on an empty database: all listen, one seeds, the seed is there once", async () => {
    const url = await createDatabase("first_start_race");
    const procs: Bun.Subprocess<"ignore", "ignore", "pipe">[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const dataDir = mkdtempSync(join(tmpdir(), "svc-first-start-"));
        dirs.push(dataDir);
        const env = { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", NODE_ENV: "production", X402_NETWORKS: "none", LIGHTNING_BACKEND: "none" };
        procs.push(Bun.spawn([process.execPath, "src/cli.ts", "serve"], { cwd: ROOT, env, stdin: "ignore", stdout: "ignore", stderr: "pipe" }));
      }
      const logs = await Promise.all(procs.map((p) => untilListening(p)));
      const seeded = logs.filter((l) => l.some((e) => e.msg?.startsWith("seeding regions, catalog and the real data snapshot")));
      expect(seeded.length).toBe(1);
      const db = postgres(url, { max: 1, onnotice: () => {} });
      const [{ regions, codes }] = await db`select count(*)::int as regions, count(distinct code)::int as codes from regions`;
      await db.end();
      expect(regions).toBeGreaterThan(3000);
      expect(codes).toBe(regions);
    } finally {
      for (const p of procs) p.kill("SIGTERM");
      await Promise.all(procs.map((p) => p.exited));
    }
  });
});

/** The server's JSON log lines up to "ready" (it serves data from then on); throws with its output if it exits first. */
async function untilListening(proc: Bun.Subprocess<"ignore", "ignore", "pipe">): Promise<any[]> {
  const reader = proc.stderr.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited ${await proc.exited} before ready:\n${text}`);
    text += new TextDecoder().decode(value);
    // Whole lines only: the last one may still be arriving.
    const entries = text.split("\n").slice(0, -1).filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    if (entries.some((e) => e.msg === "ready")) {
      // Keep draining so the server never blocks on a full pipe.
      void (async () => {
        while (!(await reader.read()).done) {}
      })().catch(() => {});
      return entries;
    }
  }
}
