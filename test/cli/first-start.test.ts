// `bun start` on an empty embedded data directory (no network, no database server): the server listens at once
// (/api/health 200 `starting`, data routes 503 with Retry-After), seeds real data on the database's thread family by
// family, serving each as soon as it is stored (the US national series first; the rest answers 503 with Retry-After
// and the catalog says "loading"), keeps the seeded database as an image, then is ready (and its job engine runs the
// public briefings once); a second start only checks; a first start on another empty data directory copies the image
// instead of seeding, and so does `svc import` into one (its seed without an image is the same seedIfNeeded the first
// start runs). Runs the real entry points in subprocesses.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { openDatabase } from "../../db/client";
import { findSeries } from "../../db/repos/observations";
import { indicators, seedSnapshots } from "../../db/schema";
import { PUBLIC_BRIEFINGS } from "../../db/seed/briefings";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import { otherRunOnly } from "../support/runs";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

// the first start of svc serve: its processes use embedded data directories of their own (test/support/runs.ts).
const elsewhere = otherRunOnly("embedded", "the first start of svc serve");

const ROOT = resolve(import.meta.dir, "../..");
let dir: string;
let cacheDir: string;
let otherDir: string;
let importDir: string;

beforeAll(() => {
  if (elsewhere) return;
  dir = mkdtempSync(join(tmpdir(), "svc-first-start-"));
  cacheDir = mkdtempSync(join(tmpdir(), "svc-first-start-images-"));
  otherDir = mkdtempSync(join(tmpdir(), "svc-first-start-other-"));
  importDir = mkdtempSync(join(tmpdir(), "svc-first-start-import-"));
});
afterAll(() => {
  if (elsewhere) return;
  for (const d of [dir, cacheDir, otherDir, importDir]) rmSync(d, { recursive: true, force: true });
});

type Started = { proc: Bun.Subprocess<"ignore", "pipe", "pipe">; url: string; log: string[] };

/** The environment of this file's processes: an embedded data directory, this file's image cache. */
function serverEnv(dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "DATABASE_URL") env[k] = v;
  return { ...env, DATA_DIR: dataDir, IMAGE_CACHE_DIR: cacheDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", NODE_ENV: "test" };
}

async function start(dataDir = dir): Promise<Started> {
  const proc = Bun.spawn([process.execPath, "run", "src/server.ts"], {
    cwd: ROOT,
    env: serverEnv(dataDir),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  const log: string[] = [];
  let partial = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening:\n${log.join("\n")}${partial}`);
    partial += decoder.decode(value);
    const lines = partial.split("\n");
    partial = lines.pop()!;
    log.push(...lines);
    const listening = lines.find((l) => l.includes('"msg":"listening"'));
    if (listening) {
      void (async () => {
        for (;;) {
          const next = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (next.done) return;
          partial += decoder.decode(next.value);
          const more = partial.split("\n");
          partial = more.pop()!;
          log.push(...more);
        }
      })();
      return { proc, url: JSON.parse(listening).url, log };
    }
  }
}

/** Waits until the server logs `msg`. */
async function logged(s: Started, msg: string): Promise<void> {
  // A safety net, not a measure: the whole snapshot is seeded, minutes while other test files run beside it.
  const deadline = Date.now() + 600_000;
  while (!s.log.some((l) => l.includes(`"msg":"${msg}"`))) {
    if (s.proc.exitCode !== null) throw new Error(`server exited before "${msg}":\n${s.log.join("\n")}`);
    if (Date.now() > deadline) throw new Error(`server never logged "${msg}":\n${s.log.join("\n")}`);
    await Bun.sleep(50);
  }
}

/** Waits until the server logs "ready": every part of its data is stored and served (on a first start, its job engine runs). */
const ready = (s: Started) => logged(s, "ready");

async function stop(s: Started): Promise<number> {
  s.proc.kill("SIGTERM");
  return s.proc.exited;
}

test.skipIf(!!elsewhere)("first start listens at once, seeds real observations while it answers, then serves; the second start does not seed; another empty data directory gets the image, and so does `svc import` into one", async () => {
  const first = await start();
  try {
    // Answering while it seeds (the seed takes tens of seconds; these requests are made right after "listening").
    const health = await fetch(`${first.url}/api/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as { status: string; startup: { step: string } };
    expect(body.status).toBe("starting");
    expect(typeof body.startup.step).toBe("string");
    const early = await fetch(`${first.url}/v1/regions?type=state`);
    expect(early.status).toBe(503);
    expect(early.headers.get("retry-after")).toBe("5");
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe("SERVICE_UNAVAILABLE");

    // Then it serves what is stored, part by part: the US national series first, while the rest is being stored.
    await logged(first, "serving what is stored");
    const signup = await fetch(`${first.url}/v1/signup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "first@example.com" }) });
    expect(signup.status).toBe(201);
    const key = ((await signup.json()) as { data: { key: string } }).data.key;
    let unrate: Response;
    for (;;) {
      unrate = await fetch(`${first.url}/v1/observations/latest?indicator=UNRATE`, { headers: { "x-api-key": key } });
      if (unrate.status !== 503) break;
      expect(((await unrate.json()) as { error: { details: { loading: string[] } } }).error.details.loading).toEqual(["us-national"]);
      await Bun.sleep(100);
    }
    expect(unrate.status).toBe(200);
    expect(((await unrate.json()) as { data: { value: number; period_start: string } }).data).toMatchObject({ value: 4.3, period_start: "2026-05-01" });
    // Still storing the rest (signal detection comes last, tens of seconds later): said by health, the catalog and
    // the routes that read what is not stored yet, which answer 503 with Retry-After, free.
    const serving = (await (await fetch(`${first.url}/api/health`)).json()) as { status: string; loading?: { families: string[]; stored: number; total: number } };
    expect(serving.status).toBe("ok");
    expect(serving.loading!.families).toContain("signals");
    expect(serving.loading!.stored).toBeLessThan(serving.loading!.total);
    const signals = await fetch(`${first.url}/v1/signals/active`, { headers: { "x-api-key": key } });
    expect(signals.status).toBe(503);
    expect(signals.headers.get("retry-after")).toBe("5");
    expect(((await signals.json()) as { error: { code: string; details: { loading: string[] } } }).error).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { loading: ["signals"] } });
    const sahm = (await (await fetch(`${first.url}/v1/indicators/svc:sahm_rule`)).json()) as { data: { coverage: { other_regions: string; note: string } } };
    expect(sahm.data.coverage.other_regions).toBe("loading");
    expect(sahm.data.coverage.note).toStartWith("Loading: the service is storing the derived svc: series");
    await ready(first);
    expect(first.log.some((l) => l.includes('"msg":"seeding regions, catalog and the real data snapshot (no network needed)"'))).toBe(true);
    expect(first.log.some((l) => l.includes('"msg":"seeded database image kept for the next first start"'))).toBe(true);
    expect(((await (await fetch(`${first.url}/api/health`)).json()) as { status: string }).status).not.toBe("starting");
    expect(first.log.some((l) => l.includes('"msg":"seeded"'))).toBe(true);
    const res = await fetch(`${first.url}/v1/regions?type=state`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    // The job engine gives each public briefing its first run: then its paid read asks for a key or a payment instead
    // of answering a free 404 (a briefing that has not run yet).
    const deadline = Date.now() + 120_000;
    let briefings: { slug: string; last_run_at: string | null }[] = [];
    while (Date.now() < deadline) {
      briefings = ((await (await fetch(`${first.url}/v1/briefings/public`)).json()) as { data: typeof briefings }).data;
      if (briefings.length > 0 && briefings.every((b) => b.last_run_at !== null)) break;
      await Bun.sleep(250);
    }
    expect(briefings.filter((b) => b.last_run_at === null)).toEqual([]);
    expect([401, 402]).toContain((await fetch(`${first.url}/v1/briefings/public/${briefings[0]!.slug}`)).status);
  } finally {
    expect(await stop(first)).toBe(0);
  }

  // What the seed left, read through the same schema: real observations, and series stats that match them.
  const database = await openDatabase({ dataDir: dir });
  try {
    const [o] = (await database.db.execute(sql`
      SELECT (SELECT count(*)::int FROM observations WHERE is_latest) AS latest,
             (SELECT count(*)::int FROM observations WHERE is_latest AND value IS NOT NULL) AS with_value,
             (SELECT coalesce(sum(observation_count), 0)::int FROM series) AS counted,
             (SELECT count(*)::int FROM series WHERE observation_count > 0) AS series,
             (SELECT version FROM seed_snapshots WHERE name = 'real-data') AS version`).then((r: any) => (Array.isArray(r) ? r : r.rows))) as {
      latest: number; with_value: number; counted: number; series: number; version: string;
    }[];
    // The whole snapshot (every county, no test filter): hundreds of thousands of observations in thousands of series.
    expect(o.version).toBe(SNAPSHOT_VERSION);
    expect(o.with_value).toBeGreaterThan(500_000);
    expect(o.series).toBeGreaterThan(10_000);
    expect(o.counted).toBe(o.latest);
    // A public briefing worded as an older release had it: the next start brings it up to this release's wording.
    await database.db.execute(sql`UPDATE briefings SET question = 'How high is inflation?' WHERE slug = 'us-inflation'`);
  } finally {
    await database.close();
  }

  const second = await start();
  try {
    await ready(second);
    expect(second.log.some((l) => l.includes("seeding"))).toBe(false);
  } finally {
    expect(await stop(second)).toBe(0);
  }

  // Another empty data directory: the image is copied, nothing is seeded, the same data is served.
  const third = await start(otherDir);
  try {
    await ready(third);
    expect(third.log.some((l) => l.includes("seeding"))).toBe(false);
    expect(third.log.some((l) => l.includes('"msg":"seeded database image copied"'))).toBe(true);
    const res = await fetch(`${third.url}/v1/regions?type=state`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(50);
  } finally {
    expect(await stop(third)).toBe(0);
  }
  // `svc import` into yet another empty data directory starts from the image too (nothing seeded, so no seed
  // progress), then imports.
  const csv = join(importDir, "manemp.csv");
  writeFileSync(csv, "observation_date,MANEMP\n2025-09-01,12700\n2025-10-01,12695\n2025-11-01,12690\n");
  const imported = Bun.spawn([process.execPath, "run", "src/cli.ts", "import", csv, "--indicator", "MANEMP", "--region", "US"], {
    cwd: ROOT,
    env: { ...serverEnv(join(importDir, "data")), LOG_LEVEL: "warn" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(imported.stdout).text(), new Response(imported.stderr).text(), imported.exited]);
  expect([code, err]).toEqual([0, ""]);
  expect(out).toBe("3 inserted, 0 revised, 0 unchanged (series MANEMP (fred) / US: 3 observations, 2025-09-01..2025-11-01)\n");
  const copied = await openDatabase({ dataDir: join(importDir, "data") });
  try {
    expect(await copied.db.select({ version: seedSnapshots.version }).from(seedSnapshots).where(eq(seedSnapshots.name, "real-data"))).toEqual([{ version: SNAPSHOT_VERSION }]);
    const [unrate] = await copied.db.select().from(indicators).where(and(eq(indicators.code, "UNRATE"), eq(indicators.sourceSlug, "fred")));
    expect(await findSeries(copied.db, unrate!.id, "US")).toMatchObject({ firstDate: "1948-01-01", lastDate: "2026-05-01" });
  } finally {
    await copied.close();
  }

  const after = await openDatabase({ dataDir: dir });
  try {
    const rows = (await after.db.execute(sql`SELECT question FROM briefings WHERE slug = 'us-inflation'`).then((r: any) => (Array.isArray(r) ? r : r.rows))) as { question: string }[];
    expect(rows).toEqual([{ question: PUBLIC_BRIEFINGS.find((b) => b.slug === "us-inflation")!.question }]);
  } finally {
    await after.close();
  }
}, 900_000); // the first start loads the whole snapshot (1.1 M observations and their derived series: minutes on a busy 2-core machine)
