// The payment side of the admission core (src/services/admission.ts): how a priced request is described to the
// payment rails, their decision in this service's terms, and the settlement of a served payment.
import type { Decision, Granted, PaymentQuote } from "payments";
import { publicBaseUrl as baseUrlOf } from "../contract/base-url";
import type { Quote } from "../pricing";
import {
  NONE_REFUSED,
  refusal,
  type AdmissionCounts,
  type AdmissionRequest,
  type Served,
  type Verdict,
} from "./admission-verdicts";

/** How the payment rails describe a priced request: price, binding, resource and its bazaar discovery. */
export function paymentQuoteOf(
  req: Pick<AdmissionRequest, "quote" | "serving" | "url" | "describe">,
  publicBaseUrl: string | null,
): PaymentQuote {
  const quote = req.quote!;
  const serving = req.serving!;
  const url = new URL(req.url!);
  const d = req.describe?.();
  const method = d?.method.toUpperCase() ?? "GET";
  return {
    microUsd: quote.microUsd,
    usd: quote.usd,
    binding: serving.indicator
      ? { kind: "indicator", value: serving.indicator }
      : { kind: "resource", value: serving.resource },
    label: quote.surface,
    resource: {
      url: `${baseUrlOf({ publicBaseUrl }, url.href)}${url.pathname}${url.search}`,
      path: serving.resource,
      description: quote.description,
      mimeType: "application/json",
    },
    ...(method === "GET" || method === "HEAD"
      ? {
          discovery: {
            method,
            queryParams: d?.query ?? {},
            ...(d?.shape ? { queryParamsSchema: d.shape.queryParamsSchema } : {}),
            ...(d && Object.keys(d.pathParams).length ? { pathParams: d.pathParams } : {}),
            ...(d?.shape?.outputSchema ? { outputSchema: d.shape.outputSchema } : {}),
          },
        }
      : {}),
  };
}

/** The payment rails' decision in this service's terms (spec "Authentication" and "Errors"). */
export function paymentVerdict(d: Decision, quote: Quote, base: string): Verdict {
  switch (d.kind) {
    case "malformed":
      return refusal("INVALID_PARAMETER", d.message, { parameter: "payment" });
    case "unavailable":
      return refusal("SERVICE_UNAVAILABLE", d.message, undefined, { retryAfterSeconds: 5, noStore: true });
    case "challenge": {
      const details: Record<string, unknown> = {
        price_usd: quote.usd,
        rails: [...(d.paymentRequired ? ["x402"] : []), ...(d.l402 ? ["l402"] : [])],
      };
      // Where a key comes from, for people and programs alike: the signup endpoint and the page that calls it.
      details.api_key = { signup: `${base}/v1/signup`, page: `${base}/keys` };
      if (d.reason) details.reason = d.reason;
      if (d.l402)
        details.l402 = {
          invoice: d.l402.invoice,
          macaroon: d.l402.macaroon,
          amount_sats: d.l402.amountSats,
          valid_until: new Date(d.l402.validUntil * 1000).toISOString(),
        };
      // The x402 PaymentRequired goes into the body beside the envelope, for clients that read bodies.
      const { error: _x402Error, ...paymentRequired } = d.paymentRequired ?? ({} as Record<string, unknown>);
      return refusal(
        "PAYMENT_REQUIRED",
        `${d.message} Free API keys: POST ${base}/v1/signup, or in a browser at ${base}/keys.`,
        details,
        { payment: d.headers },
        paymentRequired,
      );
    }
    case "granted":
      return { ok: true, refused: NONE_REFUSED, key: null, rate: null, metered: false, payment: d };
  }
}

export async function settle(payment: Granted, counts: AdmissionCounts): Promise<Served> {
  const s = await payment.settle();
  counts.payment(payment.rail, s.ok ? "settled" : "settle_failed");
  if (s.ok) return { ok: true, receipt: s.headers };
  return refusal(
    "INTERNAL_ERROR",
    "The payment could not be settled, so the data is withheld and nothing was charged.",
    { reason: s.reason },
    { payment: s.headers, noStore: true },
  );
}
