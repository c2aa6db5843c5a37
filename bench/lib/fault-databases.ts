// The faults bench's databases (bench/faults.ts): one seeded template on the PostgreSQL instance it started, and a
// copy of it per fault (CREATE DATABASE ... TEMPLATE) with a key of its own, so no fault sees another's counts.
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { sha256Hex } from "../../src/domain/keys";
import { cli } from "./serve-app";

/** Seeds the template (through `svc seed`), then hands out copies of it and reads a key's metered usage. */
export async function faultDatabases(
  pgUrl: string,
  baseEnv: Record<string, string>,
  scratch: string,
  log: (msg: string) => void,
) {
  const adminSql = () => postgres(pgUrl, { max: 1, onnotice: () => {} });
  const dbUrl = (name: string) => Object.assign(new URL(pgUrl), { pathname: `/${name}` }).toString();
  let counter = 0;

  // One seeded template; each fault gets a copy (CREATE DATABASE ... TEMPLATE), so none sees another's counts.
  log("seeding a template database");
  {
    const sql = adminSql();
    await sql.unsafe("create database faults_template");
    await sql.end();
    await cli(["seed"], {
      ...baseEnv,
      DATABASE_URL: dbUrl("faults_template"),
      DATA_DIR: mkdtempSync(join(scratch, "seed-")),
      LOG_LEVEL: "error",
    });
  }
  async function freshDatabase(): Promise<{ url: string; key: string; keyId: string }> {
    const name = `faults_${++counter}`;
    const sql = adminSql();
    await sql.unsafe(`create database ${name} template faults_template`);
    await sql.end();
    const url = dbUrl(name);
    const env = { ...baseEnv, DATABASE_URL: url, DATA_DIR: mkdtempSync(join(scratch, "cli-")), LOG_LEVEL: "error" };
    const key = (await cli(["keys", "create", "--plan", "free", "--rate-limit", "2000000000"], env)).split("\n")[0]!;
    const db = postgres(url, { max: 1, onnotice: () => {} });
    const [row] = await db`select id from api_keys where secret_hash = ${sha256Hex(key)}`;
    await db.end();
    return { url, key, keyId: row!.id };
  }
  async function usageOf(url: string, keyId: string): Promise<number> {
    const db = postgres(url, { max: 1, onnotice: () => {} });
    const [row] = await db`select coalesce(sum(requests), 0)::int as n from key_usage where key_id = ${keyId}`;
    await db.end();
    return row!.n;
  }
  /** A new empty database (for nodes starting at once on one); its URL. */
  async function emptyDatabase(): Promise<string> {
    const name = `faults_empty_${++counter}`;
    const sql = adminSql();
    await sql.unsafe(`create database ${name}`);
    await sql.end();
    return dbUrl(name);
  }
  return { freshDatabase, usageOf, emptyDatabase };
}
