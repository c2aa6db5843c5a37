// COPY of CSV text into a table, on either backend: postgres.js COPY FROM STDIN, PGlite COPY FROM '/dev/blob'. What
// bulk loads use for rows the table does not hold yet (db/bulk-load.ts: new series; db/seed/flows.ts: the flows of a
// fresh database). postgres.js can leak its connection when the server rejects COPY data (its issue 1173): callers
// validate every row before a byte is sent, and the copy has a timeout after which the query is cancelled.
import type { Transaction } from "@electric-sql/pglite";
import type postgres from "postgres";
import type { Database } from "./client";

const COPY_TIMEOUT_MS = 120_000;

async function withTimeout<T>(what: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      what,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          onTimeout();
          reject(new Error(`bulk load: COPY did not finish within ${ms / 1000} s`));
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** COPY inside a postgres.js transaction (its statement timeout lifted by the caller). */
export async function copyCsvPostgres(tx: postgres.TransactionSql, target: string, csv: string): Promise<void> {
  const query = tx.unsafe(`copy ${target} from stdin with (format csv)`);
  const stream = await query.writable();
  const done = new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", reject);
  });
  stream.end(csv);
  await withTimeout(done, COPY_TIMEOUT_MS, () => query.cancel());
}

/** COPY inside a PGlite transaction. */
export async function copyCsvPglite(tx: Transaction, target: string, csv: string): Promise<void> {
  await tx.query(`copy ${target} from '/dev/blob' with (format csv)`, [], { blob: new Blob([csv]) });
}

/**
 * COPY inside a PGlite transaction whose caller has made sure every row's references exist (a series the same
 * transaction created, regions read from the table just before): their foreign-key checks, a lookup per row and most
 * of a COPY's time on the embedded database, are skipped for this statement. The embedded database's one role is
 * its superuser, which may set the replication role.
 */
export async function copyCheckedCsvPglite(tx: Transaction, target: string, csv: string): Promise<void> {
  await tx.exec("set local session_replication_role = replica");
  await copyCsvPglite(tx, target, csv);
  await tx.exec("set local session_replication_role = origin");
}

/** One COPY into `target` (`table (columns)`) in a transaction of its own; `checked`: see copyCheckedCsvPglite. */
export async function copyInto(
  database: Pick<Database, "raw">,
  target: string,
  csv: string,
  opts: { checked?: boolean } = {},
): Promise<void> {
  const raw = database.raw;
  if (raw.kind === "postgres") {
    await raw.sql.begin(async (tx) => {
      // A bulk load is maintenance: the service's statement timeout does not apply (the COPY has its own).
      await tx`set local statement_timeout = 0`;
      await copyCsvPostgres(tx, target, csv);
    });
  } else {
    await raw.client.transaction((tx) => (opts.checked ? copyCheckedCsvPglite : copyCsvPglite)(tx, target, csv));
  }
}

/** A CSV field: quoted when it holds a comma, a quote or a line break; null is empty. */
export function csvField(v: string | number | null): string {
  if (v === null) return "";
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
