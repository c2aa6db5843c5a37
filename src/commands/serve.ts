import { createApp } from "../app";
import { buildDeps } from "../bootstrap";
import type { Command } from "./index";

export const serveCommand: Command = {
  summary: "Start the HTTP server (migrates, and seeds an empty database with real sample data).",
  async run(_args, config) {
    const deps = await buildDeps(config);
    const app = createApp(deps);
    const server = Bun.serve({ port: config.port, hostname: config.host, fetch: app.fetch });
    deps.logger.info("listening", { url: `http://${config.host}:${server.port}`, database: deps.database.kind, version: deps.version });
    const stop = async () => {
      server.stop();
      await deps.database.close();
      process.exit(0);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  },
};
