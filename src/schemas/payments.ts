// The x402 v2 objects carried, base64-encoded JSON, in the payment headers of paid operations (research x402.md
// §1.2-1.4): PaymentRequired in PAYMENT-REQUIRED on a 402, SettleResponse in PAYMENT-RESPONSE after settlement.
// They document the headers in OpenAPI and let tests parse what the headers carry. Objects stay open: x402 clients
// ignore fields they do not know, and newer servers add some.
import { z } from "@hono/zod-openapi";

const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

export const x402RequirementsSchema = z
  .object({
    scheme: z.literal("exact"),
    network: z
      .string()
      .regex(/^eip155:[1-9][0-9]*$/)
      .openapi({ description: "CAIP-2 chain id", example: "eip155:84532" }),
    amount: z
      .string()
      .regex(/^[0-9]+$/)
      .openapi({
        description: "The price in the token's atomic units (USDC has 6 decimals: 10000 is 0.01 USD)",
        example: "10000",
      }),
    asset: evmAddress.openapi({
      description: "The EIP-3009 token contract",
      example: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    }),
    payTo: evmAddress.openapi({ description: "The recipient the authorization must pay" }),
    maxTimeoutSeconds: z.number().int().positive().openapi({ example: 300 }),
    extra: z
      .object({ name: z.string(), version: z.string() })
      .openapi({ description: "The token's EIP-712 domain name and version", example: { name: "USDC", version: "2" } }),
  })
  .openapi("X402PaymentRequirements");

export const x402PaymentRequiredSchema = z
  .object({
    x402Version: z.literal(2),
    error: z
      .string()
      .optional()
      .openapi({ description: "`Payment required`, or why a payment was refused (x402 reason string)" }),
    resource: z.object({ url: z.string().url(), description: z.string().optional(), mimeType: z.string().optional() }),
    accepts: z
      .array(x402RequirementsSchema)
      .min(1)
      .openapi({ description: "One `exact` requirement per accepted network; identical for identical requests" }),
    extensions: z
      .record(
        z.string(),
        z.object({ info: z.record(z.string(), z.unknown()), schema: z.record(z.string(), z.unknown()) }),
      )
      .optional()
      .openapi({
        description:
          "`bazaar`: the operation for x402 discovery. In the 402 body, in full: the request's query as the example, each " +
          "parameter's JSON Schema with its description, and the response's schema. In `PAYMENT-REQUIRED`, compact (to keep " +
          "headers small): each parameter's name, type, format and enum and the required list.",
      }),
  })
  .openapi("X402PaymentRequired");

export const x402SettleResponseSchema = z
  .object({
    success: z.boolean(),
    transaction: z.string().openapi({ description: "Transaction hash; empty when settlement failed" }),
    network: z.string(),
    payer: evmAddress.optional(),
    errorReason: z.string().optional().openapi({ description: "Short reason when `success` is false" }),
  })
  .openapi("X402SettleResponse");
