// The billing cycle driven by the injected clock (runBillingCycle), its later stages: subscriptions past due and then
// ended when the dunning period after the grace runs out, and Stripe plan changes (customer.subscription.updated,
// correctly signed). Monthly overage is billing-cycle.test.ts. Mail goes to a real SMTP receiver.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { makeTestApp } from "../support/app";
import { BILLING_BASE, billingApp } from "../support/billing";
import { bearer, testSubscription } from "../support/keys";
import { runBillingCycle } from "../../src/jobs/billing";
import { failPayment, recordPayment } from "../../src/services/billing";
import { DAY_MS } from "../../src/domain/access";
import { loadConfig, ConfigError } from "../../src/config";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = billingApp();
const { rows, mailTo, ping, job, freshEmail } = fx;

describe("dunning: past due, then ended", () => {
  test("still unpaid 14 days after the 7-day grace: the job ends the subscription, revokes the key and emails the billing address", async () => {
    const start = Date.parse("2027-11-02T10:00:00Z");
    fx.t.clock.set(new Date(start));
    const email = freshEmail();
    const sub = await testSubscription(fx.t, { email });
    await failPayment(fx.t.deps, { id: sub.subscription.id }, BILLING_BASE);
    fx.t.clock.set(new Date(start + 7 * DAY_MS));
    expect((await ping(sub.key)).status).toBe(401);
    fx.t.clock.set(new Date(start + 21 * DAY_MS - 1));
    expect((await job.tick()).ended.filter((e) => e.subscription.id === sub.subscription.id)).toEqual([]);
    expect((await rows(sql`select status from subscriptions where id = ${sub.subscription.id}`))[0].status).toBe(
      "active",
    );
    const revoke = await fx.t.app.request("/v1/keys/revoke", { method: "POST", headers: bearer(sub.key) });
    expect(revoke.status).toBe(409);

    fx.t.clock.set(new Date(start + 21 * DAY_MS));
    const ended = (await job.tick()).ended.filter((e) => e.subscription.id === sub.subscription.id);
    expect(ended.map((e) => [e.subscription.state, e.subscription.end_reason, e.month])).toEqual([
      ["ended", "unpaid", "2027-11"],
    ]);
    const res = await ping(sub.key);
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("INVALID_API_KEY");
    const [s] = await rows(
      sql`select status, end_reason, ended_at from subscriptions where id = ${sub.subscription.id}`,
    );
    expect([s.status, s.end_reason, new Date(s.ended_at).toISOString()]).toEqual([
      "ended",
      "unpaid",
      "2027-11-23T10:00:00.000Z",
    ]);
    await fx.smtp.waitFor(fx.smtp.messages.length);
    expect(mailTo(email).map((m) => m.subject)).toEqual([
      "Payment failed: your key keeps working for 7 days",
      "Your subscription has ended: payment not received",
    ]);
    expect(mailTo(email)[1]!.text).toContain("failed on 2027-11-02T10:00:00.000Z");
    // Once.
    fx.t.clock.advance(DAY_MS);
    expect((await job.tick()).ended.filter((e) => e.subscription.id === sub.subscription.id)).toEqual([]);
    expect(mailTo(email).length).toBe(2);
  });

  test("a payment that succeeds during dunning keeps the subscription", async () => {
    const start = Date.parse("2027-11-03T10:00:00Z");
    fx.t.clock.set(new Date(start));
    const sub = await testSubscription(fx.t, { email: freshEmail() });
    await failPayment(fx.t.deps, { id: sub.subscription.id }, BILLING_BASE);
    fx.t.clock.set(new Date(start + 10 * DAY_MS));
    expect((await ping(sub.key)).status).toBe(401);
    await recordPayment(fx.t.deps, { id: sub.subscription.id });
    fx.t.clock.set(new Date(start + 21 * DAY_MS));
    expect((await job.tick()).ended.filter((e) => e.subscription.id === sub.subscription.id)).toEqual([]);
    expect((await ping(sub.key)).status).toBe(200);
  });

  test("a Stripe subscription ended for non-payment is cancelled at Stripe too (idempotently)", async () => {
    const start = Date.parse("2027-11-04T10:00:00Z");
    fx.t.clock.set(new Date(start));
    const sub = await testSubscription(fx.t, {
      email: freshEmail(),
      provider: "stripe",
      providerCustomerId: "cus_d1",
      providerSubscriptionId: "sub_d1",
    });
    await failPayment(fx.t.deps, { id: sub.subscription.id }, BILLING_BASE);
    fx.stripe.calls.length = 0;
    fx.t.clock.set(new Date(start + 21 * DAY_MS));
    expect((await job.tick()).ended.map((e) => e.subscription.id)).toContain(sub.subscription.id);
    expect(fx.stripe.calls.map((c) => [c.method, c.path, c.idempotencyKey])).toEqual([
      ["DELETE", "/v1/subscriptions/sub_d1", "svc-cancel:sub_d1"],
    ]);
  });

  test("DUNNING_PERIOD_DAYS sets the period: 0 ends the subscription when the grace ends; out of range is refused", async () => {
    expect(loadConfig({}).dunningPeriodDays).toBe(14);
    expect(loadConfig({ DUNNING_PERIOD_DAYS: "0" }).dunningPeriodDays).toBe(0);
    expect(loadConfig({ DUNNING_PERIOD_DAYS: "365" }).dunningPeriodDays).toBe(365);
    for (const bad of ["366", "-1", "1.5"]) expect(() => loadConfig({ DUNNING_PERIOD_DAYS: bad })).toThrow(ConfigError);
    const strict = await makeTestApp({ config: { dunningPeriodDays: 0 } });
    try {
      const strictJob = { tick: () => runBillingCycle(strict.deps, { baseUrl: BILLING_BASE }) };
      const start = Date.parse("2026-11-22T12:00:00Z");
      const sub = await testSubscription(strict, { email: freshEmail() });
      await failPayment(strict.deps, { id: sub.subscription.id }, BILLING_BASE);
      strict.clock.set(new Date(start + 7 * DAY_MS - 1));
      expect((await strictJob.tick()).ended).toEqual([]);
      strict.clock.set(new Date(start + 7 * DAY_MS));
      expect((await strictJob.tick()).ended.map((e) => e.subscription.id)).toEqual([sub.subscription.id]);
    } finally {
      await strict.close();
    }
  });
});

describe("Stripe plan changes (customer.subscription.updated)", () => {
  const updated = (sub: string, price: string) => ({
    id: sub,
    object: "subscription",
    status: "active",
    items: { object: "list", data: [{ id: "si_1", price: { id: price, object: "price" } }] },
  });

  test("the plan and the key's limits follow the new price; the billing address is told; redeliveries and unknown prices change nothing", async () => {
    fx.t.clock.set("2027-12-01T12:00:00Z");
    const email = freshEmail();
    const sub = await testSubscription(fx.t, {
      email,
      plan: "developer",
      provider: "stripe",
      providerCustomerId: "cus_p1",
      providerSubscriptionId: "sub_p1",
      rateLimitPerMinute: 42,
    });
    const deliver = async (object: Record<string, unknown>, opts?: { id?: string; secret?: string }) =>
      fx.t.app.request(
        "/webhooks/stripe",
        await fx.stripe.webhook("customer.subscription.updated", object, fx.t.clock.now(), opts),
      );

    const bad = await deliver(updated("sub_p1", "price_pro"), { secret: "whsec_wrong" });
    expect(bad.status).toBe(400);
    expect(((await (await ping(sub.key)).json()) as any).data.plan).toBe("developer");

    const res = await deliver(updated("sub_p1", "price_pro"), { id: "evt_plan_1" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, applied: true });
    const after = await ping(sub.key);
    expect(after.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(((await after.json()) as any).data).toMatchObject({
      plan: "professional",
      rate_limit_per_minute: 1000,
      premium_access: true,
      subscription: { plan: "professional", state: "active" },
      usage: { included_requests: 1_000_000 },
    });
    expect((await rows(sql`select plan from subscriptions where id = ${sub.subscription.id}`))[0].plan).toBe(
      "professional",
    );
    await fx.smtp.waitFor(fx.smtp.messages.length);
    expect(mailTo(email).map((m) => m.subject)).toEqual(["Your plan is now Professional"]);
    expect(mailTo(email)[0]!.text).toContain("from Developer to Professional");

    expect(await (await deliver(updated("sub_p1", "price_pro"), { id: "evt_plan_1" })).json()).toMatchObject({
      applied: false,
      note: "already applied",
    });
    expect(await (await deliver(updated("sub_p1", "price_pro"))).json()).toMatchObject({
      applied: false,
      note: "already on professional",
    });
    expect(await (await deliver(updated("sub_p1", "price_gold"))).json()).toMatchObject({
      applied: false,
      note: "no plan has price price_gold",
    });
    expect(await (await deliver(updated("sub_unknown", "price_dev"))).json()).toMatchObject({
      applied: false,
      note: "unknown subscription",
    });

    // And back down: the monthly overage is computed on the plan the subscription has when the month is invoiced.
    expect(await (await deliver(updated("sub_p1", "price_dev"))).json()).toMatchObject({ applied: true });
    expect(((await (await ping(sub.key)).json()) as any).data).toMatchObject({
      plan: "developer",
      rate_limit_per_minute: 300,
    });
    expect(mailTo(email).length).toBe(2);
  });
});
