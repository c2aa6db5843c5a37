// The local administrative interface of `svc serve` on the embedded database: the CLI's administrative commands
// (keys, subscriptions, mail, signals, ingest, import) cannot open a database the server holds, so the server carries
// them out on its own dependencies, and a change is seen by it at once (its key cache, its caches). Loopback only, on a
// port of its own, never the public one; each request carries the secret of DATA_DIR/admin.json (endpoint.ts).
// POST /run {argv, cwd} answers a stream of JSON lines: {"out": line}, {"err": line}, then {"exit": code}.
import { inBackground } from "../../db/pglite-remote";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Deps } from "../deps";
import { describeError } from "../logger";
import { sameDigest, sha256Hex } from "../domain/keys";
import type { CommandContext } from "../commands/command";
import {
  ADMIN_FILE_CHECK_MS,
  adminFilePath,
  readAdminEndpoint,
  removeAdminEndpoint,
  writeAdminEndpoint,
} from "./endpoint";

const RunRequest = z.object({ argv: z.array(z.string()).min(1).max(1000), cwd: z.string().min(1).max(4096) });

export type AdminInterface = { port: number; stop(): Promise<void> };

export function startAdminInterface(opts: {
  deps: Deps;
  dataDir: string;
  dispatch: (argv: string[], ctx: CommandContext) => Promise<number>;
  /** How often the endpoint file is checked and written again when it is gone (default ADMIN_FILE_CHECK_MS). */
  keepEndpointMs?: number;
}): AdminInterface {
  const { deps } = opts;
  const token = randomBytes(32).toString("hex");
  const expected = sha256Hex(`Bearer ${token}`);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    // An ingest may run for minutes between two lines of output.
    idleTimeout: 0,
    development: false,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== "/run") return Response.json({ error: "not found" }, { status: 404 });
      if (!sameDigest(sha256Hex(req.headers.get("authorization") ?? ""), expected))
        return Response.json({ error: "unauthorized" }, { status: 401 });
      if (req.method !== "POST") return Response.json({ error: "method not allowed" }, { status: 405 });
      const parsed = RunRequest.safeParse(await req.json().catch(() => null));
      if (!parsed.success) return Response.json({ error: "bad request" }, { status: 400 });
      return new Response(runStream(deps, opts.dispatch, parsed.data), {
        headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" },
      });
    },
    error: (e) => {
      deps.logger.error("administrative interface failed", { error: describeError(e) });
      return Response.json({ error: "internal error" }, { status: 500 });
    },
  });
  const endpoint = { pid: process.pid, port: server.port!, token };
  writeAdminEndpoint(opts.dataDir, endpoint);
  deps.logger.info("administrative interface listening", { address: `127.0.0.1:${server.port}` });
  // A deleted (or replaced) admin.json is written again, so the CLI finds the server once more within a few seconds.
  const keeper = setInterval(() => {
    try {
      if (readAdminEndpoint(opts.dataDir)?.token === token) return;
      writeAdminEndpoint(opts.dataDir, endpoint);
      deps.logger.warn("administrative interface: its endpoint file was missing or changed; written again", {
        file: adminFilePath(opts.dataDir),
      });
    } catch (e) {
      deps.logger.warn("administrative interface: its endpoint file cannot be written", { error: describeError(e) });
    }
  }, opts.keepEndpointMs ?? ADMIN_FILE_CHECK_MS);
  keeper.unref();
  return {
    port: server.port!,
    async stop() {
      clearInterval(keeper);
      removeAdminEndpoint(opts.dataDir, process.pid);
      await server.stop(true);
    },
  };
}

function runStream(
  deps: Deps,
  dispatch: (argv: string[], ctx: CommandContext) => Promise<number>,
  req: z.infer<typeof RunRequest>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      let open = true;
      const send = (frame: Record<string, unknown>) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(JSON.stringify(frame) + "\n"));
        } catch {
          // The CLI went away: the command still runs to its end (a half-done change would be worse).
          open = false;
        }
      };
      const ctx: CommandContext = {
        out: (line) => send({ out: line }),
        err: (line) => send({ err: line }),
        cwd: req.cwd,
        tty: false,
        server: deps,
      };
      deps.logger.info("administrative command", { command: req.argv.slice(0, 2).join(" ") });
      let code: number;
      try {
        // An administrator's command (a detection over everything, an import) is background work: on the embedded
        // database its statements give way to requests'.
        code = await inBackground(deps.database, () => dispatch(req.argv, ctx));
      } catch (e) {
        deps.logger.error("administrative command failed", {
          command: req.argv.slice(0, 2).join(" "),
          error: describeError(e),
        });
        ctx.err(`svc ${req.argv[0]}: internal error: ${describeError(e)} (details in the server's log)`);
        code = 1;
      }
      send({ exit: code });
      if (open) controller.close();
    },
  });
}
