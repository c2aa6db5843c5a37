// The database's ProofStore (db/repos/payments.ts) on PGlite and PostgreSQL: a proof is reserved by exactly one of
// many concurrent requests; released or failed proofs and lapsed leases can be taken again; settled ones never.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { ProofRecord } from "payments";
import type { Database } from "../../db/client";
import { listPaymentProofs, paymentProofStore } from "../../db/repos/payments";
import { makeTestDatabase } from "../support/db";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let database: Database;
beforeAll(async () => {
  database = await makeTestDatabase();
}, 120_000);
afterAll(() => database.close());

const at = new Date("2026-11-22T12:00:00Z");
const lease = new Date("2026-11-22T12:10:00Z");
const record = (proofKey: string, rail: "x402" | "l402" = "x402"): ProofRecord => ({
  rail,
  proofKey,
  payer: "0xabc",
  network: "eip155:84532",
  asset: "0xdef",
  amount: "10000",
  microUsd: 10000,
  binding: "GDP",
  resource: "/v1/observations",
  label: "observations",
  credentialHash: "00".repeat(32),
  detail: { nonce: proofKey },
});

describe("payment proof store", () => {
  test("of 20 concurrent reservations of one proof exactly one succeeds", async () => {
    const store = paymentProofStore(database.db);
    const ids = await Promise.all(Array.from({ length: 20 }, () => store.reserve(record("race"), at, lease)));
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    const rows = (await listPaymentProofs(database.db)).filter((r) => r.proofKey === "race");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "reserved", attempts: 1, leaseUntil: lease });
  });

  test("released and failed proofs can be reserved again; settled ones never", async () => {
    const store = paymentProofStore(database.db);
    const a = (await store.reserve(record("released"), at, lease))!;
    await store.finish(a, { status: "released" }, at);
    const a2 = await store.reserve(record("released"), at, lease);
    expect(a2).toBe(a);
    await store.finish(a2!, { status: "settled", reference: "0xtx" }, at);
    expect(await store.reserve(record("released"), at, lease)).toBeNull();
    // finish only moves a reserved proof: a late failure report cannot un-settle it.
    await store.finish(a, { status: "failed", reason: "late" }, at);
    const rows = (await listPaymentProofs(database.db)).filter((r) => r.proofKey === "released");
    expect(rows[0]).toMatchObject({ status: "settled", reference: "0xtx", attempts: 2, failureReason: null });

    const b = (await store.reserve(record("failed"), at, lease))!;
    await store.finish(b, { status: "failed", reason: "invalid_exact_evm_insufficient_balance" }, at);
    expect(await store.reserve(record("failed"), at, lease)).toBe(b);
  });

  test("a reservation is held until its lease ends, then can be taken over", async () => {
    const store = paymentProofStore(database.db);
    expect(await store.reserve(record("lease"), at, lease)).not.toBeNull();
    expect(await store.reserve(record("lease"), lease, new Date("2026-11-22T12:20:00Z"))).toBeNull();
    const after = new Date(lease.getTime() + 1);
    expect(await store.reserve(record("lease"), after, new Date("2026-11-22T12:20:00Z"))).not.toBeNull();
  });

  test("the same key on the two rails is two proofs", async () => {
    const store = paymentProofStore(database.db);
    expect(await store.reserve(record("same", "x402"), at, lease)).not.toBeNull();
    expect(await store.reserve(record("same", "l402"), at, lease)).not.toBeNull();
  });
});
