// DATA_DIR must be a directory this process can write (the usage journal, the embedded database, generated payment
// secrets live there). Checked once at start, so a wrong one stops the process with one line that names the path and
// the fix, instead of a raw EACCES or ENOTDIR stack trace from whichever module touches it first.
// Its contents are for this process's user only (PGlite left 968 files mode 0666, pg_hba.conf among them;
// journal files were 0644): DATA_DIR is made 0700 and every file in it 0600 at start, and again once the embedded
// database has created its files (PGlite sets 0666 whatever the umask; the 0700 directory is what keeps a file it
// creates later unreadable to others).
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ConfigError } from "./config";
import type { Logger } from "./logger";

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
  if (st.mode & 0o1000)
    throw new ConfigError(
      `DATA_DIR ${dataDir} is a shared directory (sticky bit, like /tmp): point DATA_DIR at a directory of its own.`,
    );
}

/** What restrictDataDir changed: entries someone loosened (paths under DATA_DIR), and the embedded engine's new files. */
export type Restricted = { loosened: string[]; engineFiles: number };

/** Where the embedded database keeps its files under DATA_DIR (db/client.ts). */
const ENGINE_DIR = "pglite";

/**
 * Takes group and other permissions off DATA_DIR and everything under it (directories 0700, files 0600; symbolic
 * links are not followed). The embedded engine creates its files 0666 whatever the umask: a file under its directory
 * with exactly that mode is counted as its own (engineFiles), anything else as loosened by someone (its path, relative
 * to DATA_DIR), which the caller warns about.
 */
export function restrictDataDir(dataDir: string): Restricted {
  const root = resolve(dataDir);
  const engine = join(root, ENGINE_DIR);
  const out: Restricted = { loosened: [], engineFiles: 0 };
  const visit = (path: string) => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // removed while we looked (the engine's temporary files)
    }
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) {
      try {
        chmodSync(path, st.isDirectory() ? 0o700 : 0o600);
      } catch {
        return;
      }
      if (st.isFile() && (st.mode & 0o777) === 0o666 && path.startsWith(`${engine}/`)) out.engineFiles++;
      else out.loosened.push(relative(root, path) || ".");
    }
    if (st.isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name));
  };
  visit(root);
  return out;
}

/** How often a running server checks DATA_DIR's modes again (a chmod while it runs is noticed within this). */
export const DATA_DIR_CHECK_MS = 60_000;

/**
 * Checks DATA_DIR's modes every DATA_DIR_CHECK_MS while the process runs: what someone loosened is tightened again and
 * named in a warning (at most 20 paths), the engine's new files quietly. The timer keeps no process alive.
 */
export function watchDataDirModes(dataDir: string, logger: Logger, everyMs = DATA_DIR_CHECK_MS): { stop(): void } {
  const timer = setInterval(() => warnIfLoosened(restrictDataDir(dataDir), logger, "while running"), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Warns when `r` tightened anything someone loosened; `when`: at start, while running. */
export function warnIfLoosened(r: Restricted, logger: Logger | undefined, when: string): void {
  if (r.loosened.length === 0) return;
  logger?.warn(`DATA_DIR had entries readable or writable by other users (noticed ${when}): now for this user only`, {
    entries: r.loosened.length,
    paths: r.loosened.slice(0, 20),
  });
}

function dataDirProblem(dataDir: string, abs: string, e: unknown): string {
  const code = (e as { code?: string } | null)?.code;
  const name = `DATA_DIR ${dataDir}${abs !== dataDir ? ` (${abs})` : ""}`;
  if (code === "ENOTDIR" || code === "EEXIST") {
    const file = regularFileOnPath(abs);
    if (file === abs) return `${name} is a regular file, not a directory: point DATA_DIR at a directory.`;
    if (file)
      return `${name} is under ${file}, which is a regular file, not a directory: point DATA_DIR at a directory.`;
  }
  if (code === "EACCES" || code === "EPERM") {
    const uid = process.getuid?.();
    return `${name} is not writable by this process${uid === undefined ? "" : ` (uid ${uid})`}: give that user write access to it (chown or chmod), or point DATA_DIR at a writable directory.`;
  }
  if (code === "EROFS") return `${name} is on a read-only file system: point DATA_DIR at a writable directory.`;
  if (code === "ENOSPC" || code === "EDQUOT")
    return `${name}: no space left on the device (or quota reached): free some space, or point DATA_DIR at another disk.`;
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
