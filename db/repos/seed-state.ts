// Whether the seed has run: a database with no regions is empty (the seed writes regions first).
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { indicators, regions, seedSnapshots } from "../schema";

export async function hasRegions(db: Db): Promise<boolean> {
  const rows = await db.select({ one: sql<number>`1` }).from(regions).limit(1);
  return rows.length > 0;
}

export async function hasIndicators(db: Db): Promise<boolean> {
  const rows = await db.select({ one: sql<number>`1` }).from(indicators).limit(1);
  return rows.length > 0;
}

/** Records that the seed stored `name` (the snapshot, or one of its families) at `version`. */
export async function recordSeeded(db: Db, name: string, version: string, rows: number, now: Date): Promise<void> {
  await db
    .insert(seedSnapshots)
    .values({ name, version, rows, loadedAt: now })
    .onConflictDoUpdate({ target: seedSnapshots.name, set: { version, rows, loadedAt: now } });
}

/** What the seed recorded: each name with its version. */
export async function seededRecords(db: Db): Promise<{ name: string; version: string }[]> {
  return db.select({ name: seedSnapshots.name, version: seedSnapshots.version }).from(seedSnapshots);
}
