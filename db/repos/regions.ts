// Queries over the regions table.
import { inKeyOrder } from "./write-order";
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { regions } from "../schema";
import { announceCatalogWritten } from "../events";

export type RegionRow = typeof regions.$inferSelect;
export type NewRegionRow = typeof regions.$inferInsert;

/**
 * Inserts new rows and rewrites only rows whose values differ, so a repeated seed writes nothing.
 * Returns the number of rows inserted or changed.
 */
export async function upsertRegions(db: Db, rows: NewRegionRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db
    .insert(regions)
    .values(inKeyOrder(rows, (r) => r.code))
    .onConflictDoUpdate({
      target: regions.code,
      set: {
        type: sql`excluded.type`,
        name: sql`excluded.name`,
        slug: sql`excluded.slug`,
        parentCode: sql`excluded.parent_code`,
        fipsState: sql`excluded.fips_state`,
        fipsCounty: sql`excluded.fips_county`,
        aliases: sql`excluded.aliases`,
      },
      setWhere: sql`(${regions.type}, ${regions.name}, ${regions.slug}, ${regions.parentCode}, ${regions.fipsState}, ${regions.fipsCounty}, ${regions.aliases})
        is distinct from (excluded.type, excluded.name, excluded.slug, excluded.parent_code, excluded.fips_state, excluded.fips_county, excluded.aliases)`,
    })
    .returning({ code: regions.code });
  // In-memory region and catalog indexes (src/services/catalog-index.ts) reload on the next read.
  if (written.length > 0) announceCatalogWritten(db);
  return written.length;
}

// Byte order ("C"), so codes sort the same on every server locale and on PGlite.
const byCode = sql`${regions.code} collate "C"`;

export async function listRegions(db: Db, filter: { type?: string; parentCode?: string } = {}): Promise<RegionRow[]> {
  const where: SQL[] = [];
  if (filter.type) where.push(eq(regions.type, filter.type));
  if (filter.parentCode) where.push(eq(regions.parentCode, filter.parentCode));
  return db
    .select()
    .from(regions)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(byCode));
}

/** The regions with these codes (any order; unknown codes are skipped). */
export async function findRegions(db: Db, codes: readonly string[]): Promise<RegionRow[]> {
  if (codes.length === 0) return [];
  return db
    .select()
    .from(regions)
    .where(inArray(regions.code, [...codes]));
}
