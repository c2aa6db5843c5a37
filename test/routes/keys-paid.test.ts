// Paid keys end to end with a real SMTP receiver: rotation by email (and its 502), revocation with
// subscription cancellation, recovery tokens, and the subscription states (spec "API key", "Recovery token"
// and "Subscription" state tables).
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { sql } from "drizzle-orm";
import { makeTestApp, type TestApp } from "../support/app";
import { bearer, fromIp, jsonBody, testKey, testSubscription } from "../support/keys";
import { startSmtpReceiver, type SmtpReceiver } from "../support/smtp";
import { failPayment, recordPayment } from "../../src/services/billing";
import { endSubscription } from "../../src/services/billing-end";
import { DAY_MS } from "../../src/domain/access";
import { createLogger } from "../../src/logger";

// bun resets the default timeout per file: this file starts databases, processes or servers.
setDefaultTimeout(120_000);

let t: TestApp;
let smtp: SmtpReceiver;
const logLines: string[] = [];
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await makeTestApp({
    config: { smtpUrl: smtp.url, mailFrom: "Series API <keys@series.test>" },
    logger: createLogger("debug", (line) => void logLines.push(line)),
  });
}, 120_000);
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const START = "2026-11-22T12:00:00Z";
const MIN = 60_000;
let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;
const call = async (path: string, init: RequestInit = {}, ip = "203.0.113.50"): Promise<Response> =>
  t.app.request(path, init, fromIp(ip));
const body = async (res: Response) => (await res.json()) as any;
const rows = async (q: ReturnType<typeof sql>) => {
  const r = (await t.database.db.execute(q)) as any;
  return (Array.isArray(r) ? r : r.rows) as any[];
};
const keyIn = (text: string) => /svc_(live|test)_[A-Za-z0-9_-]{32}/.exec(text)?.[0] ?? null;
const tokenIn = (text: string) => /svcr_[A-Za-z0-9_-]{43}/.exec(text)?.[0] ?? null;
let emailCounter = 0;
const freshEmail = () => `payer${++emailCounter}@example.com`;

/** Messages received since `from`, once at least `n` arrived. */
async function received(from: number, n: number) {
  await t.deps.mail.idle();
  await smtp.waitFor(from + n);
  return smtp.messages.slice(from);
}

beforeEach(() => {
  t.clock.set(START);
  smtp.refuse(false);
});

describe("rotation of a paid key", () => {
  test("the new key is emailed to the billing address; the answer carries hints and the masked address", async () => {
    const email = freshEmail();
    const sub = await testSubscription(t, { email });
    const before = smtp.messages.length;
    const res = await call("/v1/keys/rotate", { method: "POST", headers: sub.headers });
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.data).toEqual({
      key_hint: b.data.key_hint,
      previous_key_hint: sub.keyHint,
      delivery: "email",
      delivered_to: `p***${email.split("@")[0]!.slice(-1)}@example.com`,
    });
    const [mail] = await received(before, 1);
    expect(mail!.to).toEqual([email]);
    expect(mail!.from).toBe("keys@series.test");
    expect(mail!.subject).toBe("Your rotated API key");
    const newKey = keyIn(mail!.text)!;
    expect(newKey.slice(-4)).toBe(b.data.key_hint.slice(-4));
    expect((await call("/v1/ping", { headers: bearer(newKey) })).status).toBe(200);
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(401);
    // With SMTP the stored copy has the key redacted.
    const stored = await rows(
      sql`select body, status from mail_outbox where to_address = ${email} and kind = 'key_rotated'`,
    );
    expect(stored.length).toBe(1);
    expect(stored[0].status).toBe("sent");
    expect(stored[0].body).not.toContain(newKey);
    expect(stored[0].body).toContain("[redacted]");
  });

  test("502 when the email cannot be sent: the old secret is already dead; recovery brings the key back", async () => {
    const email = freshEmail();
    const sub = await testSubscription(t, { email, plan: "professional" });
    smtp.refuse(true);
    const res = await call("/v1/keys/rotate", { method: "POST", headers: sub.headers });
    expect(res.status).toBe(502);
    const err = (await body(res)).error;
    expect(err.code).toBe("EMAIL_NOT_SENT");
    expect(err.message).toContain("/v1/keys/recover");
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(401);
    smtp.refuse(false);

    const before = smtp.messages.length;
    expect((await call("/v1/keys/recover", jsonBody({ email }), freshIp())).status).toBe(202);
    const [tokenMail] = await received(before, 1);
    const token = tokenIn(tokenMail!.text)!;
    const confirm = await call("/v1/keys/recover/confirm", jsonBody({ token }));
    expect(confirm.status).toBe(200);
    const [keyMail] = (await received(before, 2)).slice(1);
    const ping = await body(await call("/v1/ping", { headers: bearer(keyIn(keyMail!.text)!) }));
    expect(ping.data).toMatchObject({
      plan: "professional",
      rate_limit_per_minute: 1000,
      premium_access: true,
      subscription: { state: "active" },
    });
  });
});

describe("revocation of a key paying a subscription", () => {
  test("409 SUBSCRIPTION_ACTIVE without cancel_subscription: the key keeps working", async () => {
    const sub = await testSubscription(t, { email: freshEmail() });
    for (const init of [
      { method: "POST", headers: sub.headers },
      jsonBody({ cancel_subscription: false }, sub.headers),
    ]) {
      const res = await call("/v1/keys/revoke", init);
      expect(res.status).toBe(409);
      expect((await body(res)).error.code).toBe("SUBSCRIPTION_ACTIVE");
    }
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(200);
  });

  test("with cancel_subscription: ended at once, overage invoiced, confirmation emailed, key revoked", async () => {
    const email = freshEmail();
    const sub = await testSubscription(t, { email });
    // 100,123 requests this month on Developer: 123 over, at 0.50 per 1,000 = 61,500 micro-USD.
    await t.database.db.execute(
      sql`insert into key_usage (key_id, month, requests) values (${sub.subscription.keyId}, '2026-11', 100123)`,
    );
    const before = smtp.messages.length;
    const res = await call("/v1/keys/revoke", jsonBody({ cancel_subscription: true }, sub.headers));
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { revoked: true, key_hint: sub.keyHint, subscription_cancelled: true } });
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(401);
    const [s] = await rows(sql`select status, ended_at from subscriptions where id = ${sub.subscription.id}`);
    expect(s.status).toBe("ended");
    const inv = await rows(
      sql`select month, requests, overage_requests, amount_micro_usd from overage_invoices where subscription_id = ${sub.subscription.id}`,
    );
    expect(
      inv.map((r) => [r.month, Number(r.requests), Number(r.overage_requests), Number(r.amount_micro_usd)]),
    ).toEqual([["2026-11", 100123, 123, 61500]]);
    const [mail] = await received(before, 1);
    expect(mail!.to).toEqual([email]);
    expect(mail!.subject).toBe("Your subscription is cancelled");
    expect(mail!.text).toContain("123 requests, USD 0.0615");
    expect(mail!.text).toContain("not refunded");
  });
});

describe("recovery", () => {
  test("always 202 with the same body; a token is emailed only for the billing address of a live subscription", async () => {
    const email = freshEmail();
    await testSubscription(t, { email });
    const freeKeyEmail = freshEmail();
    await testKey(t, { email: freeKeyEmail });
    const before = smtp.messages.length;
    const answers = [];
    for (const e of [email, freeKeyEmail, "nobody@example.com", email.toUpperCase()]) {
      const res = await call("/v1/keys/recover", jsonBody({ email: e }), freshIp());
      expect(res.status).toBe(202);
      answers.push(await body(res));
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    const mails = await received(before, 2);
    await Bun.sleep(50);
    expect(smtp.messages.length - before).toBe(2);
    expect(mails.map((m) => m.to[0])).toEqual([email, email]);
    expect(mails[0]!.subject).toBe("Recover your API key");
    expect(tokenIn(mails[0]!.text)).not.toBe(null);
    const tokens = await rows(sql`select token_hash from recovery_tokens`);
    for (const m of mails) expect(JSON.stringify(tokens)).not.toContain(tokenIn(m.text)!);
  });

  // Before the fix, the link came from the Host header when PUBLIC_BASE_URL was unset (Bun builds the request URL
  // from it): a stranger asking for a victim's recovery with `Host: evil.example.com` had the victim mailed a link to
  // that host. Without PUBLIC_BASE_URL only a loopback origin is used; any other Host gives http://localhost.
  test("the mailed link never takes its host from the request: evil.example.com and a 10 KB Host both get http://localhost", async () => {
    const email = freshEmail();
    await testSubscription(t, { email });
    for (const host of ["evil.example.com", `${"a".repeat(10_000)}.example`]) {
      const before = smtp.messages.length;
      const res = await t.app.request(`http://${host}/v1/keys/recover`, jsonBody({ email }), fromIp(freshIp()));
      expect(res.status).toBe(202);
      const [mail] = await received(before, 1);
      expect(mail!.text).not.toContain(host);
      expect(mail!.text.length).toBeLessThan(5000);
      expect(mail!.text).toContain(`http://localhost/`);
    }
  });

  test("issued -> consumed: confirm replaces the secret, emails the new key, answers with hints only; a reuse is 400", async () => {
    const email = freshEmail();
    const sub = await testSubscription(t, { email });
    const before = smtp.messages.length;
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    const token = tokenIn((await received(before, 1))[0]!.text)!;
    // Opening the mail does not consume the token: the old key still works until confirm.
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(200);
    t.clock.advance(30 * MIN - 1);
    const res = await call("/v1/keys/recover/confirm", jsonBody({ token }));
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(Object.keys(b.data).sort()).toEqual(["delivered_to", "delivery", "key_hint", "previous_key_hint"]);
    expect(b.data.previous_key_hint).toBe(sub.keyHint);
    expect(JSON.stringify(b)).not.toMatch(/svc_live_[A-Za-z0-9_-]{32}/);
    const keyMail = (await received(before, 2))[1]!;
    expect(keyMail.subject).toBe("Your recovered API key");
    const newKey = keyIn(keyMail.text)!;
    expect(newKey.slice(-4)).toBe(b.data.key_hint.slice(-4));
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(401);
    expect((await call("/v1/ping", { headers: bearer(newKey) })).status).toBe(200);
    const again = await call("/v1/keys/recover/confirm", jsonBody({ token }));
    expect(again.status).toBe(400);
    expect((await body(again)).error.message).toContain("already used");
  });

  test("issued -> expired: confirm 30 minutes after issue is 400 and the key is unchanged", async () => {
    const email = freshEmail();
    const sub = await testSubscription(t, { email });
    const before = smtp.messages.length;
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    const token = tokenIn((await received(before, 1))[0]!.text)!;
    t.clock.advance(30 * MIN);
    const res = await call("/v1/keys/recover/confirm", jsonBody({ token }));
    expect(res.status).toBe(400);
    expect((await body(res)).error).toMatchObject({ code: "INVALID_PARAMETER" });
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(200);
  });

  test("400 for a malformed or unknown token", async () => {
    for (const token of ["nope", `svcr_${"A".repeat(43)}`]) {
      const res = await call("/v1/keys/recover/confirm", jsonBody({ token }));
      expect(res.status).toBe(400);
      expect((await body(res)).error.code).toBe("INVALID_PARAMETER");
    }
  });

  test("a successful recovery spends the key's other outstanding tokens", async () => {
    const email = freshEmail();
    await testSubscription(t, { email });
    const before = smtp.messages.length;
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    const [a, b] = (await received(before, 2)).map((m) => tokenIn(m.text)!);
    expect((await call("/v1/keys/recover/confirm", jsonBody({ token: a }))).status).toBe(200);
    expect((await call("/v1/keys/recover/confirm", jsonBody({ token: b }))).status).toBe(400);
  });

  test("3 tokens per key per hour; the 4th request still answers 202 but sends nothing; the next hour issues again", async () => {
    const email = freshEmail();
    await testSubscription(t, { email });
    const before = smtp.messages.length;
    for (let i = 0; i < 4; i++) {
      t.clock.advance(MIN);
      expect((await call("/v1/keys/recover", jsonBody({ email }), freshIp())).status).toBe(202);
    }
    await received(before, 3);
    await Bun.sleep(50);
    expect(smtp.messages.length - before).toBe(3);
    // The first token was issued at START+1min; one hour later it no longer counts.
    t.clock.set(new Date(new Date(START).getTime() + MIN + 60 * MIN - 1));
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    await t.deps.mail.idle();
    expect(smtp.messages.length - before).toBe(3);
    t.clock.advance(1);
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    await received(before, 4);
    expect(smtp.messages.length - before).toBe(4);
  });

  test("10 recovery requests per client address per 24 hours; the 11th is 429", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++)
      expect((await call("/v1/keys/recover", jsonBody({ email: "nobody@example.com" }), ip)).status).toBe(202);
    const res = await call("/v1/keys/recover", jsonBody({ email: "nobody@example.com" }), ip);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("86400");
  });
});

describe("subscription states", () => {
  test("active -> failed payment: the key works through 7 days of grace, then past due (401 EXPIRED_API_KEY) until a payment succeeds", async () => {
    const email = freshEmail();
    const sub = await testSubscription(t, { email });
    const before = smtp.messages.length;
    const view = await failPayment(t.deps, { id: sub.subscription.id }, "http://localhost");
    expect(view).toMatchObject({
      state: "active",
      grace_ends_at: new Date(new Date(START).getTime() + 7 * DAY_MS).toISOString(),
    });
    const [notice] = await received(before, 1);
    expect(notice!.subject).toBe("Payment failed: your key keeps working for 7 days");
    // A second failure does not extend the grace period.
    t.clock.advance(DAY_MS);
    expect((await failPayment(t.deps, { id: sub.subscription.id }, "http://localhost")).grace_ends_at).toBe(
      view.grace_ends_at,
    );
    t.clock.set(new Date(new Date(START).getTime() + 7 * DAY_MS - 1));
    const during = await call("/v1/ping", { headers: sub.headers });
    expect(during.status).toBe(200);
    expect((await body(during)).data.subscription).toEqual({
      state: "active",
      plan: "developer",
      grace_ends_at: view.grace_ends_at,
    });
    t.clock.advance(1);
    const after = await call("/v1/ping", { headers: sub.headers });
    expect(after.status).toBe(401);
    expect((await body(after)).error.code).toBe("EXPIRED_API_KEY");
    // Past due can still recover the key.
    const b2 = smtp.messages.length;
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    expect(tokenIn((await received(b2, 1))[0]!.text)).not.toBe(null);
    await recordPayment(t.deps, { id: sub.subscription.id });
    expect((await call("/v1/ping", { headers: sub.headers })).status).toBe(200);
  });

  test("past due -> the holder may still revoke (with cancel_subscription)", async () => {
    const sub = await testSubscription(t, { email: freshEmail() });
    await failPayment(t.deps, { id: sub.subscription.id }, "http://localhost");
    t.clock.advance(8 * DAY_MS);
    expect((await call("/v1/keys/rotate", { method: "POST", headers: sub.headers })).status).toBe(401);
    const res = await call("/v1/keys/revoke", jsonBody({ cancel_subscription: true }, sub.headers));
    expect(res.status).toBe(200);
    expect((await body(res)).data.subscription_cancelled).toBe(true);
  });

  test("ended -> the key is revoked and recovery sends nothing", async () => {
    const email = freshEmail();
    const sub = await testSubscription(t, { email });
    const before = smtp.messages.length;
    const out = await endSubscription(
      t.deps,
      { id: sub.subscription.id },
      { reason: "operator", callProvider: false, baseUrl: "http://localhost" },
    );
    expect(out).toMatchObject({ alreadyEnded: false, overageRequests: 0, subscription: { state: "ended" } });
    const [mail] = await received(before, 1);
    expect(mail!.subject).toBe("Your subscription has ended");
    const res = await call("/v1/keys/revoke", jsonBody({ cancel_subscription: true }, sub.headers));
    expect(res.status).toBe(401);
    expect((await body(res)).error.code).toBe("INVALID_API_KEY");
    await call("/v1/keys/recover", jsonBody({ email }), freshIp());
    await t.deps.mail.idle();
    await Bun.sleep(50);
    expect(smtp.messages.length - before).toBe(1);
  });
});

describe("secrets stay out of logs and storage", () => {
  test("svc_test_ subscriptions never bill overage", async () => {
    const sub = await testSubscription(t, { email: freshEmail(), mode: "test" });
    expect(sub.key.startsWith("svc_test_")).toBe(true);
    await t.database.db.execute(
      sql`insert into key_usage (key_id, month, requests) values (${sub.subscription.keyId}, '2026-11', 250000)`,
    );
    const out = await endSubscription(
      t.deps,
      { id: sub.subscription.id },
      { reason: "operator", callProvider: false, baseUrl: "http://localhost" },
    );
    expect([out.requests, out.overageRequests, out.amountMicroUsd]).toEqual([250000, 0, 0]);
  });

  test("no key or recovery token that was mailed in this file appears in the log or the outbox", async () => {
    await t.deps.mail.idle();
    const secrets = smtp.messages.flatMap((m) =>
      [...m.text.matchAll(/svc_(live|test)_[A-Za-z0-9_-]{32}|svcr_[A-Za-z0-9_-]{43}/g)].map((x) => x[0]),
    );
    expect(secrets.length).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(10);
    const log = logLines.join("\n");
    const outbox = JSON.stringify(await rows(sql`select body, error from mail_outbox`));
    for (const s of secrets) {
      expect(log).not.toContain(s);
      expect(outbox).not.toContain(s);
    }
  });
});
