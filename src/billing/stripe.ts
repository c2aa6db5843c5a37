// Stripe implementation of the billing provider: Checkout Sessions in subscription mode (one price per paid
// plan, STRIPE_PRICE_DEVELOPER / STRIPE_PRICE_PROFESSIONAL), cancellation with a final invoice carrying the
// month's overage, monthly overage as an invoice item on the subscription's next invoice (or on an invoice of
// its own when the subscription has ended), and signed webhooks (STRIPE_WEBHOOK_SECRET) normalised to
// BillingEvent. Every write carries an idempotency key, so a retried or concurrent call bills once.
import type Stripe from "stripe";
import type { PaidPlanId } from "../plans";
import {
  WebhookSignatureError,
  type BillingEvent,
  type BillingProvider,
  type CheckoutRequest,
  type MonthlyOverage,
  type OverageCharge,
  type ProviderSubscriptionRef,
} from "./provider";

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string | null;
  prices: Record<PaidPlanId, string | null>;
  /** Where the Stripe API lives; tests point this at a local server. */
  api?: { host: string; port: number; protocol: "http" | "https" };
};

const idOf = (v: unknown): string | null =>
  typeof v === "string" ? v : v && typeof v === "object" && "id" in v ? String((v as { id: unknown }).id) : null;

/** The subscription an invoice belongs to, across API versions (top-level before 2025, under `parent` since). */
function invoiceSubscription(inv: Record<string, any>): string | null {
  return idOf(inv.subscription) ?? idOf(inv.parent?.subscription_details?.subscription) ?? null;
}

/** The paid plan whose configured price is `priceId`. */
function planOfPrice(prices: Record<PaidPlanId, string | null>, priceId: string | null): PaidPlanId | null {
  if (!priceId) return null;
  for (const [plan, price] of Object.entries(prices)) if (price === priceId) return plan as PaidPlanId;
  return null;
}

/** Maps a verified Stripe event to the events the service acts on (`prices` maps a subscription's price to a plan). */
export function normaliseStripeEvent(
  event: { id: string; type: string; data: { object: unknown } },
  prices: Record<PaidPlanId, string | null> = { developer: null, professional: null },
): BillingEvent {
  const o = event.data.object as Record<string, any>;
  switch (event.type) {
    case "checkout.session.completed":
      if (o.mode !== "subscription") break;
      return {
        id: event.id,
        type: "checkout_completed",
        sessionId: String(o.id),
        customerId: idOf(o.customer),
        subscriptionId: idOf(o.subscription),
        email: o.customer_details?.email ?? o.customer_email ?? null,
        plan: o.metadata?.plan ?? null,
      };
    case "invoice.payment_failed": {
      const sub = invoiceSubscription(o);
      if (sub) return { id: event.id, type: "payment_failed", subscriptionId: sub };
      break;
    }
    case "invoice.paid":
    case "invoice.payment_succeeded": {
      const sub = invoiceSubscription(o);
      if (sub) return { id: event.id, type: "payment_succeeded", subscriptionId: sub };
      break;
    }
    case "customer.subscription.deleted":
      return { id: event.id, type: "subscription_ended", subscriptionId: String(o.id) };
    case "customer.subscription.updated": {
      // One price per subscription (one line item); the legacy `plan` field carries it too.
      const priceId = idOf(o.items?.data?.[0]?.price) ?? idOf(o.plan);
      return {
        id: event.id,
        type: "plan_changed",
        subscriptionId: String(o.id),
        priceId,
        plan: planOfPrice(prices, priceId),
      };
    }
  }
  return { id: event.id, type: "ignored", providerType: event.type };
}

export function stripeProvider(settings: StripeSettings): BillingProvider {
  // The SDK is loaded by the first call, not at start: it is about 10 MB of a node's memory.
  let made: Promise<Stripe> | null = null;
  const client = () =>
    (made ??= import("stripe").then(
      ({ default: StripeClient }) =>
        new StripeClient(settings.secretKey, {
          httpClient: StripeClient.createFetchHttpClient(),
          maxNetworkRetries: 2,
          timeout: 20_000,
          ...(settings.api ?? {}),
        }),
    ));

  /** With `subscriptionId` the item waits for that subscription's next invoice; without, for the next invoice created. */
  async function addOverageItem(customerId: string, overage: OverageCharge, subscriptionId?: string): Promise<string> {
    const item = await (await client()).invoiceItems.create(
      {
        customer: customerId,
        amount: overage.amountCents,
        currency: "usd",
        description: overage.description,
        ...(subscriptionId ? { subscription: subscriptionId } : {}),
      },
      { idempotencyKey: `${overage.idempotencyKey}:item` },
    );
    return item.id;
  }

  async function invoiceNow(customerId: string, overage: OverageCharge): Promise<string> {
    const itemId = await addOverageItem(customerId, overage);
    const invoice = await (await client()).invoices.create(
      { customer: customerId, pending_invoice_items_behavior: "include", auto_advance: true },
      { idempotencyKey: `${overage.idempotencyKey}:invoice` },
    );
    return invoice.id ?? itemId;
  }

  return {
    name: "stripe",
    offers: (plan) => !!settings.prices[plan],
    async createCheckout(req: CheckoutRequest) {
      const price = settings.prices[req.plan];
      if (!price) throw new Error(`no Stripe price configured for plan ${req.plan}`);
      const session = await (await client()).checkout.sessions.create({
        mode: "subscription",
        line_items: [{ price, quantity: 1 }],
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        ...(req.email ? { customer_email: req.email } : {}),
        metadata: { plan: req.plan },
        subscription_data: { metadata: { plan: req.plan } },
      });
      if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
      return { id: session.id, url: session.url };
    },
    async cancelSubscription(ref: ProviderSubscriptionRef, overage: OverageCharge | null) {
      let invoiceRef: string | null = null;
      if (overage && overage.amountCents > 0 && ref.customerId)
        invoiceRef = await addOverageItem(ref.customerId, overage);
      // invoice_now puts pending items (the overage) on a final invoice; prorate: false keeps the base fee.
      if (ref.subscriptionId)
        await (await client()).subscriptions.cancel(
          ref.subscriptionId,
          { invoice_now: true, prorate: false },
          { idempotencyKey: `svc-cancel:${ref.subscriptionId}` },
        );
      return { invoiceRef };
    },
    async invoiceOverage(ref: ProviderSubscriptionRef, overage: OverageCharge) {
      if (!ref.customerId || overage.amountCents <= 0) return { invoiceRef: null };
      return { invoiceRef: await invoiceNow(ref.customerId, overage) };
    },
    async invoiceMonthlyOverage(o: MonthlyOverage) {
      if (o.charge.amountCents <= 0) return { invoiceRef: null };
      if (!o.refs.customerId) throw new Error(`subscription ${o.subscriptionId} has no Stripe customer to invoice`);
      // A live subscription: the item joins its next renewal invoice. An ended one has none: invoice now.
      if (o.subscriptionEnded || !o.refs.subscriptionId)
        return { invoiceRef: await invoiceNow(o.refs.customerId, o.charge) };
      return { invoiceRef: await addOverageItem(o.refs.customerId, o.charge, o.refs.subscriptionId) };
    },
    async parseWebhook(rawBody, signature, receivedAt) {
      if (!settings.webhookSecret) throw new WebhookSignatureError("STRIPE_WEBHOOK_SECRET is not configured");
      if (!signature) throw new WebhookSignatureError("missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        // Async: under Bun the SDK signs with WebCrypto, which has no synchronous HMAC. receivedAt is the injected clock.
        event = await (await client()).webhooks.constructEventAsync(
          rawBody,
          signature,
          settings.webhookSecret,
          300,
          undefined,
          receivedAt.getTime(),
        );
      } catch (e) {
        throw new WebhookSignatureError(e instanceof Error ? e.message : String(e));
      }
      return normaliseStripeEvent(
        event as unknown as { id: string; type: string; data: { object: unknown } },
        settings.prices,
      );
    },
  };
}
