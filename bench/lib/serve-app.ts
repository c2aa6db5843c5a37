// Server mode shared by the bench scripts: `bun bench/X.ts --serve [bare]` runs the real app with the real
// dependencies (buildDeps), and with the access layer removed for "bare", so keyed and bare runs differ only there.
export async function serveAppForBench(variant: string | undefined): Promise<void> {
  const { loadConfig } = await import("../../src/config");
  const { buildDeps } = await import("../../src/bootstrap");
  const { createApp } = await import("../../src/app");
  const { openAccess } = await import("../../src/http/paid");
  const config = loadConfig(process.env);
  const deps = await buildDeps(config);
  const app = createApp(variant === "bare" ? { ...deps, access: openAccess } : deps);
  const server = Bun.serve({ hostname: "127.0.0.1", port: config.port, fetch: app.fetch });
  console.log(`listening ${server.port}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.stop(true);
    await deps.keys.close();
    await deps.database.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
