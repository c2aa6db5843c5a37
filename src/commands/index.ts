import type { Command } from "./command";
import { serveCommand } from "./serve";
import { devCommand } from "./dev";
import { migrateCommand } from "./migrate";
import { seedCommand } from "./seed";
import { importCommand } from "./import";
import { ingestCommand } from "./ingest";
import { deriveCommand } from "./derive";
import { flowsCommand } from "./flows";
import { keysCommand } from "./keys";
import { subscriptionsCommand } from "./subscriptions";
import { mailCommand } from "./mail";
import { workerCommand } from "./worker";
import { signalsCommand } from "./signals";

export const commands: Record<string, Command> = {
  serve: serveCommand,
  worker: workerCommand,
  migrate: migrateCommand,
  seed: seedCommand,
  import: importCommand,
  ingest: ingestCommand,
  derive: deriveCommand,
  flows: flowsCommand,
  dev: devCommand,
  keys: keysCommand,
  subscriptions: subscriptionsCommand,
  mail: mailCommand,
  signals: signalsCommand,
};
