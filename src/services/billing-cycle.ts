// The monthly billing cycle, run by the billing job (src/jobs/billing.ts) and `svc subscriptions invoice`:
// - monthly overage: once a month has ended (and settled, INVOICE_SETTLE_MS), every subscription that ran on past
//   its end gets exactly one overage invoice for it. The row is reserved first (unique per subscription and month,
//   so two processes or a job and the CLI cannot both bill), then the provider is asked (Stripe: an invoice item on
//   the next invoice, idempotency key per subscription and month; operator subscriptions: an emailed invoice),
//   then the row is marked invoiced. A row left pending (provider down, crash) is retried once its lease runs out.
//   Zero overage (and test-mode keys) is recorded as invoiced with nothing billed.
// - dunning: a subscription still unpaid DUNNING_PERIOD_DAYS after its 7-day grace ended is ended, its key
//   revoked, its current month's overage invoiced and the billing address told.
import { findKeyById } from "../../db/repos/keys";
import {
  findSubscription,
  insertOverageInvoice,
  leasePendingInvoices,
  markInvoiced,
  subscriptionsToInvoice,
  unpaidSince,
  type OverageInvoiceRow,
  type SubscriptionRow,
} from "../../db/repos/billing";
import { operatorBilling } from "../billing/operator";
import type { OverageBilling } from "../billing/provider";
import {
  DAY_MS,
  GRACE_PERIOD_MS,
  INVOICE_SETTLE_MS,
  MINUTE_MS,
  isMonth,
  monthEnd,
  monthInvoiceable,
} from "../domain/access";
import { PLANS } from "../plans";
import { formatUsd } from "../pricing";
import { BillingError, monthOverage, overageCharge, type BillingDeps } from "./billing";
import { endSubscription, type EndResult } from "./billing-end";
import { newId } from "./keys";

/** How long one attempt owns a pending invoice before another may retry it. */
export const INVOICE_LEASE_MS = 15 * MINUTE_MS;

export type InvoiceOutcome = {
  invoice_id: string;
  subscription_id: string;
  month: string;
  requests: number;
  overage_requests: number;
  amount_usd: string;
  status: "invoiced" | "pending";
  provider_ref: string | null;
  error: string | null;
};

function outcome(
  row: OverageInvoiceRow,
  status: InvoiceOutcome["status"],
  providerRef: string | null,
  error: string | null,
): InvoiceOutcome {
  return {
    invoice_id: row.id,
    subscription_id: row.subscriptionId,
    month: row.month,
    requests: row.requests,
    overage_requests: row.overageRequests,
    amount_usd: formatUsd(row.amountMicroUsd),
    status,
    provider_ref: providerRef,
    error,
  };
}

function billerFor(deps: BillingDeps, s: SubscriptionRow, baseUrl: string): OverageBilling {
  if (s.provider === "manual") return operatorBilling({ mail: deps.mail, baseUrl });
  if (!deps.billing)
    throw new Error(
      "this subscription is billed through Stripe, but Stripe is not configured on this server (STRIPE_SECRET_KEY)",
    );
  return deps.billing;
}

/** Asks the provider to bill a reserved invoice row; marks it invoiced, or leaves it pending for a retry. */
async function bill(deps: BillingDeps, row: OverageInvoiceRow, baseUrl: string): Promise<InvoiceOutcome> {
  try {
    const s = await findSubscription(deps.database.db, { id: row.subscriptionId });
    if (!s) throw new Error(`no subscription ${row.subscriptionId}`);
    const key = await findKeyById(deps.database.db, s.keyId);
    const plan = PLANS[s.plan];
    const { invoiceRef } = await billerFor(deps, s, baseUrl).invoiceMonthlyOverage({
      invoiceId: row.id,
      subscriptionId: s.id,
      refs: { customerId: s.providerCustomerId, subscriptionId: s.providerSubscriptionId },
      subscriptionEnded: s.status === "ended",
      billingEmail: s.billingEmail,
      planName: plan.name,
      keyHint: key?.key.hint ?? "(unknown)",
      month: row.month,
      requests: row.requests,
      includedRequests: plan.includedRequestsPerMonth ?? 0,
      overageRequests: row.overageRequests,
      amountMicroUsd: row.amountMicroUsd,
      charge: overageCharge(s.id, plan.name, row.month, row),
    });
    await markInvoiced(deps.database.db, row.id, invoiceRef, deps.clock.now());
    deps.logger.info("overage invoiced", {
      invoice_id: row.id,
      subscription_id: s.id,
      month: row.month,
      overage_requests: row.overageRequests,
      provider_ref: invoiceRef,
    });
    return outcome(row, "invoiced", invoiceRef, null);
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    deps.logger.error("overage invoice not billed; retried after its lease", {
      invoice_id: row.id,
      subscription_id: row.subscriptionId,
      month: row.month,
      error,
    });
    return outcome(row, "pending", null, error);
  }
}

/**
 * Invoices `month`'s overage for every subscription that ran on past its end and has no invoice for it yet.
 * Throws BillingError for a month that is not over (or not settled) yet.
 */
export async function invoiceMonth(
  deps: BillingDeps,
  month: string,
  opts: { baseUrl: string },
): Promise<InvoiceOutcome[]> {
  if (!isMonth(month)) throw new BillingError(`'${month}' is not a month (YYYY-MM)`);
  const now = deps.clock.now();
  if (!monthInvoiceable(month, now)) {
    throw new BillingError(
      `${month} is not over yet (it can be invoiced from ${new Date(monthEnd(month).getTime() + INVOICE_SETTLE_MS).toISOString()})`,
    );
  }
  const candidates = await subscriptionsToInvoice(deps.database.db, month, monthEnd(month));
  if (candidates.length === 0) return [];
  // Every count still in the usage journal reaches the database before the month's usage is read.
  await deps.keys.meter.flush();
  const out: InvoiceOutcome[] = [];
  for (const { subscription: s, keyMode } of candidates) {
    const billed = await monthOverage(deps.database.db, s, keyMode, month);
    const { requests } = billed;
    const billable = billed.amountMicroUsd > 0;
    const row = await insertOverageInvoice(deps.database.db, {
      id: newId(deps),
      subscriptionId: s.id,
      month,
      requests,
      overageRequests: billed.overageRequests,
      amountMicroUsd: billed.amountMicroUsd,
      providerRef: null,
      createdAt: now,
      kind: "monthly",
      status: billable ? "pending" : "invoiced",
      leaseUntil: billable ? new Date(now.getTime() + INVOICE_LEASE_MS) : null,
      invoicedAt: billable ? null : now,
    });
    // Another process (or the CLI) reserved it first: it bills it.
    if (!row) continue;
    out.push(billable ? await bill(deps, row, opts.baseUrl) : outcome(row, "invoiced", null, null));
  }
  return out;
}

/** Bills again every pending invoice whose lease ran out (of `month` only, when given). */
export async function retryPendingInvoices(
  deps: BillingDeps,
  opts: { baseUrl: string; month?: string },
): Promise<InvoiceOutcome[]> {
  const now = deps.clock.now();
  const rows = await leasePendingInvoices(
    deps.database.db,
    now,
    new Date(now.getTime() + INVOICE_LEASE_MS),
    opts.month,
  );
  const out: InvoiceOutcome[] = [];
  for (const row of rows) out.push(await bill(deps, row, opts.baseUrl));
  return out;
}

/** Ends every subscription still unpaid when its dunning period (after the 7-day grace) has run out. */
export async function endUnpaidSubscriptions(deps: BillingDeps, opts: { baseUrl: string }): Promise<EndResult[]> {
  const now = deps.clock.now();
  const dunningMs = deps.config.dunningPeriodDays * DAY_MS;
  const due = await unpaidSince(deps.database.db, new Date(now.getTime() - GRACE_PERIOD_MS - dunningMs));
  const out: EndResult[] = [];
  for (const s of due) {
    try {
      const r = await endSubscription(
        deps,
        { id: s.id },
        { reason: "unpaid", callProvider: true, baseUrl: opts.baseUrl },
      );
      if (!r.alreadyEnded) out.push(r);
    } catch (e) {
      deps.logger.error("unpaid subscription not ended; retried at the next run", {
        subscription_id: s.id,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
  return out;
}
