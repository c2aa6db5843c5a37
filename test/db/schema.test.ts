// The one index drizzle-kit cannot declare must exist as written in the migration, on both databases.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { makeTestDatabase } from "../support/db";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let database: Database;
beforeAll(async () => {
  database = await makeTestDatabase();
});
afterAll(() => database.close());

test("the latest-observations index is unique, partial and covering", async () => {
  const rows = (await database.db.execute(
    sql`select indexdef from pg_indexes where indexname = 'observations_latest_idx'`,
  )) as any;
  const def: string = (rows.rows ?? rows)[0].indexdef;
  expect(def).toContain(
    "CREATE UNIQUE INDEX observations_latest_idx ON public.observations USING btree (series_id, date)",
  );
  expect(def).toContain("INCLUDE (revision, value, is_preliminary, source_updated_at)");
  expect(def).toContain("WHERE is_latest");
});
