// The provisioning body (spec "Provisioning body (HTTP 202)"): what observations and latest answer while a series the
// catalog offers but the store does not hold yet is being fetched from its upstream.
import { z } from "@hono/zod-openapi";

export const provisioningBodySchema = z
  .object({
    status: z.literal("provisioning"),
    indicator: z.string().openapi({
      description:
        "The canonical catalog code of the series being fetched (may differ from the code requested, e.g. for a concept)",
      example: "UNRATE",
    }),
    region: z.string().openapi({ description: "The region code of the series", example: "US" }),
    retry_after_seconds: z
      .number()
      .int()
      .min(1)
      .openapi({ description: "When to ask again (also the Retry-After header)", example: 5 }),
    request_ref: z.string().uuid().openapi({
      description: "Names this provisioning: every retry while it runs gets the same ref",
      example: "1b4e28ba-2fa1-41d2-883f-0016d3cca427",
    }),
  })
  .openapi("Provisioning");

export type ProvisioningBody = z.infer<typeof provisioningBodySchema>;

/** The OpenAPI entry of a 202 on a route that may provision the series it reads. */
export const provisioningResponse = {
  202: {
    description:
      "The catalog offers this series but it is not held yet: it is being fetched from its upstream. Ask again after " +
      "`Retry-After` seconds (keep retrying for up to a few minutes); retries during the fetch carry the same `request_ref`. Not charged.",
    headers: {
      "Retry-After": {
        description: "Seconds to wait before asking again",
        schema: { type: "integer" as const, minimum: 1 },
      },
    },
    content: { "application/json": { schema: provisioningBodySchema } },
  },
};
