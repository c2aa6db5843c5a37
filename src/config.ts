// The one place configuration is read. Only entry points (server.ts, cli.ts) pass the environment to loadConfig();
// everything else receives the parsed Config.
import { z } from "zod";

const logLevels = ["debug", "info", "warn", "error", "silent"] as const;

export const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  // Unset (or not a postgres URL): the embedded PGlite database under DATA_DIR.
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(logLevels).default("info"),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  publicBaseUrl: string | null;
  logLevel: (typeof logLevels)[number];
};

export function isPostgresUrl(url: string | undefined | null): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  if (c.DATABASE_URL && !isPostgresUrl(c.DATABASE_URL)) {
    throw new ConfigError(`invalid configuration:\n  DATABASE_URL: must be a postgres:// or postgresql:// URL, or unset for the embedded database`);
  }
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL ?? null,
    dataDir: c.DATA_DIR,
    publicBaseUrl: c.PUBLIC_BASE_URL ? c.PUBLIC_BASE_URL.replace(/\/+$/, "") : null,
    logLevel: c.LOG_LEVEL,
  };
}
