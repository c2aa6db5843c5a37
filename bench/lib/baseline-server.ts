// The baseline of every benchmark: a bare Bun.serve answering every request with the same small
// JSON body, no framework and no database. Started by bench/lib/load.ts as its own process (pinned to
// the same CPU as the real server) so the real routes can be reported as a ratio of it.
const body =
  process.env.BASELINE_BODY ??
  JSON.stringify({ data: [{ code: "UNRATE", name: "Unemployment Rate" }], meta: { total: 1 } });

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  fetch: () =>
    new Response(body, { headers: { "content-type": process.env.BASELINE_CONTENT_TYPE ?? "application/json" } }),
});
console.log(`listening http://127.0.0.1:${server.port}`);

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    server.stop(true);
    process.exit(0);
  });
}
