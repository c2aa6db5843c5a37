// The billing cycle driven by the injected clock, one run (runBillingCycle) at a time: monthly overage invoiced once per
// subscription and month at rollover (operator subscriptions by email, Stripe ones as invoice items, with
// idempotency keys and retries), and its housekeeping. Dunning and Stripe plan changes are billing-dunning.test.ts.
// Mail goes to a real SMTP receiver.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { BILLING_BASE, billingApp } from "../support/billing";
import { testSubscription } from "../support/keys";
import type { BillingTick } from "../../src/jobs/billing";
import { BillingError } from "../../src/services/billing";
import { endSubscription } from "../../src/services/billing-end";
import { invoiceMonth, type InvoiceOutcome } from "../../src/services/billing-cycle";
import { meterRequest } from "../../src/services/keys";
import { DAY_MS, MINUTE_MS } from "../../src/domain/access";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

const fx = billingApp();
const { rows, mailTo, ping, job, freshEmail } = fx;

const setUsage = (keyId: string, month: string, n: number) =>
  fx.t.database.db.execute(sql`insert into key_usage (key_id, month, requests) values (${keyId}, ${month}, ${n})`);
const invoicesOf = async (subscriptionId: string) =>
  (
    await rows(
      sql`select month, kind, status, requests, overage_requests, amount_micro_usd, provider_ref from overage_invoices where subscription_id = ${subscriptionId} order by month, kind`,
    )
  ).map((r) => ({
    month: r.month,
    kind: r.kind,
    status: r.status,
    requests: Number(r.requests),
    overage: Number(r.overage_requests),
    microUsd: Number(r.amount_micro_usd),
    ref: r.provider_ref,
  }));
const mine = (tick: BillingTick, id: string): InvoiceOutcome[] => tick.invoiced.filter((o) => o.subscription_id === id);

describe("monthly overage of a continuing operator subscription", () => {
  test("invoiced once the month has ended and settled (5 minutes): a recorded invoice and an email; never twice", async () => {
    fx.t.clock.set("2026-11-10T09:00:00Z");
    const email = freshEmail();
    const sub = await testSubscription(fx.t, { email });
    await setUsage(sub.subscription.keyId, "2026-11", 100_120);
    // Three metered requests still in the usage journal: the job moves them to the database before billing.
    for (let i = 0; i < 3; i++) meterRequest(fx.t.deps, sub.subscription.keyId);

    fx.t.clock.set("2026-11-30T23:59:59.999Z");
    expect(mine(await job.tick(), sub.subscription.id)).toEqual([]);
    fx.t.clock.set(new Date(Date.parse("2026-12-01T00:00:00Z") + 5 * MINUTE_MS - 1));
    const early = await job.tick();
    expect(early.month).toBe("2026-10");
    expect(mine(early, sub.subscription.id)).toEqual([]);

    fx.t.clock.set(new Date(Date.parse("2026-12-01T00:00:00Z") + 5 * MINUTE_MS));
    const due = await job.tick();
    expect(due.month).toBe("2026-11");
    // 100,123 requests on Developer (100,000 included): 123 over at 0.50 per 1,000 = USD 0.0615.
    expect(mine(due, sub.subscription.id)).toEqual([
      {
        invoice_id: expect.any(String),
        subscription_id: sub.subscription.id,
        month: "2026-11",
        requests: 100_123,
        overage_requests: 123,
        amount_usd: "0.0615",
        status: "invoiced",
        provider_ref: null,
        error: null,
      },
    ]);
    expect(await invoicesOf(sub.subscription.id)).toEqual([
      {
        month: "2026-11",
        kind: "monthly",
        status: "invoiced",
        requests: 100_123,
        overage: 123,
        microUsd: 61_500,
        ref: null,
      },
    ]);
    await fx.smtp.waitFor(fx.smtp.messages.length);
    const [mail] = mailTo(email);
    expect(mail!.subject).toBe("Overage invoice for 2026-11: USD 0.0615");
    expect(mail!.text).toContain(
      "made 100123 requests on your Developer subscription, which includes 100000 a month: 123 requests over, USD 0.0615",
    );
    expect(mail!.text).toContain(due.invoiced.find((o) => o.subscription_id === sub.subscription.id)!.invoice_id);

    // Later runs, and the operator's command for the same month, bill nothing again.
    fx.t.clock.advance(DAY_MS);
    expect(mine(await job.tick(), sub.subscription.id)).toEqual([]);
    expect(
      (await invoiceMonth(fx.t.deps, "2026-11", { baseUrl: BILLING_BASE })).filter(
        (o) => o.subscription_id === sub.subscription.id,
      ),
    ).toEqual([]);
    expect(mailTo(email).length).toBe(1);
    expect((await invoicesOf(sub.subscription.id)).length).toBe(1);
    // The subscription goes on.
    expect((await ping(sub.key)).status).toBe(200);
  });

  test("zero overage and test-mode keys are recorded as invoiced with nothing billed and no email", async () => {
    fx.t.clock.set("2027-01-05T00:00:00Z");
    const under = await testSubscription(fx.t, { email: freshEmail() });
    const testMode = await testSubscription(fx.t, { email: freshEmail(), mode: "test" });
    await setUsage(under.subscription.keyId, "2027-01", 99_999);
    await setUsage(testMode.subscription.keyId, "2027-01", 500_000);
    const before = fx.smtp.messages.length;
    fx.t.clock.set("2027-02-01T00:05:00Z");
    const tick = await job.tick();
    for (const s of [under, testMode])
      expect(mine(tick, s.subscription.id).map((o) => [o.amount_usd, o.status])).toEqual([["0.00", "invoiced"]]);
    expect((await invoicesOf(testMode.subscription.id))[0]).toMatchObject({
      requests: 500_000,
      overage: 0,
      microUsd: 0,
    });
    expect(fx.smtp.messages.length).toBe(before);
  });

  test("an invoice whose email fails stays pending and is sent once its lease runs out (15 minutes)", async () => {
    fx.t.clock.set("2027-03-02T00:00:00Z");
    const email = freshEmail();
    const sub = await testSubscription(fx.t, { email, plan: "professional" });
    // 1,004,000 on Professional: 4,000 over at 0.25 per 1,000 = USD 1.00.
    await setUsage(sub.subscription.keyId, "2027-03", 1_004_000);
    fx.smtp.refuse(true);
    fx.t.clock.set("2027-04-01T00:05:00Z");
    const failed = mine(await job.tick(), sub.subscription.id);
    expect(failed.map((o) => [o.status, o.amount_usd])).toEqual([["pending", "1.00"]]);
    expect(failed[0]!.error).toContain("could not be sent");
    fx.smtp.refuse(false);
    fx.t.clock.advance(15 * MINUTE_MS - 1);
    const leased = await job.tick();
    expect(leased.retried.filter((o) => o.subscription_id === sub.subscription.id)).toEqual([]);
    fx.t.clock.advance(1);
    const retried = (await job.tick()).retried.filter((o) => o.subscription_id === sub.subscription.id);
    expect(retried.map((o) => [o.status, o.month, o.amount_usd])).toEqual([["invoiced", "2027-03", "1.00"]]);
    await fx.smtp.waitFor(fx.smtp.messages.length);
    expect(mailTo(email).map((m) => m.subject)).toEqual(["Overage invoice for 2027-03: USD 1.00"]);
    expect((await invoicesOf(sub.subscription.id)).map((i) => i.status)).toEqual(["invoiced"]);
  });

  test("a month not over yet cannot be invoiced", async () => {
    fx.t.clock.set("2027-05-20T00:00:00Z");
    for (const month of ["2027-05", "2027-06"])
      await expect(invoiceMonth(fx.t.deps, month, { baseUrl: BILLING_BASE })).rejects.toThrow(BillingError);
    fx.t.clock.set("2027-06-01T00:04:59Z");
    await expect(invoiceMonth(fx.t.deps, "2027-05", { baseUrl: BILLING_BASE })).rejects.toThrow(
      "2027-05 is not over yet (it can be invoiced from 2027-06-01T00:05:00.000Z)",
    );
    await expect(invoiceMonth(fx.t.deps, "2027-13", { baseUrl: BILLING_BASE })).rejects.toThrow("not a month");
  });
});

describe("monthly overage of Stripe subscriptions", () => {
  const stripeSub = (n: number, plan: "developer" | "professional" = "developer") =>
    testSubscription(fx.t, {
      email: freshEmail(),
      plan,
      provider: "stripe",
      providerCustomerId: `cus_m${n}`,
      providerSubscriptionId: `sub_m${n}`,
    });

  test("an invoice item on the subscription's next invoice, with one idempotency key per subscription and month; a failed call is retried after the lease and bills once", async () => {
    fx.t.clock.set("2027-07-03T00:00:00Z");
    const sub = await stripeSub(1);
    // 102,000 on Developer: 2,000 over = USD 1.00 = 100 cents.
    await setUsage(sub.subscription.keyId, "2027-07", 102_000);
    fx.stripe.fail("/v1/invoiceitems");
    fx.stripe.calls.length = 0;
    fx.t.clock.set("2027-08-01T00:05:00Z");
    const first = mine(await job.tick(), sub.subscription.id);
    expect(first.map((o) => o.status)).toEqual(["pending"]);
    fx.t.clock.advance(15 * MINUTE_MS);
    const retried = (await job.tick()).retried.filter((o) => o.subscription_id === sub.subscription.id);
    expect(retried.map((o) => [o.status, o.amount_usd])).toEqual([["invoiced", "1.00"]]);
    const items = fx.stripe.calls.filter((c) => c.path === "/v1/invoiceitems");
    expect(items.length).toBe(2);
    for (const c of items) {
      expect(c.idempotencyKey).toBe(`svc-overage:${sub.subscription.id}:2027-07:item`);
      expect(c.params).toMatchObject({
        customer: "cus_m1",
        subscription: "sub_m1",
        amount: "100",
        currency: "usd",
        description: "Developer overage 2027-07: 2000 requests",
      });
    }
    expect(fx.stripe.calls.filter((c) => c.path === "/v1/invoices")).toEqual([]);
    const [inv] = await invoicesOf(sub.subscription.id);
    expect(inv).toMatchObject({ month: "2027-07", kind: "monthly", status: "invoiced", microUsd: 1_000_000 });
    expect(inv!.ref).toMatch(/^ii_\d+$/);
  });

  test("ended after the month ended but before the job ran: that month is invoiced on an invoice of its own; ended within the month: only its final invoice", async () => {
    fx.t.clock.set("2027-09-02T00:00:00Z");
    const late = await stripeSub(2);
    const within = await stripeSub(3);
    await setUsage(late.subscription.keyId, "2027-09", 100_500);
    await setUsage(within.subscription.keyId, "2027-09", 100_500);
    fx.t.clock.set("2027-09-20T00:00:00Z");
    await endSubscription(
      fx.t.deps,
      { id: within.subscription.id },
      { reason: "operator", callProvider: true, baseUrl: BILLING_BASE },
    );
    fx.t.clock.set("2027-10-01T00:01:00Z");
    await endSubscription(
      fx.t.deps,
      { id: late.subscription.id },
      { reason: "operator", callProvider: true, baseUrl: BILLING_BASE },
    );
    fx.stripe.calls.length = 0;
    fx.t.clock.set("2027-10-01T00:05:00Z");
    const tick = await job.tick();
    expect(mine(tick, within.subscription.id)).toEqual([]);
    expect(mine(tick, late.subscription.id).map((o) => [o.month, o.status, o.amount_usd])).toEqual([
      ["2027-09", "invoiced", "0.25"],
    ]);
    expect(fx.stripe.calls.map((c) => [c.method, c.path, c.idempotencyKey])).toEqual([
      ["POST", "/v1/invoiceitems", `svc-overage:${late.subscription.id}:2027-09:item`],
      ["POST", "/v1/invoices", `svc-overage:${late.subscription.id}:2027-09:invoice`],
    ]);
    expect(fx.stripe.calls[0]!.params.subscription).toBeUndefined();
    expect((await invoicesOf(within.subscription.id)).map((i) => [i.month, i.kind, i.microUsd])).toEqual([
      ["2027-09", "final", 250_000],
    ]);
    expect((await invoicesOf(late.subscription.id)).map((i) => [i.month, i.kind, i.microUsd])).toEqual([
      ["2027-09", "monthly", 250_000],
      ["2027-10", "final", 0],
    ]);
  });
});

describe("housekeeping", () => {
  test("applied usage-batch ids are forgotten after 90 days, not before", async () => {
    fx.t.clock.set("2028-06-01T00:00:00Z");
    const now = fx.t.clock.now().getTime();
    await fx.t.database.db.execute(
      sql`insert into usage_batches (id, requests, applied_at) values ('old-batch', 1, ${new Date(now - 90 * DAY_MS - 1).toISOString()}), ('kept-batch', 1, ${new Date(now - 90 * DAY_MS).toISOString()})`,
    );
    expect((await job.tick()).prunedUsageBatches).toBeGreaterThanOrEqual(1);
    expect(
      (await rows(sql`select id from usage_batches where id in ('old-batch', 'kept-batch')`)).map((r) => r.id),
    ).toEqual(["kept-batch"]);
  });
});
