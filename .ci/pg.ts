// PostgreSQL helpers for .ci/run and the binary smoke test, so CI needs no psql client:
//   bun .ci/pg.ts ping   <url>          exit 0 when a connection answers `select 1`
//   bun .ci/pg.ts create <url> <name>   CREATE DATABASE <name>; prints the URL of the new database
//   bun .ci/pg.ts drop   <url> <name>   DROP DATABASE IF EXISTS <name> WITH (FORCE)
//   bun .ci/pg.ts list   <url> <prefix> names of the databases starting with <prefix>, one a line
import postgres from "postgres";

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Host and port for messages; never the password. */
export function describeUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "5432"}${u.pathname}${u.username ? ` (user ${decodeURIComponent(u.username)})` : ""}`;
}

function admin(url: string) {
  return postgres(url, { max: 1, connect_timeout: 5, idle_timeout: 1, onnotice: () => {} });
}

export async function ping(url: string): Promise<boolean> {
  const sql = admin(url);
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

function checkName(name: string): string {
  // Interpolated into DDL: allow only plain lower-case identifiers.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name: ${name}`);
  return name;
}

export async function createDatabase(url: string, name: string): Promise<string> {
  const sql = admin(url);
  try {
    await sql.unsafe(`CREATE DATABASE ${checkName(name)}`);
  } finally {
    await sql.end({ timeout: 1 });
  }
  return withDatabase(url, name);
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  const sql = admin(url);
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export async function listDatabases(url: string, prefix: string): Promise<string[]> {
  const sql = admin(url);
  try {
    const rows = await sql<{ datname: string }[]>`select datname from pg_database where starts_with(datname, ${prefix}) order by datname`;
    return rows.map((r) => r.datname);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

if (import.meta.main) {
  const [cmd, url, name] = process.argv.slice(2);
  try {
    if (cmd === "ping" && url) process.exit((await ping(url)) ? 0 : 1);
    else if (cmd === "create" && url && name) console.log(await createDatabase(url, name));
    else if (cmd === "drop" && url && name) await dropDatabase(url, name);
    else if (cmd === "list" && url && name) for (const n of await listDatabases(url, name)) console.log(n);
    else {
      console.error("usage: bun .ci/pg.ts ping <url> | create <url> <name> | drop <url> <name> | list <url> <prefix>");
      process.exit(2);
    }
  } catch (e) {
    console.error(`pg.ts ${cmd}: ${(e as Error).message}`);
    process.exit(1);
  }
}
