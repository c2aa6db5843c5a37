// One process per embedded data directory: `svc import` while `svc serve` holds DATA_DIR is carried out by that
// server; after it stops the import runs directly (test/cli/import-cli.ts prepares the directory).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { relative } from "node:path";
import { cliEnv, file, ROOT, svc, usePreparedDataDir, waitForListening } from "./import-cli";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);
usePreparedDataDir();

describe("one process per embedded data directory", () => {
  test("import while serve holds DATA_DIR is carried out by that server (a path relative to the CLI's directory); after serve stops it runs directly", async () => {
    const server = Bun.spawn([process.execPath, "run", "src/cli.ts", "serve"], {
      cwd: ROOT,
      env: cliEnv({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const p = relative(ROOT, file("locked.csv", "date,value\n2021-01-01,1\n"));
    const unknown = ["import", p, "--indicator", "NOSUCHX", "--region", "US"];
    let besideServer: Awaited<ReturnType<typeof svc>>;
    try {
      const url = await waitForListening(server);
      const r = await svc(["import", p, "--indicator", "TESTX", "--region", "US"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toStartWith("1 inserted, 0 revised, 0 unchanged (series TESTX");
      besideServer = await svc(unknown);
      // The server is unharmed.
      expect((await fetch(`${url}/v1/regions?type=country`)).status).toBe(200);
    } finally {
      server.kill("SIGTERM");
      await server.exited;
    }
    const after = await svc(["import", p, "--indicator", "TESTX", "--region", "US"]);
    expect(after.code).toBe(0);
    expect(after.stdout).toStartWith("0 inserted, 0 revised, 1 unchanged (series TESTX");
    // A failure reads the same whichever process carried the command out.
    const direct = await svc(unknown);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain("NOSUCHX");
    expect(besideServer!).toEqual(direct);
  }, 90_000);
});
