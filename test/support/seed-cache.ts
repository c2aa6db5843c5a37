// Seeded embedded databases shared between test files and between runs: a seed is built once, dumped (PGlite's
// data-directory tarball) and every caller loads its own copy of that dump, which takes a second where seeding takes
// a minute. A dump is kept per process and on disk in IMAGE_CACHE_DIR/test-dumps (as the server keeps its image,
// src/startup/image.ts), named by a fingerprint of what builds it: the installed PGlite, the service's source and data
// files (the image fingerprint), this file and the caller's description of its seed. Any change there names a new
// dump; a dump is written under a temporary name and renamed into place, so a half-written one is never read.
// Test files running side by side (`bun test --parallel`) seed a missing dump once: the first takes a lock file
// beside it, the others wait for the dump (or for a lock whose process is gone).
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { INSTALLED_PGLITE } from "../../db/blank-cluster";
import { openDatabase, type Database } from "../../db/client";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import { loadConfig } from "../../src/config";
import { imageFingerprint } from "../../src/startup/image-key";

/**
 * Dumps beyond the newest few are removed when a new one is written (a few hundred MB each), unless used within the
 * last hours: another run on this machine (other code, so other dumps) may still be loading them.
 */
const KEEP_DUMPS = 4;
const IN_USE_MS = 3 * 3600_000;
const memo = new Map<string, Promise<Blob>>();

function cacheDir(): string | null {
  const dir = loadConfig({ ...process.env, NODE_ENV: "test" }).imageCacheDir;
  return dir ? join(dir, "test-dumps") : null;
}

/** The name of a seed: what it is called and a fingerprint of everything that builds it. */
export function dumpKey(name: string, describe: string): string {
  const hash = createHash("sha256");
  for (const part of [
    INSTALLED_PGLITE,
    imageFingerprint(SNAPSHOT_VERSION),
    readFileSync(import.meta.path, "utf8"),
    describe,
  ])
    hash.update(`${part}\n`);
  return `${name}-${hash.digest("hex").slice(0, 24)}`;
}

function keep(dir: string, key: string, bytes: Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `${key}.tar.writing-${process.pid}`);
  writeFileSync(tmp, bytes);
  renameSync(tmp, join(dir, `${key}.tar`));
  const dumps = readdirSync(dir)
    .filter((f) => f.endsWith(".tar"))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }));
  for (const { f, at } of dumps.sort((a, b) => b.at - a.at).slice(KEEP_DUMPS))
    if (Date.now() - at > IN_USE_MS) rmSync(join(dir, f), { force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `build` unless `done()` becomes true first, one process at a time per `lockFile` (created exclusively, holding
 * its owner's pid; a lock left by a process that is gone is taken over).
 */
export async function onceAcrossProcesses(
  lockFile: string,
  done: () => boolean,
  build: () => Promise<void>,
): Promise<void> {
  for (;;) {
    if (done()) return;
    let fd: number | null = null;
    try {
      fd = openSync(lockFile, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    if (fd !== null) {
      try {
        writeFileSync(fd, String(process.pid));
        closeSync(fd);
        if (!done()) await build();
      } finally {
        rmSync(lockFile, { force: true });
      }
      return;
    }
    let owner = 0;
    try {
      owner = Number(readFileSync(lockFile, "utf8").trim() || "0");
    } catch {
      continue; // released meanwhile
    }
    if (owner && !processAlive(owner)) rmSync(lockFile, { force: true });
    else await Bun.sleep(250);
  }
}

/**
 * The dump of the database `seed` builds on an empty embedded database; `describe` names everything about the seed
 * that is not in the service's files (its options, its clock), so a different seed never reads this one's dump.
 */
export function seededDump(name: string, describe: string, seed: (db: Database) => Promise<void>): Promise<Blob> {
  const key = dumpKey(name, describe);
  let dump = memo.get(key);
  if (!dump) {
    dump = (async () => {
      const dir = cacheDir();
      const file = dir && join(dir, `${key}.tar`);
      const build = async (): Promise<Blob> => {
        const db = await openDatabase({ dataDir: null });
        await seed(db);
        await db.exec("ANALYZE");
        const blob: Blob = await (db as any).dump();
        await db.close();
        return blob;
      };
      if (!dir || !file) return build();
      let built: Blob | null = null;
      try {
        mkdirSync(dir, { recursive: true });
      } catch {
        return build(); // A cache that cannot be written only costs this run its seed.
      }
      await onceAcrossProcesses(
        `${file}.lock`,
        () => existsSync(file),
        async () => {
          built = await build();
          try {
            keep(dir, key, new Uint8Array(await built.arrayBuffer()));
          } catch {
            // As above: the next run seeds again.
          }
        },
      );
      if (existsSync(file)) {
        // The file itself (read when a database is loaded from it), not its bytes held for the rest of the run.
        const now = new Date();
        utimesSync(file, now, now);
        return Bun.file(file);
      }
      return built ?? build();
    })();
    memo.set(key, dump);
  }
  return dump;
}

/** An embedded database of its own, loaded from `dump`. Close it when done. */
export async function databaseFromDump(dump: Promise<Blob>): Promise<Database> {
  return openDatabase({ dataDir: null, loadDataDir: await dump });
}
