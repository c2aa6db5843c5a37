import type { Config } from "../config";
import { serveCommand } from "./serve";
import { migrateCommand } from "./migrate";

export type Command = { summary: string; usage?: string; run(args: string[], config: Config): Promise<void> };

export const commands: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
};
