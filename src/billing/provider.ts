// The payment provider behind subscriptions. Stripe implements it (src/billing/stripe.ts); without a provider,
// operators drive subscriptions with the admin CLI (`svc subscriptions ...`) and monthly overage is billed by the
// operator implementation of OverageBilling (src/billing/operator.ts: an emailed invoice). Provider events arrive
// normalised, so the billing service never sees provider objects.
import type { PaidPlanId } from "../plans";

export type CheckoutRequest = {
  plan: PaidPlanId;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
};

export type CheckoutSession = { id: string; url: string };

export type ProviderSubscriptionRef = { customerId: string | null; subscriptionId: string | null };

/** `idempotencyKey` is the same for every attempt at one charge, so a retry never bills twice at the provider. */
export type OverageCharge = { amountCents: number; description: string; idempotencyKey: string };

/** One month's overage of one subscription, already recorded as invoice `invoiceId` in the database. */
export type MonthlyOverage = {
  invoiceId: string;
  subscriptionId: string;
  refs: ProviderSubscriptionRef;
  /** True when the subscription ended after the month did (there is no next period to add the charge to). */
  subscriptionEnded: boolean;
  billingEmail: string;
  planName: string;
  keyHint: string;
  month: string;
  requests: number;
  includedRequests: number;
  overageRequests: number;
  amountMicroUsd: number;
  charge: OverageCharge;
};

/** Bills a month's overage for a subscription that continued past the month (throws when it could not). */
export type OverageBilling = {
  invoiceMonthlyOverage(o: MonthlyOverage): Promise<{ invoiceRef: string | null }>;
};

/** Provider events the service acts on; everything else is acknowledged and ignored. */
export type BillingEvent =
  | {
      id: string;
      type: "checkout_completed";
      sessionId: string;
      customerId: string | null;
      subscriptionId: string | null;
      email: string | null;
      plan: string | null;
    }
  | { id: string; type: "payment_failed"; subscriptionId: string }
  | { id: string; type: "payment_succeeded"; subscriptionId: string }
  | { id: string; type: "subscription_ended"; subscriptionId: string }
  /** The subscription's price changed; `plan` is the paid plan of that price, null when no plan has it. */
  | { id: string; type: "plan_changed"; subscriptionId: string; priceId: string | null; plan: string | null }
  | { id: string; type: "ignored"; providerType: string };

export class WebhookSignatureError extends Error {}

export type BillingProvider = OverageBilling & {
  readonly name: "stripe";
  /** True when a checkout can be started for this plan (its price is configured). */
  offers(plan: PaidPlanId): boolean;
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** Ends the subscription now (no refund of the base fee), invoicing `overage` on a final invoice. */
  cancelSubscription(
    ref: ProviderSubscriptionRef,
    overage: OverageCharge | null,
  ): Promise<{ invoiceRef: string | null }>;
  /** Invoices overage for a subscription the provider already ended. */
  invoiceOverage(ref: ProviderSubscriptionRef, overage: OverageCharge): Promise<{ invoiceRef: string | null }>;
  /** Verifies the signature (throws WebhookSignatureError) and normalises the event. */
  parseWebhook(rawBody: string, signature: string | undefined, receivedAt: Date): Promise<BillingEvent>;
};
