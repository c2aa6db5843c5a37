// The payment rail of the access gate: turns a Quote into the payments package's PaymentQuote, asks it to decide,
// and renders its decisions in this service's terms (spec "Authentication" and "Errors"):
//   challenge   -> 402 PAYMENT_REQUIRED: the error envelope plus the x402 v2 PaymentRequired in the body (for
//                  clients that read bodies), PAYMENT-REQUIRED and WWW-Authenticate: L402 headers, no-store;
//   malformed   -> 400 INVALID_PARAMETER;  unavailable -> 503 SERVICE_UNAVAILABLE;
//   granted     -> the handler runs; settle on < 400 adds PAYMENT-RESPONSE, a failed settlement withholds the data
//                  with INTERNAL_ERROR (rule 7) and PAYMENT-RESPONSE success:false; >= 400 releases the proof.
import type { Context } from "hono";
import type { Challenge, PaymentQuote, Payments } from "payments";
import { paymentRequest, withHeaders } from "payments/hono";
import type { Quote, Resolved } from "../pricing";
import type { AppEnv } from "./app-env";
import { envelope, fail } from "../errors";
import type { AccessGate } from "./paid";

export type PaymentRailOptions = { publicBaseUrl: string | null };

function sortedQuery(c: Context<AppEnv>): Record<string, string> {
  const q = c.req.query();
  return Object.fromEntries(Object.keys(q).sort().map((k) => [k, q[k]!]));
}

export function toPaymentQuote(c: Context<AppEnv>, quote: Quote, resolved: Resolved, opts: PaymentRailOptions): PaymentQuote {
  const url = new URL(c.req.url);
  const method = c.req.method.toUpperCase();
  const shape = c.get("operations")?.describe(method, c.req.routePath) ?? null;
  const params = c.req.param() as Record<string, string>;
  return {
    microUsd: quote.microUsd,
    usd: quote.usd,
    binding: resolved.indicator ? { kind: "indicator", value: resolved.indicator } : { kind: "resource", value: resolved.resource },
    label: quote.surface,
    resource: {
      url: `${opts.publicBaseUrl ?? url.origin}${url.pathname}${url.search}`,
      path: resolved.resource,
      description: quote.description,
      mimeType: "application/json",
    },
    ...(method === "GET" || method === "HEAD"
      ? {
          discovery: {
            method,
            queryParams: sortedQuery(c),
            ...(shape ? { queryParamsSchema: shape.queryParamsSchema } : {}),
            ...(Object.keys(params).length ? { pathParams: params } : {}),
            ...(shape?.outputSchema ? { outputSchema: shape.outputSchema } : {}),
          },
        }
      : {}),
  };
}

function challengeResponse(c: Context<AppEnv>, d: Challenge, quote: Quote): Response {
  for (const [k, v] of Object.entries(d.headers)) c.header(k, v);
  const details: Record<string, unknown> = { price_usd: quote.usd, rails: [...(d.paymentRequired ? ["x402"] : []), ...(d.l402 ? ["l402"] : [])] };
  if (d.reason) details.reason = d.reason;
  if (d.l402) details.l402 = { invoice: d.l402.invoice, macaroon: d.l402.macaroon, amount_sats: d.l402.amountSats, valid_until: new Date(d.l402.validUntil * 1000).toISOString() };
  const { error: _x402Error, ...paymentRequired } = d.paymentRequired ?? ({} as Record<string, unknown>);
  return c.json({ ...envelope("PAYMENT_REQUIRED", d.message, details), ...paymentRequired }, 402);
}

export function paymentRail(payments: Payments, opts: PaymentRailOptions): AccessGate {
  return {
    async authorize(c, quote, resolved) {
      const d = await payments.authorize(paymentRequest(c), toPaymentQuote(c, quote, resolved, opts));
      switch (d.kind) {
        case "malformed":
          return fail("INVALID_PARAMETER", d.message, { parameter: "payment" });
        case "unavailable":
          return fail("SERVICE_UNAVAILABLE", d.message, undefined, { "Retry-After": "5", "Cache-Control": "no-store" });
        case "challenge":
          return { response: challengeResponse(c, d, quote) };
        case "granted":
          return {
            async settle(res) {
              const s = await d.settle();
              if (s.ok) return withHeaders(res, s.headers);
              for (const [k, v] of Object.entries(s.headers)) c.header(k, v);
              c.header("Cache-Control", "no-store");
              return c.json(
                envelope("INTERNAL_ERROR", "The payment could not be settled, so the data is withheld and nothing was charged.", { reason: s.reason }),
                502,
              );
            },
            release: () => d.release(),
          };
      }
    },
  };
}
