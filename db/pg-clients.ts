// The postgres.js clients of one PostgreSQL database besides its pool (db/client.ts): the options they share
// (connections through the gate of db/pg-faults.ts, timeouts), a session of its own holding an advisory lock, and
// LISTEN/NOTIFY on a listener connection that listens again after it drops.
import postgres from "postgres";
import type { connectionGate, GateLog } from "./pg-faults";

/** Opening a PostgreSQL database (db/client.ts's OpenOptions by URL). */
export type PgOptions = {
  url: string;
  poolSize?: number;
  /** Connecting (TCP and startup) may take this long before the attempt fails; default 2 s. */
  connectTimeoutMs?: number;
  /** The server cancels a statement running longer (statement_timeout); 0 or unset: no limit. */
  statementTimeoutMs?: number;
  /** Told when the server stops and starts answering (once per change). */
  log?: GateLog;
};

/** LISTEN/NOTIFY over a connection of its own, listening again after it drops. */
export type Notifications = {
  /**
   * Listens on `channels` under the session name `role` (so listenerCount can find it). `onState(true)` each time
   * the listener is (again) in place, `onState(false)` when its connection drops: notifications sent meanwhile are
   * lost, and the caller must assume it missed some.
   */
  listen(
    role: string,
    channels: string[],
    onNotify: (channel: string, payload: string) => void,
    onState: (listening: boolean) => void,
  ): { close(): Promise<void> };
  notify(channel: string, payload: string): Promise<void>;
  /** Sessions of this database currently listening under `role` (every process's listener). */
  listenerCount(role: string): Promise<number>;
};

export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;

/** postgres.js options shared by every client of one database: connections through the gate, timeouts. */
export function clientOptions(
  opts: PgOptions,
  gate: ReturnType<typeof connectionGate>,
  extra: { max: number; statementTimeoutMs: number; applicationName?: string; fetchTypes?: boolean },
) {
  const connection: Record<string, string | number> = { statement_timeout: extra.statementTimeoutMs };
  if (extra.applicationName) connection.application_name = extra.applicationName;
  return {
    max: extra.max,
    // postgres.js reads the array types on a new connection without handling a failure of that read: a client ended
    // while it connects would leave an unhandled rejection. The listener (closed whenever its process stops) reads
    // no arrays.
    fetch_types: extra.fetchTypes ?? true,
    onnotice: () => {},
    connect_timeout: Math.max(1, Math.ceil((opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) / 1000)),
    // The gate decides when to try the server again; postgres.js's own backoff would hold queries for seconds.
    backoff: () => 0,
    socket: gate.socket,
    connection,
  };
}

/**
 * Runs `fn` on a client of its own (one connection, no statement timeout) holding the advisory lock `name`; the
 * lock goes with the session, so a process that dies holding it releases it.
 */
export async function withAdvisoryLock<T>(
  opts: PgOptions,
  gate: ReturnType<typeof connectionGate>,
  name: string,
  fn: (client: postgres.Sql) => Promise<T>,
): Promise<T> {
  const client = postgres(opts.url, clientOptions(opts, gate, { max: 1, statementTimeoutMs: 0 }));
  try {
    await client`select pg_advisory_lock(hashtextextended(${name}, 0))`;
    try {
      return await fn(client);
    } finally {
      await client`select pg_advisory_unlock(hashtextextended(${name}, 0))`.catch(() => {});
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

export function pgNotifications(
  opts: PgOptions,
  gate: ReturnType<typeof connectionGate>,
  pool: postgres.Sql,
): Notifications {
  return {
    listen(role, channels, onNotify, onState) {
      let closed = false;
      let listening = false;
      let retry: ReturnType<typeof setTimeout> | undefined;
      const client = postgres(opts.url, {
        // Named `role` only once it listens (below): a session counted by listenerCount() is sure to get notifications.
        ...clientOptions(opts, gate, {
          max: 1,
          statementTimeoutMs: 0,
          applicationName: `${role}:starting`,
          fetchTypes: false,
        }),
        idle_timeout: undefined,
        max_lifetime: null,
        onnotify: (channel: string, payload: string) => onNotify(channel, payload),
        onclose: () => {
          // A failed connection attempt also lands here: start() schedules its own retry then.
          if (!listening) return;
          listening = false;
          onState(false);
          if (!closed) schedule(0);
        },
      } as postgres.Options<{}>);
      const start = async () => {
        if (closed || listening) return;
        try {
          for (const c of channels) await client.unsafe(`listen "${c.replace(/"/g, '""')}"`);
          await client`select set_config('application_name', ${role}, false)`;
          if (closed) return;
          listening = true;
          onState(true);
        } catch {
          schedule(500);
        }
      };
      const schedule = (ms: number) => {
        clearTimeout(retry);
        retry = setTimeout(() => void start(), ms);
        retry.unref?.();
      };
      void start();
      return {
        async close() {
          closed = true;
          clearTimeout(retry);
          await client.end({ timeout: 1 });
        },
      };
    },
    notify: async (channel, payload) => void (await pool`select pg_notify(${channel}, ${payload})`),
    async listenerCount(role) {
      const [row] =
        await pool`select count(*)::int as n from pg_stat_activity where application_name = ${role} and datname = current_database()`;
      return Number(row?.n ?? 0);
    },
  };
}
