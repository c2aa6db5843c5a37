// `bun run svc <command>` and the compiled binary's subcommands. Each command lives in src/commands/.
import { ConfigError, loadConfig } from "./config";
import { DataDirLockedError } from "../db/client";
import { commands } from "./commands";
import { CliError } from "./commands/cli-error";
import { CONTRACT_VERSION, SERVICE_VERSION } from "./version";

function usage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: svc <command> [options]\n\ncommands:\n${rows.join("\n")}\n  ${"version".padEnd(10)} Print the version (also --version)\n\nRun 'svc <command> --help' for a command's options.`;
}

export async function runCli(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return;
  }
  if (name === "version" || name === "--version" || name === "-v") {
    console.log(`svc ${SERVICE_VERSION} (contract ${CONTRACT_VERSION})`);
    return;
  }
  const command = commands[name];
  if (!command) {
    console.error(`svc: unknown command '${name}'\n\n${usage()}`);
    process.exit(2);
  }
  try {
    if (rest.includes("--help") || rest.includes("-h")) {
      console.log(`usage: svc ${name} ${command.usage ?? ""}\n\n${command.summary}`);
      return;
    }
    const config = loadConfig(process.env);
    await command.run(rest, config);
  } catch (e) {
    if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof CliError) {
      console.error(`svc ${name}: ${e.message}`);
      process.exit(e instanceof CliError ? e.exitCode : 1);
    }
    throw e;
  }
}

if (import.meta.main) await runCli(process.argv.slice(2));
