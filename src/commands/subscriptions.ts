// `svc subscriptions create|list|fail-payment|pay|end|invoice`: subscriptions for operators without Stripe, and
// manual interventions on Stripe ones (end cancels at Stripe too when it is configured). `invoice --month` does
// what the server's billing job does at month rollover, for one month, and is safe to run beside it.
import { z } from "zod";
import { PAID_PLAN_IDS, isPaidPlan } from "../plans";
import { formatUsd } from "../pricing";
import { BillingError, createSubscription, failPayment, recordPayment, subscriptionsList } from "../services/billing";
import { endSubscription } from "../services/billing-end";
import { invoiceMonth, retryPendingInvoices } from "../services/billing-cycle";
import { ApiError } from "../errors";
import { CliError } from "./cli-error";
import { consoleContext, type Command } from "./command";
import { baseUrlOf } from "../contract/base-url";
import { parseFlags, positiveInt, printRows, withDeps } from "./access-cli";

const help: Record<string, string> = {
  create: `create --plan <developer|professional> --email BILLING_EMAIL [--scope S]... [--rate-limit N] [--test]
  Starts a subscription paid outside this service (no payment provider) and prints its key once on stdout.
  --plan         the paid plan
  --email        the billing address (invoices, recovery, the key's notices)
  --scope        a scope to grant besides the plan's (repeatable)
  --rate-limit   requests per minute instead of the plan's
  --test         a test-mode key (never billed)`,
  list: `list [--email E] [--limit N]
  Lists subscriptions (most recent first, default 50), optionally of one billing address.`,
  "fail-payment": `fail-payment --id SUBSCRIPTION_ID
  A payment failed: starts the 7-day grace period (the key keeps working until it ends, then is past due).`,
  pay: `pay --id SUBSCRIPTION_ID
  A payment succeeded: ends the grace period or the past-due state.`,
  end: `end --id SUBSCRIPTION_ID
  Ends the subscription now: invoices the month's overage and revokes its key (cancels at Stripe too when configured).`,
  invoice: `invoice --month YYYY-MM
  Invoices that ended month's overage once per subscription, as the server's billing job does at month rollover.`,
};
const usage = Object.values(help)
  .map((h) => h.split("\n")[0])
  .join("\n       svc subscriptions ");

function requireId(rest: string[]): string {
  const f = parseFlags(rest, { id: { type: "string" } });
  if (!f.id || !z.uuid().safeParse(f.id).success)
    throw new CliError("--id SUBSCRIPTION_ID (a uuid; see 'svc subscriptions list') is required");
  return String(f.id);
}

/** Service failures a CLI user can act on become one-line errors. */
async function operatorErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof BillingError || e instanceof ApiError) throw new CliError(e.message, 1);
    throw e;
  }
}

export const subscriptionsCommand: Command = {
  usage,
  help,
  admin: true,
  async run(args, config, ctx = consoleContext()) {
    const [sub, ...rest] = args;
    const base = baseUrlOf(config);
    if (sub === "create") {
      const f = parseFlags(rest, {
        plan: { type: "string" },
        email: { type: "string" },
        scope: { type: "string", multiple: true },
        "rate-limit": { type: "string" },
        test: { type: "boolean" },
      });
      if (!f.plan || !isPaidPlan(String(f.plan)))
        throw new CliError(`--plan must be one of ${PAID_PLAN_IDS.join(", ")}`);
      if (!f.email || !z.email().safeParse(f.email).success)
        throw new CliError("--email BILLING_EMAIL is required and must be an email address");
      const rateLimitPerMinute = positiveInt(f["rate-limit"] as string | undefined, "rate-limit");
      await withDeps(config, ctx, async (deps) => {
        const out = await createSubscription(deps, {
          plan: String(f.plan) as "developer" | "professional",
          email: String(f.email),
          provider: "manual",
          mode: f.test ? "test" : "live",
          scopes: (f.scope as string[] | undefined) ?? [],
          rateLimitPerMinute,
        });
        ctx.out(out.key);
        ctx.err(
          `subscription ${out.subscription.id}: ${out.subscription.plan}, billed to ${out.subscription.billingEmail}, key ${out.keyHint}. The key is shown once: only its hash is stored.`,
        );
      });
      return;
    }
    if (sub === "list") {
      const f = parseFlags(rest, { email: { type: "string" }, limit: { type: "string" } });
      await withDeps(config, ctx, async (deps) =>
        printRows(
          ctx,
          await subscriptionsList(deps, {
            email: f.email as string | undefined,
            limit: positiveInt(f.limit as string | undefined, "limit") ?? 50,
          }),
        ),
      );
      return;
    }
    if (sub === "fail-payment") {
      const id = requireId(rest);
      await withDeps(config, ctx, (deps) =>
        operatorErrors(async () => {
          const v = await failPayment(deps, { id }, base);
          ctx.out(
            `subscription ${v.id}: payment failed; the key works until ${v.grace_ends_at}, then the subscription is past due`,
          );
        }),
      );
      return;
    }
    if (sub === "pay") {
      const id = requireId(rest);
      await withDeps(config, ctx, (deps) =>
        operatorErrors(async () => {
          const v = await recordPayment(deps, { id });
          ctx.out(`subscription ${v.id}: payment recorded; state ${v.state}`);
        }),
      );
      return;
    }
    if (sub === "end") {
      const id = requireId(rest);
      await withDeps(config, ctx, (deps) =>
        operatorErrors(async () => {
          const r = await endSubscription(deps, { id }, { reason: "operator", callProvider: true, baseUrl: base });
          if (r.alreadyEnded) ctx.out(`subscription ${id} had already ended`);
          else
            ctx.out(
              `subscription ${id} ended; key revoked; overage ${r.month}: ${r.overageRequests} requests, USD ${formatUsd(r.amountMicroUsd)}`,
            );
        }),
      );
      return;
    }
    if (sub === "invoice") {
      const f = parseFlags(rest, { month: { type: "string" } });
      const month = f.month === undefined ? "" : String(f.month);
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
        throw new CliError("--month YYYY-MM (a calendar month that has ended) is required");
      await withDeps(config, ctx, (deps) =>
        operatorErrors(async () => {
          const done = [
            ...(await invoiceMonth(deps, month, { baseUrl: base })),
            ...(await retryPendingInvoices(deps, { baseUrl: base, month })),
          ];
          if (done.length === 0)
            ctx.out(
              `${month}: nothing to invoice (every subscription that ran past the month already has its invoice)`,
            );
          printRows(ctx, done);
          if (done.some((o) => o.status === "pending"))
            throw new CliError(
              `some invoices of ${month} could not be billed and stay pending; run this again later`,
              1,
            );
        }),
      );
      return;
    }
    throw new CliError(`usage: svc subscriptions ${usage}`);
  },
};
