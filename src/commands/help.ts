// `svc <command> --help` and `svc <command> <subcommand> --help`: the usage, the options and the environment read.
import type { Command, CommandEntry } from "./command";

/** What every command that opens the database reads. */
export const DATABASE_ENV = [
  "DATA_DIR (default ./data: the embedded database and the service's files)",
  "DATABASE_URL (PostgreSQL instead of the embedded database)",
];

export function commandHelp(name: string, entry: CommandEntry, command: Command, sub?: string): string {
  const subHelp = sub !== undefined ? command.help?.[sub] : undefined;
  const lines = [
    subHelp ? `usage: svc ${name} ${subHelp}` : `usage: svc ${name} ${command.usage ?? ""}`.trimEnd(),
    "",
    entry.summary,
  ];
  if (!subHelp && command.help)
    lines.push("", `Run 'svc ${name} <${Object.keys(command.help).join("|")}> --help' for a subcommand's options.`);
  lines.push(
    "",
    "environment:",
    ...(command.env ?? DATABASE_ENV).map((e) => `  ${e}`),
    command.serves ? "  LOG_LEVEL (default info)" : "  LOG_LEVEL (default info; log lines are shown with --verbose)",
  );
  if (command.admin)
    lines.push(
      "",
      "When a running 'svc serve' holds the embedded database, that server carries the command out (the same output).",
    );
  return lines.join("\n");
}
