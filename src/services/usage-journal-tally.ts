// The usage journal's records (usage-journal.ts) as counts: a file's text read back into counts per key and month,
// and the counts of what this process journaled, live and per sealed batch, with the line each next request writes.

export type UsageRow = { keyId: string; month: string; requests: number };

const LINE = /^([0-9A-Za-z-]{1,64}) (\d{4}-\d{2})$/;

/**
 * Counts per key and month of a journal file's text (full lines and `*<n>` references to the n-th full line); the
 * zeroed tail of a live file, and lines that are not whole records (a torn tail), are skipped.
 */
export function parseJournal(text: string): UsageRow[] {
  const end = text.indexOf("\0");
  const lines = (end < 0 ? text : text.slice(0, end)).split("\n");
  // The text after the last newline is a record being written when the process died: not counted.
  lines.pop();
  // Full lines in order of appearance (a reference names one by its position), each with its count.
  const full: { line: string; requests: number }[] = [];
  const byLine = new Map<string, { line: string; requests: number }>();
  for (const line of lines) {
    if (line.startsWith("*")) {
      const n = /^\*(\d{1,9})$/.test(line) ? Number(line.slice(1)) : -1;
      if (n >= 0 && n < full.length) full[n]!.requests += 1;
      continue;
    }
    // A repeated full line (files written before references existed) counts for the same key and month.
    let counted = byLine.get(line);
    if (!counted) byLine.set(line, (counted = { line, requests: 0 }));
    counted.requests += 1;
    full.push(counted);
  }
  const rows: UsageRow[] = [];
  for (const { line, requests } of byLine.values()) {
    const m = LINE.exec(line);
    if (m) rows.push({ keyId: m[1]!, month: m[2]!, requests });
  }
  return rows;
}

const encoder = new TextEncoder();
const referenceLine = (n: number) => encoder.encode(`*${n}\n`);

/** A value per key and month, found without building a combined string (this runs on every metered request). */
function perKeyMonth<T>() {
  const byKey = new Map<string, Map<string, T>>();
  return {
    get: (keyId: string, month: string): T | undefined => byKey.get(keyId)?.get(month),
    set(keyId: string, month: string, value: T) {
      let byMonth = byKey.get(keyId);
      if (!byMonth) byKey.set(keyId, (byMonth = new Map()));
      byMonth.set(month, value);
    },
    *values(): Iterable<T> {
      for (const m of byKey.values()) yield* m.values();
    },
    get size() {
      return byKey.size;
    },
  };
}

/**
 * Counts of what this process journaled: the live ones and each sealed batch's, so readers can add what is not in
 * the database yet, and this process applies its own batches without reading them back.
 */
export function tallies() {
  // With each live count, the line that records one more request of its key and month in the current file.
  let live = perKeyMonth<{ row: UsageRow; line: Uint8Array }>();
  let fullLines = 0;
  const sealed = new Map<string, UsageRow[]>();
  return {
    /** The live count of a key and month, if it has one in the current batch. */
    live: (keyId: string, month: string) => live.get(keyId, month),
    /** Counts one request; returns the live count it went to. */
    add(keyId: string, month: string) {
      let e = live.get(keyId, month);
      if (e) e.row.requests += 1;
      else live.set(keyId, month, (e = { row: { keyId, month, requests: 1 }, line: referenceLine(fullLines++) }));
      return e;
    },
    seal(id: string) {
      sealed.set(
        id,
        [...live.values()].map((e) => e.row),
      );
      live = perKeyMonth();
      fullLines = 0;
    },
    /** The rows of a batch this process sealed; undefined for another process's. */
    rowsOf: (id: string) => sealed.get(id),
    sealedIds: () => [...sealed.keys()],
    drop(id: string) {
      sealed.delete(id);
    },
    get(keyId: string, month: string) {
      let n = live.get(keyId, month)?.row.requests ?? 0;
      for (const rows of sealed.values())
        for (const r of rows) if (r.keyId === keyId && r.month === month) n += r.requests;
      return n;
    },
    empty: () => live.size === 0,
  };
}
