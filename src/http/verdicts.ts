// A verdict of the admission core (src/services/admission.ts) as HTTP: what a request brings to it (its credential, its
// client's address), what comes out (the refusal envelope, what a failure's advice tells a client beyond it, the
// rate-limit headers of a decision, on 200s and 429s alike: spec "General conventions"), set once through the Hono
// context; and what key-only routes read of the key it admitted (src/http/admission.ts admitKeyed sets it).
import type { Context } from "hono";
import { getConnInfo } from "hono/bun";
import type { Config } from "../config";
import { clientAddress, type EntitlementWant, type RateDecision } from "../domain/access";
import { readCredential, type Credential } from "../domain/keys";
import { ApiError, ERROR_STATUS, envelope, fail, type ErrorAdvice } from "../errors";
import type { Refusal } from "../services/admission";
import type { AuthenticatedKey } from "../services/key-auth";
import type { AppEnv } from "./app-env";

/** The credential a request carries (`Authorization: Bearer` or `X-API-Key`); an L402 Authorization is none. */
export function credentialOf(headers: Headers): Credential {
  return readCredential(headers.get("authorization") ?? undefined, headers.get("x-api-key") ?? undefined);
}

/** Whether the request carries a header credentialOf reads (a cheap check before deciding whether to read it). */
export function carriesCredential(headers: Headers): boolean {
  return headers.has("authorization") || headers.has("x-api-key");
}

/**
 * A refusal as its HTTP answer, built through the context (so every header set on it goes out): the error envelope
 * (and a 402's x402 PaymentRequired beside it), its status and the headers of its advice.
 */
export function refuse(c: Context, r: Refusal): Response {
  const { body, status, headers } = refusalParts(r);
  return c.json(body, status as never, headers);
}

/** A refusal's body (the error envelope, and a 402's x402 PaymentRequired beside it), status and advice headers. */
export function refusalParts(r: Refusal): {
  body: Record<string, unknown>;
  status: number;
  headers: Record<string, string> | undefined;
} {
  const body = r.body
    ? { ...envelope(r.code, r.message, r.details), ...r.body }
    : envelope(r.code, r.message, r.details);
  return { body, status: ERROR_STATUS[r.code], headers: adviceHeaders(r.advice) };
}

/** Sets a rate decision's headers on the context: every response built through it carries them. */
export function setRateHeaders(c: Context, rate: RateDecision): void {
  const h = rateLimitHeaders(rate);
  for (const k in h) c.header(k, h[k]);
}

/** The headers that state a rate decision: on 200 and 429, with Retry-After on a 429. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(d.resetUnix),
  };
  if (!d.allowed) h["Retry-After"] = String(d.retryAfterSeconds);
  return h;
}

/** The headers of an advice, in the order they go out: the payment rails', the rate decision's, Retry-After, Cache-Control. */
export function adviceHeaders(a: ErrorAdvice | undefined): Record<string, string> | undefined {
  if (!a) return undefined;
  const h: Record<string, string> = { ...a.payment, ...(a.rate ? rateLimitHeaders(a.rate) : {}) };
  if (a.retryAfterSeconds !== undefined && !a.rate) h["Retry-After"] = String(a.retryAfterSeconds);
  if (a.noStore) h["Cache-Control"] = "no-store";
  return h;
}

/** The key of a Key-only route (ping, rotate, revoke); 401 when the request carries none. */
export function requireKey(c: Context<AppEnv>): AuthenticatedKey {
  const key = c.get("apiKey");
  if (!key)
    fail(
      "INVALID_API_KEY",
      "This endpoint needs an API key. Send 'Authorization: Bearer <key>' or 'X-API-Key: <key>' (free keys: POST /v1/signup).",
    );
  return key;
}

/**
 * The admission core's entitlement decision for `key` on a Key route (saving a briefing needs premium access): a
 * function that throws the core's refusal (403 CATEGORY_NOT_ALLOWED or REGION_NOT_ALLOWED), for the service to call
 * once it knows what is asked.
 */
export function entitlementOf(c: Context<AppEnv>, key: AuthenticatedKey): (want: EntitlementWant) => void {
  const admission = c.get("admission");
  return (want) => {
    const refused = admission.entitlement(key, want);
    if (refused) throw new ApiError(refused.code, refused.message, refused.details);
  };
}

/** The client's address: the socket peer (Hono's connection info), or the trusted proxy's forwarding header (TRUSTED_PROXIES). */
export function clientIp(c: Context, config: Pick<Config, "trustedProxies" | "trustProxyHeader">): string | null {
  let socket: string | null = null;
  try {
    socket = getConnInfo(c).remote.address ?? null;
  } catch {
    // No server behind the request (app.request in tests and tools): no socket peer.
    socket = null;
  }
  return clientAddress(socket, c.req.header(config.trustProxyHeader), config.trustedProxies);
}
