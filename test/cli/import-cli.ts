// `svc import` as a user runs it, shared by the test/cli/import*.test.ts files: the real CLI in a subprocess against an
// embedded data directory, prepared in-process with a test source, indicators and regions (not the full seed), so the
// imports depend on nothing but the write path, and `serve` on it starts without seeding.
import { afterAll, beforeAll, expect } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase, type Db } from "../../db/client";
import { indicators, regions, seedSnapshots, sources } from "../../db/schema";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";

export const ROOT = resolve(import.meta.dir, "../..");
export const IDS = {
  TESTX: "00000000-0000-4000-8000-00000000c001",
  UNRATE: "00000000-0000-4000-8000-00000000c002",
  DUP_A: "00000000-0000-4000-8000-00000000c003",
  DUP_B: "00000000-0000-4000-8000-00000000c004",
  MULTI: "00000000-0000-4000-8000-00000000c005",
};

let dir: string;
let dataDir: string;

export async function prepare(db: Db): Promise<void> {
  await db.insert(sources).values([
    { slug: "cli-a", name: "CLI test source A" },
    { slug: "cli-b", name: "CLI test source B" },
  ]);
  await db.insert(indicators).values([
    { id: IDS.TESTX, code: "TESTX", sourceSlug: "cli-a", name: "Test X", regionKinds: ["country", "state"] },
    {
      id: IDS.UNRATE,
      code: "UNRATE",
      sourceSlug: "cli-a",
      name: "Unemployment rate (test copy)",
      regionKinds: ["country"],
    },
    { id: IDS.DUP_A, code: "DUP", sourceSlug: "cli-a", name: "Dup in A", regionKinds: ["country"] },
    { id: IDS.DUP_B, code: "DUP", sourceSlug: "cli-b", name: "Dup in B", regionKinds: ["country"] },
    { id: IDS.MULTI, code: "MULTI", sourceSlug: "cli-a", name: "Multi-column", regionKinds: ["country"] },
  ]);
  await db.insert(regions).values([
    { code: "US", type: "country", name: "United States", slug: "united-states", aliases: ["USA"] },
    {
      code: "06",
      type: "state",
      name: "California",
      slug: "california",
      parentCode: "US",
      fipsState: "06",
      aliases: ["CA", "US-CA"],
    },
  ]);
  // Marked as holding the shipped snapshot, so neither import nor serve seeds this prepared directory.
  await db
    .insert(seedSnapshots)
    .values({ name: "real-data", version: SNAPSHOT_VERSION, rows: 0, loadedAt: new Date() });
}

/** Prepares an embedded data directory for this file's tests (before them) and removes it after them. */
export function usePreparedDataDir(): void {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "svc-import-cli-"));
    dataDir = join(dir, "data");
    const database = await openDatabase({ dataDir });
    await prepare(database.db);
    await database.close();
  }, 60_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
}

export type Run = { code: number; stdout: string; stderr: string };

export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "DATABASE_URL") env[k] = v;
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "test", ...extra };
}

export async function svc(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const proc = Bun.spawn([process.execPath, "run", "src/cli.ts", ...args], {
    cwd: ROOT,
    env: cliEnv(extraEnv),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** A path in the prepared directory (beside the data directory). */
export function pathIn(name: string): string {
  return join(dir, name);
}

/** Writes a file in the prepared directory; its path. */
export function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

export /** Reads the database between CLI runs (the CLI holds the lock only while it runs). */
async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

export function expectOneLineError(r: Run, code: number, line: string) {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe("");
  expect(r.stderr).toBe(`${line}\n`);
}

/** Waits for `svc serve`'s "ready" log line; its URL. */
export async function waitForListening(proc: Bun.Subprocess<"ignore", "pipe", "pipe">): Promise<string> {
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited before ready:\n${buf}`);
    buf += decoder.decode(value);
    const complete = buf.slice(0, buf.lastIndexOf("\n") + 1);
    for (const line of complete.split("\n")) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === "ready" && entry.url) {
        // Keep draining so the server never blocks on a full pipe.
        void (async () => {
          while (!(await reader.read().catch(() => ({ done: true }))).done);
        })();
        return entry.url;
      }
    }
  }
  throw new Error(`serve did not start listening in time:\n${buf}`);
}
