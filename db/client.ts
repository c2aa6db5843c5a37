// Opens the database: postgres.js when DATABASE_URL is a postgres URL, the embedded PGlite
// (same schema, same SQL) otherwise. Migrations are applied on open.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgDatabase } from "drizzle-orm/pg-core";
import postgres from "postgres";
// Embedded so that `bun build --compile` carries PGlite's runtime (see shared/research/stack.md §3).
import pgliteWasmPath from "@electric-sql/pglite/pglite.wasm" with { type: "file" };
import initdbWasmPath from "@electric-sql/pglite/initdb.wasm" with { type: "file" };
import pgliteDataPath from "@electric-sql/pglite/pglite.data" with { type: "file" };
import { bundledMigrations } from "./migrations.macro" with { type: "macro" };
import * as schema from "./schema";
import { pidAlive } from "./process-alive";

export type Schema = typeof schema;
export type Db = PgDatabase<any, Schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** The driver under drizzle, for what drizzle cannot say: COPY (db/bulk-load.ts). */
  raw: { kind: "postgres"; sql: postgres.Sql } | { kind: "pglite"; client: PGlite };
  /** Raw SQL for maintenance statements (ANALYZE, health probes). */
  exec(sql: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * How the job engine (pg-boss, src/jobs/boss.ts) reaches this database: through the embedded PGlite itself (its one
   * connection), or by the PostgreSQL URL with a small pool of its own.
   */
  connection: { kind: "pglite"; client: PGlite } | { kind: "postgres"; url: string };
};

export type OpenOptions =
  | { url: string; poolSize?: number }
  | { dataDir: string | null; loadDataDir?: Blob; lock?: boolean };

let pgliteModules: Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module }> | null = null;
function loadPgliteModules() {
  pgliteModules ??= (async () => ({
    pgliteWasmModule: await WebAssembly.compile(await Bun.file(pgliteWasmPath).arrayBuffer()),
    initdbWasmModule: await WebAssembly.compile(await Bun.file(initdbWasmPath).arrayBuffer()),
  }))();
  return pgliteModules;
}

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(
      `the embedded database in ${dataDir} is in use by process ${pid} (probably the running server). ` +
        `PGlite allows one process at a time: stop that process first, or point DATABASE_URL at PostgreSQL.`,
    );
  }
}

/**
 * One process at a time may hold an embedded data directory. The lock file is created atomically
 * (O_EXCL), so two processes starting at the same instant cannot both get in; a stale lock (its pid
 * is dead) is removed and taken over.
 */
function acquireLock(dir: string): () => void {
  const file = join(dir, "pglite.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file);
        } catch {}
      };
    } catch (e: any) {
      if (e?.code !== "EEXIST") throw e;
      let pid = 0;
      try {
        pid = Number(readFileSync(file, "utf8").trim());
      } catch {}
      if (pid && pid !== process.pid && pidAlive(pid)) throw new DataDirLockedError(dir, pid);
      // Stale (dead pid, our own pid from an earlier run, or a half-written file): remove and retry.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the lock ${file}`);
}

export async function migrate(db: Db): Promise<void> {
  // What drizzle's migrate() does internally, fed with migrations inlined at bundle time.
  await (db as any).dialect.migrate(bundledMigrations(), (db as any).session, {});
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if ("url" in opts) {
    const client = postgres(opts.url, { max: opts.poolSize ?? 10, onnotice: () => {} });
    const db = drizzlePostgres({ client, schema }) as unknown as Db;
    await migrate(db);
    return {
      db,
      kind: "postgres",
      raw: { kind: "postgres", sql: client },
      exec: async (sql) => void (await client.unsafe(sql)),
      ping: async () => {
        try {
          await client`select 1`;
          return true;
        } catch {
          return false;
        }
      },
      close: () => client.end({ timeout: 5 }),
      connection: { kind: "postgres", url: opts.url },
    };
  }
  let release = () => {};
  let dataDir: string | undefined;
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    if (opts.lock !== false) release = acquireLock(opts.dataDir);
    dataDir = join(opts.dataDir, "pglite");
    mkdirSync(dataDir, { recursive: true });
  }
  try {
    const client = new PGlite({
      dataDir,
      ...(await loadPgliteModules()),
      fsBundle: Bun.file(pgliteDataPath),
      loadDataDir: opts.loadDataDir,
    });
    await client.waitReady;
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    await migrate(db);
    let closed = false;
    return {
      db,
      kind: "pglite",
      raw: { kind: "pglite", client },
      exec: async (sql) => void (await client.exec(sql)),
      ping: async () => {
        if (closed) return false;
        try {
          await client.query("select 1");
          return true;
        } catch {
          return false;
        }
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await client.close();
        release();
      },
      connection: { kind: "pglite", client },
      // Used by tests to snapshot a seeded database once and load it per test file.
      ...({ dump: () => client.dumpDataDir("none") } as {}),
    };
  } catch (e) {
    release();
    throw e;
  }
}
