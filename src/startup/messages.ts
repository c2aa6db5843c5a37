// What the server's threads tell each other while it starts (src/commands/serve.ts, src/startup/*).
import type { Config } from "../config";

export type StartupProgress = { step: string; done: number; total: number };
export type StartupState = StartupProgress & { started_at: string };

/** To the seed worker: the server's configuration and the time the seed stamps. */
export type SeedRequest = { config: Config; now: string };
export type SeedWorkerMessage = ({ type: "progress" } & StartupProgress) | { type: "done"; seeded: boolean } | { type: "error"; message: string };

export type StartingServerRequest =
  | { type: "listen"; port: number; hostname: string; version: string; database: "pglite" | "postgres"; state: StartupState }
  | { type: "progress"; state: StartupState }
  | { type: "stop" };
export type StartingServerReply = { type: "listening"; port: number } | { type: "stopped" } | { type: "error"; message: string };
