// Queries for the billing aggregate: subscriptions, overage invoices and applied provider events.
import { and, asc, desc, eq, gte, isNull, lt, lte, or, type SQL } from "drizzle-orm";
import type { Db } from "../client";
import { apiKeys, billingEvents, overageInvoices, subscriptions } from "../schema";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type OverageInvoiceRow = typeof overageInvoices.$inferSelect;

export async function insertSubscription(tx: Db, row: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
  const [out] = await tx.insert(subscriptions).values(row).returning();
  return out!;
}

export type SubscriptionRef = { id: string } | { providerSubscriptionId: string } | { checkoutSessionId: string };

function refWhere(ref: SubscriptionRef): SQL {
  if ("id" in ref) return eq(subscriptions.id, ref.id);
  if ("providerSubscriptionId" in ref) return eq(subscriptions.providerSubscriptionId, ref.providerSubscriptionId);
  return eq(subscriptions.checkoutSessionId, ref.checkoutSessionId);
}

export async function findSubscription(db: Db, ref: SubscriptionRef): Promise<SubscriptionRow | null> {
  const rows = await db.select().from(subscriptions).where(refWhere(ref)).limit(1);
  return rows[0] ?? null;
}

export async function lockSubscription(tx: Db, id: string): Promise<SubscriptionRow | null> {
  const rows = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for("update");
  return rows[0] ?? null;
}

/** Starts the grace period at the first unresolved failure; a repeated failure does not extend it. */
export async function markPaymentFailed(tx: Db, id: string, at: Date): Promise<boolean> {
  const rows = await tx
    .update(subscriptions)
    .set({ paymentFailedAt: at })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, "active"), isNull(subscriptions.paymentFailedAt)))
    .returning({ id: subscriptions.id });
  return rows.length === 1;
}

export async function clearPaymentFailure(tx: Db, id: string): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ paymentFailedAt: null })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, "active")));
}

export async function markEnded(
  tx: Db,
  id: string,
  at: Date,
  reason: NonNullable<SubscriptionRow["endReason"]>,
): Promise<boolean> {
  const rows = await tx
    .update(subscriptions)
    .set({ status: "ended", endedAt: at, endReason: reason })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, "active")))
    .returning({ id: subscriptions.id });
  return rows.length === 1;
}

/** Sets a live subscription's plan; false when it is not active. */
export async function setSubscriptionPlan(tx: Db, id: string, plan: SubscriptionRow["plan"]): Promise<boolean> {
  const rows = await tx
    .update(subscriptions)
    .set({ plan })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, "active")))
    .returning({ id: subscriptions.id });
  return rows.length === 1;
}

/** Active subscriptions whose unresolved payment failure happened at or before `failedAtOrBefore`. */
export async function unpaidSince(db: Db, failedAtOrBefore: Date): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.status, "active"), lte(subscriptions.paymentFailedAt, failedAtOrBefore)))
    .orderBy(asc(subscriptions.paymentFailedAt));
}

export type InvoiceCandidate = { subscription: SubscriptionRow; keyMode: "live" | "test"; keyHint: string };

/**
 * Subscriptions that ran on past the end of `month` (started before `end`, not ended before it) and have no
 * overage invoice for it yet. Those that ended within the month had it invoiced on their final invoice.
 */
export async function subscriptionsToInvoice(db: Db, month: string, end: Date): Promise<InvoiceCandidate[]> {
  const rows = await db
    .select({ subscription: subscriptions, keyMode: apiKeys.mode, keyHint: apiKeys.hint })
    .from(subscriptions)
    .innerJoin(apiKeys, eq(apiKeys.id, subscriptions.keyId))
    .leftJoin(
      overageInvoices,
      and(eq(overageInvoices.subscriptionId, subscriptions.id), eq(overageInvoices.month, month)),
    )
    .where(
      and(
        lt(subscriptions.startedAt, end),
        or(isNull(subscriptions.endedAt), gte(subscriptions.endedAt, end)),
        isNull(overageInvoices.id),
      ),
    )
    .orderBy(asc(subscriptions.startedAt));
  return rows;
}

/**
 * Takes every pending invoice whose lease has run out (or `month`'s only) for this caller until `leaseUntil`:
 * concurrent callers never take the same row at once.
 */
export async function leasePendingInvoices(
  db: Db,
  now: Date,
  leaseUntil: Date,
  month?: string,
): Promise<OverageInvoiceRow[]> {
  return db
    .update(overageInvoices)
    .set({ leaseUntil })
    .where(
      and(
        eq(overageInvoices.status, "pending"),
        or(isNull(overageInvoices.leaseUntil), lte(overageInvoices.leaseUntil, now)),
        month ? eq(overageInvoices.month, month) : undefined,
      ),
    )
    .returning();
}

export async function markInvoiced(db: Db, id: string, providerRef: string | null, at: Date): Promise<void> {
  await db
    .update(overageInvoices)
    .set({ status: "invoiced", providerRef, invoicedAt: at, leaseUntil: null })
    .where(and(eq(overageInvoices.id, id), eq(overageInvoices.status, "pending")));
}

export async function insertOverageInvoice(
  tx: Db,
  row: typeof overageInvoices.$inferInsert,
): Promise<OverageInvoiceRow | null> {
  const rows = await tx.insert(overageInvoices).values(row).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export async function overageInvoicesFor(db: Db, subscriptionId: string): Promise<OverageInvoiceRow[]> {
  return db
    .select()
    .from(overageInvoices)
    .where(eq(overageInvoices.subscriptionId, subscriptionId))
    .orderBy(overageInvoices.month);
}

/** Records a provider event id; false when it was already applied (a redelivery). */
export async function recordBillingEvent(tx: Db, id: string, type: string, at: Date): Promise<boolean> {
  const rows = await tx
    .insert(billingEvents)
    .values({ id, type, receivedAt: at })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return rows.length === 1;
}

export async function listSubscriptions(db: Db, opts: { email?: string; limit: number }): Promise<SubscriptionRow[]> {
  const q = db.select().from(subscriptions);
  return (opts.email ? q.where(eq(subscriptions.billingEmail, opts.email)) : q)
    .orderBy(desc(subscriptions.startedAt))
    .limit(opts.limit);
}

export async function billingEventSeen(db: Db, id: string): Promise<boolean> {
  const rows = await db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, id)).limit(1);
  return rows.length === 1;
}
