// The curated public briefings (db/seed/briefings.ts) as the seed leaves them, on both databases: public (no owner),
// weekly, ids named after their slugs; a re-seed writes nothing; a changed wording is updated in place, keeping the
// briefing's id and runs; a database holding only some regions gets the briefings of those; one table constraint keeps
// public and saved briefings apart.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase, type Database } from "../../db/client";
import { regions } from "../../db/schema";
import { PUBLIC_BRIEFINGS, publicBriefingId, seedPublicBriefings } from "../../db/seed/briefings";
import { isUuid } from "../../src/domain/briefings";
import { makeTestDatabase, testBackend } from "../support/db";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let database: Database;
beforeAll(async () => {
  database = await makeTestDatabase();
});
afterAll(() => database?.close());

const created: string[] = [];
afterAll(async () => {
  if (created.length === 0) return;
  const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  for (const name of created) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await admin.end();
});

/** The URL of a new, empty PostgreSQL database (openDatabase migrates it), dropped after the file. */
async function emptyPostgres(): Promise<string> {
  const name = `svc_t_brief_${process.pid}_${Date.now().toString(36)}`;
  const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  const u = new URL(process.env.TEST_DATABASE_URL!);
  u.pathname = `/${name}`;
  return u.toString();
}

const rows = async (q: ReturnType<typeof sql>) => {
  const r = (await database.db.execute(q)) as any;
  return (Array.isArray(r) ? r : r.rows) as any[];
};

describe(`public briefings seed (${testBackend})`, () => {
  test("every curated briefing: public, weekly, its id named after its slug, in curated order", async () => {
    const got = await rows(
      sql`select id, slug, name, question, cadence, region_code, "window", owner_key_id from briefings where owner_key_id is null order by created_at, slug`,
    );
    expect(got).toEqual(
      PUBLIC_BRIEFINGS.map((b) => ({
        id: publicBriefingId(b.slug),
        slug: b.slug,
        name: b.name,
        question: b.question,
        cadence: "weekly",
        region_code: b.regionCode,
        window: b.window,
        owner_key_id: null,
      })),
    );
    for (const b of PUBLIC_BRIEFINGS) {
      expect(isUuid(publicBriefingId(b.slug))).toBe(true);
      expect(b.name.length).toBeLessThanOrEqual(120);
      expect(b.question.length).toBeLessThanOrEqual(500);
    }
    expect(new Set(PUBLIC_BRIEFINGS.map((b) => publicBriefingId(b.slug))).size).toBe(PUBLIC_BRIEFINGS.length);
  });

  test("a re-seed writes nothing; a changed wording is restored in place, with the same id and runs", async () => {
    expect(await seedPublicBriefings(database.db, { now: new Date("2027-01-01T00:00:00Z") })).toBe(0);
    const id = publicBriefingId("us-housing");
    const runsBefore = await rows(sql`select id from briefing_runs where briefing_id = ${id} order by seq`);
    expect(runsBefore.length).toBe(1);
    await database.db.execute(
      sql`update briefings set question = 'Are houses expensive?', "window" = null where slug = 'us-housing'`,
    );
    expect(await seedPublicBriefings(database.db, { now: new Date("2027-01-01T00:00:00Z") })).toBe(1);
    const [row] = await rows(sql`select id, question, "window", created_at from briefings where slug = 'us-housing'`);
    const curated = PUBLIC_BRIEFINGS.find((b) => b.slug === "us-housing")!;
    expect([row.id, row.question, row.window]).toEqual([id, curated.question, curated.window]);
    // Its creation time (the curated order) is kept.
    expect(new Date(row.created_at).getTime()).toBeLessThan(Date.parse("2027-01-01T00:00:00Z"));
    expect(await rows(sql`select id from briefing_runs where briefing_id = ${id} order by seq`)).toEqual(runsBefore);
  });

  test("a database holding only some regions (prepared by hand) gets the briefings of those regions", async () => {
    const bare = await openDatabase(
      testBackend === "postgres" ? { url: await emptyPostgres(), poolSize: 2 } : { dataDir: null },
    );
    try {
      await bare.db.insert(regions).values([
        { code: "US", type: "country", name: "United States", slug: "united-states", aliases: [] },
        {
          code: "06",
          type: "state",
          name: "California",
          slug: "california",
          parentCode: "US",
          fipsState: "06",
          aliases: [],
        },
      ]);
      expect(await seedPublicBriefings(bare.db, { now: new Date("2027-01-01T00:00:00Z") })).toBe(
        PUBLIC_BRIEFINGS.filter((b) => b.regionCode === "US" || b.regionCode === "06").length,
      );
      const r = (await bare.db.execute(sql`select slug from briefings order by created_at`)) as any;
      expect((Array.isArray(r) ? r : r.rows).map((x: any) => x.slug)).toEqual(
        PUBLIC_BRIEFINGS.filter((b) => b.regionCode !== "48").map((b) => b.slug),
      );
    } finally {
      await bare.close();
    }
  });

  test("a briefing is either public (a slug, no owner) or saved (an owner, no slug)", async () => {
    const insert = (slug: string | null, owner: string | null) =>
      (async () =>
        database.db.execute(
          sql`insert into briefings (id, owner_key_id, slug, name, question, cadence, created_at) values (gen_random_uuid(), ${owner}, ${slug}, 'n', 'q', 'weekly', now())`,
        ))();
    const [key] = await rows(
      sql`insert into api_keys (id, secret_hash, hint, mode, plan, rate_limit_per_minute, created_at) values (gen_random_uuid(), 'h-seed-test', 'svc_live_…test', 'live', 'professional', 1000, now()) returning id`,
    );
    await expect(insert(null, null)).rejects.toThrow();
    await expect(insert("both", key.id)).rejects.toThrow();
    await insert("public-one", null);
    await insert(null, key.id);
    expect(
      (
        await rows(sql`select count(*)::int as n from briefings where slug = 'public-one' or owner_key_id = ${key.id}`)
      )[0].n,
    ).toBe(2);
  });
});
