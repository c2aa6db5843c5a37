// The job thread (a Bun Worker the server starts with JOBS=on: src/startup/job-start.ts): the job engine's workers
// and crons (provisioning, refresh, briefings, detection) run here, so their JavaScript (parsing what providers
// answer, detection's statistics, an ask's orchestration) never holds the thread that answers requests. Built as
// `svc worker` builds its own (src/commands/worker.ts): a database handle, caches and an upstream fetcher of this
// thread's. On PostgreSQL it opens its own pool; on the embedded database its statements go to the database's thread
// over a port of their own (src/startup/job-port.ts), in the background lane. Its writes are passed on to the
// server's caches (db/events.ts), as the database's thread passes on its own.
import { embeddedDatabase, type Database } from "../../db/client";
import { RemotePglite, type PgNotification, type PgReply } from "../../db/pglite-remote";
import { buildJobDeps } from "../bootstrap";
import type { Config } from "../config";
import { openConfiguredDatabase } from "../configured-database";
import { createJobRuntime, type JobDeps, type JobRuntime } from "../jobs/runtime";
import { detectSignalsForIndicators } from "../services/signal-detection";
import { createLogger } from "../logger";
import { trimWhenIdle } from "../idle-footprint";
import type { FromJobThread, ToJobThread } from "./messages";
import { lowerThreadPriority } from "./thread-priority";

declare const self: Worker;

/** The embedded database, reached over `port` (the database's thread answers); closing it lets go of the port. */
function remoteDatabase(port: MessagePort): Database {
  const remote = new RemotePglite({ post: (m) => port.postMessage(m) }, { lane: "background" });
  port.onmessage = (event) => {
    const m = event.data as { pg: PgReply } | { pgNotify: PgNotification };
    if ("pg" in m) remote.reply(m.pg);
    else remote.notify(m.pgNotify);
  };
  return embeddedDatabase(remote, async () => {
    remote.fail(new Error("the job thread's database is closed"));
    port.close();
  });
}

function main(): void {
  const post = (m: FromJobThread) => self.postMessage(m);
  let running: Promise<{ jobs: JobRuntime; database: Database; deps: JobDeps } | null> = Promise.resolve(null);

  async function start(config: Config, port: MessagePort | null) {
    const logger = createLogger(config.logLevel);
    const database = port ? remoteDatabase(port) : await openConfiguredDatabase(config, { logger });
    database.events.onSeriesWritten((series) => post({ events: { series } }));
    database.events.onCatalogWritten(() => post({ events: { catalog: true } }));
    // The server's thread and the database's write this database too: these caches check versions.
    const deps = buildJobDeps(config, database, logger, { crossProcess: true });
    const jobs = createJobRuntime(deps, { runsJobs: true });
    try {
      await jobs.start();
    } catch (e) {
      await jobs.stop();
      await database.close();
      throw e;
    }
    return { jobs, database, deps };
  }

  /** An administrator's detection (`svc signals detect` carried out by the server), run here with this thread's deps. */
  async function detect(indicatorIds: string[] | null) {
    const r = await running;
    if (!r) throw new Error("the job thread's engine is not running");
    const ctx = { db: r.database.db, caches: r.deps.caches, now: () => r.deps.clock.now() };
    return detectSignalsForIndicators(ctx, indicatorIds ?? undefined);
  }

  /** Stops taking jobs (running ones get the engine's grace), then lets go of the database. */
  async function stop() {
    const r = await running.catch(() => null);
    await r?.jobs.stop();
    await r?.database.close();
  }

  self.onmessage = (event: MessageEvent<ToJobThread>) => {
    const m = event.data;
    if ("start" in m) {
      running = start(m.start.config, m.start.port);
      running.then(
        () => post({ started: true }),
        (e) => post({ failed: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
      );
    } else if ("detect" in m) {
      const { id, indicatorIds } = m.detect;
      detect(indicatorIds).then(
        (summary) => post({ detected: { id, summary } }),
        (e) => post({ detected: { id, error: e instanceof Error ? e.message : String(e) } }),
      );
    } else {
      stop().finally(() => post({ stopped: true }));
    }
  };
}

lowerThreadPriority();
main();
// Once the node is quiet, this thread gives back what its busy time left too (as the server's other threads do).
trimWhenIdle();
