// The files under DATA_DIR are for the server's user only. Before: the embedded database's 968 files
// were mode 0666 (pg_hba.conf and postgresql.auto.conf among them) and the usage journal's 0644. Now DATA_DIR is
// 0700 and every file 0600, checked and fixed at start and once the embedded database has made its files; a shared
// directory (sticky bit, like /tmp) is refused rather than locked. A chmod while the server runs is noticed within a
// minute, and the embedded start names what it tightens instead of doing it silently.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openConfiguredDatabase } from "../../src/configured-database";
import { loadConfig } from "../../src/config";
import { ensureDataDir, restrictDataDir, watchDataDirModes } from "../../src/data-dir";
import type { Logger } from "../../src/logger";
import { openUsageJournal } from "../../src/services/usage-journal";

setDefaultTimeout(60_000);

const base = mkdtempSync(join(tmpdir(), "svc-modes-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const mode = (p: string) => statSync(p).mode & 0o777;
/** Every path under `dir` (itself included) whose mode lets group or others in, with its mode in octal. */
function open(dir: string): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    if (mode(p) & 0o077) out.push(`${p} ${mode(p).toString(8)}`);
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) visit(join(p, n));
  };
  visit(dir);
  return out;
}

describe("DATA_DIR modes", () => {
  test("restrictDataDir: directories 0700, files 0600, and it says which it changed", () => {
    const dir = join(base, "loose");
    mkdirSync(join(dir, "sub"), { recursive: true });
    writeFileSync(join(dir, "a"), "x");
    writeFileSync(join(dir, "sub", "b"), "x");
    writeFileSync(join(dir, "c"), "x");
    chmodSync(dir, 0o777);
    chmodSync(join(dir, "sub"), 0o755);
    chmodSync(join(dir, "a"), 0o666);
    chmodSync(join(dir, "sub", "b"), 0o644);
    chmodSync(join(dir, "c"), 0o600);
    // The embedded engine's new files (0666 under pglite/) are its own; anything else was loosened by someone.
    mkdirSync(join(dir, "pglite"));
    writeFileSync(join(dir, "pglite", "16384"), "x");
    chmodSync(join(dir, "pglite", "16384"), 0o666);
    chmodSync(join(dir, "pglite"), 0o700);
    expect(restrictDataDir(dir)).toEqual({ loosened: [".", "a", "sub", "sub/b"], engineFiles: 1 });
    expect([mode(dir), mode(join(dir, "sub")), mode(join(dir, "a")), mode(join(dir, "sub", "b")), mode(join(dir, "c")), mode(join(dir, "pglite", "16384"))]).toEqual([0o700, 0o700, 0o600, 0o600, 0o600, 0o600]);
    // Nothing left to change.
    expect(restrictDataDir(dir)).toEqual({ loosened: [], engineFiles: 0 });
  });

  test("while running: a chmod is noticed at the next check, undone, and named in a warning", async () => {
    const dir = join(base, "running");
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, "journal"), "x", { mode: 0o600 });
    const warnings: { msg: string; fields: Record<string, unknown> }[] = [];
    const logger = { warn: (msg: string, fields: Record<string, unknown>) => warnings.push({ msg, fields }) } as unknown as Logger;
    const watch = watchDataDirModes(dir, logger, 20);
    try {
      await Bun.sleep(60);
      expect(warnings).toEqual([]);
      chmodSync(join(dir, "journal"), 0o644);
      for (let i = 0; i < 50 && warnings.length === 0; i++) await Bun.sleep(20);
      expect(mode(join(dir, "journal"))).toBe(0o600);
      expect(warnings).toEqual([{ msg: "DATA_DIR had entries readable or writable by other users (noticed while running): now for this user only", fields: { entries: 1, paths: ["journal"] } }]);
    } finally {
      watch.stop();
    }
  });

  test("the embedded database, opened as the server opens it: nothing under DATA_DIR open to group or others; a later start warns of what was loosened since, not of the engine's own files", async () => {
    const dir = join(base, "pglite");
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent" });
    const warnings: { msg: string; fields: Record<string, unknown> }[] = [];
    const logger = { warn: (msg: string, fields: Record<string, unknown>) => warnings.push({ msg, fields }), info() {}, error() {}, debug() {} } as unknown as Logger;
    let database = await openConfiguredDatabase(config, { logger });
    try {
      expect(open(dir)).toEqual([]);
      // PGlite's configuration files among them.
      const conf = readdirSync(join(dir, "pglite")).filter((n) => n.endsWith(".conf"));
      expect(conf).toContain("pg_hba.conf");
      for (const n of conf) expect(mode(join(dir, "pglite", n))).toBe(0o600);
    } finally {
      await database.close();
    }
    expect(warnings).toEqual([]);
    chmodSync(join(dir, "pglite", "pg_hba.conf"), 0o644);
    database = await openConfiguredDatabase(config, { logger });
    await database.close();
    expect(warnings).toEqual([{ msg: "DATA_DIR had entries readable or writable by other users (noticed at start): now for this user only", fields: { entries: 1, paths: ["pglite/pg_hba.conf"] } }]);
    expect(open(dir)).toEqual([]);
  });

  test("usage journal files are 0600 in a 0700 directory", () => {
    const dir = join(base, "journal");
    const j = openUsageJournal(dir);
    j.record("k1", "2026-11");
    j.seal();
    j.record("k1", "2026-11");
    try {
      expect(mode(dir)).toBe(0o700);
      const files = readdirSync(dir);
      expect(files.length).toBeGreaterThanOrEqual(2);
      for (const f of files) expect({ f, mode: mode(join(dir, f)) }).toEqual({ f, mode: 0o600 });
    } finally {
      j.close();
    }
  });

  test("a shared directory (sticky bit) is refused with one line, not locked to this user", () => {
    const dir = join(base, "shared");
    mkdirSync(dir);
    chmodSync(dir, 0o1777);
    expect(() => ensureDataDir(dir)).toThrow(`DATA_DIR ${dir} is a shared directory (sticky bit, like /tmp): point DATA_DIR at a directory of its own.`);
    expect(mode(dir)).toBe(0o777);
  });
});
