// Writes in a fixed order (db/repos/write-order.ts): two nodes' key_usage batch upserts deadlocked once after a
// PostgreSQL restart, their rows not ordered by key. Every multi-row upsert now sorts its rows by its conflict target.
// On PostgreSQL (TEST_DATABASE_URL) two transactions apply usage for the same 300 keys in opposite orders, at once,
// 15 times: no deadlock, and the counts are exact. (The embedded database has one connection: no concurrency to test.)
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { addUsage } from "../../db/repos/keys";
import { inKeyOrder, targetKey } from "../../db/repos/write-order";
import type { Db } from "../../db/client";
import { issueKey, keyUsage } from "../../src/services/keys";
import { makeTestApp, type TestApp } from "../support/app";
import { testBackend } from "../support/db";

setDefaultTimeout(120_000);

describe("inKeyOrder", () => {
  test("sorts by the joined target in code-unit order, whatever order the rows came in; a NUL joins the parts", () => {
    const rows = [
      { k: "b", m: "2026-01" },
      { k: "a", m: "2026-02" },
      { k: "a", m: "2026-01" },
      { k: "B", m: "2026-01" },
    ];
    expect(inKeyOrder(rows, (r) => targetKey(r.k, r.m))).toEqual([
      { k: "B", m: "2026-01" },
      { k: "a", m: "2026-01" },
      { k: "a", m: "2026-02" },
      { k: "b", m: "2026-01" },
    ]);
    // "a" + "b|c" must not sort as "ab" + "c": the separator sorts before every character.
    expect(
      inKeyOrder(
        [
          { a: "ab", b: "c" },
          { a: "a", b: "bc" },
        ],
        (r) => targetKey(r.a, r.b),
      ),
    ).toEqual([
      { a: "a", b: "bc" },
      { a: "ab", b: "c" },
    ]);
    expect(targetKey("x", null, 3)).toBe("x\u0000\u00003");
  });
});

const d = testBackend === "postgres" ? describe : describe.skip;
d("key_usage batches from two nodes at once (PostgreSQL)", () => {
  let t: TestApp;
  const ids: string[] = [];
  beforeAll(async () => {
    t = await makeTestApp({ keyAccess: true });
    for (let i = 0; i < 300; i++) ids.push((await issueKey(t.deps, { plan: "free" })).row.id);
  });
  afterAll(() => t?.close());

  test("300 keys upserted in opposite orders by two transactions, 15 times: no deadlock, every count exact", async () => {
    const month = "2026-11";
    const rows = ids.map((keyId) => ({ keyId, month, requests: 1 }));
    const apply = (order: typeof rows) => t.database.db.transaction(async (tx) => addUsage(tx as unknown as Db, order));
    for (let round = 0; round < 15; round++) await Promise.all([apply(rows), apply([...rows].reverse())]);
    for (const id of [ids[0]!, ids[150]!, ids[299]!]) expect(await keyUsage(t.deps, id, month)).toBe(30);
  });
});
