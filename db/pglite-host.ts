// The database thread's side of db/pglite-remote.ts: runs the server thread's statements on the PGlite instance this
// thread holds, beside this thread's own work (the first start's seed), one statement or transaction at a time. The
// order is this host's, not PGlite's first-come: a request's statement goes before background work's (jobs, admin
// commands, the first start's detection), so health and reads wait for one statement of a job at most, not its queue.
import type { PGlite, Transaction } from "@electric-sql/pglite";
import {
  RemotePglite,
  type PgNotification,
  type PgReply,
  type PgRequest,
  type WireError,
  type WireOptions,
} from "./pglite-remote";

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
  for (const [k, v] of Object.entries(e))
    if (v === null || ["string", "number", "boolean"].includes(typeof v)) fields[k] = v;
  return fields;
}

export type PgliteHost = {
  /**
   * Takes one request. A statement of an open transaction (and its end) runs at once; any other waits its turn, one at
   * a time, requests' statements before background work's (`lane`), so a request never queues behind a job's backlog.
   * `reply`: where its answer goes (default: to the server's thread).
   */
  handle(request: PgRequest, reply?: (r: PgReply) => void): void;
  /**
   * A client for this thread's own work whose statements wait in the background lane (the server's go first), and
   * whose waits let this thread read the server's messages in between.
   */
  background(): RemotePglite;
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

type Waiting = { request: PgRequest; reply: (r: PgReply) => void };

/** Answers requests on `client`; `send` takes replies and notifications. */
export function pgliteHost(
  first: PGlite,
  send: (m: { pg: PgReply } | { pgNotify: PgNotification }) => void,
): PgliteHost {
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
        unlisteners.set(
          r.listener,
          await client.listen(r.channel, (payload) => send({ pgNotify: { listener: r.listener, payload } })),
        );
        return;
      case "unlisten":
        await unlisteners.get(r.listener)?.();
        unlisteners.delete(r.listener);
        return;
    }
  };
  const toServer = (pg: PgReply) => send({ pg });

  // The turn: at most one statement outside a transaction runs, or one transaction is open (from its begin until its
  // end is done); PGlite would run them one at a time anyway, but in the order they came. Held here instead, the next
  // turn goes to a request's statement whenever one waits.
  const lanes = { request: [] as Waiting[], background: [] as Waiting[] };
  let turn: "free" | "statement" | "transaction" = "free";
  let openTransaction: number | null = null;
  let inTransaction = 0;
  let paused: { quiet: () => void } | null = null;
  let nudged = false;

  const settle = () => {
    if (paused && turn === "free" && inTransaction === 0 && transactions.size === 0) paused.quiet();
  };
  const answer = (w: Waiting): Promise<void> =>
    run(w.request).then(
      (result) => w.reply({ id: w.request.id, ok: true, result }),
      (e) => w.reply({ id: w.request.id, ok: false, error: wireError(e) }),
    );
  const endTurn = () => {
    turn = "free";
    openTransaction = null;
    settle();
    next();
  };
  const take = (w: Waiting) => {
    if (w.request.op === "begin") {
      turn = "transaction";
      openTransaction = w.request.tx;
      // The turn ends when the transaction does (its end, a failed begin, or a rollback inside).
      const tx = w.request.tx;
      answer(w).then(() => {
        const open = transactions.get(tx);
        if (!open) return endTurn();
        open.done.catch(() => {}).finally(endTurn);
      });
    } else {
      turn = "statement";
      answer(w).finally(endTurn);
    }
  };
  // Background work's statement goes after the event loop has read what came meanwhile: a request's statement that
  // arrived while the last one ran takes the turn first.
  const next = () => {
    if (paused || turn !== "free") return;
    const request = lanes.request.shift();
    if (request) return take(request);
    if (lanes.background.length === 0 || nudged) return;
    nudged = true;
    setImmediate(() => {
      nudged = false;
      if (paused || turn !== "free") return;
      const waiting = lanes.request.shift() ?? lanes.background.shift();
      if (waiting) take(waiting);
    });
  };

  const host: PgliteHost = {
    handle(request, reply = toServer) {
      const w = { request, reply };
      // What belongs to an open transaction runs at once (the transaction holds the turn, and must end).
      if ("tx" in request && request.tx !== undefined && request.op !== "begin") {
        inTransaction++;
        answer(w).finally(() => {
          inTransaction--;
          settle();
        });
        return;
      }
      lanes[request.lane ?? "request"].push(w);
      next();
    },
    background() {
      let local!: RemotePglite;
      // The answer comes back on a later tick, as one from another thread would.
      local = new RemotePglite(
        { post: (m) => host.handle(m.pg, (r) => queueMicrotask(() => local.reply(r))) },
        { lane: "background" },
      );
      return local;
    },
    pause() {
      return new Promise<void>((quiet) => {
        paused = { quiet };
        settle();
      });
    },
    resume() {
      paused = null;
      next();
    },
    replace(reopened) {
      client = reopened;
    },
  };
  return host;
}
