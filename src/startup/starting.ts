// What the server answers between listening and serving data (src/commands/serve.ts): /api/health 200 with what the
// start is doing (`status: starting`, `startup` with the step and its progress), so a supervisor sees a live process;
// every other path 503 SERVICE_UNAVAILABLE with Retry-After, since nothing can be read or paid for yet. Plain
// Response objects: nothing of the app is loaded or needed for this.
import type { HealthStarting } from "../schemas/discovery";
import { CONTRACT_VERSION } from "../version";
import type { StartupProgress } from "./prepare";

export type StartupState = StartupProgress & { started_at: string };

/** Seconds a client is asked to wait before retrying a data route while the service starts. */
export const STARTING_RETRY_AFTER_SECONDS = 5;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });

export function startingFetch(state: StartupState, info: { version: string; database: "pglite" | "postgres" }): (req: Request) => Response {
  return (req) => {
    const startup = { step: state.step, done: state.done, total: state.total, started_at: state.started_at };
    if (new URL(req.url).pathname === "/api/health") {
      const body: HealthStarting = { status: "starting", version: info.version, contract_version: CONTRACT_VERSION, database: { kind: info.database }, startup };
      return json(200, body);
    }
    return json(
      503,
      { error: { code: "SERVICE_UNAVAILABLE", message: `The service is starting (${state.step}); retry in a few seconds.`, details: { startup } } },
      { "retry-after": String(STARTING_RETRY_AFTER_SECONDS) },
    );
  };
}
