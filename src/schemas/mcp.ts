// The JSON-RPC 2.0 messages of POST /api/mcp, for the OpenAPI contract only: the MCP SDK's transport parses and
// validates the body itself (and answers its own JSON-RPC errors), so no zod validator runs on this route.
import { z } from "@hono/zod-openapi";
import { errorEnvelopeSchema } from "./errors";
import { x402PaymentRequiredSchema } from "./payments";

const id = z.union([z.string(), z.number().int()]);

export const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: id.optional().openapi({ description: "Absent for notifications (answered 202 with no body)." }),
    method: z.string().openapi({
      description: "`initialize`, `tools/list`, `tools/call`, `ping`, or a notification.",
      example: "tools/call",
    }),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ example: { name: "get_latest", arguments: { indicator: "PAYEMS", region: "US" } } }),
  })
  .openapi("JsonRpcRequest");

/**
 * A paid tool's answer to a call without a key (a tool result with `isError: true`), as the x402 MCP transport wants
 * it: the x402 PaymentRequired (when the x402 rail is on) whose `error` says what the call costs and how to pay, and
 * beside it the service's `code` and `details`. Also the answer to an x402 payment that could not be settled (code
 * INTERNAL_ERROR, nothing charged), so the client can pay anew.
 */
export const mcpPaymentRequestSchema = x402PaymentRequiredSchema
  .partial()
  .extend({
    error: z.string().openapi({
      description:
        "What the call costs and how to pay it: in the call (x402), with an API key, or on the equivalent REST URL.",
    }),
    code: z.enum(["PAYMENT_REQUIRED", "INTERNAL_ERROR"]).openapi({
      description:
        "PAYMENT_REQUIRED; INTERNAL_ERROR when a verified x402 payment could not be settled (nothing was charged).",
    }),
    details: z
      .object({
        price_usd: z.string().openapi({ example: "0.01" }),
        rails: z
          .array(z.enum(["x402", "l402"]))
          .openapi({ description: "The per-request payment rails this server takes." }),
        rest_url: z
          .string()
          .url()
          .openapi({ description: "The equivalent REST request, payable with the same rails." }),
        method: z.literal("GET"),
        reason: z
          .string()
          .optional()
          .openapi({ description: "Why the payment sent with the call was refused or not settled." }),
        l402: z
          .object({ invoice: z.string(), macaroon: z.string(), amount_sats: z.string(), valid_until: z.string() })
          .optional()
          .openapi({
            description:
              "The L402 challenge of the REST URL: pay the invoice, then call the REST URL with `Authorization: L402 <macaroon>:<preimage>`.",
          }),
      })
      .catchall(z.unknown()),
  })
  .openapi("McpPaymentRequest");

/** A tools/call result (MCP "CallToolResult"), as this server fills it. */
export const mcpToolResultSchema = z
  .object({
    content: z.array(z.object({ type: z.literal("text"), text: z.string() })).openapi({
      description:
        "One text: a rendering of the REST body (a summary line, then its fields, lists as tables); for a payment request, its JSON.",
    }),
    structuredContent: z
      .union([
        z.record(z.string(), z.unknown()).openapi({
          description:
            "The REST response body, with MCP's additions (`meta.truncated`, `has_data`): the tool's outputSchema.",
        }),
        errorEnvelopeSchema,
        mcpPaymentRequestSchema,
      ])
      .openapi({
        description: "The REST body on success; when isError is true the REST error envelope or a payment request.",
      }),
    isError: z.boolean().optional(),
    _meta: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "`http_status` and `rest_url` of the equivalent REST request, `request_id`, the key's `rate_limit` window, and `x402/payment-response` (the settlement receipt) when the call was paid with x402.",
    }),
  })
  .openapi("McpToolResult");

export const jsonRpcResponseSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: id.nullable(),
    result: z
      .union([mcpToolResultSchema, z.record(z.string(), z.unknown())])
      .optional()
      .openapi({
        description:
          "tools/call: `{ content: [{ type: 'text', text }], structuredContent, isError?, _meta }`; structuredContent is the REST " +
          "response body (matching the tool's outputSchema), or when isError is true the error envelope " +
          "`{ error: { code, message, details } }` or a payment request (an x402 PaymentRequired with `code` and `details`).",
      }),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi("JsonRpcResponse");
