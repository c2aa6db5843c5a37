// The texts of every email the service sends. Each returns the message and the secrets it contains,
// so the mailer can keep them out of stored copies once SMTP has taken the message.
import type { OutgoingMail } from "../ports";

type To = { to: string; baseUrl: string };

const signature = "\n\n-- \nEconomic Series API";

export function paidKeyIssuedMail(p: To & { key: string; hint: string; plan: string }): OutgoingMail {
  return {
    kind: "key_issued",
    to: p.to,
    subject: "Your API key",
    text:
      `Your ${p.plan} subscription is active. Your API key:\n\n    ${p.key}\n\n` +
      `Send it as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'. It is shown only in this message ` +
      `(we keep only a hash); its hint is ${p.hint}. Check it with:\n\n    curl -H 'Authorization: Bearer ${p.key}' ${p.baseUrl}/v1/ping\n\n` +
      `Lost it? POST ${p.baseUrl}/v1/keys/recover with this billing address.${signature}`,
    secrets: [p.key],
  };
}

export function keyRotatedMail(p: To & { key: string; hint: string; previousHint: string }): OutgoingMail {
  return {
    kind: "key_rotated",
    to: p.to,
    subject: "Your rotated API key",
    text:
      `Your API key ${p.previousHint} was rotated and no longer works. The new key:\n\n    ${p.key}\n\n` +
      `Plan, rate limit, usage and billing carried over. Its hint is ${p.hint}.${signature}`,
    secrets: [p.key],
  };
}

export function recoveryTokenMail(p: To & { token: string; hint: string; validMinutes: number }): OutgoingMail {
  return {
    kind: "recovery_token",
    to: p.to,
    subject: "Recover your API key",
    text:
      `Someone (hopefully you) asked to recover the API key ${p.hint} billed to this address. ` +
      `This single-use recovery token is valid for ${p.validMinutes} minutes:\n\n    ${p.token}\n\n` +
      `Confirm with:\n\n    curl -X POST ${p.baseUrl}/v1/keys/recover/confirm -H 'Content-Type: application/json' -d '{"token":"${p.token}"}'\n\n` +
      `The current key stops working and a new key is emailed here. If you did not ask, ignore this message: nothing changes.${signature}`,
    secrets: [p.token],
  };
}

export function keyRecoveredMail(p: To & { key: string; hint: string; previousHint: string }): OutgoingMail {
  return {
    kind: "key_recovered",
    to: p.to,
    subject: "Your recovered API key",
    text:
      `Recovery completed: the key ${p.previousHint} no longer works. Your new key:\n\n    ${p.key}\n\n` +
      `Plan, rate limit, usage and billing carried over. Its hint is ${p.hint}.${signature}`,
    secrets: [p.key],
  };
}

export function subscriptionCancelledMail(
  p: To & { hint: string; plan: string; month: string; overageRequests: number; overageUsd: string },
): OutgoingMail {
  const overage =
    p.overageRequests > 0
      ? `Overage for ${p.month}: ${p.overageRequests} requests, USD ${p.overageUsd}, invoiced now.`
      : `No overage was used in ${p.month}.`;
  return {
    kind: "subscription_cancelled",
    to: p.to,
    subject: "Your subscription is cancelled",
    text:
      `Your ${p.plan} subscription was cancelled and the key ${p.hint} is revoked permanently. ` +
      `The current month's base fee is not refunded. ${overage}${signature}`,
  };
}

export function subscriptionEndedMail(
  p: To & { hint: string; plan: string; month: string; overageRequests: number; overageUsd: string },
): OutgoingMail {
  const overage =
    p.overageRequests > 0
      ? ` Overage for ${p.month}: ${p.overageRequests} requests, USD ${p.overageUsd}, invoiced.`
      : "";
  return {
    kind: "subscription_ended",
    to: p.to,
    subject: "Your subscription has ended",
    text: `Your ${p.plan} subscription has ended and the key ${p.hint} is revoked.${overage} A free key is available at ${p.baseUrl}/v1/signup.${signature}`,
  };
}

export function paymentFailedMail(p: To & { hint: string; plan: string; graceEndsAt: Date }): OutgoingMail {
  return {
    kind: "payment_failed",
    to: p.to,
    subject: "Payment failed: your key keeps working for 7 days",
    text:
      `A payment for your ${p.plan} subscription failed. The key ${p.hint} keeps working until ${p.graceEndsAt.toISOString()}; ` +
      `after that the subscription is past due and the key stops answering data requests until a payment succeeds.${signature}`,
  };
}

export function overageInvoiceMail(
  p: To & {
    hint: string;
    plan: string;
    month: string;
    requests: number;
    includedRequests: number;
    overageRequests: number;
    overageUsd: string;
    invoiceId: string;
  },
): OutgoingMail {
  return {
    kind: "overage_invoice",
    to: p.to,
    subject: `Overage invoice for ${p.month}: USD ${p.overageUsd}`,
    text:
      `Invoice ${p.invoiceId}. In ${p.month} the key ${p.hint} made ${p.requests} requests on your ${p.plan} subscription, ` +
      `which includes ${p.includedRequests} a month: ${p.overageRequests} requests over, USD ${p.overageUsd}. ` +
      `The subscription continues; the operator of ${p.baseUrl} will tell you how to pay.${signature}`,
  };
}

export function subscriptionUnpaidMail(
  p: To & { hint: string; plan: string; month: string; overageRequests: number; overageUsd: string; failedAt: Date },
): OutgoingMail {
  const overage =
    p.overageRequests > 0
      ? ` Overage for ${p.month}: ${p.overageRequests} requests, USD ${p.overageUsd}, invoiced.`
      : "";
  return {
    kind: "subscription_unpaid",
    to: p.to,
    subject: "Your subscription has ended: payment not received",
    text:
      `A payment for your ${p.plan} subscription failed on ${p.failedAt.toISOString()} and none has succeeded since, so the ` +
      `subscription has ended and the key ${p.hint} is revoked.${overage} A free key is available at ${p.baseUrl}/v1/signup.${signature}`,
  };
}

export function planChangedMail(
  p: To & { hint: string; from: string; plan: string; rateLimitPerMinute: number; includedRequests: number | null },
): OutgoingMail {
  const included = p.includedRequests === null ? "no monthly quota" : `${p.includedRequests} requests included a month`;
  return {
    kind: "plan_changed",
    to: p.to,
    subject: `Your plan is now ${p.plan}`,
    text: `Your subscription changed from ${p.from} to ${p.plan}. The key ${p.hint} keeps working with ${p.rateLimitPerMinute} requests/min and ${included}.${signature}`,
  };
}
