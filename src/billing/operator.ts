// The operator implementation of overage billing, for subscriptions run without a payment provider
// (`svc subscriptions create`): the month's overage invoice is emailed to the billing address (SMTP, or the
// local outbox the operator reads with `svc mail list`); collecting the money is the operator's business.
// The invoice row itself is recorded by the billing service, as for Stripe.
import type { Mailer } from "../mail/mailer";
import { overageInvoiceMail } from "../mail/messages";
import { formatUsd } from "../pricing";
import type { MonthlyOverage, OverageBilling } from "./provider";

export function operatorBilling(deps: { mail: Mailer; baseUrl: string }): OverageBilling {
  return {
    async invoiceMonthlyOverage(o: MonthlyOverage) {
      if (o.amountMicroUsd <= 0) return { invoiceRef: null };
      const sent = await deps.mail.send(
        overageInvoiceMail({
          to: o.billingEmail,
          baseUrl: deps.baseUrl,
          hint: o.keyHint,
          plan: o.planName,
          month: o.month,
          requests: o.requests,
          includedRequests: o.includedRequests,
          overageRequests: o.overageRequests,
          overageUsd: formatUsd(o.amountMicroUsd),
          invoiceId: o.invoiceId,
        }),
      );
      // Not sent: the invoice stays pending and the billing job sends it again later.
      if (!sent.delivered) throw new Error(`the invoice email could not be sent: ${sent.error}`);
      return { invoiceRef: null };
    },
  };
}
