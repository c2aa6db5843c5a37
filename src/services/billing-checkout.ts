// Paying through the provider: a checkout session for a paid plan (or the operator's path when none is offered), and
// the provider's webhooks, verified and applied once each (a completed checkout issues the key and its subscription).
import { billingEventSeen, findSubscription, recordBillingEvent, type SubscriptionRef } from "../../db/repos/billing";
import { WebhookSignatureError, type BillingEvent } from "../billing/provider";
import type { Deps } from "../deps";
import { normalizeEmail } from "../domain/keys";
import { fail } from "../errors";
import { paidKeyIssuedMail } from "../mail/messages";
import { PLANS, isPaidPlan, type PaidPlanId } from "../plans";
import {
  changeSubscriptionPlan,
  createSubscription,
  failPayment,
  inTx,
  recordPayment,
  type BillingDeps,
} from "./billing";
import { endSubscription } from "./billing-end";

const operatorPath =
  "Online checkout is not configured on this server (STRIPE_SECRET_KEY and STRIPE_PRICE_DEVELOPER / STRIPE_PRICE_PROFESSIONAL). " +
  "Ask the operator for a paid key: they issue one with `svc subscriptions create --plan <developer|professional> --email <billing address>`.";

/** Starts a provider checkout for a paid plan; the key is emailed once the provider confirms payment. */
export async function startCheckout(
  deps: BillingDeps,
  input: { plan: string; email: string | null; baseUrl: string },
): Promise<{ url: string; id: string }> {
  if (!isPaidPlan(input.plan))
    fail(
      "RESOURCE_NOT_FOUND",
      `No paid plan '${input.plan}'. Paid plans: developer, professional; free keys come from POST /v1/signup.`,
    );
  if (!deps.billing || !deps.billing.offers(input.plan))
    fail("SERVICE_UNAVAILABLE", operatorPath, { plan: input.plan });
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

export function checkoutAvailability(deps: Pick<Deps, "billing">): {
  provider: "stripe" | null;
  plans: Record<PaidPlanId, boolean>;
  notice: string | null;
} {
  const plans = {
    developer: !!deps.billing?.offers("developer"),
    professional: !!deps.billing?.offers("professional"),
  };
  return {
    provider: deps.billing ? "stripe" : null,
    plans,
    notice: plans.developer || plans.professional ? null : operatorPath,
  };
}

export type WebhookOutcome = { event: string; type: string; applied: boolean; note?: string };

/** Verifies and applies one provider webhook; redeliveries are acknowledged without applying twice. */
export async function handleWebhook(
  deps: BillingDeps,
  input: { rawBody: string; signature: string | undefined; baseUrl: string },
): Promise<WebhookOutcome> {
  if (!deps.billing) fail("SERVICE_UNAVAILABLE", "No payment provider is configured on this server.");
  let event: BillingEvent;
  try {
    event = await deps.billing.parseWebhook(input.rawBody, input.signature, deps.clock.now());
  } catch (e) {
    if (e instanceof WebhookSignatureError)
      fail("INVALID_PARAMETER", `Webhook signature verification failed: ${e.message}`, {
        parameter: "Stripe-Signature",
      });
    throw e;
  }
  if (await billingEventSeen(deps.database.db, event.id))
    return { event: event.id, type: event.type, applied: false, note: "already applied" };
  const outcome = await applyBillingEvent(deps, event, input.baseUrl);
  await inTx(deps, (tx) => recordBillingEvent(tx, event.id, event.type, deps.clock.now()));
  return outcome;
}

export async function applyBillingEvent(
  deps: BillingDeps,
  event: BillingEvent,
  baseUrl: string,
): Promise<WebhookOutcome> {
  const base = { event: event.id, type: event.type };
  const known = async (ref: SubscriptionRef) => findSubscription(deps.database.db, ref);
  switch (event.type) {
    case "checkout_completed": {
      if (await known({ checkoutSessionId: event.sessionId }))
        return { ...base, applied: false, note: "already applied" };
      if (!event.plan || !isPaidPlan(event.plan) || !event.email) {
        deps.logger.error("checkout completed without plan or email; no key issued", {
          event: event.id,
          session: event.sessionId,
        });
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
      const sent = await deps.mail.send(
        paidKeyIssuedMail({ to: subscription.billingEmail, baseUrl, key, hint: keyHint, plan: PLANS[event.plan].name }),
      );
      // The key is not lost if mail fails: the billing address can recover it.
      if (!sent.delivered)
        deps.logger.error("key email not sent after checkout; the customer can recover the key", {
          subscription_id: subscription.id,
        });
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
        deps.logger.error("subscription moved to a price no plan has; plan unchanged", {
          event: event.id,
          subscription_id: s.id,
          price: event.priceId,
        });
        return { ...base, applied: false, note: `no plan has price ${event.priceId ?? "(none)"}` };
      }
      const changed = await changeSubscriptionPlan(deps, { id: s.id }, event.plan, baseUrl);
      return changed ? { ...base, applied: true } : { ...base, applied: false, note: `already on ${event.plan}` };
    }
    case "ignored":
      return { ...base, applied: false, note: `not handled: ${event.providerType}` };
  }
}
