import type { Config } from "../config";
import { serveCommand } from "./serve";
import { devCommand } from "./dev";
import { migrateCommand } from "./migrate";
import { seedCommand } from "./seed";
import { importCommand } from "./import";
import { deriveCommand } from "./derive";
import { keysCommand } from "./keys";
import { subscriptionsCommand } from "./subscriptions";
import { mailCommand } from "./mail";

export type Command = { summary: string; usage?: string; run(args: string[], config: Config): Promise<void> };

export const commands: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  seed: seedCommand,
  import: importCommand,
  derive: deriveCommand,
  dev: devCommand,
  keys: keysCommand,
  subscriptions: subscriptionsCommand,
  mail: mailCommand,
};
