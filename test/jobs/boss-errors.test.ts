// How the job engine's error events are logged: pg-boss emits plain objects (an Error's fields spread, with the queue
// added) as often as Errors; a database outage is expected and retried by the engine, so it is a warning.
import { expect, test } from "bun:test";
import { openBoss } from "../../src/jobs/boss";
import type { Logger } from "../../src/logger";

test("pg-boss error events: the message of an Error or of a plain object; an outage's is a warning", async () => {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  const logger = {
    error: (msg: string, fields?: Record<string, unknown>) => lines.push({ level: "error", msg, fields }),
    warn: (msg: string, fields?: Record<string, unknown>) => lines.push({ level: "warn", msg, fields }),
    info() {},
  } as unknown as Logger;
  // Nothing connects until a statement runs: the pool is only made.
  const { boss, release } = openBoss(
    { connection: { kind: "postgres", url: "postgres://127.0.0.1:1/none" } } as never,
    { runsJobs: true, poolMax: 1, superviseSeconds: 60, pollSeconds: 2 },
    logger,
  );
  try {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    (boss.emit as (event: string, e: unknown) => boolean)("error", {
      ...refused,
      message: refused.message,
      stack: refused.stack,
      queue: "provision",
    });
    (boss.emit as (event: string, e: unknown) => boolean)("error", {
      message: 'relation "pgboss.job" does not exist',
      code: "42P01",
      queue: "detect",
    });
    (boss.emit as (event: string, e: unknown) => boolean)("error", new Error("maintenance failed"));
    (boss.emit as (event: string, e: unknown) => boolean)("error", "a bare string");
    expect(lines).toEqual([
      {
        level: "warn",
        msg: "job engine: the database is unavailable",
        fields: { error: "connect ECONNREFUSED 127.0.0.1:5432", queue: "provision" },
      },
      {
        level: "error",
        msg: "job engine error",
        fields: { error: 'relation "pgboss.job" does not exist', queue: "detect" },
      },
      { level: "error", msg: "job engine error", fields: { error: "maintenance failed", queue: undefined } },
      { level: "error", msg: "job engine error", fields: { error: "a bare string", queue: undefined } },
    ]);
  } finally {
    await release();
  }
});
