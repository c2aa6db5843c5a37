// Opens the database: postgres.js when DATABASE_URL is a postgres URL, the embedded PGlite
// (same schema, same SQL) otherwise. Migrations are applied on open.
// PostgreSQL faults (db/pg-faults.ts): connections are made through a gate with a connect timeout that fails fast
// while the server is unreachable, so a request never waits in postgres.js's reconnect backoff (up to 20 s) for a
// server that is down; the server's statement_timeout bounds a query once connected. isDatabaseUnavailable() tells
// callers which errors mean "the database is not answering" (503) rather than a fault of the request (500).
// Several processes may start at once on one empty PostgreSQL database: migrations (and the first-start seed, through
// Database.exclusive) run under a PostgreSQL advisory lock, one process at a time.
// The PostgreSQL clients besides the pool (the locked session, the listener) and their options: db/pg-clients.ts.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgDatabase } from "drizzle-orm/pg-core";
import postgres from "postgres";
// Embedded so that `bun build --compile` carries PGlite's runtime (see shared/research/stack.md §3).
import pgliteWasmPath from "@electric-sql/pglite/pglite.wasm" with { type: "file" };
import initdbWasmPath from "@electric-sql/pglite/initdb.wasm" with { type: "file" };
import pgliteDataPath from "@electric-sql/pglite/pglite.data" with { type: "file" };
import { bundledMigrations } from "./migrations.macro" with { type: "macro" };
import { PGLITE_INITDB_PARAMS, PGLITE_SHARED_BUFFERS, blankCluster } from "./blank-cluster";
import * as schema from "./schema";
import { pidAlive } from "./process-alive";
import { connectionGate } from "./pg-faults";
import {
  clientOptions,
  DEFAULT_CONNECT_TIMEOUT_MS,
  pgNotifications,
  withAdvisoryLock,
  type Notifications,
  type PgOptions,
} from "./pg-clients";
import { attachWriteEvents, WriteEvents } from "./events";
import type { RemotePglite } from "./pglite-remote";
import { once } from "./once";

export { DatabaseUnavailableError, isDatabaseUnavailable } from "./pg-faults";
export type { Notifications } from "./pg-clients";

export type Schema = typeof schema;
export type Db = PgDatabase<any, Schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** This process's committed writes through this database (db/events.ts): what in-memory readers listen to. */
  events: WriteEvents;
  /** The driver under drizzle, for what drizzle cannot say: COPY (db/bulk-load.ts). */
  raw: { kind: "postgres"; sql: postgres.Sql } | { kind: "pglite"; client: PgliteClient };
  /** Raw SQL for maintenance statements (ANALYZE, health probes). */
  exec(sql: string): Promise<void>;
  ping(): Promise<boolean>;
  /**
   * Runs `fn` while no other process runs an exclusive section of the same name on this database (PostgreSQL: a
   * session advisory lock, so several nodes starting at once seed one after the other; the embedded database has
   * one process). `fn` gets the database on the locked session, without a statement timeout (seeding is long).
   */
  exclusive<T>(name: string, fn: (locked: Database) => Promise<T>): Promise<T>;
  /** PostgreSQL only: LISTEN/NOTIFY between the processes sharing the database (null on the embedded one). */
  notifications: Notifications | null;
  close(): Promise<void>;
  /**
   * How the job engine (pg-boss, src/jobs/boss.ts) reaches this database: through the embedded PGlite itself (its one
   * connection), or by the PostgreSQL URL with a small pool of its own.
   */
  connection: { kind: "pglite"; client: PgliteClient } | { kind: "postgres"; url: string };
};

/** What is asked of the embedded database's client: PGlite itself, or its stand-in on another thread. */
export type PgliteClient = Pick<PGlite, "query" | "exec" | "transaction" | "listen"> | RemotePglite;

export type OpenOptions = PgOptions | { dataDir: string | null; loadDataDir?: Blob; lock?: boolean };

/** The advisory lock migrations run under. */
export const SCHEMA_LOCK = "svc:schema";
/**
 * The seed's (`svc seed`, a first start's work: src/startup/first-start.ts), through exclusive(): nodes starting
 * together on one empty database seed once, while each migrates and serves what is stored meanwhile.
 */
export const SEED_LOCK = "svc:seed";

/** PGlite's WebAssembly, compiled once per process and shared by every embedded database it opens. */
const loadPgliteModules = once(async () => ({
  pgliteWasmModule: await WebAssembly.compile(await Bun.file(pgliteWasmPath).arrayBuffer()),
  initdbWasmModule: await WebAssembly.compile(await Bun.file(initdbWasmPath).arrayBuffer()),
}));

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by process ${pid} (probably the running server). ` +
        `PGlite allows one process at a time: stop that process first, or point DATABASE_URL at PostgreSQL.`,
    );
  }
}

/** The live process holding the embedded data directory `dir` (its lock file), or null when none does. */
export function lockHolder(dir: string): number | null {
  let pid = 0;
  try {
    pid = Number(readFileSync(join(dir, "pglite.lock"), "utf8").trim());
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && pidAlive(pid) ? pid : null;
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
      const fd = openSync(file, "wx", 0o600);
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

/**
 * PGlite runs each statement synchronously on the calling thread and resolves its promise at once, so a chain of
 * statements (a job, the job engine's polling, a billing run) never gives the event loop a turn: requests, /api/health
 * too, waited for the whole chain. A turn of the event loop before each statement, and before each transaction (a
 * bulk load's transactions follow each other), lets them in between. On the database's thread, what waits there is
 * the server's statements (db/pglite-host.ts).
 */
class YieldingPGlite extends PGlite {
  override async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    await eventLoopTurn();
    return super.transaction(fn);
  }
  override async query<T>(query: string, params?: any[], options?: QueryOptions): Promise<Results<T>> {
    await eventLoopTurn();
    return super.query<T>(query, params, options);
  }
  override async exec(query: string, options?: QueryOptions): Promise<Array<Results>> {
    await eventLoopTurn();
    return super.exec(query, options);
  }
}
const eventLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if ("url" in opts) {
    const gate = connectionGate({
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      log: opts.log,
    });
    const client = postgres(
      opts.url,
      clientOptions(opts, gate, { max: opts.poolSize ?? 10, statementTimeoutMs: opts.statementTimeoutMs ?? 0 }),
    );
    const events = new WriteEvents();
    const db = attachWriteEvents(drizzlePostgres({ client, schema }) as unknown as Db, events);
    await withAdvisoryLock(opts, gate, SCHEMA_LOCK, (locked) =>
      migrate(drizzlePostgres({ client: locked, schema }) as unknown as Db),
    );
    const database: Database = {
      db,
      kind: "postgres",
      events,
      raw: { kind: "postgres", sql: client },
      // Maintenance (VACUUM, ANALYZE) runs as long as it takes: on a connection of its own, without the timeout.
      exec: async (sql) => {
        const c = await client.reserve();
        try {
          await c`set statement_timeout = 0`;
          await c.unsafe(sql);
        } finally {
          await c`reset statement_timeout`.catch(() => {});
          c.release();
        }
      },
      ping: async () => {
        try {
          await client`select 1`;
          return true;
        } catch {
          return false;
        }
      },
      exclusive: (name, fn) =>
        withAdvisoryLock(opts, gate, name, (locked) => {
          const lockedDatabase: Database = {
            ...database,
            db: attachWriteEvents(drizzlePostgres({ client: locked, schema }) as unknown as Db, events),
            exec: async (sql) => void (await locked.unsafe(sql)),
            // Already exclusive: a nested section runs as it is (another lock on another session could deadlock).
            exclusive: (_name, inner) => inner(lockedDatabase),
            close: async () => {},
          };
          return fn(lockedDatabase);
        }),
      notifications: pgNotifications(opts, gate, client),
      close: () => client.end({ timeout: 5 }),
      connection: { kind: "postgres", url: opts.url },
    };
    return database;
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
    const client = new YieldingPGlite({
      dataDir,
      // PostgreSQL's default 128 MB of shared buffers is most of an idle server's memory; the files the embedded
      // database reads stay in the operating system's page cache anyway. At most 64 MB of WAL kept between
      // checkpoints (default 1 GB): a seeded data directory (and its image, src/startup/image.ts) stays small.
      startParams: [
        ...PGlite.defaultStartParams,
        "-c",
        `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
        "-c",
        "max_wal_size=64MB",
        "-c",
        "min_wal_size=32MB",
      ],
      initDbStartParams: PGLITE_INITDB_PARAMS,
      ...(await loadPgliteModules()),
      fsBundle: Bun.file(pgliteDataPath),
      // A new cluster is loaded from the blank one built ahead (db/blank-cluster.ts) rather than made by initdb.
      loadDataDir:
        opts.loadDataDir ??
        (dataDir && existsSync(join(dataDir, "PG_VERSION")) ? undefined : (blankCluster() ?? undefined)),
    });
    await client.waitReady;
    const database = embeddedDatabase(client, async () => {
      await client.close();
      release();
    });
    await migrate(database.db);
    // Used by tests to snapshot a seeded database once and load it per test file.
    return Object.assign(database, { dump: () => client.dumpDataDir("none") });
  } catch (e) {
    release();
    throw e;
  }
}

/**
 * The embedded database over `client`: PGlite in this thread, or on the database's thread (db/pglite-remote.ts).
 * `close` closes the client. Not migrated here: the caller migrates what it opens.
 */
export function embeddedDatabase(client: PgliteClient, close: () => Promise<void>): Database {
  const events = new WriteEvents();
  const db = attachWriteEvents(drizzlePglite({ client: client as PGlite, schema }) as unknown as Db, events);
  let closed = false;
  const database: Database = {
    db,
    kind: "pglite",
    events,
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
    // One process holds the embedded database: nothing to wait for.
    exclusive: (_name, fn) => fn(database),
    notifications: null,
    close: async () => {
      if (closed) return;
      closed = true;
      await close();
    },
    connection: { kind: "pglite", client },
  };
  return database;
}
