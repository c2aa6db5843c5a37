// Multi-row writes take their row locks in the order of their rows: two transactions writing overlapping rows in
// different orders can deadlock (two nodes' key_usage batches did, once, after a PostgreSQL restart; the retry kept
// the counts exact). Every multi-row upsert and batch update sorts its rows by its conflict target first, so any two
// writers lock shared rows in one order and the second waits instead.

/** `rows` sorted by `key` (the conflict target's values, joined), in code-unit order: one order for every writer. */
export function inKeyOrder<T>(rows: readonly T[], key: (row: T) => string): T[] {
  return rows
    .map((row) => ({ k: key(row), row }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((e) => e.row);
}

/** Joins a conflict target's values into one sort key (NUL cannot appear in them). */
export const targetKey = (...parts: (string | number | null | undefined)[]): string =>
  parts.map((p) => String(p ?? "")).join("\u0000");
