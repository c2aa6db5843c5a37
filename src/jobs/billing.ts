// The in-process billing job the server runs every minute (and tests drive by calling tick() after moving the
// injected clock). Each run: invoices the last ended month's overage (src/services/billing-cycle.ts), retries
// invoices left pending, ends subscriptions whose dunning period ran out, and forgets applied usage-batch ids
// older than 90 days (a journal holds an applied batch only until its process restarts). Every step is
// idempotent, so several server processes may each run the job.
import { pruneUsageBatches } from "../../db/repos/keys";
import { DAY_MS, monthToInvoice } from "../domain/access";
import { endUnpaidSubscriptions, invoiceMonth, retryPendingInvoices, type InvoiceOutcome } from "../services/billing-cycle";
import type { BillingDeps, EndResult } from "../services/billing";

export const BILLING_JOB_INTERVAL_MS = 60_000;
export const USAGE_BATCH_RETENTION_MS = 90 * DAY_MS;

export type BillingTick = {
  month: string;
  invoiced: InvoiceOutcome[];
  retried: InvoiceOutcome[];
  ended: EndResult[];
  prunedUsageBatches: number;
  errors: string[];
};

export type BillingJob = {
  /** One run now (a run already in progress is joined, not doubled). */
  tick(): Promise<BillingTick>;
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
};

export function createBillingJob(deps: BillingDeps, opts: { baseUrl: string; intervalMs?: number }): BillingJob {
  let running: Promise<BillingTick> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  async function step<T>(name: string, errors: string[], fallback: T, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      deps.logger.error(`billing job: ${name} failed; retried at the next run`, { error });
      errors.push(`${name}: ${error}`);
      return fallback;
    }
  }

  async function run(): Promise<BillingTick> {
    const now = deps.clock.now();
    const month = monthToInvoice(now);
    const errors: string[] = [];
    const invoiced = await step("monthly overage", errors, [], () => invoiceMonth(deps, month, opts));
    const retried = await step("pending invoices", errors, [], () => retryPendingInvoices(deps, opts));
    const ended = await step("dunning", errors, [], () => endUnpaidSubscriptions(deps, opts));
    const prunedUsageBatches = await step("usage batch ids", errors, 0, () => pruneUsageBatches(deps.database.db, new Date(now.getTime() - USAGE_BATCH_RETENTION_MS)));
    return { month, invoiced, retried, ended, prunedUsageBatches, errors };
  }

  const job: BillingJob = {
    tick() {
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    start() {
      if (timer) return;
      timer = setInterval(() => void job.tick(), opts.intervalMs ?? BILLING_JOB_INTERVAL_MS);
      timer.unref?.();
      void job.tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
  };
  return job;
}
