// Subscription use cases: create (CLI or a completed checkout), payment failure and recovery, plan change, and the
// views and overage computation the other billing modules share. A subscription pays for one key; its plan sets the
// key's plan and rate limit. Ending a subscription (and the customer's key revoke): billing-end.ts. Checkout sessions
// and provider webhooks: billing-checkout.ts. Monthly overage of continuing subscriptions: billing-cycle.ts.
// Test-mode keys never bill.
import type { Db } from "../../db/client";
import {
  clearPaymentFailure,
  findSubscription,
  insertSubscription,
  listSubscriptions,
  markPaymentFailed,
  setSubscriptionPlan,
  type SubscriptionRef,
  type SubscriptionRow,
} from "../../db/repos/billing";
import { findKeyById, setKeyPlan, usageFor } from "../../db/repos/keys";
import type { OverageCharge } from "../billing/provider";
import { graceEndsAt, overage, subscriptionState, type SubscriptionState } from "../domain/access";
import { normalizeEmail } from "../domain/keys";
import { paymentFailedMail, planChangedMail } from "../mail/messages";
import { PLANS, type PaidPlanId } from "../plans";
import { issueKey, newId, type KeyDeps } from "./keys";

export type BillingDeps = KeyDeps;

export const inTx = <T>(deps: BillingDeps, fn: (tx: Db) => Promise<T>): Promise<T> =>
  deps.database.db.transaction((tx) => fn(tx as unknown as Db));

/** A billing operation the caller asked for that cannot apply (unknown subscription, already ended...). */
export class BillingError extends Error {}

export type SubscriptionView = {
  id: string;
  plan: PaidPlanId;
  billing_email: string;
  provider: "stripe" | "manual";
  state: SubscriptionState;
  grace_ends_at: string | null;
  key_id: string;
  started_at: string;
  ended_at: string | null;
  end_reason: string | null;
};

export function viewSubscription(s: SubscriptionRow, now: Date): SubscriptionView {
  return {
    id: s.id,
    plan: s.plan,
    billing_email: s.billingEmail,
    provider: s.provider,
    state: subscriptionState(s, now),
    grace_ends_at: s.paymentFailedAt ? graceEndsAt(s.paymentFailedAt).toISOString() : null,
    key_id: s.keyId,
    started_at: s.startedAt.toISOString(),
    ended_at: s.endedAt?.toISOString() ?? null,
    end_reason: s.endReason ?? null,
  };
}

export type CreateSubscriptionInput = {
  plan: PaidPlanId;
  email: string;
  provider: "stripe" | "manual";
  mode?: "live" | "test";
  scopes?: string[];
  rateLimitPerMinute?: number;
  providerCustomerId?: string | null;
  providerSubscriptionId?: string | null;
  checkoutSessionId?: string | null;
};

/** Issues a key on the plan and the subscription paying for it, in one transaction. */
export async function createSubscription(
  deps: BillingDeps,
  input: CreateSubscriptionInput,
): Promise<{ key: string; keyHint: string; subscription: SubscriptionRow }> {
  const email = normalizeEmail(input.email);
  const out = await inTx(deps, async (tx) => {
    const { key, row } = await issueKey(
      deps,
      { plan: input.plan, mode: input.mode, scopes: input.scopes, rateLimitPerMinute: input.rateLimitPerMinute, email },
      tx,
    );
    const subscription = await insertSubscription(tx, {
      id: newId(deps),
      keyId: row.id,
      plan: input.plan,
      billingEmail: email,
      provider: input.provider,
      providerCustomerId: input.providerCustomerId ?? null,
      providerSubscriptionId: input.providerSubscriptionId ?? null,
      checkoutSessionId: input.checkoutSessionId ?? null,
      status: "active",
      paymentFailedAt: null,
      startedAt: deps.clock.now(),
    });
    return { key, keyHint: row.hint, subscription };
  });
  deps.logger.info("subscription created", {
    subscription_id: out.subscription.id,
    key_hint: out.keyHint,
    plan: input.plan,
    provider: input.provider,
  });
  return out;
}

export async function requireSubscription(deps: BillingDeps, ref: SubscriptionRef): Promise<SubscriptionRow> {
  const s = await findSubscription(deps.database.db, ref);
  if (!s) throw new BillingError(`no subscription ${Object.values(ref)[0]}`);
  return s;
}

/** A failed payment: the 7-day grace period starts (a repeated failure does not extend it). */
export async function failPayment(deps: BillingDeps, ref: SubscriptionRef, baseUrl: string): Promise<SubscriptionView> {
  const s = await requireSubscription(deps, ref);
  if (s.status === "ended") throw new BillingError(`subscription ${s.id} has ended`);
  const now = deps.clock.now();
  const started = await inTx(deps, (tx) => markPaymentFailed(tx, s.id, now));
  await deps.keys.cache.invalidate(s.keyId);
  const after = await requireSubscription(deps, { id: s.id });
  if (started) {
    const key = await findKeyById(deps.database.db, s.keyId);
    deps.logger.info("subscription payment failed", {
      subscription_id: s.id,
      grace_ends_at: graceEndsAt(now).toISOString(),
    });
    const sent = await deps.mail.send(
      paymentFailedMail({
        to: s.billingEmail,
        baseUrl,
        hint: key?.key.hint ?? "(unknown)",
        plan: PLANS[s.plan].name,
        graceEndsAt: graceEndsAt(now),
      }),
    );
    if (!sent.delivered) deps.logger.warn("payment-failure email not sent", { subscription_id: s.id });
  }
  return viewSubscription(after, now);
}

/** A successful payment ends any grace period or past-due state. */
export async function recordPayment(deps: BillingDeps, ref: SubscriptionRef): Promise<SubscriptionView> {
  const s = await requireSubscription(deps, ref);
  if (s.status === "ended") throw new BillingError(`subscription ${s.id} has ended`);
  await inTx(deps, (tx) => clearPaymentFailure(tx, s.id));
  await deps.keys.cache.invalidate(s.keyId);
  deps.logger.info("subscription payment recorded", { subscription_id: s.id });
  return viewSubscription(await requireSubscription(deps, { id: s.id }), deps.clock.now());
}

export type MonthOverage = { requests: number; overageRequests: number; amountMicroUsd: number };

/**
 * A subscription's requests in `month` as the database holds them (flush the meter first) and the overage they bill:
 * none for a test-mode key. The one computation behind monthly invoices and the invoice of an ended subscription.
 */
export async function monthOverage(
  db: Db,
  s: Pick<SubscriptionRow, "keyId" | "plan">,
  keyMode: "live" | "test",
  month: string,
): Promise<MonthOverage> {
  const requests = await usageFor(db, s.keyId, month);
  if (keyMode === "test") return { requests, overageRequests: 0, amountMicroUsd: 0 };
  return { requests, ...overage(PLANS[s.plan], requests) };
}

/** The provider charge for a month's overage; its idempotency key is the same on every attempt (one per subscription and month). */
export function overageCharge(
  subscriptionId: string,
  planName: string,
  month: string,
  billed: { overageRequests: number; amountMicroUsd: number },
): OverageCharge {
  return {
    amountCents: Math.round(billed.amountMicroUsd / 10_000),
    description: `${planName} overage ${month}: ${billed.overageRequests} requests`,
    idempotencyKey: `svc-overage:${subscriptionId}:${month}`,
  };
}

/**
 * Moves a live subscription and its key to another paid plan: the key's plan and per-minute limit follow (a custom
 * limit is replaced by the plan's). False when it is already on that plan.
 */
export async function changeSubscriptionPlan(
  deps: BillingDeps,
  ref: SubscriptionRef,
  plan: PaidPlanId,
  baseUrl: string,
): Promise<boolean> {
  const s = await requireSubscription(deps, ref);
  if (s.status === "ended") throw new BillingError(`subscription ${s.id} has ended`);
  if (s.plan === plan) return false;
  const changed = await inTx(deps, async (tx) => {
    if (!(await setSubscriptionPlan(tx, s.id, plan))) return false;
    await setKeyPlan(tx, s.keyId, plan, PLANS[plan].rateLimitPerMinute);
    return true;
  });
  if (!changed) return false;
  await deps.keys.cache.invalidate(s.keyId);
  const key = await findKeyById(deps.database.db, s.keyId);
  deps.logger.info("subscription plan changed", {
    subscription_id: s.id,
    from: s.plan,
    to: plan,
    key_hint: key?.key.hint,
  });
  const sent = await deps.mail.send(
    planChangedMail({
      to: s.billingEmail,
      baseUrl,
      hint: key?.key.hint ?? "(unknown)",
      from: PLANS[s.plan].name,
      plan: PLANS[plan].name,
      rateLimitPerMinute: PLANS[plan].rateLimitPerMinute,
      includedRequests: PLANS[plan].includedRequestsPerMonth,
    }),
  );
  if (!sent.delivered) deps.logger.warn("plan-change email not sent", { subscription_id: s.id });
  return true;
}

export async function subscriptionsList(
  deps: BillingDeps,
  opts: { email?: string; limit: number },
): Promise<SubscriptionView[]> {
  const now = deps.clock.now();
  return (
    await listSubscriptions(deps.database.db, {
      email: opts.email ? normalizeEmail(opts.email) : undefined,
      limit: opts.limit,
    })
  ).map((s) => viewSubscription(s, now));
}
