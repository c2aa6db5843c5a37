// The embedded database on a thread of its own (src/startup/database-thread.ts holds the PGlite instance): the server's
// thread talks to it through RemotePglite, which answers what drizzle, the bulk loader and the job engine ask of a
// PGlite (query, exec, transaction, listen) by messages to that thread (db/pglite-host.ts answers them). PGlite runs
// every statement in WebAssembly on the thread that calls it; here that is the database's thread, so a long statement
// (a seed's COPY, a detection's scan) never holds the thread that answers requests.
//
// Each call is one message and one answer. Values are parsed on the database's thread with PGlite's own parsers,
// except those a caller overrides (drizzle keeps dates and timestamps as text): those come back as PGlite's text and
// the caller's parser is applied here. A transaction holds the database for this thread's statements until it ends,
// as PGlite's own transaction() does.
import { AsyncLocalStorage } from "node:async_hooks";
import type { QueryOptions, Results, Transaction } from "@electric-sql/pglite";

/**
 * A statement or control message to the database's thread; `tx`: inside that transaction. `lane: "background"`:
 * work no request waits for (jobs, admin commands, the first start's detection), run when no request's statement
 * waits (db/pglite-host.ts).
 */
export type PgRequest = (
  | { op: "query"; id: number; sql: string; params: unknown[]; options: WireOptions; tx?: number }
  | { op: "exec"; id: number; sql: string; options: WireOptions; tx?: number }
  | { op: "begin"; id: number; tx: number }
  | { op: "end"; id: number; tx: number; commit: boolean }
  | { op: "listen"; id: number; channel: string; listener: number }
  | { op: "unlisten"; id: number; listener: number }
) & { lane?: Lane };
/** Which of the database thread's queues a statement waits in: a request's (the default) or background work's. */
export type Lane = "background";
/** QueryOptions without functions: `raw` lists the type OIDs whose values come back as text (the caller parses them). */
export type WireOptions = { rowMode?: "array" | "object"; paramTypes?: number[]; blob?: Blob; raw?: number[] };
export type PgReply = { id: number; ok: true; result?: unknown } | { id: number; ok: false; error: WireError };
export type PgNotification = { listener: number; payload: string };
type PgRequestWithoutId = PgRequest extends infer R ? (R extends PgRequest ? Omit<R, "id"> : never) : never;
/** A PGlite error's fields (code, detail, ...) as plain data. */
export type WireError = { message: string; [field: string]: unknown };

/** What a message port to the database's thread must offer (a Worker, or the thread's side in tests). */
export type PgPort = { post(message: { pg: PgRequest }): void };

/** A PGlite-shaped client whose statements run on the database's thread. */
export class RemotePglite {
  private next = 1;
  // Bounded: the statements in flight (each removed when its answer arrives) and the LISTENs open (removed by unlisten).
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private closedWith: Error | null = null;
  // Which calls are background work: those made inside background(fn) (an async context of this client's own).
  private readonly backgroundWork = new AsyncLocalStorage<true>();

  /** `lane`: every statement of this client is background work (a thread that only runs jobs). */
  constructor(
    private readonly port: PgPort,
    private readonly opts: { lane?: Lane } = {},
  ) {}

  /** Runs `fn` with this client's statements made meanwhile (in its async context) marked as background work. */
  background<T>(fn: () => Promise<T>): Promise<T> {
    return this.backgroundWork.run(true, fn);
  }

  /** An answer from the database's thread. */
  reply(m: PgReply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(Object.assign(new Error(m.error.message), m.error));
  }

  notify(n: PgNotification): void {
    this.listeners.get(n.listener)?.(n.payload);
  }

  /** The database's thread is gone: every call waiting, and every later one, fails with `error`. */
  fail(error: Error): void {
    this.closedWith = error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  private call<T>(request: PgRequestWithoutId): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.next++;
    const lane = this.opts.lane ?? (this.backgroundWork.getStore() ? "background" : undefined);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.post({ pg: (lane ? { ...request, id, lane } : { ...request, id }) as PgRequest });
    });
  }

  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    const result = await this.call<Results<T>>({ op: "query", sql, params, options: wireOptions(options), tx });
    return parseRaw(result, options);
  }

  async exec(sql: string, options?: QueryOptions, tx?: number): Promise<Array<Results>> {
    const results = await this.call<Results[]>({ op: "exec", sql, options: wireOptions(options), tx });
    return results.map((r) => parseRaw(r, options));
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = this.next++;
    await this.call({ op: "begin", tx: id });
    let closed = false;
    const end = async (commit: boolean) => {
      if (closed) return;
      closed = true;
      await this.call({ op: "end", tx: id, commit });
    };
    const open = () => {
      if (closed) throw new Error("Transaction is closed");
    };
    const tx: Transaction = {
      query: (sql, params, options) => (open(), this.query(sql, params, options, id)),
      exec: (sql, options) => (open(), this.exec(sql, options, id)),
      sql: () => Promise.reject(new Error("sql`` is not supported on the database thread's client")),
      rollback: () => end(false),
      listen: (channel, callback) => this.listen(channel, callback),
      get closed() {
        return closed;
      },
    };
    try {
      const result = await fn(tx);
      await end(true);
      return result;
    } catch (e) {
      await end(false).catch(() => {});
      throw e;
    }
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = this.next++;
    this.listeners.set(listener, callback);
    await this.call({ op: "listen", channel, listener });
    return async () => {
      this.listeners.delete(listener);
      await this.call({ op: "unlisten", listener });
    };
  }
}

/**
 * Runs `fn` with the statements it makes on `database` marked as background work, where that database is the embedded
 * one on its own thread (elsewhere there is no queue to give way in: PostgreSQL runs statements side by side).
 */
export function inBackground<T>(
  database: { raw: { kind: string; client?: unknown } },
  fn: () => Promise<T>,
): Promise<T> {
  const client = database.raw.client;
  return client instanceof RemotePglite ? client.background(fn) : fn();
}

function wireOptions(options: QueryOptions | undefined): WireOptions {
  if (!options) return {};
  if (options.serializers) throw new Error("custom serializers are not supported on the database thread's client");
  const raw = options.parsers ? Object.keys(options.parsers).map(Number) : undefined;
  return { rowMode: options.rowMode, paramTypes: options.paramTypes, blob: options.blob, raw };
}

/** Applies the caller's own parsers to the values the database's thread left as text. */
function parseRaw<T>(result: Results<T>, options: QueryOptions | undefined): Results<T> {
  const parsers = options?.parsers;
  if (!parsers || result.rows.length === 0) return result;
  const columns = result.fields
    .map((f, k) => ({ k, name: f.name, parse: parsers[f.dataTypeID], type: f.dataTypeID }))
    .filter((c) => c.parse);
  if (columns.length === 0) return result;
  const arrays = options?.rowMode === "array";
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const c of columns) {
      const key = arrays ? c.k : c.name;
      const v = row[key];
      if (v !== null && v !== undefined)
        row[key] = (c.parse as (value: string, type: number) => unknown)(v as string, c.type);
    }
  }
  return result;
}
