// Payments aggregate: every per-request payment proof (x402 authorization, L402 token) with what it paid for.
// The unique (rail, proof_key) index is what makes a proof serve one request only: x402 keys on
// network:asset:payer:nonce, L402 on the payment hash. Secrets are never stored: credential_hash is sha256 of the
// header as presented (for L402 that header holds the macaroon and preimage).
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const paymentProofs = pgTable(
  "payment_proofs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    rail: text("rail", { enum: ["x402", "l402"] }).notNull(),
    proofKey: text("proof_key").notNull(),
    // reserved (handler running) -> settled | failed (settlement failed) | released (handler failed, proof unused)
    status: text("status", { enum: ["reserved", "settled", "failed", "released"] }).notNull(),
    payer: text("payer"),
    network: text("network"),
    asset: text("asset"),
    // Token atomic units (x402); empty for L402 (the invoice amount is locked in the invoice).
    amount: text("amount").notNull(),
    microUsd: integer("micro_usd").notNull(),
    binding: text("binding").notNull(),
    resource: text("resource").notNull(),
    label: text("label").notNull(),
    credentialHash: text("credential_hash").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    // Settlement transaction hash (x402) or token id (L402).
    reference: text("reference"),
    failureReason: text("failure_reason"),
    attempts: integer("attempts").notNull().default(1),
    leaseUntil: timestamp("lease_until", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("payment_proofs_rail_key_idx").on(t.rail, t.proofKey),
    index("payment_proofs_payer_idx").on(t.payer),
  ],
);

// The payment secrets every node on this database must share, so a paid retry that lands on another node is honoured
// (src/services/payment-secrets.ts). A configured secret (L402_ROOT_KEY) is recorded by its sha256 only; a development
// secret the first node generated is recorded as itself, so the other nodes adopt it; the x402 pay-to address is
// public and recorded as itself.
export const paymentSecrets = pgTable("payment_secrets", {
  name: text("name", { enum: ["l402_root_key", "x402_pay_to"] }).primaryKey(),
  // "configured": set in each node's environment; "generated": made by the first node, for development only.
  origin: text("origin", { enum: ["configured", "generated"] }).notNull(),
  fingerprint: text("fingerprint").notNull(),
  // The secret itself, for a generated one (or the public pay-to address); null for a configured root key.
  value: text("value"),
  recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
});
