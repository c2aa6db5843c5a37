// What every CLI command is. Its own module so each command can name it without importing the index that lists them all.
import type { Config } from "../config";
import type { Deps } from "../deps";
import type { EarlyListener } from "../startup/early";

/**
 * Where a command writes and what it runs on. From a terminal: the console, and dependencies the command opens and
 * closes itself. Inside a running server (the local administrative interface, src/admin/): the lines go back to the
 * CLI that asked, and `server` is the server's own dependencies (its database, caches and key cache), so a change is
 * seen by that server at once.
 */
export type CommandContext = {
  out(line: string): void;
  err(line: string): void;
  /** The directory relative paths (an import FILE) are read from: the CLI's, wherever the command runs. */
  cwd: string;
  /** Progress bars are drawn only on a terminal of this process. */
  tty: boolean;
  server?: Deps;
  /** Runs an administrative command line in this process (what `svc serve` hands its administrative interface). */
  dispatch?: (argv: string[], ctx: CommandContext) => Promise<number>;
  /** The starting listener an entry point started before the CLI was loaded (src/startup/early.ts): serve takes it over. */
  early?: EarlyListener;
};

/** A command's module (its one-line summary is in the index, src/commands/index.ts). */
export type Command = {
  usage?: string;
  /** Per subcommand: its usage line and options (`svc <command> <subcommand> --help`). */
  help?: Record<string, string>;
  /** Environment variables the command reads besides DATA_DIR / DATABASE_URL (shown by --help). */
  env?: string[];
  /** Serves (serve, worker): logs at LOG_LEVEL without --verbose. */
  serves?: boolean;
  /** Carried out by the running server when it holds the embedded database (src/admin/). */
  admin?: boolean;
  run(args: string[], config: Config, ctx?: CommandContext): Promise<void>;
};

export function consoleContext(): CommandContext {
  return {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
    cwd: process.cwd(),
    tty: Boolean(process.stderr.isTTY),
  };
}

/** A command as the index lists it: its one-line summary, and its module loaded only when it runs or shows its help. */
export type CommandEntry = { summary: string; load: () => Promise<Command> };
