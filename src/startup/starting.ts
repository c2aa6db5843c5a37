// What the server answers between listening and serving data (src/commands/serve.ts, on the thread of
// src/startup/starting-server.ts): /api/health 200 with what the
// start is doing (`status: starting`, `startup` with the step and its progress), so a supervisor sees a live process;
// every other path 503 SERVICE_UNAVAILABLE with Retry-After, since nothing can be read or paid for yet. Plain
// Response objects: nothing of the app is loaded or needed for this.
import type { HealthStarting } from "../schemas/discovery";
import { CONTRACT_VERSION } from "../version";
import type { StartingServerReply, StartingServerRequest, StartupState } from "./messages";
import { workerEntry } from "./worker-entry";

export type { StartupState } from "./messages";

/** Seconds a client is asked to wait before retrying a data route while the service starts. */
export const STARTING_RETRY_AFTER_SECONDS = 5;

// `connection: close`: a client's next request connects anew, and so reaches the app once it serves.
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", connection: "close", ...headers },
  });

export function startingFetch(
  state: StartupState,
  info: { version: string; database: "pglite" | "postgres" },
): (req: Request) => Response {
  return (req) => {
    const startup = { step: state.step, done: state.done, total: state.total, started_at: state.started_at };
    if (new URL(req.url).pathname === "/api/health") {
      const body: HealthStarting = {
        status: "starting",
        version: info.version,
        contract_version: CONTRACT_VERSION,
        database: { kind: info.database },
        startup,
      };
      return json(200, body);
    }
    return json(
      503,
      {
        error: {
          code: "SERVICE_UNAVAILABLE",
          message: `The service is starting (${state.step}); retry in a few seconds.`,
          details: { startup },
        },
      },
      { "retry-after": String(STARTING_RETRY_AFTER_SECONDS) },
    );
  };
}

/** The starting listener on its own thread (src/startup/starting-server.ts): its port, progress updates, stop. */
export type StartingServer = { port: number; update(state: StartupState): void; stop(): Promise<void> };

export function startStartingServer(opts: {
  port: number;
  hostname: string;
  version: string;
  database: "pglite" | "postgres";
  state: StartupState;
}): Promise<StartingServer> {
  const worker = new Worker(workerEntry("starting-server"), { smol: true });
  return new Promise((resolve, reject) => {
    let stopped: (() => void) | null = null;
    worker.onmessage = (event: MessageEvent<StartingServerReply>) => {
      const m = event.data;
      if (m.type === "listening") {
        resolve({
          port: m.port,
          update: (state) => worker.postMessage({ type: "progress", state } satisfies StartingServerRequest),
          stop: () =>
            new Promise<void>((done) => {
              stopped = () => {
                worker.terminate();
                done();
              };
              worker.postMessage({ type: "stop" } satisfies StartingServerRequest);
            }),
        });
      } else if (m.type === "stopped") stopped?.();
      else {
        worker.terminate();
        reject(new Error(m.message));
      }
    };
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage({ type: "listen", ...opts } satisfies StartingServerRequest);
  });
}
