// Ending a subscription (the customer, the provider, the operator, or unpaid after dunning): the month's used overage
// invoiced, the subscription ended and its key revoked in one transaction, and the confirmation mailed; and a
// customer's revoke of the key they call with, which ends the subscription it pays for.
import { insertOverageInvoice, markEnded, type SubscriptionRef } from "../../db/repos/billing";
import { findKeyById, lockKey, revokeKey as revokeKeyRow } from "../../db/repos/keys";
import { usageMonth } from "../domain/access";
import { sameDigest } from "../domain/keys";
import { fail } from "../errors";
import { subscriptionCancelledMail, subscriptionEndedMail, subscriptionUnpaidMail } from "../mail/messages";
import { PLANS } from "../plans";
import { formatUsd } from "../pricing";
import type { RevokeResponse } from "../schemas/keys";
import {
  inTx,
  monthOverage,
  overageCharge,
  requireSubscription,
  viewSubscription,
  type BillingDeps,
  type SubscriptionView,
} from "./billing";
import type { AuthenticatedKey } from "./key-auth";
import { newId, revokeKeyWithoutSubscription } from "./keys";

export type EndReason = "cancelled" | "provider" | "operator" | "unpaid";

export type EndResult = {
  subscription: SubscriptionView;
  month: string;
  requests: number;
  overageRequests: number;
  amountMicroUsd: number;
  alreadyEnded: boolean;
};

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
  if (s.status === "ended")
    return {
      subscription: viewSubscription(s, now),
      month,
      requests: 0,
      overageRequests: 0,
      amountMicroUsd: 0,
      alreadyEnded: true,
    };
  const found = await findKeyById(deps.database.db, s.keyId);
  // Everything counted so far is written before the month's overage is computed.
  await deps.keys.meter.flush();
  const billed = await monthOverage(deps.database.db, s, found?.key.mode ?? "live", month);
  const { requests } = billed;
  const charge = billed.amountMicroUsd > 0 ? overageCharge(s.id, PLANS[s.plan].name, month, billed) : null;

  let providerRef: string | null = null;
  if (s.provider === "stripe" && (opts.callProvider || charge)) {
    if (!deps.billing)
      fail(
        "SERVICE_UNAVAILABLE",
        "This subscription is billed through Stripe, but Stripe is not configured on this server (STRIPE_SECRET_KEY).",
      );
    const providerRefs = { customerId: s.providerCustomerId, subscriptionId: s.providerSubscriptionId };
    try {
      providerRef = opts.callProvider
        ? (await deps.billing.cancelSubscription(providerRefs, charge)).invoiceRef
        : (await deps.billing.invoiceOverage(providerRefs, charge!)).invoiceRef;
    } catch (e) {
      deps.logger.error("payment provider call failed", { subscription_id: s.id, error: String(e) });
      fail(
        "INTERNAL_ERROR",
        "The payment provider could not cancel the subscription; nothing was changed. Retry shortly.",
      );
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
  if (!ended)
    return {
      subscription: viewSubscription(after, now),
      month,
      requests,
      overageRequests: 0,
      amountMicroUsd: 0,
      alreadyEnded: true,
    };

  deps.logger.info("subscription ended", {
    subscription_id: s.id,
    reason: opts.reason,
    key_hint: found?.key.hint,
    overage_requests: billed.overageRequests,
  });
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
  return {
    subscription: viewSubscription(after, now),
    month,
    requests,
    overageRequests: billed.overageRequests,
    amountMicroUsd: billed.amountMicroUsd,
    alreadyEnded: false,
  };
}

/**
 * A customer revokes the key they call with. A key paying a subscription needs `cancelSubscription`, and then ends
 * it (the key is revoked with it); any other key is revoked alone. Here rather than in keys.ts so billing depends on
 * keys and not the other way round.
 */
export async function revokeKey(
  deps: BillingDeps,
  auth: AuthenticatedKey,
  input: { cancelSubscription: boolean; baseUrl: string },
): Promise<RevokeResponse> {
  if (!auth.subscription) return revokeKeyWithoutSubscription(deps, auth);
  if (!input.cancelSubscription) {
    fail(
      "SUBSCRIPTION_ACTIVE",
      `This key pays for a ${auth.subscription.plan} subscription. Send {"cancel_subscription": true} to end the subscription now and revoke the key.`,
      {
        subscription_state: auth.subscription.state,
      },
    );
  }
  await endSubscription(
    deps,
    { id: auth.subscription.id },
    { reason: "cancelled", callProvider: true, baseUrl: input.baseUrl, expectSecretHash: auth.secretHash },
  );
  return { data: { revoked: true, key_hint: auth.hint, subscription_cancelled: true } };
}
