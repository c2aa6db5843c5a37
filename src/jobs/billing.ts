// The billing cycle, run by the `billing` queue of the job engine (src/jobs/runtime.ts: a one-minute pg-boss schedule
// and once when a server starts; tests call runBillingCycle after moving the injected clock). Each run: invoices the last ended month's overage (src/services/billing-cycle.ts), retries
// invoices left pending, ends subscriptions whose dunning period ran out, and forgets applied usage-batch ids
// older than 90 days (a journal holds an applied batch only until its process restarts). Every step is
// idempotent; the queue runs one at a time across every process.
import { pruneUsageBatches } from "../../db/repos/keys";
import { DAY_MS, monthToInvoice } from "../domain/access";
import {
  endUnpaidSubscriptions,
  invoiceMonth,
  retryPendingInvoices,
  type InvoiceOutcome,
} from "../services/billing-cycle";
import type { BillingDeps } from "../services/billing";
import type { EndResult } from "../services/billing-end";

export const USAGE_BATCH_RETENTION_MS = 90 * DAY_MS;

export type BillingTick = {
  month: string;
  invoiced: InvoiceOutcome[];
  retried: InvoiceOutcome[];
  ended: EndResult[];
  prunedUsageBatches: number;
  errors: string[];
};

async function step<T>(
  deps: BillingDeps,
  name: string,
  errors: string[],
  fallback: T,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    deps.logger.error(`billing job: ${name} failed; retried at the next run`, { error });
    errors.push(`${name}: ${error}`);
    return fallback;
  }
}

/** One run of the billing cycle at the deps' clock (every step runs even when an earlier one failed). */
export async function runBillingCycle(deps: BillingDeps, opts: { baseUrl: string }): Promise<BillingTick> {
  const now = deps.clock.now();
  const month = monthToInvoice(now);
  const errors: string[] = [];
  const invoiced = await step(deps, "monthly overage", errors, [], () => invoiceMonth(deps, month, opts));
  const retried = await step(deps, "pending invoices", errors, [], () => retryPendingInvoices(deps, opts));
  const ended = await step(deps, "dunning", errors, [], () => endUnpaidSubscriptions(deps, opts));
  const prunedUsageBatches = await step(deps, "usage batch ids", errors, 0, () =>
    pruneUsageBatches(deps.database.db, new Date(now.getTime() - USAGE_BATCH_RETENTION_MS)),
  );
  return { month, invoiced, retried, ended, prunedUsageBatches, errors };
}
