// Shared plumbing of the key, subscription and mail commands: argument parsing, the dependencies they run
// on (the same services as the HTTP API) and output.
import { parseArgs } from "node:util";
import { openConfiguredDatabase } from "../configured-database";
import type { Config } from "../config";
import type { Database } from "../../db/client";
import type { Deps } from "../deps";
import { createCaches, type Caches } from "../services/caches";
import { CliError } from "./cli-error";
import type { CommandContext } from "./command";

export type Flags = Record<string, string | boolean | string[] | undefined>;
type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

export function parseFlags(args: string[], options: OptionSpec): Flags {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values as Flags;
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e));
  }
}

/**
 * Runs `fn` on the configured database and services, closing everything afterwards; inside a running server, on the
 * server's own (left open).
 */
export async function withDeps<T>(config: Config, ctx: CommandContext, fn: (deps: Deps) => Promise<T>): Promise<T> {
  if (ctx.server) return fn(ctx.server);
  // Loaded here: the data commands (import, ingest, signals) share this module and need none of it.
  const { buildDeps } = await import("../bootstrap");
  const deps = await buildDeps(config);
  try {
    return await fn(deps);
  } finally {
    await deps.keys.close();
    await deps.mail.close();
    deps.rateLimits.close();
    await deps.database.close();
  }
}

/** The database and its caches, for the data commands (import, ingest, signals): the running server's when inside it. */
export async function withDatabase<T>(
  config: Config,
  ctx: CommandContext,
  opts: { maintenance?: boolean },
  fn: (store: { database: Database; caches: Caches }) => Promise<T>,
): Promise<T> {
  if (ctx.server) return fn({ database: ctx.server.database, caches: ctx.server.caches });
  const database = await openConfiguredDatabase(config, opts);
  try {
    return await fn({ database, caches: createCaches(database) });
  } finally {
    await database.close();
  }
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new CliError(`--${flag} must be a positive integer`);
  return Number(value);
}

export function printRows(ctx: CommandContext, rows: Record<string, unknown>[]): void {
  if (rows.length === 0) {
    ctx.out("(none)");
    return;
  }
  for (const r of rows)
    ctx.out(
      Object.entries(r)
        .map(([k, v]) => `${k}=${v ?? "-"}`)
        .join("  "),
    );
}
