// The database's thread (a Bun Worker started by src/startup/database-start.ts as the server starts):
// - the embedded database lives here for the life of the process: the server's thread sends its statements
//   (db/pglite-remote.ts, answered by db/pglite-host.ts), so PGlite's WebAssembly never runs on the thread that
//   answers requests. A first start on an empty data directory first copies the seeded image, if one is kept;
// - on PostgreSQL it only does the start's work below on a connection of its own, then ends;
// - the start's work (src/startup/first-start.ts): the seed family by family, each announced as it is stored so the
//   server serves it at once, the signals, the job engine's schema; then, after a seed, the image for the next
//   first start. Writes made here are passed on to the server's caches (db/events.ts);
// - the job thread's statements (src/startup/job-thread.ts) arrive on a port of their own (src/startup/job-port.ts)
//   and run on the same host as the server's.
import type { PGlite } from "@electric-sql/pglite";
import { join } from "node:path";
import { SEED_LOCK, embeddedDatabase, type Database } from "../../db/client";
import { pgliteHost, type PgliteHost } from "../../db/pglite-host";
import { storedFamilies } from "../../db/seed/family-records";
import { SNAPSHOT_VERSION } from "../../db/seed/snapshot-version";
import type { Config } from "../config";
import { openConfiguredDatabase } from "../configured-database";
import { createLogger, type Logger } from "../logger";
import { releaseMemory } from "../idle-footprint";
import type { Progress } from "../progress";
import { completeFirstStart } from "./first-start";
import { restoreKeptImage, saveImage } from "./image";
import type { FromDatabaseThread, ToDatabaseThread } from "./messages";
import { jobPorts } from "./job-port";

declare const self: Worker;

const post = (m: FromDatabaseThread) => self.postMessage(m);
const GC_EVERY_MS = 1000;
/** Above this resident memory of the process (the server's memory budget), the seed collects more often. */
const GC_AT_RSS_BYTES = 400 * 1024 * 1024;
const GC_OVER_BUDGET_EVERY_MS = 100;

let database: Database | null = null;
let host: PgliteHost | null = null;
let stopping = false;
const jobs = jobPorts((request) => host?.handle(request));

/** Progress as messages to the server (which shows it in /api/health), at most one per 250 ms per step. */
function progressMessages(): Progress {
  let step = "";
  let total = 0;
  let done = 0;
  let last = 0;
  let lastGcEnd = 0;
  let lastGcMs = 0;
  // The seed's garbage (parsed files, COPY text, query results) would otherwise pile up to gigabytes before the
  // collector runs: collecting between steps and as they progress keeps the peak near what is live. Once a second
  // within a step (a full collection over the loaded rows costs some 100 ms of CPU); over the memory budget every
  // 100 ms; never sooner than four times the last collection took, counted from its end (on a loaded machine a
  // collection outlasts 100 ms, and the seed would collect at every tick and seed nothing).
  const collect = (force: boolean) => {
    const t = performance.now();
    const every = Math.max(
      process.memoryUsage.rss() < GC_AT_RSS_BYTES ? GC_EVERY_MS : GC_OVER_BUDGET_EVERY_MS,
      4 * lastGcMs,
    );
    if (!force && t - lastGcEnd < every) return;
    Bun.gc(true);
    lastGcEnd = performance.now();
    lastGcMs = lastGcEnd - t;
  };
  const send = (force = false) => {
    collect(force);
    const t = performance.now();
    if (!force && t - last < 250) return;
    last = t;
    post({ progress: { step, done, total } });
  };
  return {
    start(label, n) {
      step = label;
      total = n;
      done = 0;
      send(true);
    },
    tick(n = 1) {
      done += n;
      send();
    },
    done() {
      done = total;
      send(true);
    },
  };
}

/** Opens the configured database on this thread; writes made here are told to the server's caches. */
async function open(config: Config, logger: Logger): Promise<Database> {
  return withEventsToServer(await openConfiguredDatabase(config, { maintenance: true, logger }));
}

function withEventsToServer(db: Database): Database {
  db.events.onSeriesWritten((series) => post({ events: { series } }));
  db.events.onCatalogWritten(() => post({ events: { catalog: true } }));
  return db;
}

async function start(config: Config, now: Date): Promise<void> {
  const logger = createLogger(config.logLevel);
  // The image to keep once seeded (null: copied from one, not embedded, not a fresh directory, or no image cache).
  const imageKey = await restoreKeptImage(config, logger, () =>
    post({ progress: { step: "copying the seeded database image", done: 0, total: 1 } }),
  );
  post({ progress: { step: "opening the database", done: 0, total: 1 } });
  const db = (database = await open(config, logger));
  if (db.raw.kind === "pglite") host = pgliteHost(db.raw.client as PGlite, (m) => jobs.route(m) || post(m));
  post({ opened: { stored: [...(await storedFamilies(db.db, SNAPSHOT_VERSION))] } });
  const background = host ? withEventsToServer(embeddedDatabase(host.background(), async () => {})) : undefined;
  const seeded = await db.exclusive(SEED_LOCK, (locked) =>
    completeFirstStart(locked, {
      config,
      now,
      progress: progressMessages(),
      logger,
      onFamilyStored: (id) => post({ stored: id }),
      background,
    }),
  );
  if (seeded && host && !stopping) await afterSeed(config, imageKey, host, logger);
  // PostgreSQL: the server has its own connections; this thread's work is done (the server then ends it).
  if (db.kind === "postgres") await closeDatabase();
  post({ done: { seeded } });
}

/**
 * After a seed of the embedded database: the database closed (a clean stop) and opened again, with the server's
 * statements held meanwhile, so what the seed grew (PGlite's memory never shrinks; this thread's heap) is given back;
 * the seeded image kept for the next first start, copied while the database runs, then what changed since copied
 * again while it is closed.
 */
async function afterSeed(config: Config, imageKey: string | null, held: PgliteHost, logger: Logger): Promise<void> {
  const t0 = performance.now();
  let stillMs = 0;
  const reopen = async (copy: () => Promise<void>) => {
    await held.pause();
    const t = performance.now();
    try {
      await closeDatabase();
      await copy();
    } finally {
      const db = (database = await open(config, logger));
      if (db.raw.kind === "pglite") held.replace(db.raw.client as PGlite);
      stillMs = performance.now() - t;
      held.resume();
      // The closed instance and the seed's garbage are unreachable now.
      Bun.gc(true);
    }
  };
  if (!imageKey) return reopen(async () => {});
  post({ progress: { step: "keeping the seeded database image", done: 0, total: 1 } });
  try {
    await saveImage(config.imageCacheDir!, imageKey, join(config.dataDir, "pglite"), reopen);
    logger.info("seeded database image kept for the next first start", {
      image: imageKey,
      dir: config.imageCacheDir,
      ms: Math.round(performance.now() - t0),
      held_still_ms: Math.round(stillMs),
    });
  } catch (e) {
    logger.warn("could not keep the seeded database image (the next first start seeds again)", {
      dir: config.imageCacheDir,
      error: String(e),
    });
  }
}

async function closeDatabase(): Promise<void> {
  const d = database;
  database = null;
  await d?.close();
}

self.onmessage = (event: MessageEvent<ToDatabaseThread>) => {
  const m = event.data;
  if ("pg" in m) {
    if (host) host.handle(m.pg);
  } else if ("jobPort" in m) {
    if (m.jobPort) jobs.attach(m.jobPort);
    else jobs.detach();
  } else if ("trim" in m) {
    // The server went quiet (src/idle-footprint.ts): this thread gives back what its busy time left too.
    releaseMemory();
  } else if ("start" in m) {
    start(m.start.config, new Date(m.start.now)).catch((e) =>
      post({ failed: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
    );
  } else {
    stopping = true;
    jobs.detach();
    closeDatabase().finally(() => post({ stopped: true }));
  }
};
