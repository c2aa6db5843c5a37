// The seeded embedded database as an image: the first start on a machine builds DATA_DIR/pglite from the snapshot
// files (src/startup/first-start.ts) and then keeps a copy of that directory in IMAGE_CACHE_DIR; a later first start
// with the same code and data (another DATA_DIR, a test's process, a wiped data directory, the binary built from the
// same checkout) copies the image instead of seeding, deriving and detecting again (seconds instead of a minute).
//
// The image is a build output, never a source: it is made only by the seed itself, never edited, never committed
// (IMAGE_CACHE_DIR sits outside the repository by default), and it is named by a fingerprint of everything that goes
// into it (src/startup/image-key.ts). Any change there names a new image, so a stale one is never used. A copy is made
// under a temporary name and renamed into place, so a half-made copy is never used.
//
// The database is kept while it serves: its directory is copied as it runs, then, with the database held still (its
// statements held and the database closed: src/startup/database-thread.ts), every file changed since the copy began
// is copied again. What is kept is then the directory of a cleanly stopped database.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { copyFile, cp, mkdir, readdir, rm, stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import type { Config } from "../config";
import { ensureDataDir } from "../data-dir";
import type { Logger } from "../logger";

/** Images older than the newest few are removed when a new one is kept (each is some hundred MB). */
const KEEP_IMAGES = 4;
/** Files changed this long before the first copy began are copied again too (file times are coarse). */
const MTIME_MARGIN_MS = 2_000;

/** Whether an embedded data directory holds a database already (PostgreSQL's PG_VERSION marks an initialised one). */
export function holdsDatabase(pgliteDir: string): boolean {
  return existsSync(join(pgliteDir, "PG_VERSION"));
}

const imageDir = (cacheDir: string, key: string) => join(cacheDir, `pglite-${key}`);

/**
 * A first start of the embedded database on an empty data directory (`svc serve`, `svc import`) copies the image of
 * this code and data, if one is kept. Returns the name a seed of this directory should be kept under (null when an
 * image was copied, the database is not embedded or not empty, or IMAGE_CACHE_DIR is off).
 */
export async function restoreKeptImage(
  config: Config,
  logger: Logger,
  onCopying: () => void = () => {},
): Promise<string | null> {
  if (config.databaseUrl || !config.imageCacheDir) return null;
  ensureDataDir(config.dataDir);
  const pgliteDir = join(config.dataDir, "pglite");
  if (holdsDatabase(pgliteDir)) return null;
  const { imageFingerprint } = await import("./image-key");
  const key = imageFingerprint(SNAPSHOT_VERSION);
  onCopying();
  const t0 = performance.now();
  if (!(await restoreImage(config.imageCacheDir, key, pgliteDir))) return key;
  logger.info("seeded database image copied", { image: key, ms: Math.round(performance.now() - t0) });
  return null;
}

/** Copies the image named `key` to `pgliteDir` (which must not hold a database); false when there is none. */
export async function restoreImage(cacheDir: string, key: string, pgliteDir: string): Promise<boolean> {
  const src = imageDir(cacheDir, key);
  if (!holdsDatabase(src)) return false;
  const tmp = `${pgliteDir}.restoring-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await cp(src, tmp, { recursive: true });
  await rm(pgliteDir, { recursive: true, force: true });
  renameSync(tmp, pgliteDir);
  return true;
}

/**
 * Keeps a copy of the database directory `pgliteDir`, which may be in use, as the image `key`, and drops older
 * images. `still(fn)` runs `fn` while the database is held still (see the file comment). Returns
 * false when an image of that name is kept already.
 */
export async function saveImage(
  cacheDir: string,
  key: string,
  pgliteDir: string,
  still: (fn: () => Promise<void>) => Promise<void> = (fn) => fn(),
): Promise<boolean> {
  mkdirSync(cacheDir, { recursive: true });
  const dst = imageDir(cacheDir, key);
  if (holdsDatabase(dst)) return false;
  const tmp = `${dst}.saving-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  const since = Date.now() - MTIME_MARGIN_MS;
  await cp(pgliteDir, tmp, { recursive: true });
  await still(() => copyChangedSince(pgliteDir, tmp, since));
  // The lock of the process that had it open is no part of the database.
  rmSync(join(tmp, "postmaster.pid"), { force: true });
  try {
    renameSync(tmp, dst);
  } catch {
    // Another process kept the same image meanwhile: theirs is as good.
    rmSync(tmp, { recursive: true, force: true });
  }
  pruneImages(cacheDir, dst);
  return true;
}

/** Makes `copy` the same as `src` again, given that files of `src` last changed before `since` are copied already. */
async function copyChangedSince(src: string, copy: string, since: number): Promise<void> {
  const seen = new Set<string>();
  const visit = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      const rel = relative(src, p);
      seen.add(rel);
      if (entry.isDirectory()) {
        await mkdir(join(copy, rel), { recursive: true });
        await visit(p);
      } else if (entry.isFile()) {
        const st = await stat(p);
        const target = join(copy, rel);
        const held = await stat(target).catch(() => null);
        if (!held || st.mtimeMs >= since || held.size !== st.size) {
          await mkdir(dirname(target), { recursive: true });
          await copyFile(p, target);
        }
      }
    }
  };
  await visit(src);
  // What the database removed since (recycled WAL segments, dropped relations) goes from the copy too.
  const prune = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      const rel = relative(copy, p);
      if (!seen.has(rel)) await rm(p, { recursive: true, force: true });
      else if (entry.isDirectory()) await prune(p);
    }
  };
  await prune(copy);
}

function pruneImages(cacheDir: string, keep: string): void {
  const images = readdirSync(cacheDir)
    .filter((n) => n.startsWith("pglite-") && !n.includes("."))
    .map((n) => ({ path: join(cacheDir, n), mtime: statSync(join(cacheDir, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of images.slice(KEEP_IMAGES))
    if (old.path !== keep) rmSync(old.path, { recursive: true, force: true });
}
