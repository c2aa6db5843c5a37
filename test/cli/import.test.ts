// `svc import` as a user runs it: the real CLI in a subprocess against a prepared embedded data directory
// (test/cli/import-cli.ts). An import into an empty data directory (the seeded image copied first) is part of
// test/cli/first-start.test.ts, which makes that image.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import { findSeries } from "../../db/repos/observations";
import { indicators, observations } from "../../db/schema";
import { sharedDataMissingMessage, sharedDataPath } from "../support/shared-data";
import { expectOneLineError, file, IDS, pathIn, svc, usePreparedDataDir, withDb } from "./import-cli";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);
usePreparedDataDir();

describe("svc import", () => {
  const fred = "date,value\n2020-01-01,3.5\n2020-02-01,\n2020-03-01,4.4\n2020-04-01,14.8\n";

  test("a FRED date,value file with no column flags; then unchanged; then revisions", async () => {
    const p = file("testx.csv", fred);
    const first = await svc(["import", p, "--indicator", "TESTX", "--region", "US"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      "4 inserted, 0 revised, 0 unchanged (series TESTX (cli-a) / US: 4 observations, 2020-01-01..2020-04-01; 1 of the file's 4 rows have no value)\n",
    );

    const again = await svc(["import", p, "--indicator", "TESTX", "--region", "US"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toStartWith("0 inserted, 0 revised, 4 unchanged (series TESTX (cli-a) / US: 4 observations");

    const changed = file(
      "testx-2.csv",
      "date,value\n2020-01-01,3.5\n2020-02-01,3.6\n2020-03-01,4.5\n2020-04-01,14.8\n2020-05-01,13.2\n",
    );
    const third = await svc(["import", changed, "--indicator", "TESTX", "--region", "US"]);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe(
      "1 inserted, 2 revised, 2 unchanged (series TESTX (cli-a) / US: 5 observations, 2020-01-01..2020-05-01)\n",
    );

    await withDb(async (db) => {
      const s = (await findSeries(db, IDS.TESTX, "US"))!;
      expect([s.observationCount, s.version]).toEqual([5, 2]);
      const rows = await db
        .select({
          date: observations.date,
          revision: observations.revision,
          value: observations.value,
          isLatest: observations.isLatest,
        })
        .from(observations)
        .where(eq(observations.seriesId, s.id))
        .orderBy(asc(observations.date), asc(observations.revision));
      expect(rows.map((r) => [r.date, r.revision, r.value, r.isLatest])).toEqual([
        ["2020-01-01", 1, 3.5, true],
        ["2020-02-01", 1, null, false],
        ["2020-02-01", 2, 3.6, true],
        ["2020-03-01", 1, 4.4, false],
        ["2020-03-01", 2, 4.5, true],
        ["2020-04-01", 1, 14.8, true],
        ["2020-05-01", 1, 13.2, true],
      ]);
    });
  });

  test("a FRED download (observation_date,SERIES, '.' for missing, CRLF) into a state named by USPS code", async () => {
    const p = file("fred-download.csv", "observation_date,TESTX\r\n2024-01-01,5.1\r\n2024-02-01,.\r\n");
    const r = await svc(["import", p, "--indicator", "testx", "--region", "CA"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "2 inserted, 0 revised, 0 unchanged (series TESTX (cli-a) / 06: 2 observations, 2024-01-01..2024-02-01; 1 of the file's 2 rows have no value)\n",
    );
  });

  test("--date-column and --value-column pick columns of a wider file", async () => {
    const p = file("multi.csv", 'Date,Index,Inflation\n1913-01,9.8,\n1913-02,"1,009.8",0.0\n');
    const r = await svc([
      "import",
      p,
      "--indicator",
      "MULTI",
      "--region",
      "US",
      "--date-column",
      "Date",
      "--value-column=Index",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "2 inserted, 0 revised, 0 unchanged (series MULTI (cli-a) / US: 2 observations, 1913-01-01..1913-02-01)\n",
    );
    const bad = await svc(["import", p, "--indicator", "MULTI", "--region", "US"]);
    expectOneLineError(
      bad,
      1,
      'svc import: cannot tell which column holds the values ("Date", "Index", "Inflation"): name it with --value-column',
    );
  });

  test("an ambiguous code lists its sources; --source picks one", async () => {
    const p = file("dup.csv", fred);
    expectOneLineError(
      await svc(["import", p, "--indicator", "DUP", "--region", "US"]),
      1,
      "svc import: indicator 'DUP' exists in several sources (cli-a, cli-b): choose one with --source",
    );
    const ok = await svc(["import", p, "--indicator", "DUP", "--region", "US", "--source", "cli-b"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toStartWith("4 inserted, 0 revised, 0 unchanged (series DUP (cli-b) / US:");
    expectOneLineError(
      await svc(["import", p, "--indicator", "DUP", "--region", "US", "--source", "cli-c"]),
      1,
      "svc import: indicator 'DUP' is not published by source 'cli-c' (sources: cli-a, cli-b)",
    );
  });

  test("bad files and bad arguments: one plain line, non-zero exit, no stack trace", async () => {
    const bad = file("bad.csv", "date,value\n2020-01-01,1\n2020-02-01,abc\n");
    expectOneLineError(
      await svc(["import", bad, "--indicator", "TESTX", "--region", "US"]),
      1,
      `svc import: ${bad}: line 3, column "value": "abc" is not a number`,
    );
    const dup = file("dup-dates.csv", "date,value\n2020-01,1\n2020-01-01,2\n");
    expectOneLineError(
      await svc(["import", dup, "--indicator", "TESTX", "--region", "US"]),
      1,
      `svc import: ${dup}: line 3, column "date": duplicate date 2020-01-01 (also on line 2)`,
    );
    const badDate = file("bad-date.csv", "date,value\n01/02/2020,1\n");
    expectOneLineError(
      await svc(["import", badDate, "--indicator", "TESTX", "--region", "US"]),
      1,
      `svc import: ${badDate}: line 2, column "date": "01/02/2020" is not a date (expected YYYY-MM-DD, YYYY-MM or YYYY)`,
    );
    const headerOnly = file("header-only.csv", "date,value\n");
    expectOneLineError(
      await svc(["import", headerOnly, "--indicator", "TESTX", "--region", "US"]),
      1,
      "svc import: the file has a header but no observations",
    );
    const missing = pathIn("nope.csv");
    expectOneLineError(
      await svc(["import", missing, "--indicator", "TESTX", "--region", "US"]),
      1,
      `svc import: cannot read ${missing}: no such file`,
    );
    const ok = file("ok.csv", fred);
    expectOneLineError(
      await svc(["import", ok, "--indicator", "NOPE", "--region", "US"]),
      1,
      "svc import: unknown indicator 'NOPE'",
    );
    expectOneLineError(
      await svc(["import", ok, "--indicator", "TESTX", "--region", "Atlantis"]),
      1,
      "svc import: Unknown region 'Atlantis'",
    );
    expectOneLineError(
      await svc(["import", ok, "--indicator", "UNRATE", "--source", "cli-a", "--region", "california"]),
      1,
      "svc import: Indicator 'UNRATE' is offered for country regions, not for the state 06 (California).",
    );
    expectOneLineError(await svc(["import", ok, "--region", "US"]), 2, "svc import: missing --indicator CODE");
    expectOneLineError(
      await svc(["import", "--indicator", "TESTX", "--region", "US"]),
      2,
      "svc import: missing FILE (the CSV to import)",
    );
    const unknownFlag = await svc(["import", ok, "--indicator", "TESTX", "--region", "US", "--colour", "red"]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr.trim().split("\n").length).toBe(1);
    expect(unknownFlag.stderr).toStartWith("svc import: Unknown option '--colour'");
  });

  const unrate = sharedDataPath("fred-macro-us", "UNRATE.csv");
  test.skipIf(!unrate)(
    `golden: the shared FRED UNRATE file ${unrate ? "" : sharedDataMissingMessage("fred-macro-us")}`,
    async () => {
      const text = readFileSync(unrate!, "utf8");
      const lines = text
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(","));
      const r = await svc(["import", unrate!, "--indicator", "UNRATE", "--region", "US"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toStartWith(
        `${lines.length} inserted, 0 revised, 0 unchanged (series UNRATE (cli-a) / US: ${lines.length} observations, ${lines[0][0]}..${lines.at(-1)![0]}`,
      );
      await withDb(async (db) => {
        const s = (await findSeries(db, IDS.UNRATE, "US"))!;
        expect(s.observationCount).toBe(lines.length);
        const stored = new Map(
          (
            await db
              .select({ date: observations.date, value: observations.value })
              .from(observations)
              .where(eq(observations.seriesId, s.id))
          ).map((o) => [o.date, o.value]),
        );
        expect(stored.size).toBe(lines.length);
        // A few values straight from the file: first, last, the empty October 2025, and every 50th row.
        const picks = [lines[0], lines.at(-1)!, ...lines.filter((_, i) => i % 50 === 0)];
        const oct = lines.find((l) => l[0] === "2025-10-01");
        if (oct) picks.push(oct);
        for (const [date, value] of picks) {
          expect([date, stored.get(date)]).toEqual([date, value === "" ? null : Number(value)]);
        }
      });
      const again = await svc(["import", unrate!, "--indicator", "UNRATE", "--region", "US"]);
      expect(again.stdout).toStartWith(`0 inserted, 0 revised, ${lines.length} unchanged`);
    },
  );
});
