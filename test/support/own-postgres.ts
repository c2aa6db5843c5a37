// A PostgreSQL instance a fault test starts and stops itself (initdb + pg_ctl; `skip` says why it cannot run here),
// with databases made on it and temporary directories removed after the file. A function, so each file gets its own
// (test files may share one module registry).
import { afterAll, beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import postgres from "postgres";
import { postgresUnavailable, startPostgres, type PgInstance } from "../../bench/lib/instances";

export function ownPostgres() {
  const skip = postgresUnavailable();
  if (skip) console.warn(`skipped (PostgreSQL faults): ${skip}`);
  let pg: PgInstance;
  const dirs: string[] = [];
  beforeAll(async () => {
    if (!skip) pg = await startPostgres();
  });
  afterAll(async () => {
    await pg?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  /**
   * A database on the instance: empty, or a copy of `copyOf` when that database exists and nobody is connected to it
   * (the seeded one the first-start race leaves, for tests about something other than seeding).
   */
  async function createDatabase(name: string, copyOf?: string): Promise<string> {
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    const copied = copyOf
      ? await admin.unsafe(`create database ${name} template ${copyOf}`).then(
          () => true,
          () => false,
        )
      : false;
    if (!copied) await admin.unsafe(`create database ${name}`);
    await admin.end();
    const u = new URL(pg.url);
    u.pathname = `/${name}`;
    return u.toString();
  }
  return {
    skip,
    dirs,
    createDatabase,
    get pg() {
      return pg;
    },
  };
}
