// `bun run svc <command>` and the compiled binary's subcommands. Each command lives in src/commands/.
import { ConfigError, loadConfig, type Config } from "./config";
import { DataDirLockedError } from "../db/client";
import { commands } from "./commands";
import { CliError } from "./commands/cli-error";
import { consoleContext, type Command, type CommandContext } from "./commands/command";
import { commandHelp } from "./commands/help";
import { runningServer, runOnServer } from "./admin/client";
import { CONTRACT_VERSION, SERVICE_VERSION } from "./version";
import type { EarlyListener } from "./startup/early";

function usage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: svc <command> [options]\n\ncommands:\n${rows.join("\n")}\n  ${"version".padEnd(10)} Print the version (also --version)\n\nRun 'svc <command> --help' for a command's options; --verbose shows log lines.`;
}

/** Runs one command; a failure a user can act on is one line on stderr and an exit status. */
async function runCommand(
  name: string,
  command: Command,
  args: string[],
  config: Config,
  ctx: CommandContext,
): Promise<number> {
  try {
    await command.run(args, config, ctx);
    return 0;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof CliError) {
      ctx.err(`svc ${name}: ${e.message}`);
      return e instanceof CliError ? e.exitCode : 1;
    }
    throw e;
  }
}

/** `early`: the starting listener the entry point started before loading this module (src/startup/early.ts). */
export async function runCli(argv: string[], opts: { early?: EarlyListener | null } = {}): Promise<void> {
  const verbose = argv.includes("--verbose");
  const [name, ...rest] = argv.filter((a) => a !== "--verbose");
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return;
  }
  if (name === "version" || name === "--version" || name === "-v") {
    console.log(`svc ${SERVICE_VERSION} (contract ${CONTRACT_VERSION})`);
    return;
  }
  const entry = commands[name];
  if (!entry) {
    console.error(`svc: unknown command '${name}'\n\n${usage()}`);
    process.exit(2);
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(commandHelp(name, entry, command, rest[0]));
    return;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`svc ${name}: ${e.message}`);
    process.exit(1);
  }
  // A command's own output comes first: log lines (the payment rails, ...) only with --verbose. The server logs.
  if (!verbose && !command.serves && (config.logLevel === "debug" || config.logLevel === "info"))
    config = { ...config, logLevel: "warn" };
  const ctx: CommandContext = { ...consoleContext(), ...(opts.early ? { early: opts.early } : {}) };
  let code: number;
  try {
    const server = command.admin ? runningServer(config) : null;
    code = server
      ? await runOnServer(server, [name, ...rest], { stdout: ctx.out, stderr: ctx.err })
      : await runCommand(name, command, rest, config, {
          ...ctx,
          dispatch: (line, inServer) => dispatchAdmin(line, config, inServer),
        });
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    console.error(`svc ${name}: ${e.message}`);
    code = e.exitCode;
  }
  if (code !== 0) process.exit(code);
}

/** What the running server's administrative interface carries out: an administrative command, on the server's config. */
async function dispatchAdmin(argv: string[], config: Config, ctx: CommandContext): Promise<number> {
  const [name, ...rest] = argv;
  const command = await commands[name!]?.load();
  if (!command?.admin) {
    ctx.err(`svc: '${name}' is not an administrative command the running server carries out`);
    return 2;
  }
  return runCommand(name!, command, rest, config, ctx);
}

if (import.meta.main) await runCli(process.argv.slice(2));
