// ../shared/data holds real public data used by golden tests. It is absent on a fresh clone:
// tests that need it skip with a clear message instead of failing.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const SHARED_DATA_DIR = resolve(import.meta.dir, "../../../shared/data");

export function sharedDataPath(...parts: string[]): string | null {
  const p = join(SHARED_DATA_DIR, ...parts);
  return existsSync(p) ? p : null;
}

export function sharedDataMissingMessage(folder: string): string {
  return `skipped: ../shared/data/${folder} is absent (golden tests need the shared real-data folder)`;
}
