// DATA_DIR must be a directory this process can write (the usage journal, the embedded database, generated payment
// secrets live there). Checked once at start, so a wrong one stops the process with one line that names the path and
// the fix, instead of a raw EACCES or ENOTDIR stack trace from whichever module touches it first.
// Its contents are for this process's user only (issue 28: PGlite left 968 files mode 0666, pg_hba.conf among them;
// journal files were 0644): DATA_DIR is made 0700 and every file in it 0600 at start, and again once the embedded
// database has created its files (PGlite sets 0666 whatever the umask; the 0700 directory is what keeps a file it
// creates later unreadable to others).
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "./config";

/** Creates DATA_DIR if needed and checks that a file can be created in it; throws a one-line ConfigError if not. */
export function ensureDataDir(dataDir: string): void {
  const abs = resolve(dataDir);
  try {
    mkdirSync(abs, { recursive: true, mode: 0o700 });
    // An empty file: its creation needs write permission, not free space (a full disk is handled where data is written).
    const probe = join(abs, `.write-check-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
  } catch (e) {
    throw new ConfigError(dataDirProblem(dataDir, abs, e));
  }
  const st = statSync(abs);
  // chmod 0700 on a shared directory (/tmp) would lock every other user out of it.
  if (st.mode & 0o1000) throw new ConfigError(`DATA_DIR ${dataDir} is a shared directory (sticky bit, like /tmp): point DATA_DIR at a directory of its own.`);
}

/**
 * Takes group and other permissions off DATA_DIR and everything under it (directories 0700, files 0600; symbolic
 * links are not followed). Returns how many entries it changed.
 */
export function restrictDataDir(dataDir: string): number {
  let changed = 0;
  const visit = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) {
      chmodSync(path, st.isDirectory() ? 0o700 : 0o600);
      changed++;
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(resolve(dataDir));
  return changed;
}

function dataDirProblem(dataDir: string, abs: string, e: unknown): string {
  const code = (e as { code?: string } | null)?.code;
  const name = `DATA_DIR ${dataDir}${abs !== dataDir ? ` (${abs})` : ""}`;
  if (code === "ENOTDIR" || code === "EEXIST") {
    const file = regularFileOnPath(abs);
    if (file === abs) return `${name} is a regular file, not a directory: point DATA_DIR at a directory.`;
    if (file) return `${name} is under ${file}, which is a regular file, not a directory: point DATA_DIR at a directory.`;
  }
  if (code === "EACCES" || code === "EPERM") {
    const uid = process.getuid?.();
    return `${name} is not writable by this process${uid === undefined ? "" : ` (uid ${uid})`}: give that user write access to it (chown or chmod), or point DATA_DIR at a writable directory.`;
  }
  if (code === "EROFS") return `${name} is on a read-only file system: point DATA_DIR at a writable directory.`;
  if (code === "ENOSPC" || code === "EDQUOT") return `${name}: no space left on the device (or quota reached): free some space, or point DATA_DIR at another disk.`;
  return `${name} cannot be used (${code ?? String(e)}): point DATA_DIR at a writable directory.`;
}

/** The path itself or its nearest existing ancestor, when that is a regular file; null otherwise. */
function regularFileOnPath(abs: string): string | null {
  for (let p = abs; ; p = dirname(p)) {
    try {
      return statSync(p).isFile() ? p : null;
    } catch {
      if (dirname(p) === p) return null;
    }
  }
}
