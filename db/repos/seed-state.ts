// Whether the seed has run: a database with no regions is empty (the seed writes regions first).
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { indicators, regions } from "../schema";

export async function hasRegions(db: Db): Promise<boolean> {
  const rows = await db.select({ one: sql<number>`1` }).from(regions).limit(1);
  return rows.length > 0;
}

export async function hasIndicators(db: Db): Promise<boolean> {
  const rows = await db.select({ one: sql<number>`1` }).from(indicators).limit(1);
  return rows.length > 0;
}
