// The listener of a starting server, on a thread of its own (src/startup/starting.ts answers): opening the embedded
// database and building the app run on the server's main thread, and a WebAssembly database blocks that thread while
// it starts. This thread stays free, so /api/health answers throughout. It listens with SO_REUSEPORT: the main thread
// binds the same port when it is ready, then this one stops listening and ends.
import type { StartingServerReply, StartingServerRequest, StartupState } from "./messages";
import { startingFetch } from "./starting";

declare const self: Worker;

const post = (m: StartingServerReply) => self.postMessage(m);
let server: ReturnType<typeof Bun.serve> | null = null;
const state: StartupState = { step: "starting", done: 0, total: 0, started_at: new Date().toISOString() };

self.onmessage = (event: MessageEvent<StartingServerRequest>) => {
  const m = event.data;
  if (m.type === "listen") {
    Object.assign(state, m.state);
    try {
      server = Bun.serve({
        port: m.port,
        hostname: m.hostname,
        reusePort: true,
        development: false,
        fetch: startingFetch(state, { version: m.version, database: m.database }),
      });
      post({ type: "listening", port: server.port! });
    } catch (e) {
      post({ type: "error", message: e instanceof Error ? e.message : String(e) });
    }
  } else if (m.type === "progress") {
    Object.assign(state, m.state);
  } else {
    // Connections still open are closed: their next request connects again, to the main thread's listener.
    void Promise.resolve(server?.stop(true)).then(() => post({ type: "stopped" }));
  }
};
