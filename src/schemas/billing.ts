// Checkout index, checkout parameters and webhook acknowledgements.
import { z } from "@hono/zod-openapi";
import { PAID_PLAN_IDS, type PaidPlanId } from "../plans";

export const checkoutQuerySchema = z.object({
  email: z
    .email()
    .max(254)
    .optional()
    .openapi({
      param: { name: "email", in: "query" },
      description: "Prefills the billing address.",
      example: "billing@example.com",
    }),
});

export const publicPlanSchema = z
  .object({
    id: z.enum(["free", "developer", "professional"]),
    name: z.string(),
    price_usd_per_month: z.string().openapi({ example: "19.00" }),
    included_requests_per_month: z.number().int().nullable(),
    rate_limit_per_minute: z.number().int(),
    overage_usd_per_1000_requests: z.string().nullable(),
    checkout: z.string().nullable(),
    premium_access: z
      .boolean()
      .openapi({ description: "Unrestricted: reads premium indicators and signals without the svc-premium scope." }),
    available: z
      .boolean()
      .openapi({ description: "Whether online checkout (or signup, for free) works on this server." }),
  })
  // Not "Plan": the `/` index's plan (src/schemas/discovery.ts) has that name and fewer fields.
  .openapi("CheckoutPlan");

export const checkoutIndexSchema = z
  .object({
    data: z.object({ provider: z.enum(["stripe"]).nullable(), plans: z.array(publicPlanSchema), signup: z.string() }),
    meta: z.object({ notice: z.string().nullable() }),
  })
  .openapi("CheckoutIndex");

export const checkoutSessionSchema = z
  .object({
    data: z.object({
      plan: z.enum(PAID_PLAN_IDS as [PaidPlanId, ...PaidPlanId[]]).openapi({ example: "developer" }),
      url: z.string().url().openapi({
        description: "The payment provider's checkout page for this plan: open it in a browser.",
        example: "https://checkout.stripe.com/c/pay/cs_live_a1B2c3",
      }),
    }),
  })
  .openapi("CheckoutSession");

export const checkoutSuccessSchema = z
  .object({ data: z.object({ status: z.literal("received"), message: z.string(), recover: z.string() }) })
  .openapi("CheckoutSuccess");

export const webhookAckSchema = z
  .object({
    received: z.literal(true),
    event: z.string(),
    type: z.string(),
    applied: z.boolean(),
    note: z.string().optional(),
  })
  .openapi("WebhookAck");
