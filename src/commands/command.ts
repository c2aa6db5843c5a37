// What every CLI command is. Its own module so each command can name it without importing the index that lists them all.
import type { Config } from "../config";

export type Command = { summary: string; usage?: string; run(args: string[], config: Config): Promise<void> };
