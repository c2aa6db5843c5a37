// A verdict of the admission core (src/services/admission.ts) as HTTP: the request's credential going in, the
// refusal envelope and the rate-limit headers coming out, set once through the Hono context.
import type { Context } from "hono";
import type { RateDecision } from "../domain/access";
import { readCredential, type Credential } from "../domain/keys";
import { ERROR_STATUS, envelope } from "../errors";
import type { Refusal } from "../services/admission";
import { adviceHeaders, rateLimitHeaders } from "./advice-headers";

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
export function refusalParts(r: Refusal): { body: Record<string, unknown>; status: number; headers: Record<string, string> | undefined } {
  const body = r.body ? { ...envelope(r.code, r.message, r.details), ...r.body } : envelope(r.code, r.message, r.details);
  return { body, status: ERROR_STATUS[r.code], headers: adviceHeaders(r.advice) };
}

/** Sets a rate decision's headers on the context: every response built through it carries them. */
export function setRateHeaders(c: Context, rate: RateDecision): void {
  const h = rateLimitHeaders(rate);
  for (const k in h) c.header(k, h[k]);
}
