// JSON-lines logger. Never pass keys, tokens or secrets in fields. One thing is redacted here, because it reaches logs
// through every error message without anyone choosing to log it: the parameters of a failed query. drizzle's query
// errors carry them in their message ("Failed query: <sql>\nparams: <values>"), and those values are secret hashes,
// emails and tokens; every string and error logged has them replaced, the SQL text itself stays.
import type { Config } from "./config";

const rank = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof rank, "silent">;

export type Logger = Record<Level, (msg: string, fields?: Record<string, unknown>) => void>;

// The parameter list runs to the end of the message: in a stack trace, to its first frame.
const QUERY_PARAMS = /\nparams: [\s\S]*?(?=\n\s+at |$)/g;

/** `text` with the parameter lists of failed queries replaced (error messages, stack traces). */
export function redactQueryParams(text: string): string {
  return text.includes("\nparams: ") ? text.replace(QUERY_PARAMS, "\nparams: [redacted]") : text;
}

/** An error as a log line or a terminal shows it: its text (`String(e)`), query parameters redacted. */
export function describeError(e: unknown): string {
  return redactQueryParams(String(e));
}

function redactField(v: unknown): unknown {
  if (typeof v === "string") return redactQueryParams(v);
  if (v instanceof Error) return describeError(v);
  return v;
}

export function createLogger(
  level: Config["logLevel"],
  write: (line: string) => void = (l) => process.stderr.write(l + "\n"),
): Logger {
  const make = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] < rank[level]) return;
    const safe: Record<string, unknown> = {};
    for (const k in fields) safe[k] = redactField(fields[k]);
    write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg: redactQueryParams(msg), ...safe }));
  };
  return { debug: make("debug"), info: make("info"), warn: make("warn"), error: make("error") };
}

/** An error's message, whether it is an Error, a plain object carrying one (as pg-boss emits), or anything else. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  const message = (e as { message?: unknown })?.message;
  return typeof message === "string" ? message : String(e);
}
