// The node-local usage journal: every metered request is appended here, synchronously, before its response
// leaves, so a crash (kill -9, OOM) loses no count; the usage meter moves the counts to the main database in
// batches. Definitions:
// - live file: `DATA_DIR/usage-journal/live-<pid>-<incarnation>-<uuid>.log`, one per running process, a sparse file mapped into
//   memory (MAP_SHARED); one line per request, copied into the mapping: a memory copy, no system call (a bun:sqlite
//   commit per request costs about 20 us, an append with write(2) about 2-5 us with stalls behind the file system's
//   journal; grouping commits would hold responses back to a later event-loop turn). The kernel owns the mapped
//   pages, so they reach the file even if the process is killed. A key and month's first request in a file is the
//   line `<key id> <YYYY-MM>`; its next ones are `*<n>`, n counting the file's full lines from 0 (3 bytes instead of
//   45: fewer pages to fault in and write back).
// - batch: a live file sealed by renaming it to `batch-<uuid>.log` (atomic; the uuid is the batch id). It stays
//   until the main database holds that id (stored in the same transaction as the usage upsert), then it is
//   deleted. Applying a batch whose id is already stored changes nothing, so a crash anywhere never loses or
//   double-counts, and several processes may apply the same batch.
// - replay: a process opening the journal seals the live files of processes that are gone (their pid is dead, or
//   it is this process's pid with another incarnation: an earlier process, its pid reused), and every batch file in
//   the directory is applied by the next flush. A journal closed with counts not yet applied seals its live file.
// Durability: a process crash loses nothing; an OS crash or power loss may drop the last seconds of counts
// (nothing is fsynced on the request path). A torn last line (a record cut mid-copy) and the unused, zeroed tail
// of a live file are ignored.
// Faults: records are copied only into space the file system has allocated (see RESERVE_BYTES), so a full disk is
// an error (JournalUnavailableError: the request is refused, 503) and never a SIGBUS. A directory that refuses the
// seal's rename (made read-only at run time) changes nothing: recording goes on in the same live file until it is
// full, then requests are refused. Either way the journal tries the disk again at most every RETRY_MS and recovers
// by itself once space or permission is back.
// Several processes may share one DATA_DIR: each appends to its own live file. Reading a file's records back, and
// this process's counts, are usage-journal-tally.ts.
import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { pidAlive } from "../../db/process-alive";
import { parseJournal, tallies, type UsageRow } from "./usage-journal-tally";

export type UsageBatch = { id: string; rows: UsageRow[] };
export type UsageJournal = {
  /** The journal directory, or ":memory:" (not crash-safe: for tools and tests that serve no metered traffic). */
  readonly location: string;
  /** Appends one request (synchronous; throws if the journal cannot be written). */
  record(keyId: string, month: string): void;
  /** Requests of a key and month this process journaled that are not yet in the main database. */
  unflushed(keyId: string, month: string): number;
  /** Seals what was recorded since the last seal into a batch; its id, or null when nothing was recorded. */
  seal(): string | null;
  /** Every sealed batch in the journal (this process's and those left by processes that died), oldest first. */
  batches(): UsageBatch[];
  /** Forgets a batch once the main database holds it. */
  remove(id: string): void;
  /** Closes the live file; what it holds (if a last flush failed) is replayed by the next process. */
  close(): void;
};

export const USAGE_JOURNAL_DIR = "usage-journal";
/** Size of a live file's mapping (sparse: only reserved pages take space). Sealed at least once a second. */
const LIVE_CAPACITY = 8 << 20;
/**
 * Records go only into bytes the file system has already allocated: a plain write(2) of zeros reserves the next
 * stretch before the mapping is written there. Writing into a page the file system cannot back (a full disk) would
 * raise SIGBUS and kill the process; a write(2) answers ENOSPC instead, and the request is refused. One such write
 * per 256 KB, about 85,000 requests.
 */
const RESERVE_BYTES = 256 << 10;

export function usageJournalDir(dataDir: string): string {
  return join(dataDir, USAGE_JOURNAL_DIR);
}

const encoder = new TextEncoder();

/**
 * This process's mark in its live files' names: a live file with this process's pid and another mark is an earlier
 * process's (pids are reused: a container's server is often pid 1 on every start). A constant of the process.
 */
const INCARNATION = crypto.randomUUID();

/** A request cannot be journaled (full disk, unwritable directory): it must not be served. */
export class JournalUnavailableError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly location: string,
    cause: unknown,
  ) {
    super(`usage journal ${location} cannot be written: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.code = (cause as { code?: string } | null)?.code;
  }
}

const NO_MAPPING = new Uint8Array(0);
const ZEROS = new Uint8Array(RESERVE_BYTES);
/** After a failure to reserve or to open a live file, requests are refused this long before the disk is tried again. */
const RETRY_MS = 100;

/** `capacity`: bytes of a live file (tests make it small to fill one quickly). */
export function openUsageJournal(dir: string, opts: { capacity?: number } = {}): UsageJournal {
  if (dir === ":memory:") return memoryJournal();
  const capacity = opts.capacity ?? LIVE_CAPACITY;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Adopt what processes that are gone left behind (including an earlier process that had this pid, but not a
  // journal this process still has open: a closed one sealed its file).
  const ownPrefix = `live-${process.pid}-${INCARNATION}-`;
  for (const name of readdirSync(dir)) {
    const m = /^live-(\d+)-[0-9a-f-]+\.log$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (name.startsWith(ownPrefix) || (pid !== process.pid && pidAlive(pid))) continue;
    try {
      renameSync(join(dir, name), join(dir, `batch-${crypto.randomUUID()}.log`));
    } catch (e: any) {
      // Another process starting at the same time adopted it first.
      if (e?.code !== "ENOENT") throw e;
    }
  }
  const tally = tallies();
  // The live count the last record went to (it belongs to the current batch: a seal forgets it).
  let last: ReturnType<typeof tally.add> | undefined;
  // The live file: its path, an open descriptor (for the writes that reserve space), its mapping, the bytes used and
  // the bytes written through the file system (records go only below `reserved`). No live file: `live` is empty.
  let livePath = "";
  let fd = -1;
  let live = NO_MAPPING;
  let used = 0;
  let reserved = 0;
  // The last failure to reserve or open: requests are refused until `retryAt`, then the disk is tried again.
  let failure: { error: unknown; retryAt: number } | null = null;

  /** Writes zeros over the next stretch of the live file: the file system allocates it now or says why not. */
  const reserveMore = () => {
    if (reserved >= live.length) throw new Error("live file full");
    const n = writeSync(fd, ZEROS, 0, Math.min(RESERVE_BYTES, live.length - reserved), reserved);
    reserved += n;
  };
  const closeLive = () => {
    if (fd >= 0) closeSync(fd);
    fd = -1;
    // Never touched again (the file may be cut below it); the runtime unmaps it when it is collected.
    live = NO_MAPPING;
    used = 0;
    reserved = 0;
  };
  const openLive = () => {
    const path = join(dir, `${ownPrefix}${crypto.randomUUID()}.log`);
    const file = openSync(path, "w", 0o600);
    try {
      ftruncateSync(file, capacity);
      fd = file;
      live = Bun.mmap(path, { shared: true });
      livePath = path;
      reserveMore();
    } catch (e) {
      fd = -1;
      live = NO_MAPPING;
      reserved = 0;
      closeSync(file);
      rmSync(path, { force: true });
      throw e;
    }
  };
  const refuse = (e: unknown): never => {
    failure = { error: e, retryAt: performance.now() + RETRY_MS };
    throw new JournalUnavailableError(dir, e);
  };
  try {
    openLive();
  } catch (e: any) {
    // A full disk at start: the process starts, refuses metered requests, and records once space is back. Anything
    // else (no permission, a read-only file system) is a configuration error the operator must fix first.
    if (e?.code !== "ENOSPC" && e?.code !== "EDQUOT") throw e;
    failure = { error: e, retryAt: 0 };
  }
  const batchPath = (id: string) => join(dir, `batch-${id}.log`);
  const seal = (): string | null => {
    if (tally.empty()) return null;
    const id = crypto.randomUUID();
    // The rename first: if the directory refuses it, nothing has changed and recording goes on in the same file.
    renameSync(livePath, batchPath(id));
    // The batch is complete (all synchronous: no record in between). Its unused tail is cut if the file system lets
    // it; a zeroed tail is ignored by readers anyway.
    try {
      ftruncateSync(fd, used);
    } catch {}
    closeLive();
    tally.seal(id);
    last = undefined;
    try {
      openLive();
      failure = null;
    } catch (e) {
      // No live file now: the next record tries again, and is refused until a file can be made.
      failure = { error: e, retryAt: performance.now() + RETRY_MS };
    }
    return id;
  };
  /**
   * Room for `n` more bytes below `reserved`: more of the file reserved, or a new file when this one is full, or a
   * live file made after a failure. True when the record goes to a new file. Throws JournalUnavailableError.
   */
  const makeRoom = (n: number): boolean => {
    if (failure && performance.now() < failure.retryAt) throw new JournalUnavailableError(dir, failure.error);
    let fresh = false;
    try {
      if (live.length === 0) {
        openLive();
        fresh = true;
      } else if (used + n > live.length) {
        seal();
        if (live.length === 0) throw failure!.error;
        fresh = true;
      }
      while (used + n > reserved) reserveMore();
    } catch (e) {
      return refuse(e);
    }
    failure = null;
    return fresh;
  };

  return {
    location: dir,
    record(keyId, month) {
      // The same key as the previous record (a busy client) needs no lookup at all.
      let counted = last && last.row.keyId === keyId && last.row.month === month ? last : tally.live(keyId, month);
      let line = counted ? counted.line : encoder.encode(`${keyId} ${month}\n`);
      // Past the reserved bytes (or no live file): a new file starts this key and month again with a full line.
      if (used + line.length > reserved && makeRoom(line.length) && counted) {
        counted = undefined;
        line = encoder.encode(`${keyId} ${month}\n`);
        makeRoom(line.length);
      }
      // A byte loop: the line is a few bytes, and TypedArray.set costs ten times as much for so few.
      for (let i = 0; i < line.length; i++) live[used + i] = line[i]!;
      used += line.length;
      if (counted) counted.row.requests += 1;
      else counted = tally.add(keyId, month);
      last = counted;
    },
    unflushed: (keyId, month) => tally.get(keyId, month),
    seal,
    batches() {
      const found: { id: string; at: number }[] = [];
      for (const name of readdirSync(dir)) {
        const m = /^batch-([0-9a-f-]+)\.log$/.exec(name);
        if (!m) continue;
        try {
          found.push({ id: m[1]!, at: statSync(join(dir, name)).mtimeMs });
        } catch {
          // Applied and removed by another process meanwhile.
        }
      }
      found.sort((a, b) => a.at - b.at);
      const out: UsageBatch[] = [];
      for (const { id } of found) {
        // This process's own batch: its counts are known without reading the file back.
        const own = tally.rowsOf(id);
        if (own) {
          out.push({ id, rows: own });
          continue;
        }
        let text: string;
        try {
          text = readFileSync(batchPath(id), "utf8");
        } catch {
          continue;
        }
        out.push({ id, rows: parseJournal(text) });
      }
      return out;
    },
    remove(id) {
      // The database holds it: its counts are not pending any more, even if the file cannot be deleted yet (the next
      // flush finds it applied and only deletes it).
      tally.drop(id);
      rmSync(batchPath(id), { force: true });
    },
    close() {
      if (live.length === 0) return;
      // Nothing unsealed: the empty live file goes. Otherwise it is cut to its records and sealed as a batch, which
      // the next flush applies (this process's or the next one's); a directory that refuses the rename leaves it live,
      // for the next process to adopt.
      if (tally.empty()) rmSync(livePath, { force: true });
      else {
        try {
          ftruncateSync(fd, used);
        } catch {}
      }
      const unsealed = tally.empty() ? null : livePath;
      closeLive();
      if (unsealed) {
        try {
          renameSync(unsealed, batchPath(crypto.randomUUID()));
        } catch {}
      }
    },
  };
}

/** The same journal in memory: exact while the process lives, gone with it. */
function memoryJournal(): UsageJournal {
  const tally = tallies();
  return {
    location: ":memory:",
    record: (keyId, month) => tally.add(keyId, month),
    unflushed: (keyId, month) => tally.get(keyId, month),
    seal() {
      if (tally.empty()) return null;
      const id = crypto.randomUUID();
      tally.seal(id);
      return id;
    },
    batches: () => tally.sealedIds().map((id) => ({ id, rows: tally.rowsOf(id)! })),
    remove: (id) => tally.drop(id),
    close() {},
  };
}
