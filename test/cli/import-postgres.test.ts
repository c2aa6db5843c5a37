// test-tier: database (the CLI's import into PostgreSQL; skipped on the embedded database)
// `svc import` with DATABASE_URL: the real CLI in a subprocess importing into a PostgreSQL database prepared as
// test/cli/import-cli.ts prepares an embedded one.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import postgres from "postgres";
import { openDatabase } from "../../db/client";
import { file, prepare, svc, usePreparedDataDir } from "./import-cli";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);
usePreparedDataDir();

describe("svc import with DATABASE_URL", () => {
  const url = process.env.TEST_DATABASE_URL;
  test.skipIf(!url)("imports into PostgreSQL (no lock file involved)", async () => {
    const name = `svc_cli_import_${process.pid}_${Date.now().toString(36)}`;
    const admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    try {
      const u = new URL(url!);
      u.pathname = `/${name}`;
      const database = await openDatabase({ url: u.toString(), poolSize: 1 });
      await prepare(database.db);
      await database.close();
      const p = file("pg.csv", "date,value\n2020-01-01,1\n2020-02-01,2\n");
      const r = await svc(["import", p, "--indicator", "TESTX", "--region", "US"], { DATABASE_URL: u.toString() });
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe(
        "2 inserted, 0 revised, 0 unchanged (series TESTX (cli-a) / US: 2 observations, 2020-01-01..2020-02-01)\n",
      );
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
