// A local stand-in for the Stripe API, for the real Stripe SDK (src/billing/stripe.ts points at it): records each
// call (method, path, form parameters, Idempotency-Key) and answers like Stripe, replaying the first answer for a
// repeated idempotency key as Stripe does. `fail(path, n)` makes the next n calls to a path fail with a 400 (which
// the SDK does not retry). Webhook payloads are signed with the SDK's own test-header helper.
import Stripe from "stripe";
import { stripeProvider } from "../../src/billing/stripe";
import type { BillingProvider } from "../../src/billing/provider";

export type StripeCall = {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | null;
};

export const WEBHOOK_SECRET = "whsec_test_secret_for_signatures";
export const PRICES = { developer: "price_dev", professional: "price_pro" } as const;

export type StripeStandIn = {
  calls: StripeCall[];
  provider: BillingProvider;
  fail(path: string, times?: number): void;
  /** A signed webhook request for `/webhooks/stripe`, timestamped at `now`. */
  webhook(
    type: string,
    object: Record<string, unknown>,
    now: Date,
    opts?: { id?: string; secret?: string },
  ): Promise<RequestInit>;
  stop(): void;
};

let events = 0;

export function startStripeStandIn(): StripeStandIn {
  const calls: StripeCall[] = [];
  const failures = new Map<string, number>();
  const replay = new Map<string, unknown>();
  let n = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      const idempotencyKey = req.headers.get("idempotency-key");
      calls.push({
        method: req.method,
        path: url.pathname,
        params: Object.fromEntries(new URLSearchParams(text || url.search)),
        idempotencyKey,
      });
      const left = failures.get(url.pathname) ?? 0;
      if (left > 0) {
        failures.set(url.pathname, left - 1);
        return Response.json(
          { error: { type: "invalid_request_error", message: "stand-in failure" } },
          { status: 400 },
        );
      }
      if (idempotencyKey && replay.has(idempotencyKey)) return Response.json(replay.get(idempotencyKey));
      let body: unknown;
      if (req.method === "POST" && url.pathname === "/v1/invoiceitems")
        body = { id: `ii_${++n}`, object: "invoiceitem" };
      else if (req.method === "POST" && url.pathname === "/v1/invoices") body = { id: `in_${++n}`, object: "invoice" };
      else if (req.method === "DELETE" && url.pathname.startsWith("/v1/subscriptions/"))
        body = { id: url.pathname.split("/").pop(), object: "subscription", status: "canceled" };
      else if (req.method === "POST" && url.pathname === "/v1/checkout/sessions")
        body = { id: `cs_${++n}`, object: "checkout.session", url: `https://checkout.stripe.test/c/pay/cs_${n}` };
      else
        return Response.json(
          { error: { type: "invalid_request_error", message: `unhandled ${req.method} ${url.pathname}` } },
          { status: 404 },
        );
      if (idempotencyKey) replay.set(idempotencyKey, body);
      return Response.json(body);
    },
  });
  const signer = new Stripe("sk_test_signer");
  return {
    calls,
    provider: stripeProvider({
      secretKey: "sk_test_123",
      webhookSecret: WEBHOOK_SECRET,
      prices: { ...PRICES },
      api: { host: "127.0.0.1", port: server.port!, protocol: "http" },
    }),
    fail(path, times = 1) {
      failures.set(path, times);
    },
    async webhook(type, object, now, opts = {}) {
      const payload = JSON.stringify({
        id: opts.id ?? `evt_standin_${++events}`,
        object: "event",
        type,
        data: { object },
      });
      const header = await signer.webhooks.generateTestHeaderStringAsync({
        payload,
        secret: opts.secret ?? WEBHOOK_SECRET,
        timestamp: Math.floor(now.getTime() / 1000),
      });
      return {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": header },
        body: payload,
      };
    },
    stop() {
      server.stop(true);
    },
  };
}
