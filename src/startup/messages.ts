// What the server's threads tell each other (src/commands/serve.ts, src/startup/*): while it starts, and the job thread.
import type { DetectionSummary } from "../ports";
import type { SeriesChange } from "../../db/events";
import type { PgNotification, PgReply, PgRequest } from "../../db/pglite-remote";
import type { DataFamilyId } from "../../db/seed/families";
import type { Config } from "../config";

export type StartupProgress = { step: string; done: number; total: number };
export type StartupState = StartupProgress & { started_at: string };

/**
 * To the database's thread (src/startup/database-thread.ts): start with this configuration and time; a statement; stop;
 * trim; the job thread's port (null: let go of it, the job thread is gone).
 */
export type ToDatabaseThread =
  | { start: { config: Config; now: string } }
  | { pg: PgRequest }
  | { stop: true }
  | { trim: true }
  | { jobPort: MessagePort | null };

/** From the database's thread. */
export type FromDatabaseThread =
  | { progress: StartupProgress }
  /** The database is open and migrated; `stored`: the families it holds already. */
  | { opened: { stored: DataFamilyId[] } }
  | { stored: DataFamilyId }
  /** Writes made on that thread, for this thread's caches (db/events.ts). */
  | { events: { series?: SeriesChange[]; catalog?: true } }
  /** Everything the start had to store is stored. */
  | { done: { seeded: boolean } }
  | { failed: string }
  | { pg: PgReply }
  | { pgNotify: PgNotification }
  | { stopped: true };

/** To the job thread (src/startup/job-thread.ts): start (`port`: to the database's thread, on the embedded database); stop. */
export type ToJobThread =
  | { start: { config: Config; port: MessagePort | null } }
  | { detect: { id: number; indicatorIds: string[] | null } }
  | { stop: true };

/** From the job thread: its engine runs; its writes, for this thread's caches; its start failed; it stopped. */
export type FromJobThread =
  | { started: true }
  | { events: { series?: SeriesChange[]; catalog?: true } }
  | { detected: { id: number; summary: DetectionSummary } | { id: number; error: string } }
  | { failed: string }
  | { stopped: true };

export type StartingServerRequest =
  | {
      type: "listen";
      port: number;
      hostname: string;
      version: string;
      database: "pglite" | "postgres";
      state: StartupState;
    }
  | { type: "progress"; state: StartupState }
  | { type: "stop" };
export type StartingServerReply =
  | { type: "listening"; port: number }
  | { type: "stopped" }
  | { type: "error"; message: string };
