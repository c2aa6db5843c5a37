// Queries for the payments aggregate: the ProofStore of the payments package. A reservation is one
// INSERT ... ON CONFLICT DO UPDATE ... WHERE, atomic on PostgreSQL and PGlite alike: of two concurrent
// reservations of the same proof exactly one returns a row. A released or failed proof, or a reservation whose
// lease ran out (a request that died), can be taken again; a settled one never.
import { and, eq, sql } from "drizzle-orm";
import type { ProofRecord, ProofResult, ProofStore } from "payments";
import type { Db } from "../client";
import { paymentProofs, paymentSecrets } from "../schema";

export type PaymentProofRow = typeof paymentProofs.$inferSelect;

export function paymentProofStore(db: Db): ProofStore {
  return {
    async reserve(r: ProofRecord, at: Date, leaseUntil: Date): Promise<string | null> {
      const fields = {
        status: "reserved" as const,
        payer: r.payer,
        network: r.network,
        asset: r.asset,
        amount: r.amount,
        microUsd: r.microUsd,
        binding: r.binding,
        resource: r.resource,
        label: r.label,
        credentialHash: r.credentialHash,
        detail: r.detail,
        reference: null,
        failureReason: null,
        leaseUntil,
        updatedAt: at,
      };
      const rows = await db
        .insert(paymentProofs)
        .values({ rail: r.rail, proofKey: r.proofKey, ...fields, createdAt: at })
        .onConflictDoUpdate({
          target: [paymentProofs.rail, paymentProofs.proofKey],
          set: { ...fields, attempts: sql`${paymentProofs.attempts} + 1` },
          setWhere: sql`${paymentProofs.status} in ('released', 'failed') or (${paymentProofs.status} = 'reserved' and ${paymentProofs.leaseUntil} < ${at.toISOString()}::timestamptz)`,
        })
        .returning({ id: paymentProofs.id });
      return rows[0]?.id ?? null;
    },

    async finish(id: string, result: ProofResult, at: Date): Promise<void> {
      await db
        .update(paymentProofs)
        .set({
          status: result.status,
          reference: result.status === "settled" ? result.reference : null,
          failureReason: result.status === "failed" ? result.reason : null,
          updatedAt: at,
        })
        .where(and(eq(paymentProofs.id, id), eq(paymentProofs.status, "reserved")));
    },
  };
}

export async function listPaymentProofs(db: Db): Promise<PaymentProofRow[]> {
  return db.select().from(paymentProofs).orderBy(paymentProofs.createdAt, paymentProofs.proofKey);
}

export type PaymentSecretRow = typeof paymentSecrets.$inferSelect;

/** The payment secret every node on this database shares under `name`, or null when none is recorded yet. */
export async function findPaymentSecret(db: Db, name: PaymentSecretRow["name"]): Promise<PaymentSecretRow | null> {
  const [row] = await db.select().from(paymentSecrets).where(eq(paymentSecrets.name, name)).limit(1);
  return row ?? null;
}

/** Records `row` when nothing is recorded under its name (replace: over what is); false when another node was first. */
export async function recordPaymentSecret(db: Db, row: PaymentSecretRow, replace: boolean): Promise<boolean> {
  const q = db.insert(paymentSecrets).values(row);
  const out = replace
    ? await q
        .onConflictDoUpdate({
          target: paymentSecrets.name,
          set: { origin: row.origin, fingerprint: row.fingerprint, value: row.value, recordedAt: row.recordedAt },
        })
        .returning({ name: paymentSecrets.name })
    : await q.onConflictDoNothing().returning({ name: paymentSecrets.name });
  return out.length > 0;
}
