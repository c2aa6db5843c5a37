// Billing aggregate: one subscription pays for one key. The stored status is 'active' or 'ended';
// past-due is derived from payment_failed_at and the clock (7-day grace), so no job has to flip it; the billing
// job ends a subscription still unpaid after the dunning period that follows the grace.
// Overage invoices record what was billed per subscription and month, at most once (unique per subscription and
// month): 'final' when the subscription ends, 'monthly' at month rollover for one that continued past the month's
// end. Provider events make webhooks idempotent.
import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./keys";

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey(),
    keyId: uuid("key_id")
      .notNull()
      .references(() => apiKeys.id),
    plan: text("plan", { enum: ["developer", "professional"] }).notNull(),
    /** Lower-cased billing address: paid-key rotations and recovery mail go here. */
    billingEmail: text("billing_email").notNull(),
    provider: text("provider", { enum: ["stripe", "manual"] }).notNull(),
    providerCustomerId: text("provider_customer_id"),
    providerSubscriptionId: text("provider_subscription_id"),
    checkoutSessionId: text("checkout_session_id"),
    status: text("status", { enum: ["active", "ended"] }).notNull(),
    /** Set by a failed payment, cleared by a successful one; grace runs 7 days from here. */
    paymentFailedAt: timestamp("payment_failed_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** Why it ended: cancelled (customer revoke), provider (Stripe ended it), operator (CLI), unpaid (dunning ran out). */
    endReason: text("end_reason", { enum: ["cancelled", "provider", "operator", "unpaid"] }),
  },
  (t) => [
    index("subscriptions_key_idx").on(t.keyId),
    index("subscriptions_billing_email_idx").on(t.billingEmail),
    uniqueIndex("subscriptions_provider_sub_idx").on(t.providerSubscriptionId),
    uniqueIndex("subscriptions_checkout_session_idx").on(t.checkoutSessionId),
  ],
);

export const overageInvoices = pgTable(
  "overage_invoices",
  {
    id: uuid("id").primaryKey(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    month: text("month").notNull(),
    requests: bigint("requests", { mode: "number" }).notNull(),
    overageRequests: bigint("overage_requests", { mode: "number" }).notNull(),
    amountMicroUsd: bigint("amount_micro_usd", { mode: "number" }).notNull(),
    /** Provider invoice item id when pushed to Stripe; null for manual subscriptions. */
    providerRef: text("provider_ref"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    kind: text("kind", { enum: ["final", "monthly"] })
      .notNull()
      .default("final"),
    /**
     * 'pending': reserved (the row exists, so no second invoice can start) but the provider has not confirmed it;
     * retried once `lease_until` passes. 'invoiced': done (also for zero overage, which bills nothing).
     */
    status: text("status", { enum: ["pending", "invoiced"] })
      .notNull()
      .default("invoiced"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    invoicedAt: timestamp("invoiced_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("overage_invoices_sub_month_idx").on(t.subscriptionId, t.month)],
);

export const billingEvents = pgTable("billing_events", {
  /** The provider's event id (Stripe `evt_...`): a redelivered webhook is applied once. */
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
});
