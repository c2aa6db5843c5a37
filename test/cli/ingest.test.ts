// `svc ingest` as a user runs it: the real CLI in a subprocess, an embedded data directory with the regions and the
// catalog (no samples), and the fake upstream in this process on loopback.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { openDatabase, type Db } from "../../db/client";
import { findSeries } from "../../db/repos/observations";
import { indicators, observations } from "../../db/schema";
import { indicatorId, seedCatalog } from "../../db/seed/catalog";
import { regionList, seedRegions } from "../../db/seed/regions";
import { FakeUpstream } from "../support/fake-upstream";
import { lausAnnualEntry } from "../support/upstream";
import { ersCountyAnnual } from "../support/upstream-data";

setDefaultTimeout(180_000);

const ROOT = resolve(import.meta.dir, "../..");
let dir: string;
let dataDir: string;
let fake: FakeUpstream;
const LAUCN03A = indicatorId("bls", "LAUCN03A");

// Real FRED values (fred-macro-us/UNRATE.csv).
const UNRATE = [
  ["2020-01-01", "3.6"],
  ["2020-02-01", "3.5"],
  ["2020-03-01", "4.4"],
  ["2020-04-01", "14.8"],
  ["2020-05-01", "13.2"],
  ["2025-09-01", "4.4"],
  ["2025-10-01", "."],
  ["2025-11-01", "4.6"],
].map(([date, value]) => ({ date, value }));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-ingest-cli-"));
  dataDir = join(dir, "data");
  fake = await FakeUpstream.start();
  const database = await openDatabase({ dataDir });
  await seedRegions(database.db);
  await seedCatalog(database.db);
  // The annual-average county LAUS entry (as the catalog carries it once added; kept if it is already there).
  const e = lausAnnualEntry("county", "03");
  await database.db
    .insert(indicators)
    .values({
      id: LAUCN03A,
      code: e.code,
      sourceSlug: "bls",
      name: "Unemployment Rate by County (LAUS, annual average)",
      frequency: "annual",
      regionKinds: ["county"],
      defaultRegionCode: "06037",
      meta: e.meta,
      category: "labor",
      unit: "percent",
    })
    .onConflictDoNothing();
  await database.close();
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };

async function svc(
  args: string[],
  extraEnv: Record<string, string> = {},
  opts: { blsKey?: boolean } = {},
): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== "DATABASE_URL" && !/^(FRED|BLS|CENSUS|WORLDBANK)_/.test(k)) env[k] = v;
  Object.assign(env, { DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "test" }, fake.env(opts), extraEnv);
  const proc = Bun.spawn([process.execPath, "run", "src/cli.ts", "ingest", ...args], {
    cwd: ROOT,
    env,
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

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir });
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

describe("svc ingest", () => {
  test("one FRED series: inserted, then unchanged, then a revision", async () => {
    fake.setFredSeries(
      "UNRATE",
      UNRATE.map((o) => ({ ...o })),
    );
    const first = await svc(["fred", "--indicator", "UNRATE"]);
    expect(first.stderr).toBe("");
    expect(first.stdout).toBe("1 series: 1 fetched (8 inserted, 0 revised, 0 unchanged), 0 failed, 0 not fetchable\n");
    expect(first.code).toBe(0);
    const again = await svc(["fred", "--indicator", "UNRATE", "--region", "US"]);
    expect(again.stdout).toBe("1 series: 1 fetched (0 inserted, 0 revised, 8 unchanged), 0 failed, 0 not fetchable\n");
    fake.revise("fred", "UNRATE", "2020-04-01", "14.7");
    const third = await svc(["fred", "--indicator", "UNRATE"]);
    expect(third.stdout).toBe("1 series: 1 fetched (0 inserted, 1 revised, 7 unchanged), 0 failed, 0 not fetchable\n");
    await withDb(async (db) => {
      const id = indicatorId("fred", "UNRATE");
      const s = (await findSeries(db, id, "US"))!;
      const rows = await db
        .select({ revision: observations.revision, value: observations.value, isLatest: observations.isLatest })
        .from(observations)
        .where(and(eq(observations.seriesId, s.id), eq(observations.date, "2020-04-01")))
        .orderBy(asc(observations.revision));
      expect(rows).toEqual([
        { revision: 1, value: 14.8, isLatest: false },
        { revision: 2, value: 14.7, isLatest: true },
      ]);
    });
  });

  test("an upstream refusal: the series named with the provider's message, nothing written, exit 1", async () => {
    const r = await svc(["fred", "--indicator", "CPIAUCSL"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      "failed fred:CPIAUCSL US: fred: GET series CPIAUCSL: HTTP 400 (Bad Request.  The series does not exist.)\n" +
        "1 series: 0 fetched (0 inserted, 0 revised, 0 unchanged), 1 failed, 0 not fetchable\n",
    );
    expect(r.stderr).toBe("svc ingest: 1 of 1 series failed\n");
    expect(r.stdout).not.toContain(fake.keys.fred);
    await withDb(async (db) => expect(await findSeries(db, indicatorId("fred", "CPIAUCSL"), "US")).toBeNull());
  });

  const ers = ersCountyAnnual();
  test.skipIf(!ers)(
    "a LAUS annual average across every county: 50 series per BLS query, real values stored",
    async () => {
      for (const [id, d] of ers!) if (id.endsWith("03")) fake.setBlsSeries(id, d);
      fake.reset();
      const r = await svc(["bls", "--indicator", "LAUCN03A", "--all-regions", "--end", "2018-12-31"]);
      const counties = regionList().filter((x) => x.type === "county");
      // Counties our (vintage 2024) list has and the 2007-2018 LAUS file does not: Alaska's 2019 split of Valdez-Cordova,
      // Connecticut's planning regions (2022), and Kalawao (Hawaii), which LAUS publishes with Maui.
      const unknown = counties.filter((c) => !ers!.has(`LAUCN${c.code}0000000003`)).map((c) => c.code);
      expect(unknown).toEqual(["02063", "02066", ...Array.from({ length: 9 }, (_, i) => `091${i + 1}0`), "15005"]);
      const batches = Math.ceil(counties.length / 50);
      // Each batch: 1999-2018, then 1990-1998 (the program's start; empty, so done).
      expect(fake.count("bls")).toBe(2 * batches);
      expect(fake.violations).toEqual([]);
      expect(fake.requests.every((q) => q.body.seriesid.length <= 50 && q.body.annualaverage === true)).toBe(true);
      const ok = counties.length - unknown.length;
      const inserted = counties.reduce((n, c) => n + (ers!.get(`LAUCN${c.code}0000000003`)?.length ?? 0), 0);
      expect(r.stdout.trim().split("\n").at(-1)).toBe(
        `${counties.length} series: ${ok} fetched (${inserted} inserted, 0 revised, 0 unchanged), ${unknown.length} failed, 0 not fetchable`,
      );
      expect(r.stdout).toContain(
        `failed bls:LAUCN03A ${unknown[0]}: bls: series LAUCN${unknown[0]}0000000003 does not exist`,
      );
      expect(r.code).toBe(1);
      await withDb(async (db) => {
        const s = (await findSeries(db, LAUCN03A, "06037"))!;
        const rows = await db
          .select({ date: observations.date, value: observations.value })
          .from(observations)
          .where(eq(observations.seriesId, s.id))
          .orderBy(asc(observations.date));
        expect(rows.slice(0, 4)).toEqual([
          { date: "2007-01-01", value: 5.1 },
          { date: "2008-01-01", value: 7.6 },
          { date: "2009-01-01", value: 11.6 },
          { date: "2010-01-01", value: 12.5 },
        ]);
        expect(rows).toHaveLength(12);
      });
    },
  );

  test("what cannot be fetched says why", async () => {
    const pep = await svc(["census", "--indicator", "POPESTIMATE"]);
    expect([pep.code, pep.stderr]).toEqual([
      1,
      "svc ingest: no upstream connector serves census:POPESTIMATE for 06 (FRED needs FRED_API_KEY; BLS annual averages need BLS_API_KEY; Census PEP and flows are loaded from files)\n",
    ]);
    const noKey = await svc(["bls", "--indicator", "LAUCN03A", "--region", "06037"], {}, { blsKey: false });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("no upstream connector serves bls:LAUCN03A for 06037");
    const wrongKind = await svc(["bls", "--indicator", "LASST03", "--region", "06037"]);
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toBe(
      "svc ingest: bls:LASST03 is offered for state regions, not for the county 06037 (Los Angeles County)\n",
    );
  });

  test("bad arguments", async () => {
    expect(await svc([])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc ingest: missing SOURCE (a source slug: fred, bls, census, worldbank)\n",
    });
    expect(await svc(["bls", "--region", "06", "--all-regions"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc ingest: --region and --all-regions exclude each other\n",
    });
    expect(await svc(["bls", "--start", "2024-02-30"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc ingest: --start must be a YYYY-MM-DD date, got '2024-02-30'\n",
    });
    expect(await svc(["bls", "--start", "2024-02-01", "--end", "2024-01-31"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "svc ingest: --start is after --end\n",
    });
    const unknown = await svc(["nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toStartWith(
      "svc ingest: unknown source 'nope' (sources: bls, cdc, census, eia, fred, gapminder, scripps, svc, worldbank)",
    );
    const code = await svc(["fred", "--indicator", "NOPE"]);
    expect([code.code, code.stderr]).toEqual([1, "svc ingest: unknown indicator 'NOPE'\n"]);
  });
});
