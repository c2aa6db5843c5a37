// Checkout and the Stripe webhook receiver: the real Stripe SDK talking to a local stand-in for the Stripe API
// (requests recorded), webhooks signed with the SDK's generateTestHeaderString, mail to a real SMTP receiver.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { makeTestApp, type TestApp } from "../support/app";
import { bearer, jsonBody } from "../support/keys";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";
import { stripeProvider } from "../../src/billing/stripe";
import { DAY_MS } from "../../src/domain/access";
import { checkoutSessionSchema } from "../../src/schemas/billing";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const WEBHOOK_SECRET = "whsec_test_secret_for_signatures";
type Recorded = { method: string; path: string; params: URLSearchParams };

let stripeApi: ReturnType<typeof Bun.serve>;
const apiCalls: Recorded[] = [];
let t: TestApp;
let bare: TestApp;
let smtp: SmtpReceiver;
const signer = new Stripe("sk_test_signer");

beforeAll(async () => {
  stripeApi = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      const params = new URLSearchParams(text || url.search);
      apiCalls.push({ method: req.method, path: url.pathname, params });
      const json = (o: unknown) => Response.json(o);
      if (req.method === "POST" && url.pathname === "/v1/checkout/sessions")
        return json({
          id: "cs_test_1",
          object: "checkout.session",
          url: "https://checkout.stripe.test/c/pay/cs_test_1",
        });
      if (req.method === "POST" && url.pathname === "/v1/invoiceitems")
        return json({ id: `ii_${apiCalls.length}`, object: "invoiceitem" });
      if (req.method === "DELETE" && url.pathname.startsWith("/v1/subscriptions/"))
        return json({ id: url.pathname.split("/").pop(), object: "subscription", status: "canceled" });
      if (req.method === "POST" && url.pathname === "/v1/invoices")
        return json({ id: `in_${apiCalls.length}`, object: "invoice" });
      return Response.json(
        { error: { type: "invalid_request_error", message: `unhandled ${req.method} ${url.pathname}` } },
        { status: 404 },
      );
    },
  });
  smtp = await startSmtpReceiver();
  const billing = stripeProvider({
    secretKey: "sk_test_123",
    webhookSecret: WEBHOOK_SECRET,
    prices: { developer: "price_dev", professional: "price_pro" },
    api: { host: "127.0.0.1", port: stripeApi.port!, protocol: "http" },
  });
  t = await makeTestApp({ billing, config: { smtpUrl: smtp.url, publicBaseUrl: "https://api.example.test" } });
  bare = await makeTestApp({ database: t.database, clock: t.clock });
}, 120_000);
afterAll(async () => {
  await t.close();
  stripeApi.stop(true);
  await smtp.close();
});

const body = async (res: Response) => (await res.json()) as any;
let eventCounter = 0;

async function deliver(type: string, object: Record<string, unknown>, opts: { id?: string; secret?: string } = {}) {
  const payload = JSON.stringify({ id: opts.id ?? `evt_${++eventCounter}`, object: "event", type, data: { object } });
  const header = await signer.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? WEBHOOK_SECRET,
    timestamp: Math.floor(t.clock.now().getTime() / 1000),
  });
  return t.app.request("/webhooks/stripe", {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": header },
    body: payload,
  });
}

const completed = (n: number, email: string, plan = "developer") => ({
  id: `cs_test_${n}`,
  object: "checkout.session",
  mode: "subscription",
  customer: `cus_${n}`,
  subscription: `sub_${n}`,
  customer_details: { email },
  metadata: { plan },
});

async function checkoutKey(n: number, email: string, plan = "developer") {
  const before = smtp.messages.length;
  const res = await deliver("checkout.session.completed", completed(n, email, plan));
  expect(res.status).toBe(200);
  await smtp.waitFor(before + 1);
  const mail = smtp.messages[before]!;
  return { key: /svc_live_[A-Za-z0-9_-]{32}/.exec(mail.text)![0], mail };
}

describe("checkout", () => {
  test("GET /checkout lists every plan with its checkout link and which plans are unrestricted", async () => {
    const res = await t.app.request("/checkout");
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.data.provider).toBe("stripe");
    expect(
      b.data.plans.map((p: any) => [
        p.id,
        p.price_usd_per_month,
        p.rate_limit_per_minute,
        p.checkout,
        p.premium_access,
        p.available,
      ]),
    ).toEqual([
      ["free", "0.00", 60, null, false, true],
      ["developer", "19.00", 300, "https://api.example.test/checkout/developer", true, true],
      ["professional", "99.00", 1000, "https://api.example.test/checkout/professional", true, true],
    ]);
    expect(b.meta.notice).toBe(null);
  });

  test("GET /checkout/{plan} creates a Stripe subscription checkout and redirects to it", async () => {
    apiCalls.length = 0;
    const res = await t.app.request("/checkout/developer?email=Buyer@Example.com");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://checkout.stripe.test/c/pay/cs_test_1");
    expect(apiCalls.length).toBe(1);
    const p = apiCalls[0]!.params;
    expect([apiCalls[0]!.method, apiCalls[0]!.path]).toEqual(["POST", "/v1/checkout/sessions"]);
    expect(Object.fromEntries(p)).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_dev",
      "line_items[0][quantity]": "1",
      customer_email: "buyer@example.com",
      "metadata[plan]": "developer",
      success_url: "https://api.example.test/checkout/developer/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://api.example.test/checkout",
    });
  });

  test("GET /checkout/{plan} with Accept: application/json (not text/html) answers the checkout URL as JSON; browsers are redirected", async () => {
    apiCalls.length = 0;
    const res = await t.app.request("/checkout/professional", { headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("vary")?.split(/,\s*/)).toContain("Accept");
    expect(checkoutSessionSchema.parse(await body(res))).toEqual({
      data: { plan: "professional", url: "https://checkout.stripe.test/c/pay/cs_test_1" },
    });
    expect(Object.fromEntries(apiCalls[0]!.params)).toMatchObject({
      "line_items[0][price]": "price_pro",
      "metadata[plan]": "professional",
    });
    const browser = await t.app.request("/checkout/professional", {
      headers: { accept: "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8" },
    });
    expect([browser.status, browser.headers.get("location"), browser.headers.get("vary")]).toEqual([
      303,
      "https://checkout.stripe.test/c/pay/cs_test_1",
      "Accept",
    ]);
    expect((await t.app.request("/checkout/professional", { headers: { accept: "*/*" } })).status).toBe(303);
    expect((await t.app.request("/checkout/gold", { headers: { accept: "application/json" } })).status).toBe(404);
  });

  test("404 for the free plan and unknown plans; 400 for a bad email", async () => {
    for (const path of ["/checkout/free", "/checkout/gold"]) {
      const res = await t.app.request(path);
      expect(res.status).toBe(404);
      expect((await body(res)).error.message).toContain("/v1/signup");
    }
    expect((await t.app.request("/checkout/developer?email=nope")).status).toBe(400);
  });

  test("without Stripe: the index says how to get a paid key, and checkout is an honest 503 (no session is faked)", async () => {
    const idx = await body(await bare.app.request("/checkout"));
    expect(idx.data.provider).toBe(null);
    expect(idx.data.plans.filter((p: any) => p.available).map((p: any) => p.id)).toEqual(["free"]);
    expect(idx.meta.notice).toContain("svc subscriptions create");
    const res = await bare.app.request("/checkout/professional");
    expect(res.status).toBe(503);
    const err = (await body(res)).error;
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
    expect(err.message).toContain("svc subscriptions create --plan <developer|professional>");
    expect((await bare.app.request("/webhooks/stripe", { method: "POST", body: "{}" })).status).toBe(503);
  });

  test("the success page never shows a key; it exists for paid plans only", async () => {
    const b = await body(await t.app.request("/checkout/developer/success?session_id=cs_test_1"));
    expect(b.data.status).toBe("received");
    expect(JSON.stringify(b)).not.toMatch(/svc_live_/);
    expect((await t.app.request("/checkout/free/success")).status).toBe(404);
  });
});

describe("Stripe webhooks", () => {
  test("400 for a wrong signature, a missing one, or a stale timestamp; nothing is applied", async () => {
    expect(
      (await deliver("checkout.session.completed", completed(90, "x@example.com"), { secret: "whsec_wrong" })).status,
    ).toBe(400);
    expect((await t.app.request("/webhooks/stripe", { method: "POST", body: "{}" })).status).toBe(400);
    const payload = JSON.stringify({
      id: "evt_stale",
      object: "event",
      type: "checkout.session.completed",
      data: { object: completed(91, "y@example.com") },
    });
    const stale = await signer.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(t.clock.now().getTime() / 1000) - 301,
    });
    const res = await t.app.request("/webhooks/stripe", {
      method: "POST",
      headers: { "stripe-signature": stale },
      body: payload,
    });
    expect(res.status).toBe(400);
    expect((await body(res)).error.code).toBe("INVALID_PARAMETER");
    const subs = (await t.database.db.execute(
      sql`select count(*)::int as n from subscriptions where checkout_session_id in ('cs_test_90', 'cs_test_91')`,
    )) as any;
    expect((Array.isArray(subs) ? subs : subs.rows)[0].n).toBe(0);
  });

  test("checkout.session.completed: a subscription and a key on the plan; the key is emailed; a redelivery is not applied twice", async () => {
    const { key, mail } = await checkoutKey(1, "Buyer@Example.com", "professional");
    expect(mail.to).toEqual(["buyer@example.com"]);
    expect(mail.subject).toBe("Your API key");
    const ping = await body(await t.app.request("/v1/ping", { headers: bearer(key) }));
    expect(ping.data).toMatchObject({
      plan: "professional",
      rate_limit_per_minute: 1000,
      premium_access: true,
      subscription: { state: "active", plan: "professional" },
    });
    const again = await deliver("checkout.session.completed", completed(1, "buyer@example.com", "professional"));
    expect(await body(again)).toMatchObject({ received: true, applied: false });
    const same = await deliver("checkout.session.completed", completed(1, "buyer@example.com"), { id: "evt_fixed" });
    expect((await body(same)).applied).toBe(false);
    const rows = (await t.database.db.execute(
      sql`select count(*)::int as n from subscriptions where checkout_session_id = 'cs_test_1'`,
    )) as any;
    expect((Array.isArray(rows) ? rows : rows.rows)[0].n).toBe(1);
  });

  test("invoice.payment_failed starts the 7-day grace; past due after it; invoice.paid restores the key", async () => {
    t.clock.set("2026-11-22T12:00:00Z");
    const { key } = await checkoutKey(2, "grace@example.com");
    const before = smtp.messages.length;
    // API versions since 2025 carry the subscription under parent.subscription_details.
    expect(
      (
        await body(
          await deliver("invoice.payment_failed", {
            id: "in_f",
            object: "invoice",
            parent: { subscription_details: { subscription: "sub_2" } },
          }),
        )
      ).applied,
    ).toBe(true);
    await smtp.waitFor(before + 1);
    expect(smtp.messages[before]!.subject).toBe("Payment failed: your key keeps working for 7 days");
    t.clock.advance(7 * DAY_MS - 1000);
    expect((await t.app.request("/v1/ping", { headers: bearer(key) })).status).toBe(200);
    t.clock.advance(1000);
    const lapsed = await t.app.request("/v1/ping", { headers: bearer(key) });
    expect(lapsed.status).toBe(401);
    expect((await body(lapsed)).error.code).toBe("EXPIRED_API_KEY");
    expect(
      (await body(await deliver("invoice.paid", { id: "in_p", object: "invoice", subscription: "sub_2" }))).applied,
    ).toBe(true);
    expect((await t.app.request("/v1/ping", { headers: bearer(key) })).status).toBe(200);
  });

  test("customer.subscription.deleted ends the subscription and revokes the key", async () => {
    const { key } = await checkoutKey(3, "gone@example.com");
    const before = smtp.messages.length;
    expect(
      (
        await body(
          await deliver("customer.subscription.deleted", { id: "sub_3", object: "subscription", status: "canceled" }),
        )
      ).applied,
    ).toBe(true);
    expect((await t.app.request("/v1/ping", { headers: bearer(key) })).status).toBe(401);
    await smtp.waitFor(before + 1);
    expect(smtp.messages[before]!.subject).toBe("Your subscription has ended");
  });

  test("events the service does not act on are acknowledged", async () => {
    expect(await body(await deliver("customer.created", { id: "cus_9", object: "customer" }))).toMatchObject({
      received: true,
      applied: false,
      note: "not handled: customer.created",
    });
  });

  test("revoke with cancel_subscription cancels at Stripe with the month's overage on the final invoice", async () => {
    t.clock.set("2026-11-22T12:00:00Z");
    const { key } = await checkoutKey(4, "leaver@example.com");
    const keyRow = (await t.database.db.execute(
      sql`select key_id from subscriptions where provider_subscription_id = 'sub_4'`,
    )) as any;
    const keyId = (Array.isArray(keyRow) ? keyRow : keyRow.rows)[0].key_id;
    await t.database.db.execute(
      sql`insert into key_usage (key_id, month, requests) values (${keyId}, '2026-11', 102000)`,
    );
    apiCalls.length = 0;
    const res = await t.app.request("/v1/keys/revoke", jsonBody({ cancel_subscription: true }, bearer(key)));
    expect(res.status).toBe(200);
    expect(apiCalls.map((c) => [c.method, c.path])).toEqual([
      ["POST", "/v1/invoiceitems"],
      ["DELETE", "/v1/subscriptions/sub_4"],
    ]);
    // 2,000 over at 0.50 per 1,000 = USD 1.00 = 100 cents.
    expect(Object.fromEntries(apiCalls[0]!.params)).toMatchObject({
      customer: "cus_4",
      amount: "100",
      currency: "usd",
    });
    expect(Object.fromEntries(apiCalls[1]!.params)).toMatchObject({ invoice_now: "true", prorate: "false" });
    const inv = (await t.database.db.execute(
      sql`select amount_micro_usd, provider_ref from overage_invoices o join subscriptions s on s.id = o.subscription_id where s.provider_subscription_id = 'sub_4'`,
    )) as any;
    const row = (Array.isArray(inv) ? inv : inv.rows)[0];
    expect([Number(row.amount_micro_usd), row.provider_ref]).toEqual([1_000_000, "ii_1"]);
    // Stripe then reports the deletion: acknowledged, nothing applied twice.
    expect(
      (await body(await deliver("customer.subscription.deleted", { id: "sub_4", object: "subscription" }))).applied,
    ).toBe(false);
  });
});
