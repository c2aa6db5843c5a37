// `svc signals detect` as a user runs it: the real CLI in a subprocess against an embedded data directory prepared
// in-process with one indicator and one series (not the full seed).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase } from "../../db/client";
import { writeSeriesObservations } from "../../db/repos/observations";
import { indicators, regions, signalIntervals, sources } from "../../db/schema";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const ROOT = resolve(import.meta.dir, "../..");
const ID = "00000000-0000-4000-8000-00000000d001";
let dir: string;
let dataDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-signals-cli-"));
  dataDir = join(dir, "data");
  const database = await openDatabase({ dataDir });
  const db = database.db;
  await db.insert(sources).values({ slug: "cli", name: "CLI test source" });
  await db.insert(indicators).values({
    id: ID,
    code: "RATEX",
    sourceSlug: "cli",
    name: "Test Rate",
    unit: "percent",
    frequency: "monthly",
    regionKinds: ["country"],
    defaultRegionCode: "US",
  });
  await db.insert(regions).values({ code: "US", type: "country", name: "United States", slug: "united-states" });
  // 25 months moving +0.5 / -0.5, then a jump of 10 points: one strong upward extreme, open.
  const rows = Array.from({ length: 26 }, (_, k) => ({
    date: `${2020 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}-01`,
    value: k === 25 ? 18 : k % 2 === 0 ? 8 : 8.5,
  }));
  await writeSeriesObservations(db, { indicatorId: ID, regionCode: "US", rows, now: new Date("2026-01-01T00:00:00Z") });
  await database.close();
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function svc(args: string[]) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "DATABASE_URL") env[k] = v;
  const proc = Bun.spawn([process.execPath, "run", "src/cli.ts", ...args], {
    cwd: ROOT,
    env: { ...env, DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "test" },
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

describe("svc signals detect", () => {
  test("stores the intervals, then a second run changes nothing", async () => {
    const first = await svc(["signals", "detect"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^1 series \(26 observations\) in \d+\.\d s: [1-9]\d* intervals new, 0 updated, 0 removed, 0 unchanged\n$/,
    );
    const again = await svc(["signals", "detect", "--indicator", "RATEX"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^1 series \(26 observations\) in \d+\.\d s: 0 intervals new, 0 updated, 0 removed, [1-9]\d* unchanged\n$/,
    );
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(signalIntervals);
      expect(rows.filter((r) => r.type === "extreme").map((r) => [r.direction, r.strength, r.validTo])).toEqual([
        ["up", "strong", null],
      ]);
    } finally {
      await database.close();
    }
  });

  test("mistakes are one-line errors with exit code 2", async () => {
    const cases: [string[], string][] = [
      [["signals"], "svc signals: missing subcommand: svc signals detect [--indicator CODE]\n"],
      [["signals", "run"], "svc signals: unknown subcommand 'run' (expected detect)\n"],
      [["signals", "detect", "--indicator", "NOPE"], "svc signals: unknown indicator 'NOPE' (not in the catalog)\n"],
      [["signals", "detect", "extra"], "svc signals: unexpected argument 'extra'\n"],
    ];
    for (const [args, line] of cases) {
      const r = await svc(args);
      expect({ args, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
        args,
        code: 2,
        stdout: "",
        stderr: line,
      });
    }
  });
});
