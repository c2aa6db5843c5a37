// Where a running server's administrative interface listens and the secret it accepts: DATA_DIR/admin.json, readable
// by the server's user only (0600). The interface listens on loopback only, never on the public port; whoever can read
// this file may run administrative commands, as whoever can read the data directory could already read the database.
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export type AdminEndpoint = { pid: number; port: number; token: string };

export const ADMIN_FILE = "admin.json";

/** How often a running server writes its endpoint file again when it is gone (the CLI's message says so). */
export const ADMIN_FILE_CHECK_MS = 5_000;

export function adminFilePath(dataDir: string): string {
  return join(resolve(dataDir), ADMIN_FILE);
}

/** Written whole or not at all (a reader never sees half a file), created 0600. */
export function writeAdminEndpoint(dataDir: string, endpoint: AdminEndpoint): void {
  const file = adminFilePath(dataDir);
  const tmp = `${file}.${endpoint.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(endpoint), { mode: 0o600 });
  // The mode given at creation is narrowed by the umask, never widened; an old file of the same name is replaced.
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** The endpoint file, or null when there is none; a file this user cannot read is an error the caller reports. */
export function readAdminEndpoint(dataDir: string): AdminEndpoint | null {
  let text: string;
  try {
    text = readFileSync(adminFilePath(dataDir), "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return null;
    throw e;
  }
  try {
    const v = JSON.parse(text) as Partial<AdminEndpoint>;
    return Number.isInteger(v.pid) && Number.isInteger(v.port) && typeof v.token === "string"
      ? (v as AdminEndpoint)
      : null;
  } catch {
    return null;
  }
}

/** Removes the file if it is still this process's (a newer server may have replaced it). */
export function removeAdminEndpoint(dataDir: string, pid: number): void {
  if (readAdminEndpoint(dataDir)?.pid === pid) rmSync(adminFilePath(dataDir), { force: true });
}
