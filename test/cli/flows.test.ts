// `svc flows import-irs` as a user runs it: the real CLI in a subprocess, an embedded data directory holding a few
// regions, and IRS_SOI_BASE_URL pointed at a real HTTP server on loopback that serves the raw IRS countyinflow1415.csv
// rows of San Francisco and a countyoutflow1415.csv in the IRS outflow header shape.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../db/client";
import { regions } from "../../db/schema";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const ROOT = resolve(import.meta.dir, "../..");
const rawPath = sharedDataPath("migration-flows", "irs_06075_sf_countyinflow1415_raw.csv");
if (!rawPath) console.warn(sharedDataMissingMessage("migration-flows"));

// The San Francisco rows of countyoutflow1415.csv (values from the IRS file as kept in the combined file).
const OUTFLOW =
  "y1_statefips,y1_countyfips,y2_statefips,y2_countyfips,y2_state,y2_countyname,n1,n2,agi\n" +
  "06,075,96,000,CA,San Francisco County Total Migration-US and Foreign,24987,37502,3363695\n" +
  "06,075,06,075,CA,San Francisco County Non-migrants,370516,630193,53992882\n" +
  "06,075,06,001,CA,Alameda County,4322,6312,420200\n" +
  "06,075,06,081,CA,San Mateo County,3839,6551,443945\n";

let dir: string;
let dataDir: string;
let server: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-flows-cli-"));
  dataDir = join(dir, "data");
  const database = await openDatabase({ dataDir });
  const county = (code: string, name: string) => ({
    code,
    type: "county",
    name,
    slug: name.toLowerCase().replace(/ /g, "-"),
    parentCode: "06",
    fipsState: "06",
    fipsCounty: code.slice(2),
  });
  await database.db
    .insert(regions)
    .values([
      { code: "06", type: "state", name: "California", slug: "california", parentCode: "US", fipsState: "06" },
      county("06075", "San Francisco County"),
      county("06081", "San Mateo County"),
      county("06001", "Alameda County"),
    ]);
  await database.close();
  const inflow = rawPath ? readFileSync(rawPath) : null;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/irs-soi/countyinflow1415.csv" && inflow) return new Response(inflow);
      if (path === "/irs-soi/countyoutflow1415.csv") return new Response(OUTFLOW);
      return new Response("Page Not Found", { status: 404 });
    },
  });
}, 60_000);
afterAll(() => {
  server?.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

async function svc(args: string[]) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "DATABASE_URL") env[k] = v;
  Object.assign(env, {
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    NODE_ENV: "test",
    IRS_SOI_BASE_URL: `http://127.0.0.1:${server.port}/irs-soi`,
  });
  const proc = Bun.spawn([process.execPath, "run", "src/cli.ts", ...args], {
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

describe("svc flows import-irs", () => {
  test.if(!!rawPath)(
    "loads both files of a year pair; edges to places that are not regions here are reported; a re-run writes nothing",
    async () => {
      const base = `http://127.0.0.1:${server.port}/irs-soi`;
      const first = await svc(["flows", "import-irs", "1415"]);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      const lines = first.stdout.trimEnd().split("\n");
      expect(lines[0]).toBe(
        `${base}/countyinflow1415.csv: 6 flows (6 new or changed); skipped 14 totals and other-flows rows, 1 non-migrant rows, 0 repeated rows; 0 values suppressed`,
      );
      expect(lines[1]).toBe(
        `${base}/countyoutflow1415.csv: 6 flows (6 new or changed); skipped 1 totals and other-flows rows, 1 non-migrant rows, 0 repeated rows; 0 values suppressed`,
      );
      // 132 counties send returns to San Francisco; 2 of them are regions in this data directory.
      expect(lines[2]).toStartWith("not regions here, not stored: 130 codes (");

      const again = await svc(["flows", "import-irs", "1415", "--direction", "outflow"]);
      expect(again.stdout).toContain("6 flows (0 new or changed)");

      const database = await openDatabase({ dataDir });
      try {
        const r = (await database.db.execute(
          sql`select origin_code as o, destination_code as d, measure, value from flows where measure = 'returns' order by value desc`,
        )) as any;
        expect((r.rows ?? r).map((x: any) => [x.o, x.d, x.value])).toEqual([
          ["06075", "06001", 4322],
          ["06075", "06081", 3839],
          ["06081", "06075", 3220],
          ["06001", "06075", 2572],
        ]);
      } finally {
        await database.close();
      }
    },
  );

  test("a year pair the IRS folder does not hold is exit 1 with the URL; a bad year pair or direction is exit 2", async () => {
    const missing = await svc(["flows", "import-irs", "1314"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `svc flows: IRS SOI: http://127.0.0.1:${server.port}/irs-soi/countyinflow1314.csv answered 404 (no file for this year pair)\n`,
    );
    const bad = await svc(["flows", "import-irs", "1416"]);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      "svc flows: '1416' is not a year pair YYZZ (e.g. 1415 for returns filed in 2014 and 2015)\n",
    ]);
    expect((await svc(["flows", "import-irs", "1415", "--direction", "sideways"])).code).toBe(2);
    expect((await svc(["flows"])).code).toBe(2);
  });
});
