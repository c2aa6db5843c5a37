// The seeded embedded database as an image: the first start on a machine builds DATA_DIR/pglite from the snapshot
// files (src/startup/seed-worker.ts) and then keeps a copy of that directory in IMAGE_CACHE_DIR; a later first start
// with the same code and data (another DATA_DIR, a test's process, a wiped data directory) copies the image instead of
// initdb, seeding, deriving and detecting again (seconds instead of a minute, and none of the seed's memory).
//
// The image is a build output, never a source: it is made only by the seed itself, never edited, never committed
// (IMAGE_CACHE_DIR sits outside the repository by default), and it is named by a fingerprint of everything that goes
// into it: the service version, the snapshot version, the migrations and — under `bun run` — the source and data
// files of src/ and db/ (a compiled binary: the binary itself). Any change there names a new image, so a stale one
// is never used. A copy is made under a temporary name and renamed into place, so a half-made copy is never used.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { cp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SERVICE_VERSION } from "../version";
// A compiled binary has no source tree to fingerprint: the binary stands for it.
import { COMPILED } from "./worker-entry";

/** Images older than the newest few are removed when a new one is kept (each is some hundred MB). */
const KEEP_IMAGES = 4;
const ROOT = resolve(import.meta.dir, "../..");

function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) hashTree(hash, p);
    else if (st.isFile()) {
      hash.update(p.slice(ROOT.length));
      hash.update(readFileSync(p));
    }
  }
}

let codeDigest: string | null = null;

/** Names the image the running code would build (see the file comment). `seedVersion`: the snapshot's version. */
export function imageFingerprint(seedVersion: string): string {
  if (!codeDigest) {
    const code = createHash("sha256");
    if (COMPILED) code.update(readFileSync(process.execPath));
    else for (const dir of ["src", "db"]) hashTree(code, join(ROOT, dir));
    codeDigest = code.digest("hex");
  }
  return createHash("sha256").update(`${SERVICE_VERSION}\n${seedVersion}\n${codeDigest}`).digest("hex").slice(0, 24);
}

/** Whether an embedded data directory holds a database already (PostgreSQL's PG_VERSION marks an initialised one). */
export function holdsDatabase(pgliteDir: string): boolean {
  return existsSync(join(pgliteDir, "PG_VERSION"));
}

const imageDir = (cacheDir: string, key: string) => join(cacheDir, `pglite-${key}`);

/** Copies the image named `key` to `pgliteDir` (which must not hold a database); false when there is none. */
export async function restoreImage(cacheDir: string, key: string, pgliteDir: string): Promise<boolean> {
  const src = imageDir(cacheDir, key);
  if (!holdsDatabase(src)) return false;
  // Copied asynchronously: the server answers meanwhile.
  const tmp = `${pgliteDir}.restoring-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await cp(src, tmp, { recursive: true });
  await rm(pgliteDir, { recursive: true, force: true });
  renameSync(tmp, pgliteDir);
  return true;
}

/** Keeps a copy of `pgliteDir` (closed, freshly seeded) as the image `key`, and drops older images. */
export async function saveImage(cacheDir: string, key: string, pgliteDir: string): Promise<void> {
  mkdirSync(cacheDir, { recursive: true });
  const dst = imageDir(cacheDir, key);
  if (holdsDatabase(dst)) return;
  const tmp = `${dst}.saving-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await cp(pgliteDir, tmp, { recursive: true });
  // The lock of the process that seeded it is no part of the database.
  rmSync(join(tmp, "postmaster.pid"), { force: true });
  try {
    renameSync(tmp, dst);
  } catch {
    // Another process kept the same image meanwhile: theirs is as good.
    rmSync(tmp, { recursive: true, force: true });
  }
  pruneImages(cacheDir, dst);
}

function pruneImages(cacheDir: string, keep: string): void {
  const images = readdirSync(cacheDir)
    .filter((n) => n.startsWith("pglite-") && !n.includes("."))
    .map((n) => ({ path: join(cacheDir, n), mtime: statSync(join(cacheDir, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of images.slice(KEEP_IMAGES)) if (old.path !== keep) rmSync(old.path, { recursive: true, force: true });
}
