// The database thread's side of db/pglite-remote.ts: runs the server thread's statements on the PGlite instance this
// thread holds, beside this thread's own work (the first start's seed), one statement or transaction at a time
// (PGlite's own locks order them).
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { PgNotification, PgReply, PgRequest, WireError, WireOptions } from "./pglite-remote";

type Target = Pick<PGlite, "query" | "exec"> | Transaction;
const asText = (value: string) => value;

function options(o: WireOptions) {
  const parsers = o.raw?.length ? Object.fromEntries(o.raw.map((oid) => [oid, asText])) : undefined;
  return { rowMode: o.rowMode, paramTypes: o.paramTypes, blob: o.blob, parsers };
}

function wireError(e: unknown): WireError {
  if (!(e instanceof Error)) return { message: String(e) };
  const fields: WireError = { message: e.message };
  // Plain values only (a query's parameters may hold anything): what callers read is the SQLSTATE and the detail.
  for (const [k, v] of Object.entries(e)) if (v === null || ["string", "number", "boolean"].includes(typeof v)) fields[k] = v;
  return fields;
}

export type PgliteHost = {
  /** Answers one request (in the order requests come, as PGlite's locks take them). */
  handle(request: PgRequest): void;
  /**
   * Holds new requests (a transaction under way finishes) and resolves once nothing of the other thread's runs:
   * this thread then has the database to itself (the seeded image is copied from a quiet database).
   */
  pause(): Promise<void>;
  /** Runs the held requests, and the next ones as they come. */
  resume(): void;
  /** Answers on `client` from now on (while paused: the database was closed and opened again). */
  replace(client: PGlite): void;
};

/** Answers requests on `client`; `send` takes replies and notifications. */
export function pgliteHost(first: PGlite, send: (m: { pg: PgReply } | { pgNotify: PgNotification }) => void): PgliteHost {
  let client = first;
  const transactions = new Map<number, { tx: Transaction; end(commit: boolean): void; done: Promise<void> }>();
  const unlisteners = new Map<number, () => Promise<void>>();
  const target = (tx: number | undefined): Target => {
    if (tx === undefined) return client;
    const open = transactions.get(tx);
    if (!open) throw new Error("Transaction is closed");
    return open.tx;
  };
  const begin = (id: number): Promise<void> =>
    new Promise<void>((started, failed) => {
      let end!: (commit: boolean) => void;
      const ended = new Promise<boolean>((r) => (end = r));
      const done = client
        .transaction(async (tx) => {
          transactions.set(id, { tx, end, done });
          started();
          if (!(await ended)) await tx.rollback();
        })
        .finally(() => transactions.delete(id));
      done.catch(failed);
    });
  const run = async (r: PgRequest): Promise<unknown> => {
    switch (r.op) {
      case "query":
        return target(r.tx).query(r.sql, r.params as unknown[], options(r.options));
      case "exec":
        return target(r.tx).exec(r.sql, options(r.options));
      case "begin":
        return begin(r.tx);
      case "end": {
        const open = transactions.get(r.tx);
        if (!open) return;
        open.end(r.commit);
        return open.done;
      }
      case "listen":
        unlisteners.set(r.listener, await client.listen(r.channel, (payload) => send({ pgNotify: { listener: r.listener, payload } })));
        return;
      case "unlisten":
        await unlisteners.get(r.listener)?.();
        unlisteners.delete(r.listener);
        return;
    }
  };
  let running = 0;
  let paused: { held: PgRequest[]; quiet: () => void } | null = null;
  const settle = () => {
    if (paused && running === 0 && transactions.size === 0) paused.quiet();
  };
  const answer = (request: PgRequest) => {
    running++;
    run(request)
      .then(
        (result) => send({ pg: { id: request.id, ok: true, result } }),
        (e) => send({ pg: { id: request.id, ok: false, error: wireError(e) } }),
      )
      .finally(() => {
        running--;
        settle();
      });
  };
  return {
    handle(request) {
      // While paused, what belongs to an open transaction still runs (it must end for the database to be quiet).
      const inTransaction = "tx" in request && request.tx !== undefined && request.op !== "begin";
      if (paused && !inTransaction) paused.held.push(request);
      else answer(request);
    },
    pause() {
      return new Promise<void>((quiet) => {
        paused = { held: [], quiet };
        settle();
      });
    },
    resume() {
      const held = paused?.held ?? [];
      paused = null;
      for (const r of held) answer(r);
    },
    replace(next) {
      client = next;
    },
  };
}
