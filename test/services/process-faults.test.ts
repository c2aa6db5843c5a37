// A process (svc serve, svc worker) that meets an error nothing contains logs it as one JSON line
// and exits with status 70, so that a supervisor (systemd Restart=always, README "Deployment") starts a fresh one,
// instead of dying with a bare runtime trace (or, for some errors, staying up in an unknown state).
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { STOP_GRACE_MS, runStopSteps, UNCAUGHT_EXIT_CODE } from "../../src/process-faults";
import type { Logger } from "../../src/logger";

const FIXTURE = resolve(import.meta.dir, "../fixtures/uncaught.ts");

async function run(kind: string) {
  const p = Bun.spawn([process.execPath, FIXTURE, kind], { stdout: "pipe", stderr: "pipe" });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  return { code, lines: err.trim().split("\n") };
}

describe("an error nothing contains", () => {
  test("thrown from a setImmediate: one JSON line with the error and its stack, exit 70", async () => {
    const { code, lines } = await run("throw");
    expect(code).toBe(UNCAUGHT_EXIT_CODE);
    expect(lines.length).toBe(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry.level).toBe("error");
    expect(entry.msg).toBe("uncaught exception: the process exits so that its supervisor restarts it");
    expect(entry.error).toBe("null is not an object (evaluating 'null.write')");
    expect(entry.stack).toContain("uncaught.ts");
  });

  test("an unhandled rejection: logged with query parameters redacted, exit 70", async () => {
    const { code, lines } = await run("reject");
    expect(code).toBe(UNCAUGHT_EXIT_CODE);
    expect(lines.length).toBe(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry.msg).toBe("unhandled rejection: the process exits so that its supervisor restarts it");
    expect(entry.error).toBe("Failed query: select 1\nparams: [redacted]");
    expect(lines[0]).not.toContain("secret-value");
  });

  test("a query cut short by closing the connections while the process stops on request: a warning, not a failed exit", async () => {
    const stopping = await run("closed-while-stopping");
    expect(stopping.code).toBe(0);
    expect(stopping.lines.map((l) => JSON.parse(l)).map((e) => [e.level, e.msg, e.error])).toEqual([
      ["warn", "unhandled rejection while stopping: a query cut short by the stop", "write CONNECTION_CLOSED 127.0.0.1:5432"],
    ]);
    // The same error before any stop is a fault like any other, logged with the statement it cut short (its stack
    // shows only the socket's close).
    const running = await run("closed");
    expect(running.code).toBe(UNCAUGHT_EXIT_CODE);
    expect(JSON.parse(running.lines[0]!)).toMatchObject({ msg: "unhandled rejection: the process exits so that its supervisor restarts it", query: "select pg_notify($1, $2)" });
  });
});

describe("the database driver (patches/postgres@3.4.9.patch)", () => {
  test("a server that goes away just after a connection opens: the awaited query rejects, the driver's own type fetch does not stop the process", async () => {
    const p = Bun.spawn([process.execPath, resolve(import.meta.dir, "../fixtures/type-fetch-closed.ts")], { stdout: "pipe", stderr: "pipe" });
    const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
    // Unpatched, postgres.js's fetch of the array types (which nothing awaits) rejected unhandled: exit 70.
    expect({ code, out: out.trim(), err: err.trim() }).toEqual({ code: 0, out: "ECONNREFUSED", err: "" });
  });
});

describe("a requested stop's steps", () => {
  const recording = () => {
    const warnings: { msg: string; fields: Record<string, unknown> }[] = [];
    const logger = { warn: (msg: string, fields: Record<string, unknown>) => warnings.push({ msg, fields }) } as unknown as Logger;
    return { logger, warnings };
  };

  test("run in order; one that never finishes is left behind at its limit, one that throws is logged, the rest still run", async () => {
    const { logger, warnings } = recording();
    const ran: string[] = [];
    const unfinished = await runStopSteps(
      [
        { name: "listener", run: async () => void ran.push("listener"), ms: 1_000 },
        { name: "job engine", run: () => (ran.push("job engine"), new Promise(() => {})), ms: 20 },
        { name: "usage journal", run: async () => (ran.push("usage journal"), Promise.reject(new Error("closed"))), ms: 1_000 },
        { name: "database", run: async () => void ran.push("database"), ms: 1_000 },
      ],
      logger,
    );
    expect(ran).toEqual(["listener", "job engine", "usage journal", "database"]);
    expect(unfinished).toEqual(["job engine", "usage journal"]);
    expect(warnings).toEqual([
      { msg: "stop: a step did not finish in time and was left behind", fields: { step: "job engine", ms: 20 } },
      { msg: "stop: a step failed", fields: { step: "usage journal", error: "closed" } },
    ]);
  });

  test("a step that holds the thread (no timer of it fires): the watchdog's thread ends the process at the steps' sum and the grace, with one JSON line", async () => {
    const p = Bun.spawn([process.execPath, resolve(import.meta.dir, "../fixtures/stuck-stop.ts")], { stdout: "pipe", stderr: "pipe" });
    const reader = p.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("ready\n");
    const t0 = performance.now();
    p.kill("SIGTERM");
    const code = await p.exited;
    const ms = performance.now() - t0;
    expect(p.signalCode ?? code).toBe("SIGKILL");
    // 100 + 100 + STOP_GRACE_MS (5 s); never much later.
    expect(ms).toBeGreaterThanOrEqual(200 + STOP_GRACE_MS - 50);
    expect(ms).toBeLessThan(200 + STOP_GRACE_MS + 5_000);
    const line = JSON.parse((await new Response(p.stderr).text()).trim().split("\n").at(-1)!);
    expect(line).toMatchObject({ level: "error", msg: "stop: the whole stop overran its bound; the process is ended", ms: 200 + STOP_GRACE_MS });
  }, 20_000);

  test("steps that finish: nothing logged, nothing unfinished", async () => {
    const { logger, warnings } = recording();
    expect(await runStopSteps([{ name: "database", run: async () => {}, ms: 60_000 }], logger)).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
