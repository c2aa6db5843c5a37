// Key management bodies and answers (spec "Key management"), GET /v1/ping, and the checkout index.
import { z } from "@hono/zod-openapi";

const keyHint = z
  .string()
  .openapi({ description: "Key prefix and last four characters; safe to show.", example: "svc_live_…x9Qa" });
const attribution = (name: string) =>
  z
    .string()
    .max(120)
    .optional()
    .openapi({ description: `Attribution (${name}); validated, never stored with the key.` });

export const signupBodySchema = z
  .object({
    email: z.email().max(254).openapi({ example: "ada@example.com" }),
    source: attribution("where you heard of us"),
    utm_source: attribution("utm_source"),
    utm_medium: attribution("utm_medium"),
    utm_campaign: attribution("utm_campaign"),
  })
  .openapi("SignupRequest");

export const signupResponseSchema = z
  .object({
    data: z.object({
      key: z.string().openapi({
        description: "The API key. Returned exactly once: only its hash is stored.",
        example: "svc_live_3q2-Jm0w0cS0b7h1n7xH9p1ZkQ2vY8rT",
      }),
      key_hint: keyHint,
      plan: z.literal("free"),
      rate_limit_per_minute: z.number().int().openapi({ example: 60 }),
      docs_url: z.string().openapi({ example: "https://api.example.com/docs" }),
    }),
    meta: z.object({ notice: z.string() }),
  })
  .openapi("SignupResponse");

export const rotateResponseSchema = z
  .object({
    data: z.union([
      z
        .object({ key: z.string(), key_hint: keyHint, previous_key_hint: keyHint, delivery: z.literal("response") })
        .openapi("RotatedKeyInResponse"),
      z
        .object({
          key_hint: keyHint,
          previous_key_hint: keyHint,
          delivery: z.literal("email"),
          delivered_to: z.string().openapi({ description: "Masked billing address", example: "a***a@example.com" }),
        })
        .openapi("RotatedKeyByEmail"),
    ]),
    meta: z.object({ notice: z.string() }),
  })
  .openapi("RotateKeyResponse");

export const revokeBodySchema = z
  .object({
    cancel_subscription: z.boolean().optional().openapi({
      description:
        "Required (true) to revoke a key that pays an active subscription; the subscription then ends at once.",
    }),
  })
  .openapi("RevokeKeyRequest");

export const revokeResponseSchema = z
  .object({ data: z.object({ revoked: z.literal(true), key_hint: keyHint, subscription_cancelled: z.boolean() }) })
  .openapi("RevokeKeyResponse");

export const recoverBodySchema = z
  .object({ email: z.email().max(254).openapi({ example: "billing@example.com" }) })
  .openapi("RecoverKeyRequest");

export const recoverResponseSchema = z
  .object({ data: z.object({ status: z.literal("accepted") }), meta: z.object({ notice: z.string() }) })
  .openapi("RecoverKeyResponse");

export const recoverConfirmBodySchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: "The `svcr_` token from the recovery email.", example: "svcr_…" }),
  })
  .openapi("RecoverConfirmRequest");

export const recoverConfirmResponseSchema = z
  .object({
    data: z.object({
      key_hint: keyHint,
      previous_key_hint: keyHint,
      delivery: z.literal("email"),
      delivered_to: z.string(),
    }),
    meta: z.object({ notice: z.string() }),
  })
  .openapi("RecoverConfirmResponse");

export const pingResponseSchema = z
  .object({
    data: z.object({
      status: z.literal("ok"),
      key_hint: keyHint,
      mode: z.enum(["live", "test"]),
      plan: z.enum(["free", "developer", "professional"]),
      scopes: z.array(z.string()),
      premium_access: z.boolean().openapi({ description: "Whether the key reads premium indicators and signals." }),
      allowed_regions: z.array(z.string()).nullable(),
      rate_limit_per_minute: z.number().int(),
      subscription: z
        .object({
          state: z.enum(["active", "past_due", "ended"]),
          plan: z.string(),
          grace_ends_at: z.string().nullable(),
        })
        .nullable(),
      usage: z.object({
        month: z.string().openapi({ example: "2026-11" }),
        requests: z.number().int(),
        included_requests: z.number().int().nullable(),
        overage_requests: z.number().int(),
      }),
    }),
    meta: z.object({}),
  })
  .openapi("PingResponse");

export type SignupResponse = z.infer<typeof signupResponseSchema>;
export type RotateResponse = z.infer<typeof rotateResponseSchema>;
export type RevokeResponse = z.infer<typeof revokeResponseSchema>;
export type RecoverResponse = z.infer<typeof recoverResponseSchema>;
export type RecoverConfirmResponse = z.infer<typeof recoverConfirmResponseSchema>;
export type PingResponse = z.infer<typeof pingResponseSchema>;
