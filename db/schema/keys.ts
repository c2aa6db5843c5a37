// API keys aggregate. A key row is the stable identity (plan, limits, usage and billing attach to its id);
// its secret is stored only as a SHA-256 hash and is replaced in place on rotation or recovery, so a key
// never has two live secrets. Recovery tokens are stored as hashes too. Nothing here holds a raw secret.
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey(),
    /** Hex SHA-256 of the current secret. */
    secretHash: text("secret_hash").notNull(),
    /** Prefix and last four characters of the current secret, safe to show and log. */
    hint: text("hint").notNull(),
    mode: text("mode", { enum: ["live", "test"] }).notNull(),
    plan: text("plan", { enum: ["free", "developer", "professional"] }).notNull(),
    scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull(),
    /** null: every region; otherwise the only region codes the key may read. */
    allowedRegions: text("allowed_regions").array(),
    /** The address given at signup or by the operator (unverified for free keys). */
    email: text("email"),
    status: text("status", { enum: ["active", "revoked"] })
      .notNull()
      .default("active"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_idx").on(t.secretHash)],
);

/** One row per secret replacement; the rotation limit counts reason = 'rotate' rows in the last 24 hours. */
export const keyRotations = pgTable(
  "key_rotations",
  {
    id: uuid("id").primaryKey(),
    keyId: uuid("key_id")
      .notNull()
      .references(() => apiKeys.id),
    reason: text("reason", { enum: ["rotate", "recover", "operator"] }).notNull(),
    previousHint: text("previous_hint").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("key_rotations_key_at_idx").on(t.keyId, t.at)],
);

export const recoveryTokens = pgTable(
  "recovery_tokens",
  {
    id: uuid("id").primaryKey(),
    keyId: uuid("key_id")
      .notNull()
      .references(() => apiKeys.id),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("recovery_tokens_hash_idx").on(t.tokenHash),
    index("recovery_tokens_key_created_idx").on(t.keyId, t.createdAt),
  ],
);

/** Metered requests per key and calendar month (UTC, 'YYYY-MM'); incremented in place, so exact under concurrency. */
export const keyUsage = pgTable(
  "key_usage",
  {
    keyId: uuid("key_id")
      .notNull()
      .references(() => apiKeys.id),
    month: text("month").notNull(),
    requests: bigint("requests", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.month] })],
);

/**
 * Usage batches applied from the node-local usage journals (src/services/usage-journal.ts). The id is stored in
 * the same transaction as the batch's usage upsert, so a batch replayed after a crash is recognised and skipped.
 * Rows older than 90 days are pruned by the billing job (a journal holds an applied batch only until it restarts).
 */
export const usageBatches = pgTable(
  "usage_batches",
  {
    id: text("id").primaryKey(),
    requests: bigint("requests", { mode: "number" }).notNull(),
    appliedAt: timestamp("applied_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("usage_batches_applied_at_idx").on(t.appliedAt)],
);

/** Anonymous, per-client events with daily limits (signups, recovery requests); the client is a hashed IP. */
export const clientEvents = pgTable(
  "client_events",
  {
    id: uuid("id").primaryKey(),
    kind: text("kind", { enum: ["signup", "recover"] }).notNull(),
    clientHash: text("client_hash").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("client_events_kind_client_at_idx").on(t.kind, t.clientHash, t.at)],
);
