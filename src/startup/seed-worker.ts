// The first-start seed, on a thread of its own (a Bun Worker started by src/startup/prepare.ts): parsing the snapshot,
// loading it, deriving the svc: series, VACUUM ANALYZE and signal detection over what it loaded are CPU work of tens
// of seconds that would otherwise stop the server's thread from answering. The worker opens a database connection of
// its own (the embedded database is not opened by the server until the worker has closed it), holds the schema lock
// while it seeds (nodes starting together on one PostgreSQL database seed once), reports progress to the server,
// closes the database and ends; the memory it used goes with it. Signal detection over the seeded series, the public
// briefings' first runs and the job engine's schema are made here too (and so are part of the seeded image).
import { SCHEMA_LOCK } from "../../db/client";
import { openConfiguredDatabase } from "../configured-database";
import { seedIfNeeded } from "../commands/seed";
import { openBoss } from "../jobs/boss";
import { createLogger } from "../logger";
import { createAsker } from "../services/ask";
import { briefingIdsAwaitingRun, runBriefing } from "../services/briefings";
import { createCaches } from "../services/caches";
import { detectChangedSeries } from "../services/signal-detection";
import { countSeriesChanges } from "../../db/repos/series-changes";
import type { Progress } from "../progress";
import type { SeedRequest, SeedWorkerMessage } from "./messages";

declare const self: Worker;

const post = (m: SeedWorkerMessage) => self.postMessage(m);
const GC_EVERY_MS = 1000;
/** Above this resident memory of the process (the server's budget: issue 26), the worker collects more often. */
const GC_AT_RSS_BYTES = 400 * 1024 * 1024;
const GC_OVER_BUDGET_EVERY_MS = 100;

/** Progress as messages to the server (which shows it in /api/health), at most one per 250 ms per step. */
function progressMessages(): Progress {
  let step = "";
  let total = 0;
  let done = 0;
  let last = 0;
  let lastGcEnd = 0;
  let lastGcMs = 0;
  // The seed's garbage (parsed files, COPY text, query results) would otherwise pile up to gigabytes before the
  // collector runs: collecting between steps and as they progress keeps the peak near what is live. This thread only
  // seeds. Once a second within a step: a full collection over the loaded rows costs some 100 ms of CPU, which at
  // every progress message (250 ms) was most of the seed's time and took CPU from the thread that answers. Over the
  // memory budget, every 100 ms: garbage made faster than that (detection, the flows' upserts) set the first start's
  // peak between two collections. Never sooner than four times the last collection took, counted from its end: on a
  // loaded machine a collection outlasts 100 ms, and the worker would collect at every tick and seed nothing.
  const collect = (force: boolean) => {
    const t = performance.now();
    const every = Math.max(process.memoryUsage.rss() < GC_AT_RSS_BYTES ? GC_EVERY_MS : GC_OVER_BUDGET_EVERY_MS, 4 * lastGcMs);
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
    post({ type: "progress", step, done, total });
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

async function seed(request: SeedRequest): Promise<boolean> {
  const config = request.config;
  const logger = createLogger(config.logLevel);
  const database = await openConfiguredDatabase(config, { maintenance: true, logger });
  try {
    const now = new Date(request.now);
    const progress = progressMessages();
    return await database.exclusive(SCHEMA_LOCK, async (locked) => {
      const seeded = await seedIfNeeded(locked, { now, progress, logger });
      if (!seeded) return false;
      // Signals over every series the seed wrote: the changes outbox the database filled as it wrote them (the job
      // engine's detect job drains the same outbox; emptied here, it finds nothing left to do).
      const t0 = performance.now();
      const caches = createCaches(locked);
      // A tick per series: detection makes garbage fast (some kilobytes per observation), collected as it goes.
      progress.start("signal detection", await countSeriesChanges(locked.db));
      const s = await detectChangedSeries({ db: locked.db, caches, now: () => now }, () => progress.tick());
      logger.info("signals detected over the seeded series", { series: s.series, intervals: s.inserted, ms: Math.round(performance.now() - t0) });
      progress.done();
      // The public briefings' first runs (through the ask service, as the job engine would run them): a run that
      // fails is stored as failed, and the job engine tries again once the server runs.
      const ids = await briefingIdsAwaitingRun(locked.db);
      progress.start("public briefings' first runs", ids.length);
      const clock = { now: () => new Date() };
      const asker = createAsker({ database: locked, clock, caches, config });
      for (const id of ids) {
        await runBriefing({ db: locked.db, clock, logger }, asker, id);
        progress.tick();
      }
      progress.done();
      // The job engine's schema too (pg-boss installs it on its first start, some hundred statements): here, not on
      // the server's thread, and so in the seeded image.
      progress.start("job engine schema", 1);
      const { boss, release } = openBoss(locked, { runsJobs: false, poolMax: 1, superviseSeconds: 60, pollSeconds: 2 }, logger);
      await boss.start();
      await boss.stop({ graceful: false, close: true });
      await release();
      progress.done();
      return true;
    });
  } finally {
    await database.close();
  }
}

self.onmessage = (event: MessageEvent<SeedRequest>) => {
  seed(event.data).then(
    (seeded) => post({ type: "done", seeded }),
    (e) => post({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
};
