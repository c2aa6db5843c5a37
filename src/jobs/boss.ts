// pg-boss over our own database (its tables live in their own schema, `pgboss`, installed and migrated by pg-boss on
// start). On the embedded database it shares PGlite's one connection through pg-boss's PGlite backend (SKIP LOCKED,
// advisory locks and LISTEN/NOTIFY all work in process; statements are serialised, so concurrency stays low). On
// PostgreSQL it runs through the executeSql adapter below, over a postgres.js pool of its own of JOBS_POOL_MAX
// connections (plus one for LISTEN), so jobs never wait on the API's pool nor the API on jobs.
import { PgBoss, fromPglite, type Db as BossDb } from "pg-boss";
import postgres from "postgres";
import type { Database } from "../../db/client";
import { errorText, type Logger } from "../logger";
import { isDatabaseUnavailable } from "../../db/pg-faults";

export type BossSettings = {
  /** Whether this instance runs jobs: then it also maintains the queues (expiry, retention) and sends due cron jobs. */
  runsJobs: boolean;
  poolMax: number;
  superviseSeconds: number;
  /** How often an idle worker polls (the cron ticks' own queue is polled as often, within pg-boss's 1 to 45 s). */
  pollSeconds: number;
};

export type OpenBoss = {
  boss: PgBoss;
  /** Lets go of what was opened for the boss (its pool on PostgreSQL; PGlite belongs to the Database). */
  release(): Promise<void>;
};

const STARTS_TRANSACTION = /^\s*BEGIN\b/i;

/**
 * pg-boss's IDatabase over postgres.js. Statements without parameters may be several (its install and maintenance
 * scripts): postgres.js runs those through the simple protocol and answers one row list per statement, which are
 * flattened so a RETURNING in the middle is not lost. A script that opens a transaction runs on a reserved
 * connection (postgres.js refuses BEGIN on a pooled one), rolled back if it fails. Errors keep postgres.js's `code`, the SQLSTATE pg-boss
 * reads to tell a lost race from a failure.
 */
export function postgresJsAdapter(sql: postgres.Sql): BossDb {
  const rowsOf = (result: unknown): unknown[] => {
    if (!Array.isArray(result)) return [];
    return result.some(Array.isArray) ? result.flatMap((r) => (Array.isArray(r) ? [...r] : [])) : [...result];
  };
  const run = (target: postgres.Sql | postgres.ReservedSql, text: string, values?: unknown[]) =>
    values?.length ? target.unsafe(text, values as postgres.ParameterOrJSON<never>[]) : target.unsafe(text);
  return {
    async executeSql(text, values) {
      if (!STARTS_TRANSACTION.test(text)) return { rows: rowsOf(await run(sql, text, values)) };
      const reserved = await sql.reserve();
      try {
        return { rows: rowsOf(await run(reserved, text, values)) };
      } catch (e) {
        // A failed statement leaves the script's transaction open and aborted: end it before the connection is reused.
        await reserved.unsafe("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        reserved.release();
      }
    },
    // postgres.js keeps a dedicated connection per listener, reconnects it and calls onListen again each time.
    async listen(channel, onNotification, onReconnect) {
      const sub = await sql.listen(channel, onNotification, onReconnect);
      return { close: async () => void (await sub.unlisten()) };
    },
  };
}

/** A pg-boss instance over `database` (not started). */
export function openBoss(database: Pick<Database, "connection">, settings: BossSettings, logger: Logger): OpenBoss {
  const common = {
    supervise: settings.runsJobs,
    schedule: settings.runsJobs,
    superviseIntervalSeconds: settings.superviseSeconds,
    monitorIntervalSeconds: settings.superviseSeconds,
    // How often due schedules are looked for (pg-boss allows 1 to 45 s; 30 by default, as JOBS_SUPERVISE_SECONDS is).
    // Every instance that runs jobs takes part; pg-boss sends each occurrence once whichever passes see it.
    cronMonitorIntervalSeconds: Math.min(45, settings.superviseSeconds),
    cronWorkerIntervalSeconds: Math.min(45, Math.max(1, settings.pollSeconds)),
    // A new job wakes a waiting worker at once instead of at its next poll (a process without workers needs no listener).
    useListenNotify: settings.runsJobs,
    // The instance registry and OpenTelemetry cost a write per heartbeat and nothing we read.
    registerInstance: false,
    openTelemetry: { enabled: false },
  };
  let boss: PgBoss;
  let release = async () => {};
  const c = database.connection;
  if (c.kind === "pglite") {
    boss = new PgBoss({ ...common, db: fromPglite(c.client), backend: "pglite" });
  } else {
    const sql = postgres(c.url, {
      max: settings.poolMax,
      onnotice: () => {},
      idle_timeout: 60,
      connection: { application_name: "svc-jobs" },
    });
    boss = new PgBoss({ ...common, db: postgresJsAdapter(sql), backend: "postgres" });
    release = () => sql.end({ timeout: 5 });
  }
  // pg-boss reports failures of its own loops (maintenance, polling) as events: without a listener they would throw.
  // Its errors are often plain objects (an Error's fields spread, with the queue and worker added). While the database
  // is unavailable they are expected (the engine retries once it is back): a warning, not an error.
  boss.on("error", (e) => {
    const fields = { error: errorText(e), queue: (e as { queue?: unknown })?.queue };
    if (isDatabaseUnavailable(e)) logger.warn("job engine: the database is unavailable", fields);
    else logger.error("job engine error", fields);
  });
  boss.on("warning", (w) => logger.warn("job engine warning", { message: w.message }));
  return { boss, release };
}
