// The usage journal (append-only files under DATA_DIR/usage-journal) and the meter's batches: what a crash leaves
// at each point is replayed exactly once; two processes sharing a data directory count exactly; a journal that
// cannot be written refuses the request (503). Disk faults (a full disk, an unwritable directory): usage-journal-faults.test.ts. The real kill -9 of a server process: test/e2e/metering-crash.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/app";
import { seededRandom } from "../support/clock";
import { testKey } from "../support/keys";
import { applyUsageBatch, usageBatchApplied, usageFor } from "../../db/repos/keys";
import { createKeyCache, createUsageMeter, type KeyRuntime } from "../../src/services/key-runtime";
import { openUsageJournal } from "../../src/services/usage-journal";
import { parseJournal } from "../../src/services/usage-journal-tally";
import { createLogger } from "../../src/logger";
import { keyUsage } from "../../src/services/keys";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
const dirs: string[] = [];
const silent = createLogger("silent");
const journalDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-journal-"));
  dirs.push(dir);
  return dir;
};
const meterOn = (dir: string) =>
  createUsageMeter({
    database: t.database,
    logger: silent,
    clock: t.clock,
    journal: openUsageJournal(dir),
    flushMs: 3_600_000,
  });
/** A live file as a killed process leaves it: `pid` is not running (pid 2^22 + n is above Linux's pid_max). */
const deadProcessFile = (dir: string, n: number, text: string) =>
  writeFileSync(join(dir, `live-${4_194_304 + n}-0f0e0d0c-0b0a-4908-8706-050403020100.log`), text);

beforeAll(async () => {
  t = await makeTestApp({ keyAccess: true });
}, 120_000);
afterAll(async () => {
  await t.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("usage journal files", () => {
  test("one line per request; a seal renames the live file into a batch; counts add up per key and month", () => {
    const dir = journalDir();
    const j = openUsageJournal(dir);
    j.record("k1", "2026-11");
    j.record("k2", "2026-11");
    j.record("k1", "2026-11");
    expect(j.unflushed("k1", "2026-11")).toBe(2);
    const id = j.seal()!;
    expect(j.seal()).toBe(null);
    j.record("k1", "2026-12");
    expect(j.unflushed("k1", "2026-11")).toBe(2);
    expect(j.batches()).toEqual([
      {
        id,
        rows: [
          { keyId: "k1", month: "2026-11", requests: 2 },
          { keyId: "k2", month: "2026-11", requests: 1 },
        ],
      },
    ]);
    j.remove(id);
    expect(j.batches()).toEqual([]);
    expect(j.unflushed("k1", "2026-11")).toBe(0);
    expect(j.unflushed("k1", "2026-12")).toBe(1);
    const files = readdirSync(dir);
    expect(files.length).toBe(1);
    expect(files[0]).toMatch(new RegExp(`^live-${process.pid}-[0-9a-f-]{36}-[0-9a-f-]{36}\\.log$`));
    j.close();
    // The unsealed request stays on disk, sealed as a batch for the next flush (of this process or the next).
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^batch-[0-9a-f-]{36}\.log$/)]);
    const next = openUsageJournal(dir);
    expect(next.batches().map((b) => b.rows)).toEqual([[{ keyId: "k1", month: "2026-12", requests: 1 }]]);
    next.close();
  });

  test("a batch read back from disk (as another process applies it) holds exactly the writer's own counts", () => {
    const dir = journalDir();
    const writer = openUsageJournal(dir);
    for (const k of ["k1", "k1", "k2", "k1", "k2", "k3"]) writer.record(k, "2026-11");
    const first = writer.seal()!;
    // The same key straight after a seal goes to the new batch.
    writer.record("k3", "2026-11");
    writer.record("k3", "2026-12");
    const second = writer.seal()!;
    const own = writer.batches().sort((a, b) => (a.id === first ? -1 : b.id === first ? 1 : 0));
    expect(own.map((b) => b.id)).toEqual([first, second]);
    expect(own.map((b) => b.rows)).toEqual([
      [
        { keyId: "k1", month: "2026-11", requests: 3 },
        { keyId: "k2", month: "2026-11", requests: 2 },
        { keyId: "k3", month: "2026-11", requests: 1 },
      ],
      [
        { keyId: "k3", month: "2026-11", requests: 1 },
        { keyId: "k3", month: "2026-12", requests: 1 },
      ],
    ]);
    const reader = openUsageJournal(dir);
    const sorted = (rows: { keyId: string; month: string }[]) =>
      [...rows].sort((a, b) => `${a.keyId}${a.month}`.localeCompare(`${b.keyId}${b.month}`));
    const read = reader.batches().sort((a, b) => (a.id === first ? -1 : b.id === first ? 1 : 0));
    expect(read.map((b) => ({ ...b, rows: sorted(b.rows) }))).toEqual(own.map((b) => ({ ...b, rows: sorted(b.rows) })));
    reader.close();
    writer.close();
  });

  test("a torn last line (a write cut by an OS crash) and malformed lines are not counted", () => {
    expect(parseJournal("k1 2026-11\nk1 2026-11\ngarbage\nk2 2026-1")).toEqual([
      { keyId: "k1", month: "2026-11", requests: 2 },
    ]);
    expect(parseJournal("")).toEqual([]);
    // References count for the full line they name (by position, malformed full lines included); a torn or dangling
    // reference counts for nothing.
    expect(parseJournal("k1 2026-11\n*0\ngarbage\nk2 2026-11\n*3\n*0\n*2\n*9\n*x\n*3")).toEqual([
      { keyId: "k1", month: "2026-11", requests: 3 },
      { keyId: "k2", month: "2026-11", requests: 2 },
    ]);
  });

  test("a key's first request in a file is written in full, its next ones as a 3-byte reference", () => {
    const dir = journalDir();
    const j = openUsageJournal(dir);
    for (const k of ["k1", "k1", "k2", "k1", "k2"]) j.record(k, "2026-11");
    const id = j.seal()!;
    expect(readFileSync(join(dir, `batch-${id}.log`), "utf8")).toBe("k1 2026-11\n*0\nk2 2026-11\n*0\n*1\n");
    j.record("k2", "2026-11");
    const next = j.seal()!;
    expect(readFileSync(join(dir, `batch-${next}.log`), "utf8")).toBe("k2 2026-11\n");
    j.close();
  });

  test("a live file with this process's pid from an earlier process (the pid reused) is adopted; an open journal's is not", () => {
    const dir = journalDir();
    const open = openUsageJournal(dir);
    open.record("k1", "2026-11");
    writeFileSync(
      join(dir, `live-${process.pid}-0f0e0d0c-0b0a-4908-8706-050403020100-11111111-2222-4333-8444-555555555555.log`),
      "k9 2026-01\n",
    );
    const next = openUsageJournal(dir);
    expect(next.batches().map((b) => b.rows)).toEqual([[{ keyId: "k9", month: "2026-01", requests: 1 }]]);
    expect(open.unflushed("k1", "2026-11")).toBe(1);
    expect(readdirSync(dir).filter((f) => f.startsWith(`live-${process.pid}-`)).length).toBe(2);
    next.close();
    open.close();
  });

  test("opening the journal adopts the live files of processes that are gone, not those of running ones", () => {
    const dir = journalDir();
    deadProcessFile(dir, 1, "k9 2026-11\nk9 2026-11\n");
    // A running process (this one's parent) keeps its live file.
    writeFileSync(join(dir, `live-${process.ppid}-11111111-2222-4333-8444-555555555555.log`), "k8 2026-11\n");
    const j = openUsageJournal(dir);
    expect(j.batches().map((b) => b.rows)).toEqual([[{ keyId: "k9", month: "2026-11", requests: 2 }]]);
    expect(readdirSync(dir).filter((f) => f.startsWith(`live-${process.ppid}-`)).length).toBe(1);
    j.close();
  });
});

describe("replay after a crash", () => {
  test("counts journaled but never flushed are applied by the next process on start", async () => {
    const { row } = await testKey(t);
    const dir = journalDir();
    // What a server killed after 7 metered requests leaves behind.
    deadProcessFile(dir, 2, `${row.id} 2027-03\n`.repeat(7));
    const next = meterOn(dir);
    await next.flush();
    expect(await usageFor(t.database.db, row.id, "2027-03")).toBe(7);
    expect(readdirSync(dir).filter((f) => f.startsWith("batch-"))).toEqual([]);
    await next.close();
  });

  test("a batch sealed but not applied is applied once", async () => {
    const { row } = await testKey(t);
    const dir = journalDir();
    writeFileSync(join(dir, "batch-6a1b2c3d-0000-4000-8000-00000000000a.log"), `${row.id} 2027-04\n`.repeat(4));
    const next = meterOn(dir);
    await next.flush();
    await next.flush();
    await next.close();
    expect(await usageFor(t.database.db, row.id, "2027-04")).toBe(4);
  });

  test("a crash between the database apply and the journal cleanup never double-counts", async () => {
    const { row } = await testKey(t);
    const dir = journalDir();
    const id = crypto.randomUUID();
    writeFileSync(join(dir, `batch-${id}.log`), `${row.id} 2027-05\n`.repeat(9));
    const [batch] = openUsageJournal(dir).batches();
    // What a flush does up to the apply; the process dies before deleting the batch file.
    expect(await applyUsageBatch(t.database.db, { ...batch!, at: t.clock.now() })).toEqual({
      applied: true,
      unknownKeys: [],
    });
    expect(await usageFor(t.database.db, row.id, "2027-05")).toBe(9);
    const next = meterOn(dir);
    await next.flush();
    expect(await usageFor(t.database.db, row.id, "2027-05")).toBe(9);
    expect(readdirSync(dir).filter((f) => f.startsWith("batch-"))).toEqual([]);
    expect(await usageBatchApplied(t.database.db, id)).toBe(true);
    // Applying the same batch again, even concurrently, changes nothing.
    const twice = await Promise.all([1, 2].map(() => applyUsageBatch(t.database.db, { ...batch!, at: t.clock.now() })));
    expect(twice.map((r) => r.applied)).toEqual([false, false]);
    expect(await usageFor(t.database.db, row.id, "2027-05")).toBe(9);
    await next.close();
  });

  test("counts for keys the database does not hold are dropped; the others are applied", async () => {
    const { row } = await testKey(t);
    const out = await applyUsageBatch(t.database.db, {
      id: crypto.randomUUID(),
      rows: [
        { keyId: row.id, month: "2027-06", requests: 2 },
        { keyId: "00000000-0000-4000-8000-000000000000", month: "2027-06", requests: 5 },
        { keyId: "not-a-uuid", month: "2027-06", requests: 1 },
      ],
      at: t.clock.now(),
    });
    expect(out).toEqual({ applied: true, unknownKeys: ["00000000-0000-4000-8000-000000000000", "not-a-uuid"] });
    expect(await usageFor(t.database.db, row.id, "2027-06")).toBe(2);
  });
});

describe("several processes on one data directory", () => {
  test("two meters sharing a journal directory, counting and flushing concurrently, count exactly", async () => {
    const { row } = await testKey(t);
    const dir = journalDir();
    const a = meterOn(dir);
    const b = meterOn(dir);
    const work: Promise<void>[] = [];
    for (let i = 0; i < 600; i++) {
      (i % 2 ? a : b).count(row.id, "2027-07");
      if (i % 50 === 0) work.push(a.flush(), b.flush(), Bun.sleep(0));
    }
    await Promise.all(work);
    await Promise.all([a.close(), b.close()]);
    expect(await usageFor(t.database.db, row.id, "2027-07")).toBe(600);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("usage read while a flush runs counts every request once", async () => {
    const { row } = await testKey(t);
    const m = meterOn(journalDir());
    const seen: number[] = [];
    for (let i = 1; i <= 40; i++) {
      m.count(row.id, "2027-08");
      // A flush in flight while the read starts: the read waits for it instead of counting its batch twice or not at all.
      const flushing = i % 3 === 0 ? m.flush() : null;
      seen.push(await m.usage(row.id, "2027-08", () => usageFor(t.database.db, row.id, "2027-08")));
      await flushing;
    }
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await usageFor(t.database.db, row.id, "2027-08")).toBe(39);
    await m.close();
  });
});

describe("a journal that cannot be written", () => {
  test("the metered request is answered 503 with Retry-After and not counted; nothing is served unmetered; served again once the journal can be written", async () => {
    const journal = openUsageJournal(journalDir());
    let broken = true;
    const failing = {
      ...journal,
      record: (k: string, m: string) =>
        broken
          ? (() => {
              throw new Error("ENOSPC: no space left on device");
            })()
          : journal.record(k, m),
    };
    const meter = createUsageMeter({
      database: t.database,
      logger: silent,
      clock: t.clock,
      journal: failing,
      flushMs: 3_600_000,
    });
    const keys: KeyRuntime = { cache: createKeyCache({ logger: silent }), meter, close: () => meter.close() };
    const app = await makeTestApp({
      database: t.database,
      clock: t.clock,
      random: seededRandom(7),
      keyAccess: true,
      keys,
    });
    const { row, headers } = await testKey(app);
    const page = "/v1/observations?indicator=UNRATE&region=US&limit=1";
    // Refused each time while the journal cannot be written.
    for (let i = 0; i < 2; i++) {
      const res = await app.app.request(page, { headers });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(((await res.json()) as any).error.code).toBe("SERVICE_UNAVAILABLE");
    }
    broken = false;
    expect((await app.app.request(page, { headers })).status).toBe(200);
    expect(await keyUsage(app.deps, row.id, "2026-11")).toBe(1);
    // Shares t's database: close only this app's runtime.
    await meter.close();
    expect(await usageFor(t.database.db, row.id, "2026-11")).toBe(1);
  });
});
