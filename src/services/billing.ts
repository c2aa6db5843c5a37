// Subscription use cases: create (CLI or a completed checkout), payment failure and recovery, plan change, end
// (customer revoke, provider, operator, unpaid after dunning), the customer's key revoke, checkout sessions and
// provider webhooks. A subscription pays for one key; its plan sets the key's plan and rate limit. Ending a
// subscription invoices the month's used overage and revokes the key. Monthly overage of continuing subscriptions:
// billing-cycle.ts.
// Test-mode keys never bill.
import type { Db } from "../../db/client";
import {
  billingEventSeen,
  clearPaymentFailure,
  findSubscription,
  insertOverageInvoice,
  insertSubscription,
  listSubscriptions,
  markEnded,
  markPaymentFailed,
  recordBillingEvent,
  setSubscriptionPlan,
  type SubscriptionRef,
  type SubscriptionRow,
} from "../../db/repos/billing";
import { findKeyById, lockKey, revokeKey as revokeKeyRow, setKeyPlan, usageFor } from "../../db/repos/keys";
import { WebhookSignatureError, type BillingEvent, type OverageCharge } from "../billing/provider";
import type { Deps } from "../deps";
import { graceEndsAt, overage, subscriptionState, usageMonth, type SubscriptionState } from "../domain/access";
import { normalizeEmail, sameDigest } from "../domain/keys";
import { fail } from "../errors";
import { paidKeyIssuedMail, paymentFailedMail, planChangedMail, subscriptionCancelledMail, subscriptionEndedMail, subscriptionUnpaidMail } from "../mail/messages";
import { PLANS, isPaidPlan, type PaidPlanId } from "../plans";
import { formatUsd } from "../pricing";
import type { RevokeResponse } from "../schemas/keys";
import { issueKey, newId, revokeKeyWithoutSubscription, type AuthenticatedKey, type KeyDeps } from "./keys";

export type BillingDeps = KeyDeps;

const inTx = <T>(deps: BillingDeps, fn: (tx: Db) => Promise<T>): Promise<T> => deps.database.db.transaction((tx) => fn(tx as unknown as Db));

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
export async function createSubscription(deps: BillingDeps, input: CreateSubscriptionInput): Promise<{ key: string; keyHint: string; subscription: SubscriptionRow }> {
  const email = normalizeEmail(input.email);
  const out = await inTx(deps, async (tx) => {
    const { key, row } = await issueKey(deps, { plan: input.plan, mode: input.mode, scopes: input.scopes, rateLimitPerMinute: input.rateLimitPerMinute, email }, tx);
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
  deps.logger.info("subscription created", { subscription_id: out.subscription.id, key_hint: out.keyHint, plan: input.plan, provider: input.provider });
  return out;
}

async function requireSubscription(deps: BillingDeps, ref: SubscriptionRef): Promise<SubscriptionRow> {
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
    deps.logger.info("subscription payment failed", { subscription_id: s.id, grace_ends_at: graceEndsAt(now).toISOString() });
    const sent = await deps.mail.send(paymentFailedMail({ to: s.billingEmail, baseUrl, hint: key?.key.hint ?? "(unknown)", plan: PLANS[s.plan].name, graceEndsAt: graceEndsAt(now) }));
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
export async function monthOverage(db: Db, s: Pick<SubscriptionRow, "keyId" | "plan">, keyMode: "live" | "test", month: string): Promise<MonthOverage> {
  const requests = await usageFor(db, s.keyId, month);
  if (keyMode === "test") return { requests, overageRequests: 0, amountMicroUsd: 0 };
  return { requests, ...overage(PLANS[s.plan], requests) };
}

/** The provider charge for a month's overage; its idempotency key is the same on every attempt (one per subscription and month). */
export function overageCharge(subscriptionId: string, planName: string, month: string, billed: { overageRequests: number; amountMicroUsd: number }): OverageCharge {
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
export async function changeSubscriptionPlan(deps: BillingDeps, ref: SubscriptionRef, plan: PaidPlanId, baseUrl: string): Promise<boolean> {
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
  deps.logger.info("subscription plan changed", { subscription_id: s.id, from: s.plan, to: plan, key_hint: key?.key.hint });
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

export type EndReason = "cancelled" | "provider" | "operator" | "unpaid";

export type EndResult = { subscription: SubscriptionView; month: string; requests: number; overageRequests: number; amountMicroUsd: number; alreadyEnded: boolean };

/**
 * Ends a subscription now: invoices the current month's used overage (no refund of the base fee), marks it
 * ended, revokes its key and sends a confirmation. `callProvider` cancels at the provider too (false when the
 * provider told us it ended). `expectSecretHash` makes a customer's revoke fail if the key was rotated meanwhile.
 */
export async function endSubscription(
  deps: BillingDeps,
  ref: SubscriptionRef,
  opts: { reason: EndReason; callProvider: boolean; baseUrl: string; expectSecretHash?: string },
): Promise<EndResult> {
  const s = await requireSubscription(deps, ref);
  const now = deps.clock.now();
  const month = usageMonth(now);
  if (s.status === "ended") return { subscription: viewSubscription(s, now), month, requests: 0, overageRequests: 0, amountMicroUsd: 0, alreadyEnded: true };
  const found = await findKeyById(deps.database.db, s.keyId);
  // Everything counted so far is written before the month's overage is computed.
  await deps.keys.meter.flush();
  const billed = await monthOverage(deps.database.db, s, found?.key.mode ?? "live", month);
  const { requests } = billed;
  const charge = billed.amountMicroUsd > 0 ? overageCharge(s.id, PLANS[s.plan].name, month, billed) : null;

  let providerRef: string | null = null;
  if (s.provider === "stripe" && (opts.callProvider || charge)) {
    if (!deps.billing) fail("SERVICE_UNAVAILABLE", "This subscription is billed through Stripe, but Stripe is not configured on this server (STRIPE_SECRET_KEY).");
    const providerRefs = { customerId: s.providerCustomerId, subscriptionId: s.providerSubscriptionId };
    try {
      providerRef = opts.callProvider
        ? (await deps.billing.cancelSubscription(providerRefs, charge)).invoiceRef
        : (await deps.billing.invoiceOverage(providerRefs, charge!)).invoiceRef;
    } catch (e) {
      deps.logger.error("payment provider call failed", { subscription_id: s.id, error: String(e) });
      fail("INTERNAL_ERROR", "The payment provider could not cancel the subscription; nothing was changed. Retry shortly.");
    }
  }

  const ended = await inTx(deps, async (tx) => {
    const keyRow = await lockKey(tx, s.keyId);
    if (opts.expectSecretHash && (!keyRow || !sameDigest(keyRow.secretHash, opts.expectSecretHash))) {
      fail("INVALID_API_KEY", "This key no longer works: it was rotated or revoked meanwhile.");
    }
    if (!(await markEnded(tx, s.id, now, opts.reason))) return false;
    await insertOverageInvoice(tx, {
      id: newId(deps),
      subscriptionId: s.id,
      month,
      requests,
      overageRequests: billed.overageRequests,
      amountMicroUsd: billed.amountMicroUsd,
      providerRef,
      createdAt: now,
      kind: "final",
      status: "invoiced",
      invoicedAt: now,
    });
    await revokeKeyRow(tx, s.keyId, now);
    return true;
  });
  await deps.keys.cache.invalidate(s.keyId);
  const after = await requireSubscription(deps, { id: s.id });
  if (!ended) return { subscription: viewSubscription(after, now), month, requests, overageRequests: 0, amountMicroUsd: 0, alreadyEnded: true };

  deps.logger.info("subscription ended", { subscription_id: s.id, reason: opts.reason, key_hint: found?.key.hint, overage_requests: billed.overageRequests });
  const mailArgs = {
    to: s.billingEmail,
    baseUrl: opts.baseUrl,
    hint: found?.key.hint ?? "(unknown)",
    plan: PLANS[s.plan].name,
    month,
    overageRequests: billed.overageRequests,
    overageUsd: formatUsd(billed.amountMicroUsd),
  };
  const sent = await deps.mail.send(
    opts.reason === "cancelled"
      ? subscriptionCancelledMail(mailArgs)
      : opts.reason === "unpaid" && s.paymentFailedAt
        ? subscriptionUnpaidMail({ ...mailArgs, failedAt: s.paymentFailedAt })
        : subscriptionEndedMail(mailArgs),
  );
  if (!sent.delivered) deps.logger.warn("subscription-end email not sent", { subscription_id: s.id });
  return { subscription: viewSubscription(after, now), month, requests, overageRequests: billed.overageRequests, amountMicroUsd: billed.amountMicroUsd, alreadyEnded: false };
}

/**
 * A customer revokes the key they call with. A key paying a subscription needs `cancelSubscription`, and then ends
 * it (the key is revoked with it); any other key is revoked alone. Here rather than in keys.ts so billing depends on
 * keys and not the other way round.
 */
export async function revokeKey(deps: BillingDeps, auth: AuthenticatedKey, input: { cancelSubscription: boolean; baseUrl: string }): Promise<RevokeResponse> {
  if (!auth.subscription) return revokeKeyWithoutSubscription(deps, auth);
  if (!input.cancelSubscription) {
    fail("SUBSCRIPTION_ACTIVE", `This key pays for a ${auth.subscription.plan} subscription. Send {"cancel_subscription": true} to end the subscription now and revoke the key.`, {
      subscription_state: auth.subscription.state,
    });
  }
  await endSubscription(deps, { id: auth.subscription.id }, { reason: "cancelled", callProvider: true, baseUrl: input.baseUrl, expectSecretHash: auth.secretHash });
  return { data: { revoked: true, key_hint: auth.hint, subscription_cancelled: true } };
}

export async function subscriptionsList(deps: BillingDeps, opts: { email?: string; limit: number }): Promise<SubscriptionView[]> {
  const now = deps.clock.now();
  return (await listSubscriptions(deps.database.db, { email: opts.email ? normalizeEmail(opts.email) : undefined, limit: opts.limit })).map((s) => viewSubscription(s, now));
}

const operatorPath =
  "Online checkout is not configured on this server (STRIPE_SECRET_KEY and STRIPE_PRICE_DEVELOPER / STRIPE_PRICE_PROFESSIONAL). " +
  "Ask the operator for a paid key: they issue one with `svc subscriptions create --plan <developer|professional> --email <billing address>`.";

/** Starts a provider checkout for a paid plan; the key is emailed once the provider confirms payment. */
export async function startCheckout(deps: BillingDeps, input: { plan: string; email: string | null; baseUrl: string }): Promise<{ url: string; id: string }> {
  if (!isPaidPlan(input.plan)) fail("RESOURCE_NOT_FOUND", `No paid plan '${input.plan}'. Paid plans: developer, professional; free keys come from POST /v1/signup.`);
  if (!deps.billing || !deps.billing.offers(input.plan)) fail("SERVICE_UNAVAILABLE", operatorPath, { plan: input.plan });
  try {
    return await deps.billing.createCheckout({
      plan: input.plan,
      email: input.email ? normalizeEmail(input.email) : null,
      successUrl: `${input.baseUrl}/checkout/${input.plan}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${input.baseUrl}/checkout`,
    });
  } catch (e) {
    deps.logger.error("checkout session failed", { plan: input.plan, error: String(e) });
    fail("INTERNAL_ERROR", "The payment provider could not start a checkout; retry shortly.");
  }
}

export function checkoutAvailability(deps: Pick<Deps, "billing">): { provider: "stripe" | null; plans: Record<PaidPlanId, boolean>; notice: string | null } {
  const plans = { developer: !!deps.billing?.offers("developer"), professional: !!deps.billing?.offers("professional") };
  return { provider: deps.billing ? "stripe" : null, plans, notice: plans.developer || plans.professional ? null : operatorPath };
}

export type WebhookOutcome = { event: string; type: string; applied: boolean; note?: string };

/** Verifies and applies one provider webhook; redeliveries are acknowledged without applying twice. */
export async function handleWebhook(deps: BillingDeps, input: { rawBody: string; signature: string | undefined; baseUrl: string }): Promise<WebhookOutcome> {
  if (!deps.billing) fail("SERVICE_UNAVAILABLE", "No payment provider is configured on this server.");
  let event: BillingEvent;
  try {
    event = await deps.billing.parseWebhook(input.rawBody, input.signature, deps.clock.now());
  } catch (e) {
    if (e instanceof WebhookSignatureError) fail("INVALID_PARAMETER", `Webhook signature verification failed: ${e.message}`, { parameter: "Stripe-Signature" });
    throw e;
  }
  if (await billingEventSeen(deps.database.db, event.id)) return { event: event.id, type: event.type, applied: false, note: "already applied" };
  const outcome = await applyBillingEvent(deps, event, input.baseUrl);
  await inTx(deps, (tx) => recordBillingEvent(tx, event.id, event.type, deps.clock.now()));
  return outcome;
}

export async function applyBillingEvent(deps: BillingDeps, event: BillingEvent, baseUrl: string): Promise<WebhookOutcome> {
  const base = { event: event.id, type: event.type };
  const known = async (ref: SubscriptionRef) => findSubscription(deps.database.db, ref);
  switch (event.type) {
    case "checkout_completed": {
      if (await known({ checkoutSessionId: event.sessionId })) return { ...base, applied: false, note: "already applied" };
      if (!event.plan || !isPaidPlan(event.plan) || !event.email) {
        deps.logger.error("checkout completed without plan or email; no key issued", { event: event.id, session: event.sessionId });
        return { ...base, applied: false, note: "missing plan or email" };
      }
      const { key, keyHint, subscription } = await createSubscription(deps, {
        plan: event.plan,
        email: event.email,
        provider: "stripe",
        providerCustomerId: event.customerId,
        providerSubscriptionId: event.subscriptionId,
        checkoutSessionId: event.sessionId,
      });
      const sent = await deps.mail.send(paidKeyIssuedMail({ to: subscription.billingEmail, baseUrl, key, hint: keyHint, plan: PLANS[event.plan].name }));
      // The key is not lost if mail fails: the billing address can recover it.
      if (!sent.delivered) deps.logger.error("key email not sent after checkout; the customer can recover the key", { subscription_id: subscription.id });
      return { ...base, applied: true };
    }
    case "payment_failed":
    case "payment_succeeded":
    case "subscription_ended": {
      const s = await known({ providerSubscriptionId: event.subscriptionId });
      if (!s) return { ...base, applied: false, note: "unknown subscription" };
      if (s.status === "ended") return { ...base, applied: false, note: "subscription already ended" };
      if (event.type === "payment_failed") await failPayment(deps, { id: s.id }, baseUrl);
      else if (event.type === "payment_succeeded") await recordPayment(deps, { id: s.id });
      else await endSubscription(deps, { id: s.id }, { reason: "provider", callProvider: false, baseUrl });
      return { ...base, applied: true };
    }
    case "plan_changed": {
      const s = await known({ providerSubscriptionId: event.subscriptionId });
      if (!s) return { ...base, applied: false, note: "unknown subscription" };
      if (s.status === "ended") return { ...base, applied: false, note: "subscription already ended" };
      if (!event.plan || !isPaidPlan(event.plan)) {
        deps.logger.error("subscription moved to a price no plan has; plan unchanged", { event: event.id, subscription_id: s.id, price: event.priceId });
        return { ...base, applied: false, note: `no plan has price ${event.priceId ?? "(none)"}` };
      }
      const changed = await changeSubscriptionPlan(deps, { id: s.id }, event.plan, baseUrl);
      return changed ? { ...base, applied: true } : { ...base, applied: false, note: `already on ${event.plan}` };
    }
    case "ignored":
      return { ...base, applied: false, note: `not handled: ${event.providerType}` };
  }
}
