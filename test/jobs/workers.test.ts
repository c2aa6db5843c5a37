// Jobs in separate processes (`svc worker`, through the command's own runWorker: test/fixtures/jobs-worker.ts):
// - two workers on one PostgreSQL share the provisioning queue with an API node that only enqueues: every series is
//   fetched exactly once, and both workers take jobs;
// - a worker killed with kill -9 in the middle of a fetch (half the rows written): its job expires, another worker
//   takes it, and the series ends complete with every date once, at revision 1 (PGlite on disk and PostgreSQL);
// - the real `svc worker` command, with the upstream connectors its configuration points at the fake upstream, takes
//   a job an API node queued and provisions the series from FRED;
// - the real `svc worker` command starts its job engine and stops cleanly on SIGTERM; bad options are refused, and so
//   is a server with JOBS=off on the embedded database.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sql } from "drizzle-orm";
import { findSeries } from "../../db/repos/observations";
import { findProvisioning } from "../../db/repos/provisioning";
import { indicatorId } from "../../db/seed/catalog";
import { sharedDatabase, testBackend } from "../support/db";
import { fredRows } from "../support/fetcher";
import { makeTestApp } from "../support/app";
import { FakeUpstream } from "../support/fake-upstream";
import { FAST_JOBS_ENV, fredUs, makeJobsTestApp, makeUpstreamJobsTestApp, unhold, waitFor } from "../support/jobs";
import { fredCsv } from "../support/upstream-data";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

setDefaultTimeout(240_000);

const ROOT = resolve(import.meta.dir, "../..");
const haveData = sharedDataPath("fred-macro-us", "UNRATE.csv") !== null;
if (!haveData) console.warn(sharedDataMissingMessage("fred-macro-us"));

const dirs: string[] = [];
const procs: Bun.Subprocess[] = [];
afterAll(async () => {
  for (const p of procs) if (p.exitCode === null) p.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A database for processes to share, without the seeded US series of the FRED codes `unheld` (the workers provision them). */
const databaseWithout = (unheld: string[] = []) => sharedDatabase((d) => unhold(d.db, fredUs(...unheld)));

function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(DATABASE_URL|DATA_DIR|JOBS|PROVISION_|REFRESH_)/.test(k)) env[k] = v;
  return { ...env, ...FAST_JOBS_ENV, ...extra };
}

/** Spawns `argv` and waits for a stdout line matching `ready`; stderr is kept for the failure message. */
/** A child process, and what it has written so far on the stream it was not waited on. */
type Child = Bun.Subprocess & { other: () => string };

async function spawnUntil(
  argv: string[],
  env: Record<string, string>,
  ready: RegExp,
  stream: "stdout" | "stderr" = "stdout",
): Promise<Child> {
  const proc = Bun.spawn(argv, { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  procs.push(proc);
  const other = stream === "stdout" ? proc.stderr : proc.stdout;
  let otherText = "";
  void (async () => {
    for await (const chunk of other as ReadableStream<Uint8Array>) otherText += new TextDecoder().decode(chunk);
  })().catch(() => {});
  const reader = (proc[stream] as ReadableStream<Uint8Array>).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${argv.join(" ")} exited before it was ready:\n${text}\n${otherText}`);
    text += new TextDecoder().decode(value);
    if (ready.test(text)) break;
  }
  // Keep draining so the child never blocks on a full pipe.
  void (async () => {
    while (!(await reader.read()).done) {}
  })().catch(() => {});
  return Object.assign(proc, { other: () => otherText });
}

const worker = (env: Record<string, string>) =>
  spawnUntil([process.execPath, "test/fixtures/jobs-worker.ts"], childEnv(env), /ready \d+/);

function logLines(file: string): string[][] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" "));
  } catch {
    return [];
  }
}

describe.skipIf(!haveData || testBackend !== "postgres")("two workers and an API node on one PostgreSQL", () => {
  test("every series is fetched exactly once, and both workers take jobs", async () => {
    const codes = ["AHETPI", "CIVPART", "CPILFESL", "GDPC1", "JTSJOL", "PCEPILFE", "RSXFS", "U6RATE"];
    const db = await databaseWithout(codes);
    const log = join(tempDir("svc-fetch-log-"), "fetches.log");
    writeFileSync(log, "");
    const [a, b] = await Promise.all([
      worker({ ...db.env, FETCH_LOG: log, DELAY_MS: "400" }),
      worker({ ...db.env, FETCH_LOG: log, DELAY_MS: "400" }),
    ]);

    // The API node only enqueues (JOBS=off): its own fetcher is never called.
    const api = await makeJobsTestApp({ database: await db.open(), runsJobs: false });
    const answers = await Promise.all(
      codes.flatMap((code) =>
        Array.from({ length: 5 }, () => api.getJson(`/v1/observations?indicator=${code}&region=US`)),
      ),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([202]));
    const batch = `/v1/observations/latest?indicators=${codes.join(",")}&region=US`;
    await waitFor("every series held", async () => (await api.getJson(batch)).status === 200, 120_000);

    const fetches = logLines(log).filter((l) => l[0] === "fetch");
    expect(fetches.map((l) => l[1]).sort()).toEqual([...codes].sort());
    expect(new Set(fetches.map((l) => l[3]))).toEqual(new Set([String(a.pid), String(b.pid)]));
    expect(api.fetcher.fetched).toEqual([]);
    for (const code of codes)
      expect((await findSeries(api.database.db, indicatorId("fred", code), "US"))!.observationCount).toBe(
        fredRows(code).length,
      );

    a.kill("SIGTERM");
    b.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
    await api.close();
  });
});

describe.skipIf(!haveData)(`a worker killed mid-job (${testBackend})`, () => {
  test("kill -9 half way through a fetch: the job is taken again and the series is neither lost nor duplicated", async () => {
    // PAYEMS feeds no svc: series: the job ends right after its fetch (one that feeds some derives them first, which
    // the 3 s expiry below, set to find the killed worker fast, would not always leave time for on a busy machine).
    const db = await databaseWithout(["PAYEMS"]);
    const log = join(tempDir("svc-fetch-log-"), "fetches.log");
    writeFileSync(log, "");
    // A fetch still running after 3 s counts as lost (supervised every second).
    const env = { ...db.env, FETCH_LOG: log, PROVISION_EXPIRE_SECONDS: "3" };
    const victim = await worker({ ...env, BEHAVIOUR: "PAYEMS=half-then-hang", ENQUEUE: "PAYEMS" });
    await waitFor(
      "the victim to be half way",
      () => logLines(log).some((l) => l[0] === "hang" && l[3] === String(victim.pid)),
      60_000,
    );
    victim.kill("SIGKILL");
    expect(await victim.exited).not.toBe(0);

    // Its log says "provisioned" once the job is done: the series held, what it feeds derived, the row cleared.
    const rescuer = await worker({ ...env, LOG_LEVEL: "info" });
    await waitFor("another worker to finish the job", () => rescuer.other().includes('"msg":"provisioned"'), 120_000);
    rescuer.kill("SIGTERM");
    expect(await rescuer.exited).toBe(0);

    expect(logLines(log).map((l) => [l[0], l[1], l[3]])).toEqual([
      ["fetch", "PAYEMS", String(victim.pid)],
      ["hang", "PAYEMS", String(victim.pid)],
      ["fetch", "PAYEMS", String(rescuer.pid)],
      ["done", "PAYEMS", String(rescuer.pid)],
    ]);
    const database = await db.open();
    try {
      const key = { indicatorId: indicatorId("fred", "PAYEMS"), regionCode: "US" };
      const series = (await findSeries(database.db, key.indicatorId, key.regionCode))!;
      const rows = fredRows("PAYEMS");
      expect(series.observationCount).toBe(rows.length);
      const stored = (await database.db.execute(
        sql`select count(*)::int as n, count(distinct date)::int as dates, max(revision)::int as max_revision from observations where series_id = ${series.id}`,
      )) as any;
      expect((Array.isArray(stored) ? stored : stored.rows)[0]).toEqual({
        n: rows.length,
        dates: rows.length,
        max_revision: 1,
      });
      expect(await findProvisioning(database.db, key)).toBeNull();
      // One job, taken again once. Completed, unless the rescuer's own run outlasted the 3 s expiry on a busy machine
      // (once in CI): pg-boss then set it back to retry, and the "provisioned" work above is what a next run finds done.
      const job = (await database.db.execute(
        sql`select state, retry_count from pgboss.job where name = 'provision'`,
      )) as any;
      const jobs = (Array.isArray(job) ? job : job.rows).map((j: any) => [j.state, j.retry_count]);
      expect([[["completed", 1]], [["retry", 1]]]).toContainEqual(jobs);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!haveData)(`svc worker with the upstream connectors (${testBackend})`, () => {
  test("takes a provisioning job an API node queued and fetches the series from FRED through buildSeriesFetcher", async () => {
    const fake = await FakeUpstream.start();
    const served = fredCsv("UNRATE")!;
    fake.setFredSeries("UNRATE", served, "2025-12-05 07:44:02-06");
    const db = await databaseWithout(["UNRATE"]);
    // The API node queues the job and answers 202; it runs no jobs, and closes (the embedded database is one
    // process's at a time) before the worker opens the database.
    const api = await makeUpstreamJobsTestApp(fake, { database: await db.open(), runsJobs: false });
    const first = await api.getJson("/v1/observations?indicator=UNRATE&region=US");
    expect(first.status).toBe(202);
    await api.close();
    expect(fake.count()).toBe(0);

    const proc = await spawnUntil(
      [process.execPath, "src/cli.ts", "worker"],
      childEnv({ ...db.env, ...fake.env(), LOG_LEVEL: "info" }),
      /"msg":"provisioned"/,
      "stderr",
    );
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    expect(fake.requests.map((r) => [r.path, r.query.series_id, r.query.api_key])).toEqual([
      ["/fred/series", "UNRATE", fake.keys.fred],
      ["/fred/series/observations", "UNRATE", fake.keys.fred],
    ]);

    const reader = await makeTestApp({ database: await db.open() });
    try {
      const r = await reader.getJson("/v1/observations?indicator=UNRATE&region=US&order=asc&limit=1000");
      expect(r.status).toBe(200);
      expect(r.body.data.map((o: { date: string; value: number | null }) => [o.date, o.value])).toEqual(
        served.map((o) => [o.date, o.value === "." ? null : Number(o.value)]),
      );
      expect(r.body.data[0].source_updated_at).toBe("2025-12-05T13:44:02.000Z");
      expect(
        await findProvisioning(reader.database.db, { indicatorId: indicatorId("fred", "UNRATE"), regionCode: "US" }),
      ).toBeNull();
    } finally {
      await reader.close();
      await fake.close();
    }
  });
});

describe("svc worker", () => {
  test("starts its job engine and stops cleanly on SIGTERM", async () => {
    const db = await databaseWithout();
    const proc = await spawnUntil(
      [process.execPath, "src/cli.ts", "worker", "--concurrency", "2"],
      childEnv({ ...db.env, LOG_LEVEL: "info" }),
      /"msg":"worker ready"/,
      "stderr",
    );
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
  });

  test("refuses a bad --concurrency", async () => {
    const proc = Bun.spawn([process.execPath, "src/cli.ts", "worker", "--concurrency", "0"], {
      cwd: ROOT,
      env: childEnv({ DATA_DIR: tempDir("svc-worker-bad-") }),
      stderr: "pipe",
      stdout: "ignore",
    });
    expect(await proc.exited).toBe(2);
    expect(await new Response(proc.stderr as ReadableStream).text()).toBe(
      "svc worker: --concurrency must be an integer from 1 to 32\n",
    );
  });

  test("a server with JOBS=off on the embedded database is refused (no other process could run its jobs)", async () => {
    const proc = Bun.spawn([process.execPath, "src/cli.ts", "serve"], {
      cwd: ROOT,
      env: childEnv({ JOBS: "off", DATA_DIR: tempDir("svc-serve-jobs-off-") }),
      stderr: "pipe",
      stdout: "ignore",
    });
    expect(await proc.exited).toBe(2);
    expect(await new Response(proc.stderr as ReadableStream).text()).toBe(
      "svc serve: JOBS=off needs DATABASE_URL: the embedded database is open to one process only, so no 'svc worker' could run the jobs.\n",
    );
  });
});
