// ../shared/data holds real public data used by golden tests. It is absent on a fresh clone: there, tests that need
// it skip, each with a warning that names the missing file (never silently). In CI (CI=true) the folder must be
// there: a missing file is a failure of the run, not a skip.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const SHARED_DATA_DIR = resolve(import.meta.dir, "../../../shared/data");

const warned = new Set<string>();

/** The path of a shared data file, or null when it is absent (outside CI: a warning names it; in CI: throws). */
export function sharedDataPath(...parts: string[]): string | null {
  const p = join(SHARED_DATA_DIR, ...parts);
  if (existsSync(p)) return p;
  const name = `../shared/data/${parts.join("/")}`;
  if (process.env.CI === "true" || process.env.CI === "1")
    throw new Error(`${name} is absent: CI must provide the shared real-data folder (${SHARED_DATA_DIR})`);
  if (!warned.has(name)) {
    warned.add(name);
    console.warn(`skipping what needs ${name}: the shared real-data folder is absent`);
  }
  return null;
}

export function sharedDataMissingMessage(folder: string): string {
  return `skipped: ../shared/data/${folder} is absent (golden tests need the shared real-data folder)`;
}
