// `svc --version` and `svc version` print the service and contract versions and need no database or configuration.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };

const ROOT = resolve(import.meta.dir, "../..");
// bun resets the default timeout per file: this file starts processes (each loads the CLI, seconds on a busy machine).
setDefaultTimeout(60_000);

describe("svc --version", () => {
  for (const args of [["--version"], ["version"], ["-v"]]) {
    test(`svc ${args.join(" ")}`, async () => {
      // A DATA_DIR that cannot exist: the command must not touch it.
      const proc = Bun.spawn([process.execPath, "run", "src/cli.ts", ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", DATA_DIR: "/dev/null/nowhere" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      expect({ code, err, out: out.trim() }).toEqual({ code: 0, err: "", out: `svc ${pkg.version} (contract 1.0.0)` });
    });
  }
});
