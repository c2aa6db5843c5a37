// The app the billing cycle tests share (test/services/billing-*.test.ts): the real app with the Stripe stand-in as
// its billing provider and mail to a real SMTP receiver, and the cycle's job run on it.
import { afterAll, beforeAll, beforeEach } from "bun:test";
import type { sql } from "drizzle-orm";
import { runBillingCycle } from "../../src/jobs/billing";
import { makeTestApp, type TestApp } from "./app";
import { bearer } from "./keys";
import { startSmtpReceiver, type SmtpReceiver } from "./smtp";
import { startStripeStandIn, type StripeStandIn } from "./stripe";

/** The public base URL the billing app links from. */
export const BILLING_BASE = "https://api.example.test";

/**
 * The billing app: started before the file's tests, closed after them, its SMTP receiver accepting mail again before
 * each test. A function, so each file gets its own: test files may share one module registry.
 */
export function billingApp() {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let stripe: StripeStandIn;
  let emails = 0;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    stripe = startStripeStandIn();
    t = await makeTestApp({ billing: stripe.provider, config: { smtpUrl: smtp.url, publicBaseUrl: BILLING_BASE } });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    stripe.stop();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.refuse(false);
  });
  return {
    get t() {
      return t;
    },
    get smtp() {
      return smtp;
    },
    get stripe() {
      return stripe;
    },
    async rows(q: ReturnType<typeof sql>) {
      const r = (await t.database.db.execute(q)) as any;
      return (Array.isArray(r) ? r : r.rows) as any[];
    },
    mailTo: (email: string) => smtp.messages.filter((m) => m.to.includes(email)),
    ping: (key: string) => t.app.request("/v1/ping", { headers: bearer(key) }),
    /** One run of the cycle now, as the billing queue runs it. */
    job: { tick: () => runBillingCycle(t.deps, { baseUrl: BILLING_BASE }) },
    /** A billing address no other test of the file uses. */
    freshEmail: () => `cycle${++emails}@example.com`,
  };
}
