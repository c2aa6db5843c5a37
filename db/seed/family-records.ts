// Which families of the first start's data (db/seed/families.ts) a database holds: each is recorded in seed_snapshots
// once stored, beside the snapshot's own record, so an interrupted first start goes on from the first family missing
// and every process reading the database knows what it may serve.
import type { Db } from "../client";
import { hasRegions, recordSeeded, seededRecords } from "../repos/seed-state";
import { DATA_FAMILY_IDS, type DataFamilyId } from "./families";
import { SNAPSHOT_NAME, SNAPSHOT_VERSION } from "./snapshot-version";

/** The name under which a stored family is recorded (seed_snapshots), beside the whole snapshot's. */
const recordName = (id: DataFamilyId) => `${SNAPSHOT_NAME}/${id}`;

export async function recordFamily(db: Db, id: DataFamilyId, version: string, now: Date, rows = 0): Promise<void> {
  await recordSeeded(db, recordName(id), version, rows, now);
}

/**
 * The families stored at `version`. A database seeded before families were recorded (the snapshot's own record at
 * `version`, no family's) holds them all.
 */
export async function storedFamilies(db: Db, version: string): Promise<Set<DataFamilyId>> {
  const records = await seededRecords(db);
  const stored = new Set<DataFamilyId>(
    DATA_FAMILY_IDS.filter((id) => records.some((r) => r.name === recordName(id) && r.version === version)),
  );
  const legacy =
    records.some((r) => r.name === SNAPSHOT_NAME && r.version === version) &&
    !records.some((r) => r.name.startsWith(`${SNAPSHOT_NAME}/`));
  return legacy ? new Set(DATA_FAMILY_IDS) : stored;
}

/**
 * Whether the database holds regions and every data family of this release's seed (the signals over them are the
 * first start's work after the seed: src/startup/first-start.ts).
 */
export async function holdsSeed(db: Db): Promise<boolean> {
  if (!(await hasRegions(db))) return false;
  const stored = await storedFamilies(db, SNAPSHOT_VERSION);
  return DATA_FAMILY_IDS.every((id) => id === "signals" || stored.has(id));
}
