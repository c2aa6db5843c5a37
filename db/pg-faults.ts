// What a PostgreSQL outage looks like from here, and how requests get a fast answer during one.
//
// postgres.js, left to itself, keeps a query whose connection failed and tries again after a backoff that grows with
// each failure (up to 20 s), so while the server is down requests pile up and hang. Every connection is made here
// instead (postgres.js's `socket` option), through a gate:
// - closed (the server answered last time): connect, with a timeout;
// - a connect failed: open. For RETRY_MS every new connection fails at once, without touching the network, and the
//   queries waiting on it fail with DatabaseUnavailableError (a 503 for the client);
// - then one connection attempt goes through (half-open) while the others still fail at once; when it connects the
//   gate closes, and service resumes without a restart.
import { Socket, connect } from "node:net";

/** How long the gate refuses connections after a failed attempt before it lets one try the server again. */
export const RETRY_MS = 500;

/** The database cannot be reached (or the gate is refusing connections while it is down). */
export class DatabaseUnavailableError extends Error {
  readonly code = "DATABASE_UNAVAILABLE";
}

// postgres.js's connection errors, socket errors, and SQLSTATEs that say the server is not serving (class 08
// connection exceptions are matched by prefix): shutting down, starting up, out of connections, statement timeout.
const UNAVAILABLE_CODES = new Set([
  "DATABASE_UNAVAILABLE",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "57014",
]);

/** Whether `e` (or what it wraps: drizzle puts the driver's error in `cause`) means the database is not answering. */
export function isDatabaseUnavailable(e: unknown): boolean {
  for (let x = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++) {
    if (x instanceof DatabaseUnavailableError) return true;
    const code = (x as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  }
  return false;
}

export type GateLog = {
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
};

type SocketOptions = { host: string[]; port: number[]; path?: string | false };

/**
 * A socket that fails with `error` once postgres.js has written its first message to it (not before: postgres.js
 * keeps unsent bytes across attempts, and a socket that died before they were flushed would leave them to be sent,
 * twice, on the next connection).
 */
function failedSocket(error: Error): Socket {
  const s = new Socket();
  const fail = () => {
    if (!s.destroyed) s.destroy(error);
  };
  s.write = (() => {
    setImmediate(fail);
    return true;
  }) as typeof s.write;
  setTimeout(fail, 50);
  return s;
}

function tcpConnect(o: SocketOptions, index: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = o.path
      ? connect({ path: o.path })
      : connect({ host: o.host[index % o.host.length]!, port: o.port[index % o.port.length]! });
    const timer = setTimeout(() => {
      s.destroy();
      reject(Object.assign(new Error(`no connection within ${timeoutMs} ms`), { code: "CONNECT_TIMEOUT" }));
    }, timeoutMs);
    s.once("connect", () => {
      clearTimeout(timer);
      s.removeAllListeners("error");
      resolve(s);
    });
    s.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

export function connectionGate(opts: { connectTimeoutMs: number; log?: GateLog; now?: () => number }) {
  const now = opts.now ?? (() => performance.now());
  let down: { since: number; retryAt: number; probing: boolean } | null = null;
  let attempts = 0;
  return {
    /** Whether the gate is refusing connections (the last attempt failed). */
    isDown: () => down !== null,
    /** postgres.js's `socket` option: a connected socket, or one that fails at once while the server is down. */
    async socket(o: SocketOptions): Promise<Socket> {
      if (down && (now() < down.retryAt || down.probing)) {
        return failedSocket(
          new DatabaseUnavailableError(
            `the database has not answered since ${Math.round(now() - down.since)} ms ago; retrying`,
          ),
        );
      }
      if (down) down.probing = true;
      try {
        const s = await tcpConnect(o, attempts++, opts.connectTimeoutMs);
        if (down) opts.log?.info("database answers again", { down_ms: Math.round(now() - down.since) });
        down = null;
        return s;
      } catch (e) {
        if (!down)
          opts.log?.warn("database unreachable: requests that need it are answered 503 until it answers again", {
            error: String(e),
          });
        down = { since: down?.since ?? now(), retryAt: now() + RETRY_MS, probing: false };
        return failedSocket(
          Object.assign(new DatabaseUnavailableError(`cannot connect to the database: ${String(e)}`), { cause: e }),
        );
      }
    },
  };
}
