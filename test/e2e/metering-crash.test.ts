// test-tier: database (a server killed mid-write, on each database)
// Metering survives a crash: a real server process (`svc serve`) answers N metered requests, is killed with
// SIGKILL (no shutdown code runs), is started again on the same DATA_DIR and database, and the key's usage is
// exactly N (then N + M after M more requests and a clean stop). Runs on PGlite (an on-disk data directory) and,
// with TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { usageFor } from "../../db/repos/keys";
import { cryptoRandom, systemClock } from "../../src/deps";
import { issueKey } from "../../src/services/keys";
import { usageJournalDir } from "../../src/services/usage-journal";
import { parseJournal } from "../../src/services/usage-journal-tally";
import { sharedDatabase, takeAsSeeded, testBackend, type SharedDatabase } from "../support/db";

// bun resets the default timeout per file: this file starts databases, processes or servers. The server starts on
// the test seed taken as the whole snapshot (takeAsSeeded): seeding is not what this file tests. A safety net.
setDefaultTimeout(180_000);

const ROOT = resolve(import.meta.dir, "../..");
// A held series (the shipped FRED UNRATE).
const PAGE = "/v1/observations?indicator=UNRATE&region=US&limit=1";
const N = 37;
const M = 5;

let shared: SharedDatabase;
let dataDir: string;
let key: string;
let keyId: string;

/** The database the server uses, opened by the test while no server runs (PGlite allows one process). */
const openServerDatabase = () => shared.open(1);

beforeAll(async () => {
  shared = await sharedDatabase(async (database) => {
    await takeAsSeeded(database);
    const issued = await issueKey({ database, clock: systemClock, random: cryptoRandom } as any, {
      plan: "free",
      rateLimitPerMinute: 10_000,
    });
    key = issued.key;
    keyId = issued.row.id;
  });
  // The server's data directory (its usage journal): the embedded database's, or one of its own on PostgreSQL.
  dataDir = shared.dataDir ?? mkdtempSync(join(tmpdir(), "svc-crash-"));
}, 180_000);

afterAll(() => {
  if (dataDir && dataDir !== shared.dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Server = { proc: Bun.Subprocess; url: string };

async function startServer(): Promise<Server> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !/^(DATABASE_URL|REDIS_URL|SMTP_URL|STRIPE_|X402_|L402_|LIGHTNING_|LND_|PUBLIC_BASE_URL|PORT|HOST)/.test(k)
    )
      env[k] = v;
  }
  Object.assign(env, {
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    X402_NETWORKS: "none",
    LIGHTNING_BACKEND: "none",
  });
  Object.assign(env, shared.env);
  const proc = Bun.spawn([process.execPath, "src/cli.ts", "serve"], {
    cwd: ROOT,
    env,
    stdout: "ignore",
    stderr: "pipe",
  });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before ready:\n${text}`);
    text += new TextDecoder().decode(value);
    for (const line of text.split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line);
      if (entry.msg === "ready") {
        // Keep draining stderr so the server never blocks on a full pipe.
        void (async () => {
          while (!(await reader.read()).done) {}
        })().catch(() => {});
        return { proc, url: entry.url };
      }
    }
  }
}

async function metered(server: Server, n: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const res = await fetch(server.url + PAGE, { headers: { "X-API-Key": key } });
      await res.arrayBuffer();
      return res.status;
    }),
  );
}

async function pingUsage(server: Server): Promise<{ month: string; requests: number }> {
  const res = await fetch(server.url + "/v1/ping", { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).data.usage;
}

/** Requests written to the journal files and not yet moved to the database. */
function journaled(): number {
  const dir = usageJournalDir(dataDir);
  let n = 0;
  for (const f of readdirSync(dir))
    n += parseJournal(readFileSync(join(dir, f), "utf8")).reduce((a, r) => a + (r.keyId === keyId ? r.requests : 0), 0);
  return n;
}

describe(`metering across a kill -9 (${testBackend})`, () => {
  test(`${N} metered requests, SIGKILL, restart: usage is exactly ${N}; ${M} more and a clean stop: ${N + M}`, async () => {
    const first = await startServer();
    const statuses = await metered(first, N);
    expect(statuses.filter((s) => s === 200).length).toBe(N);
    first.proc.kill("SIGKILL");
    expect(await first.proc.exited).not.toBe(0);

    // What the killed process left: every request is either in the database or in the journal, never both.
    const month = systemClock.now().toISOString().slice(0, 7);
    const db = await openServerDatabase();
    const stored = await usageFor(db.db, keyId, month);
    await db.close();
    expect(stored + journaled()).toBe(N);

    const second = await startServer();
    expect(await pingUsage(second)).toMatchObject({ month, requests: N });
    expect((await metered(second, M)).every((s) => s === 200)).toBe(true);
    expect((await pingUsage(second)).requests).toBe(N + M);
    second.proc.kill("SIGTERM");
    expect(await second.proc.exited).toBe(0);

    const after = await openServerDatabase();
    expect(await usageFor(after.db, keyId, month)).toBe(N + M);
    await after.close();
    // The clean stop moved everything: no journal file is left.
    expect(readdirSync(usageJournalDir(dataDir))).toEqual([]);
  });

  // Before the fix, after kill -9 of both nodes under load the probe found one request more counted than answered. That is
  // the design, not a loss: a request is counted durably before its answer leaves, so a request the kill caught
  // between the two is counted and never received. Under load: never fewer counted than answered (no data served
  // uncounted), and at most the requests in flight more.
  test("SIGKILL under load (8 clients): answered <= counted <= answered + requests in flight", async () => {
    const month = systemClock.now().toISOString().slice(0, 7);
    const before = await openServerDatabase();
    const start = await usageFor(before.db, keyId, month);
    await before.close();
    const server = await startServer();
    const CLIENTS = 8;
    let answered = 0;
    let stop = false;
    const loops = Array.from({ length: CLIENTS }, async () => {
      while (!stop) {
        try {
          const res = await fetch(server.url + PAGE, { headers: { "X-API-Key": key } });
          await res.arrayBuffer();
          if (res.status === 200) answered++;
        } catch {
          return;
        }
      }
    });
    while (answered < 300) await Bun.sleep(5);
    server.proc.kill("SIGKILL");
    stop = true;
    await Promise.all(loops);
    await server.proc.exited;
    const db = await openServerDatabase();
    const counted = (await usageFor(db.db, keyId, month)) + journaled() - start;
    await db.close();
    expect(counted).toBeGreaterThanOrEqual(answered);
    expect(counted - answered).toBeLessThanOrEqual(CLIENTS);
  });
});
