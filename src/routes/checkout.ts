// Subscription checkout and the payment provider's webhook. `/checkout` lists the paid plans with their
// checkout links; `/checkout/{plan}` starts a provider checkout (303 to it, or its URL as JSON for a client that
// asks for JSON rather than a page), which returns to `/checkout/{plan}/success`. Without a provider configured the answer says how to get a paid key from the operator;
// no session is ever faked. (No static path beside `{plan}`: the router then compiles every route into one regular
// expression instead of walking a trie on each request.)
import { createRoute, z } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { fail } from "../errors";
import { errorResponses } from "../schemas/errors";
import { publicBaseUrl } from "../contract/base-url";
import { PLANS, isPaidPlan, publicPlans, type PaidPlanId } from "../plans";
import { checkoutAvailability, handleWebhook, startCheckout } from "../services/billing-checkout";
import { renderCheckoutUnavailable } from "../docs/keys-page";
import { SERVICE_NAME } from "../version";
import {
  checkoutIndexSchema,
  checkoutQuerySchema,
  checkoutSessionSchema,
  checkoutSuccessSchema,
  webhookAckSchema,
} from "../schemas/billing";

const json = <T>(schema: T) => ({ content: { "application/json": { schema } } });
const planParam = z.object({
  plan: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "plan", in: "path" }, example: "developer" }),
});

const indexRoute = createRoute({
  method: "get",
  path: "/checkout",
  operationId: "checkout_plans",
  tags: ["Billing"],
  summary: "Plans and checkout links",
  description: "Every plan with its price, inclusion, rate limit, overage and (paid plans) checkout link.",
  responses: { 200: { description: "Plans", ...json(checkoutIndexSchema) }, ...errorResponses(500) },
});

const planRoute = createRoute({
  method: "get",
  path: "/checkout/{plan}",
  operationId: "checkout",
  tags: ["Billing"],
  summary: "Start a subscription checkout",
  description:
    "Redirects (303) to the payment provider's checkout for a paid plan; the key is emailed to the billing address once payment " +
    "is confirmed. A client whose `Accept` names `application/json` and not `text/html` (an agent or script, not a browser) " +
    "gets the checkout URL as JSON instead. 503 with the operator path when no provider is configured (a browser, whose `Accept` " +
    "names `text/html`, gets that as a page).",
  request: { params: planParam, query: checkoutQuerySchema },
  responses: {
    200: { description: "The provider's checkout URL (`Accept: application/json`)", ...json(checkoutSessionSchema) },
    303: { description: "To the provider's checkout page" },
    ...errorResponses(400, 404, 502, 503),
  },
});

/** A client that asks for JSON and not for a page wants the checkout URL as data; browsers get the redirect. */
export function wantsJson(accept: string | undefined): boolean {
  const types = (accept ?? "").split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  return types.includes("application/json") && !types.includes("text/html");
}

function acceptsHtml(accept: string | undefined): boolean {
  return (accept ?? "").split(",").some((t) => t.split(";")[0]!.trim().toLowerCase() === "text/html");
}

const successRoute = createRoute({
  method: "get",
  path: "/checkout/{plan}/success",
  operationId: "checkout_success",
  tags: ["Billing"],
  summary: "After a completed checkout",
  description:
    "Where the payment provider returns the buyer: what happens next (the key is emailed once payment is confirmed).",
  request: { params: planParam },
  responses: { 200: { description: "Next steps", ...json(checkoutSuccessSchema) }, ...errorResponses(400, 404) },
});

const webhookRoute = createRoute({
  method: "post",
  path: "/webhooks/stripe",
  operationId: "stripe_webhook",
  tags: ["Billing"],
  summary: "Stripe webhook receiver",
  description:
    "Verifies the Stripe-Signature header and applies subscription events (checkout completed, payment failed or succeeded, subscription deleted).",
  responses: { 200: { description: "Acknowledged", ...json(webhookAckSchema) }, ...errorResponses(400, 503) },
});

export const registerCheckoutRoutes: RegisterRoutes = (app, deps) => {
  const base = (url: string) => publicBaseUrl(deps.config, url);

  app.openapi(indexRoute, async (c) => {
    const a = checkoutAvailability(deps);
    const plans = publicPlans(base(c.req.url)).map((p) => ({
      ...p,
      premium_access: PLANS[p.id].unrestricted,
      available: p.id === "free" ? true : a.plans[p.id],
    }));
    return c.json(
      { data: { provider: a.provider, plans, signup: `${base(c.req.url)}/v1/signup` }, meta: { notice: a.notice } },
      200,
    );
  });
  app.openapi(successRoute, async (c) => {
    const { plan } = c.req.valid("param");
    if (!isPaidPlan(plan)) fail("RESOURCE_NOT_FOUND", `No paid plan '${plan}'. Paid plans: developer, professional.`);
    return c.json(
      {
        data: {
          status: "received" as const,
          message:
            "Thank you. Your API key is emailed to the billing address as soon as the payment is confirmed. It is not shown here: only its hash is stored.",
          recover: `${base(c.req.url)}/v1/keys/recover`,
        },
      },
      200,
    );
  });
  app.openapi(planRoute, async (c) => {
    const { plan } = c.req.valid("param");
    // A person following a Subscribe link to a plan this server cannot sell gets the news in words, not a JSON 503.
    if (isPaidPlan(plan) && !checkoutAvailability(deps).plans[plan] && acceptsHtml(c.req.header("accept"))) {
      c.header("Vary", "Accept");
      return c.html(renderCheckoutUnavailable({ base: base(c.req.url), name: SERVICE_NAME, plan }), 503) as any;
    }
    const session = await startCheckout(deps, {
      plan,
      email: c.req.valid("query").email ?? null,
      baseUrl: base(c.req.url),
    });
    c.header("Vary", "Accept");
    // startCheckout refuses any plan but a paid one, so `plan` is a paid plan id here.
    if (wantsJson(c.req.header("accept"))) return c.json({ data: { plan: plan as PaidPlanId, url: session.url } }, 200);
    return c.redirect(session.url, 303);
  });
  app.openapi(webhookRoute, async (c) => {
    const outcome = await handleWebhook(deps, {
      rawBody: await c.req.text(),
      signature: c.req.header("stripe-signature"),
      baseUrl: base(c.req.url),
    });
    return c.json({ received: true as const, ...outcome }, 200);
  });
};
