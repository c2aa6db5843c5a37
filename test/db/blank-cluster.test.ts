// The blank embedded cluster (db/blank-cluster.ts) is a build output: it must name what it was built from (the
// installed PGlite, the initdb parameters of db/client.ts), hold exactly the bytes its manifest names, and open into a
// database that migrates and serves as one made by initdb would. `bun run db:blank` rebuilds it when this fails.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BLANK_CLUSTER_PATH,
  INSTALLED_PGLITE,
  PGLITE_INITDB_PARAMS,
  blankClusterCurrent,
  blankClusterManifest,
} from "../../db/blank-cluster";
import { openDatabase, type Database } from "../../db/client";

// bun resets the default timeout per file: this file starts databases.
setDefaultTimeout(120_000);

async function one(database: Database, sql: string) {
  if (database.raw.kind !== "pglite") throw new Error("an embedded database was expected");
  return (await database.raw.client.query(sql)).rows[0];
}

describe("the blank embedded cluster", () => {
  test("names the installed PGlite and the current initdb parameters, and holds the bytes its manifest names", () => {
    expect({ pglite: blankClusterManifest.pglite, initdb: blankClusterManifest.initdb }).toEqual({
      pglite: INSTALLED_PGLITE,
      initdb: PGLITE_INITDB_PARAMS,
    });
    expect(blankClusterCurrent()).toBe(true);
    const bytes = readFileSync(BLANK_CLUSTER_PATH);
    expect({ bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }).toEqual({
      bytes: blankClusterManifest.bytes,
      sha256: blankClusterManifest.sha256,
    });
  });

  test("an empty data directory is loaded from it, migrated, and opens again as it was left", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-blank-"));
    try {
      const first = await openDatabase({ dataDir: dir });
      expect(existsSync(join(dir, "pglite", "PG_VERSION"))).toBe(true);
      expect(await one(first, "show shared_buffers")).toEqual({ shared_buffers: "32MB" });
      await first.exec("create table blank_cluster_probe (id int); insert into blank_cluster_probe values (7)");
      await first.close();
      const again = await openDatabase({ dataDir: dir });
      expect(await one(again, "select id from blank_cluster_probe")).toEqual({ id: 7 });
      // Migrated like any new database: the schema's tables are there.
      expect(
        await one(again, "select count(*)::int as n from information_schema.tables where table_name = 'indicators'"),
      ).toEqual({ n: 1 });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
