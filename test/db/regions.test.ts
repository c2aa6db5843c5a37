// The regions seed on an empty, migrated database of the run's backend (PGlite or PostgreSQL 15).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import postgres from "postgres";
import { openDatabase, type Database } from "../../db/client";
import { listRegions } from "../../db/repos/regions";
import { regionList, seedRegions } from "../../db/seed/regions";
import { createCaches, type Store } from "../../src/services/caches";
import { resolveRegion } from "../../src/services/regions";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

// Not test/support/db: that seeds everything; this file needs an empty database.
const testBackend = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
let database: Database;
let dropDatabase = async () => {};

async function openEmptyDatabase(): Promise<Database> {
  if (testBackend === "pglite") return openDatabase({ dataDir: null });
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `svc_regions_${process.pid}_${Date.now().toString(36)}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe(`CREATE DATABASE ${name}`);
  await sql.end();
  dropDatabase = async () => {
    const s = postgres(admin, { max: 1, onnotice: () => {} });
    await s.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await s.end();
  };
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return openDatabase({ url: url.toString(), poolSize: 2 });
}

let store: Store;

beforeAll(async () => {
  database = await openEmptyDatabase();
  store = { db: database.db, caches: createCaches(database) };
});
afterAll(async () => {
  await database.close();
  await dropDatabase();
});

describe(`seedRegions (${testBackend})`, () => {
  test("an unseeded database resolves nothing, and the empty index is not cached", async () => {
    await expect(resolveRegion(store, "US-CA")).rejects.toMatchObject({ code: "RESOURCE_NOT_FOUND", status: 404 });
  });

  test("first run writes every region and reports progress", async () => {
    const events: string[] = [];
    const progress = {
      start: (label: string, total: number) => events.push(`start ${label} ${total}`),
      tick: (n = 1) => events.push(`tick ${n}`),
      done: (note?: string) => events.push(`done ${note}`),
    };
    expect(await seedRegions(database.db, { progress })).toBe(3445);
    expect(events).toEqual([
      "start regions 3445",
      "tick 1000",
      "tick 1000",
      "tick 1000",
      "tick 445",
      "done 3445 written",
    ]);
    const stored = await listRegions(database.db);
    expect(stored.length).toBe(3445);
    expect(stored.map((r) => r.code)).toEqual(
      regionList()
        .map((r) => r.code)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    expect(stored.find((r) => r.code === "06")).toEqual({
      code: "06",
      type: "state",
      name: "California",
      slug: "california",
      parentCode: "US",
      fipsState: "06",
      fipsCounty: null,
      aliases: ["CA", "US-CA"],
    });
  });

  test("the service sees the seed that ran after its first (empty) lookup", async () => {
    expect((await resolveRegion(store, "US-CA")).code).toBe("06");
  });

  test("a re-run writes nothing", async () => {
    expect(await seedRegions(database.db)).toBe(0);
    expect((await listRegions(database.db)).length).toBe(3445);
  });

  test("a changed row is put back, and only that row is written", async () => {
    await database.exec(`UPDATE regions SET name = 'Kalifornia', aliases = '{}' WHERE code = '06'`);
    expect(await seedRegions(database.db)).toBe(1);
    const [ca] = await listRegions(database.db, { parentCode: "US", type: "state" }).then((r) =>
      r.filter((x) => x.code === "06"),
    );
    expect(ca).toMatchObject({ name: "California", aliases: ["CA", "US-CA"] });
  });

  test("filters: type and parent, ordered by code", async () => {
    const ca = await listRegions(database.db, { type: "county", parentCode: "06" });
    expect(ca.length).toBe(58);
    expect(ca[0].code).toBe("06001");
    expect(ca[57].code).toBe("06115");
    const countries = await listRegions(database.db, { type: "country" });
    expect(countries.length).toBe(250);
    expect(countries[0].code).toBe("AD");
    expect(countries.at(-1)!.code).toBe("ZW");
  });
});
