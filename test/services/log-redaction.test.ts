// Query parameters never reach the log (faults issue, item 8): during a database outage every failed key lookup was
// logged with drizzle's error message, which ends with the query's parameters, here the SHA-256 of the presented
// key (1,371 such lines in one outage). The logger replaces the parameter list in every string and error it writes;
// the SQL text stays, so the line still says what failed. The outage itself: test/e2e/postgres-faults.test.ts.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiKeys } from "../../db/schema";
import { createLogger, describeError, redactQueryParams } from "../../src/logger";
import { makeTestDatabase } from "../support/db";

// bun resets the default timeout per file: this file starts a database.
setDefaultTimeout(120_000);

let database: Database;
beforeAll(async () => {
  database = await makeTestDatabase();
}, 120_000);
afterAll(() => database.close());

const SECRET_HASH = "9f2c0d1e5b7a4c3d8e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d";

/** The error a real failed query throws, carrying `SECRET_HASH` as a parameter. */
async function failedQuery(): Promise<Error> {
  try {
    // A lookup by secret hash whose second parameter cannot be cast: the query fails with its parameters attached.
    await database.db
      .select()
      .from(apiKeys)
      .where(sql`${apiKeys.secretHash} = ${SECRET_HASH} and ${apiKeys.rateLimitPerMinute} = ${"not a number"}::int`);
  } catch (e) {
    return e as Error;
  }
  throw new Error("the query did not fail");
}

describe("query parameters in logs", () => {
  test("a failed query's error carries its parameters (what leaked before)", async () => {
    const e = await failedQuery();
    expect(String(e)).toContain(SECRET_HASH);
    expect(e.stack ?? "").toContain(SECRET_HASH);
  });

  test("the logger writes the query without its parameters: as an error field, as String(e), as a stack, in the message", async () => {
    const e = await failedQuery();
    const lines: string[] = [];
    const log = createLogger("debug", (l) => lines.push(l));
    log.error("unhandled error", { error: String(e), stack: e.stack, raw: e });
    log.warn(`lookup failed: ${String(e)}`);
    const text = lines.join("\n");
    expect(text).not.toContain(SECRET_HASH);
    expect(text).not.toContain("not a number");
    const first = JSON.parse(lines[0]!);
    expect(first.error).toStartWith("Error: Failed query: select ");
    expect(first.error).toEndWith("\nparams: [redacted]");
    expect(first.raw).toBe(first.error);
    // The stack keeps its frames after the redacted list.
    expect(first.stack).toMatch(/\nparams: \[redacted\]\n\s+at /);
    expect(JSON.parse(lines[1]!).msg).toEndWith("\nparams: [redacted]");
  });

  test("redaction is exact: text without a parameter list is unchanged; several lists in one text are each replaced", () => {
    expect(redactQueryParams("connect ECONNREFUSED 127.0.0.1:5432")).toBe("connect ECONNREFUSED 127.0.0.1:5432");
    expect(
      redactQueryParams(
        "Failed query: select 1\nparams: a,b\n    at x (f.ts:1:1)\nFailed query: select 2\nparams: c\nd",
      ),
    ).toBe(
      "Failed query: select 1\nparams: [redacted]\n    at x (f.ts:1:1)\nFailed query: select 2\nparams: [redacted]",
    );
    expect(describeError(new Error(`Failed query: update t set a = $1\nparams: ${SECRET_HASH}`))).toBe(
      "Error: Failed query: update t set a = $1\nparams: [redacted]",
    );
  });

  test("a query that succeeds is unaffected", async () => {
    expect(
      await database.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.secretHash, SECRET_HASH)),
    ).toEqual([]);
  });
});
