// Every CLI command: its one-line summary (the usage listing loads no command) and its module, loaded only when that
// command runs or shows its help (each module pulls in what it runs: loading them all cost a CLI call about 0.5 s).
import type { CommandEntry } from "./command";

export const commands: Record<string, CommandEntry> = {
  serve: {
    summary: "Start the HTTP server (migrates, and seeds an empty database with real sample data).",
    load: async () => (await import("./serve")).serveCommand,
  },
  worker: {
    summary:
      "Run provisioning and refresh jobs in this process (scale-out: workers and API nodes share one PostgreSQL).",
    load: async () => (await import("./worker")).workerCommand,
  },
  migrate: {
    summary: "Apply database migrations (also done on every start).",
    load: async () => (await import("./migrate")).migrateCommand,
  },
  seed: {
    summary: "Seed regions, the catalog and the real data snapshot (idempotent), then VACUUM ANALYZE.",
    load: async () => (await import("./seed")).seedCommand,
  },
  import: {
    summary: "Load a CSV into the series of an indicator and region (FRED date,value files need no flags).",
    load: async () => (await import("./import")).importCommand,
  },
  ingest: {
    summary: "Fetch catalog series from their upstream providers now (FRED, BLS, Census ACS, World Bank).",
    load: async () => (await import("./ingest")).ingestCommand,
  },
  derive: {
    summary:
      "Recompute the derived svc: series from their inputs (the service's writers already do; for data written otherwise).",
    load: async () => (await import("./derive")).deriveCommand,
  },
  flows: {
    summary: "Load origin-destination flows (IRS SOI county migration files of one year pair) for GET /v1/flows.",
    load: async () => (await import("./flows")).flowsCommand,
  },
  dev: {
    summary: "Development helpers: 'dev pay <bolt11>' pays a development Lightning invoice and prints its preimage.",
    load: async () => (await import("./dev")).devCommand,
  },
  keys: {
    summary: "Create, list, rotate and revoke API keys, change their plan, read their usage.",
    load: async () => (await import("./keys")).keysCommand,
  },
  subscriptions: {
    summary: "Create and manage subscriptions without a payment provider (create prints the new key once).",
    load: async () => (await import("./subscriptions")).subscriptionsCommand,
  },
  mail: {
    summary: "List outgoing mail (the local outbox when SMTP_URL is not set).",
    load: async () => (await import("./mail")).mailCommand,
  },
  signals: {
    summary: "Detect signals (acceleration, extreme, trend_break) over held series and store their intervals.",
    load: async () => (await import("./signals")).signalsCommand,
  },
};
