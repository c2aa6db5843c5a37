// The error envelope as a schema (OpenAPI component "Error") and the OpenAPI error responses, derived from the one
// error table (src/errors.ts).
import { z } from "@hono/zod-openapi";
import { ERROR_STATUS, type ErrorCode, type ErrorEnvelope } from "../errors";

export const errorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: errorCodeSchema,
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi("Error") satisfies z.ZodType<ErrorEnvelope>;

const describe: Partial<Record<number, string>> = {
  400: "Invalid parameter",
  401: "Missing, malformed, expired or unknown API key",
  402: "Payment required (x402 and L402 challenges)",
  403: "The key lacks access to this indicator or region",
  404: "Not found",
  409: "Conflict",
  429: "Rate limit exceeded",
  500: "Server error",
  502: "Internal operation failed",
  503: "Service unavailable",
};

/** OpenAPI `responses` entries for the given statuses, each with the error envelope. */
export function errorResponses(...statuses: number[]) {
  const out: Record<
    string,
    { description: string; content: { "application/json": { schema: typeof errorEnvelopeSchema } } }
  > = {};
  for (const s of statuses) {
    out[String(s)] = {
      description: describe[s] ?? "Error",
      content: { "application/json": { schema: errorEnvelopeSchema } },
    };
  }
  return out;
}
