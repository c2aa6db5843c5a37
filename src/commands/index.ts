import type { Command } from "./command";
import { serveCommand } from "./serve";
import { devCommand } from "./dev";
import { migrateCommand } from "./migrate";
import { seedCommand } from "./seed";
import { importCommand } from "./import";
import { deriveCommand } from "./derive";
import { keysCommand } from "./keys";
import { subscriptionsCommand } from "./subscriptions";
import { mailCommand } from "./mail";
import { signalsCommand } from "./signals";

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
  signals: signalsCommand,
};
