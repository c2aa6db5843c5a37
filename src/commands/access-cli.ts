// Shared plumbing of the key, subscription and mail commands: argument parsing, the dependencies they run
// on (the same services as the HTTP API) and output.
import { parseArgs } from "node:util";
import { buildDeps } from "../bootstrap";
import type { Config } from "../config";
import type { Deps } from "../deps";
import { CliError } from "./cli-error";

export type Flags = Record<string, string | boolean | string[] | undefined>;
type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

export function parseFlags(args: string[], options: OptionSpec): Flags {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values as Flags;
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e));
  }
}

/** Runs `fn` on the configured database and services, closing everything afterwards. */
export async function withDeps<T>(config: Config, fn: (deps: Deps) => Promise<T>): Promise<T> {
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

export function baseUrlOf(config: Config): string {
  return config.publicBaseUrl ?? `http://localhost:${config.port}`;
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new CliError(`--${flag} must be a positive integer`);
  return Number(value);
}

export function printRows(rows: Record<string, unknown>[]): void {
  if (rows.length === 0) {
    console.log("(none)");
    return;
  }
  for (const r of rows) console.log(Object.entries(r).map(([k, v]) => `${k}=${v ?? "-"}`).join("  "));
}
