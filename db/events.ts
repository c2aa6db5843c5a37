// Write events of one database: readers that keep data in memory (src/services/caches.ts) hear of this process's
// committed writes here instead of at their next version check. The events belong to the Database object (made by
// db/client.ts openDatabase), never to a module: two databases in one process (tests, a bench) are independent.
//
// A write announces itself through the drizzle handle it wrote with (`announce*(db, ...)` in db/repos). On the
// database's own handle that is after the statement committed. Inside `db.transaction(...)` the handle is the
// transaction's: its announcements wait in the transaction and are told once it commits; a rollback (the callback
// throws) drops them. A nested transaction (savepoint) hands its announcements to its parent when it completes.

/** A drizzle handle (db/client.ts Db, or a transaction of it): what events are attached to. */
type Handle = { transaction(fn: (tx: never) => Promise<unknown>, config?: never): Promise<unknown> };

/** A series whose stored observations changed (its `version` moved). */
export type SeriesChange = { indicatorId: string; regionCode: string };
export type SeriesWrittenListener = (changed: SeriesChange[]) => void;
export type CatalogWrittenListener = () => void;

export class WriteEvents {
  // Bounded: the caches made with the database subscribe once each (and unsubscribe with the function returned).
  private readonly series = new Set<SeriesWrittenListener>();
  private readonly catalog = new Set<CatalogWrittenListener>();

  /** Told after each committed write which series it changed. Returns the unsubscribe function. */
  onSeriesWritten(listener: SeriesWrittenListener): () => void {
    this.series.add(listener);
    return () => this.series.delete(listener);
  }

  /** Told after each committed catalog write (sources, indicators, regions). Returns the unsubscribe function. */
  onCatalogWritten(listener: CatalogWrittenListener): () => void {
    this.catalog.add(listener);
    return () => this.catalog.delete(listener);
  }

  seriesWritten(changed: SeriesChange[]): void {
    if (changed.length === 0) return;
    const list = changed.map((c) => ({ indicatorId: c.indicatorId, regionCode: c.regionCode }));
    for (const listener of this.series) tell(() => listener(list));
  }

  catalogWritten(): void {
    for (const listener of this.catalog) tell(listener);
  }
}

function tell(listener: () => void): void {
  try {
    listener();
  } catch {
    // The write committed: a listener's failure must not report it as failed (readers still revalidate by version).
  }
}

/** Announcements made inside a transaction, told to `target` when (and only if) it commits. */
class PendingEvents extends WriteEvents {
  private readonly changes: SeriesChange[] = [];
  private catalogChanged = false;
  override seriesWritten(changed: SeriesChange[]): void {
    this.changes.push(...changed);
  }
  override catalogWritten(): void {
    this.catalogChanged = true;
  }
  commitTo(target: WriteEvents): void {
    if (this.catalogChanged) target.catalogWritten();
    target.seriesWritten(this.changes);
  }
}

const EVENTS = Symbol("writeEvents");
type WithEvents = { [EVENTS]?: WriteEvents };

/**
 * Makes `events` the write events of the drizzle handle `db`: announcements through it reach `events`, and every
 * transaction opened on it holds its announcements until it commits. Returns `db`.
 */
export function attachWriteEvents<D extends object>(db: D, events: WriteEvents): D {
  (db as WithEvents)[EVENTS] = events;
  const handle = db as unknown as Handle;
  const open = handle.transaction.bind(handle) as (
    fn: (tx: object) => Promise<unknown>,
    config?: unknown,
  ) => Promise<unknown>;
  handle.transaction = (async (fn: (tx: object) => Promise<unknown>, config?: unknown) => {
    const pending = new PendingEvents();
    const result = await open((tx) => fn(attachWriteEvents(tx, pending)), config);
    pending.commitTo(events);
    return result;
  }) as Handle["transaction"];
  return db;
}

/** The write events `db` announces to; a handle made without them announces to nobody. */
function eventsOf(db: object): WriteEvents | undefined {
  return (db as WithEvents)[EVENTS];
}

/** Announces that a write through `db` changed these series (db/repos/observations.ts, db/bulk-load.ts). */
export function announceSeriesWritten(db: object, changed: SeriesChange[]): void {
  eventsOf(db)?.seriesWritten(changed);
}

/** Announces a catalog write through `db` (db/repos/catalog.ts, db/repos/regions.ts). */
export function announceCatalogWritten(db: object): void {
  eventsOf(db)?.catalogWritten();
}
