// The server's side of the database's thread (src/startup/database-thread.ts), started as early as the process can
// (src/startup/early.ts, before the server's modules load: opening the database and loading them overlap):
// - `opened`: the Database the server reads and writes through: on the embedded database a stand-in whose statements
//   run on that thread (db/pglite-remote.ts); on PostgreSQL a pool of the server's own, opened once the thread has
//   migrated;
// - `loading`: which families of the first start's data are stored (src/services/data-loading.ts), kept up to date as
//   the thread stores them, with the writes it made told to the server's caches first;
// - `done`: the start's work is finished (the job engine may start: nothing is left for it to detect twice).
// Light on purpose: what opens the database is imported once the thread says it is open.
import type { Database } from "../../db/client";
import { RemotePglite } from "../../db/pglite-remote";
import type { DataFamilyId } from "../../db/seed/families";
import type { Config } from "../config";
import { DataLoading } from "../services/data-loading";
import type { FromDatabaseThread, StartupProgress, ToDatabaseThread } from "./messages";
import { workerEntry } from "./worker-entry";

export type DatabaseThread = {
  opened: Promise<Database>;
  loading: DataLoading;
  done: Promise<{ seeded: boolean }>;
  /** Start-up progress as the thread reports it (the starting listener's /api/health shows it). */
  onProgress(listener: (p: StartupProgress) => void): void;
  /** Closes the database on its thread and ends the thread. */
  stop(): Promise<void>;
  /** Asks the thread to give back what it does not use (the server went quiet). */
  trim(): void;
  /**
   * A port whose statements run on the embedded database (for the job thread: src/startup/job-port.ts), the one
   * handed out before let go of; null on PostgreSQL (the job thread opens connections of its own).
   */
  jobPort(): MessagePort | null;
  /** Lets go of the job thread's port: what it left open (a transaction of a crashed thread) is rolled back. */
  releaseJobPort(): void;
};

export function startDatabaseThread(config: Config, now: Date): DatabaseThread {
  // smol: a smaller heap, collected more often (the seed makes much short-lived garbage).
  const worker = new Worker(workerEntry("database-thread"), { smol: true });
  const send = (m: ToDatabaseThread) => worker.postMessage(m);
  const remote = config.databaseUrl ? null : new RemotePglite({ post: send });
  const loading = new DataLoading([]);
  let progress: (p: StartupProgress) => void = () => {};
  let database: Database | null = null;
  // Stored families told before the database is built are marked once it is (its caches hear of them first).
  const early: DataFamilyId[] = [];
  let stopped: (() => void) | null = null;
  let resolveOpened!: (d: Database) => void;
  let rejectOpened!: (e: Error) => void;
  const opened = new Promise<Database>((resolve, reject) => ((resolveOpened = resolve), (rejectOpened = reject)));
  let resolveDone!: (r: { seeded: boolean }) => void;
  let rejectDone!: (e: Error) => void;
  const done = new Promise<{ seeded: boolean }>((resolve, reject) => ((resolveDone = resolve), (rejectDone = reject)));
  // Whoever waits on neither still must not see an unhandled rejection.
  opened.catch(() => {});
  done.catch(() => {});
  const fail = (e: Error) => {
    remote?.fail(e);
    rejectOpened(e);
    rejectDone(e);
  };
  const stored = (ids: DataFamilyId[]) => {
    if (!database) early.push(...ids);
    else loading.markStored(ids);
  };

  worker.onmessage = (event: MessageEvent<FromDatabaseThread>) => {
    const m = event.data;
    if ("pg" in m) remote!.reply(m.pg);
    else if ("pgNotify" in m) remote!.notify(m.pgNotify);
    else if ("progress" in m) progress(m.progress);
    else if ("events" in m) {
      if (m.events.catalog) database?.events.catalogWritten();
      if (m.events.series) database?.events.seriesWritten(m.events.series);
    } else if ("opened" in m) {
      stored(m.opened.stored);
      void build(config, remote, stop).then((d) => {
        database = d;
        loading.markStored(early.splice(0));
        resolveOpened(d);
      }, fail);
    } else if ("stored" in m) stored([m.stored]);
    else if ("done" in m) {
      // PostgreSQL: the thread has closed its connection and has nothing more to do; its memory goes with it.
      if (config.databaseUrl) end();
      // Every family is stored once the work is done (a later start stored them before).
      opened.then(() => {
        loading.markStored(loading.report().loading);
        resolveDone(m.done);
      });
    } else if ("failed" in m) fail(new Error(`the database could not be prepared: ${m.failed}`));
    else if ("stopped" in m) end();
  };
  worker.onerror = (event) => fail(new Error(`the database's thread failed: ${event.message}`));
  let ended = false;
  const end = () => {
    ended = true;
    worker.terminate();
    stopped?.();
  };
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= ended
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          stopped = resolve;
          send({ stop: true });
        }));
  send({ start: { config, now: now.toISOString() } });
  return {
    opened,
    loading,
    done,
    onProgress(listener) {
      progress = listener;
    },
    stop,
    trim: () => {
      if (!stopping && !ended) send({ trim: true });
    },
    jobPort() {
      if (config.databaseUrl || stopping || ended) return null;
      const { port1, port2 } = new MessageChannel();
      worker.postMessage({ jobPort: port1 } satisfies ToDatabaseThread, [port1]);
      return port2;
    },
    releaseJobPort: () => {
      if (!config.databaseUrl && !ended) send({ jobPort: null });
    },
  };
}

/** The server's Database: closing it closes the database on its thread too, and ends the thread. */
async function build(config: Config, remote: RemotePglite | null, stop: () => Promise<void>): Promise<Database> {
  const { embeddedDatabase } = await import("../../db/client");
  if (remote) return embeddedDatabase(remote, stop);
  const { openConfiguredDatabase } = await import("../configured-database");
  const own = await openConfiguredDatabase(config);
  const close = own.close;
  return Object.assign(own, { close: async () => void (await Promise.all([close(), stop()])) });
}
