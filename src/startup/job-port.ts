// The database thread's side of the job thread's connection (src/startup/job-thread.ts): the job thread's statements
// arrive on a MessagePort of their own and run on the same host (db/pglite-host.ts) as the server thread's, so one
// order (and the background lane) covers both. Their ids, transactions and listeners are negated on the way in, so
// they never meet the server thread's (which count up from 1), and answers with a negative id go back to that port.
// A job thread that goes away (stopped, or crashed mid-transaction) must not hold the database: what it left open is
// rolled back and unlistened when its port is let go of.
import type { PgNotification, PgReply, PgRequest } from "../../db/pglite-remote";

type Sent = { pg: PgReply } | { pgNotify: PgNotification };

/** Ids of the clean-up's own requests: below any id a job thread's client reaches. */
const CLEANUP_IDS = 2 ** 50;

export type JobPorts = {
  /** Takes this port's requests to `handle` from now on (a port attached before is let go of first). */
  attach(port: MessagePort): void;
  /** Lets go of the attached port: its open transactions are rolled back and its listeners removed. */
  detach(): void;
  /** Routes what the host sends: true when it was the job thread's (and is now on its way there). */
  route(m: Sent): boolean;
};

/** `handle`: runs a request on the host (which answers through `route` first). */
export function jobPorts(handle: (request: PgRequest) => void): JobPorts {
  let port: MessagePort | null = null;
  // Bounded: the transactions and listeners the job thread has open now (each removed as it ends).
  const open = new Map<number, { beginId: number; begun: boolean }>();
  const listeners = new Set<number>();
  // Transactions whose begin was still waiting when their port went away: ended once it is answered.
  const orphans = new Map<number, number>();
  let cleanupId = CLEANUP_IDS;
  const end = (tx: number) => handle({ op: "end", id: -++cleanupId, tx, commit: false });

  const take = (request: PgRequest) => {
    const r = { ...request, id: -request.id } as PgRequest;
    if ("tx" in r && r.tx !== undefined) r.tx = -r.tx;
    if ("listener" in r) r.listener = -r.listener;
    if (r.op === "begin") open.set(r.tx, { beginId: r.id, begun: false });
    else if (r.op === "end") open.delete(r.tx);
    else if (r.op === "listen") listeners.add(r.listener);
    else if (r.op === "unlisten") listeners.delete(r.listener);
    handle(r);
  };

  const detach = () => {
    if (!port) return;
    port.onmessage = null;
    port.close();
    port = null;
    for (const [tx, t] of open) {
      if (t.begun) end(tx);
      else orphans.set(t.beginId, tx);
    }
    open.clear();
    for (const listener of listeners) handle({ op: "unlisten", id: -++cleanupId, listener });
    listeners.clear();
  };

  return {
    attach(next) {
      detach();
      port = next;
      next.onmessage = (event) => take((event.data as { pg: PgRequest }).pg);
    },
    detach,
    route(m) {
      if ("pg" in m) {
        if (m.pg.id >= 0) return false;
        const orphan = orphans.get(m.pg.id);
        if (orphan !== undefined) {
          orphans.delete(m.pg.id);
          if (m.pg.ok) end(orphan);
          return true;
        }
        for (const [tx, t] of open) {
          if (t.beginId !== m.pg.id) continue;
          if (m.pg.ok) t.begun = true;
          else open.delete(tx);
        }
        port?.postMessage({ pg: { ...m.pg, id: -m.pg.id } });
        return true;
      }
      if (m.pgNotify.listener >= 0) return false;
      port?.postMessage({ pgNotify: { ...m.pgNotify, listener: -m.pgNotify.listener } });
      return true;
    },
  };
}
