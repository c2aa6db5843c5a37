// Which snapshot a database holds, apart from the snapshot's loader (snapshot.ts): a start that finds it already
// loaded (every start but the first) never loads the parsers and sample data the loader imports.
import { eq } from "drizzle-orm";
import type { Database } from "../client";
import { seedSnapshots } from "../schema";

/**
 * The snapshot's version: bump it whenever a file or a parser changes what the snapshot stores, so existing databases
 * load the new one at their next start.
 */
export const SNAPSHOT_VERSION = "2026-11-26.1";
export const SNAPSHOT_NAME = "real-data";

/** Whether the database holds this snapshot version. */
export async function holdsSnapshot(database: Database): Promise<boolean> {
  const rows = await database.db.select().from(seedSnapshots).where(eq(seedSnapshots.name, SNAPSHOT_NAME));
  return rows[0]?.version === SNAPSHOT_VERSION;
}

/** The version a seed records: this snapshot's, marked as partial when only some regions were loaded (tests). */
export function snapshotVersion(filter?: { name: string }): string {
  return filter ? `${SNAPSHOT_VERSION}+${filter.name}` : SNAPSHOT_VERSION;
}
