// JSON-lines logger. Never pass keys, tokens or secrets in fields: nothing here redacts them.
import type { Config } from "./config";

const rank = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof rank, "silent">;

export type Logger = Record<Level, (msg: string, fields?: Record<string, unknown>) => void>;

export function createLogger(level: Config["logLevel"], write: (line: string) => void = (l) => process.stderr.write(l + "\n")): Logger {
  const make = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] < rank[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }));
  };
  return { debug: make("debug"), info: make("info"), warn: make("warn"), error: make("error") };
}
