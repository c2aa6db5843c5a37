// A verdict of the admission core (src/services/admission.ts) as HTTP: the request's credential going in, the
// refusal envelope and the rate-limit headers coming out. paid() and the page memo render through these alone, so
// both paths answer the same bytes.
import { RATE_HEADERS, rateLimitHeaders, type RateDecision } from "../domain/access";
import { readCredential, type Credential } from "../domain/keys";
import { ERROR_STATUS, envelope } from "../errors";
import type { Refusal } from "../services/admission";

/** The credential a request carries (`Authorization: Bearer` or `X-API-Key`); an L402 Authorization is none. */
export function credentialOf(headers: Headers): Credential {
  return readCredential(headers.get("authorization") ?? undefined, headers.get("x-api-key") ?? undefined);
}

/** A refusal as its HTTP answer: the error envelope (and a 402's x402 PaymentRequired beside it), status, headers. */
export function refusalResponse(r: Refusal): Response {
  const body = r.body ? { ...envelope(r.code, r.message, r.details), ...r.body } : envelope(r.code, r.message, r.details);
  const res = new Response(JSON.stringify(body), { status: ERROR_STATUS[r.code] });
  const h = res.headers;
  h.set("Content-Type", "application/json");
  if (r.headers) for (const k in r.headers) h.set(k, r.headers[k]!);
  return res;
}

/** Sets a rate decision's headers on a response's Headers (the names and values are domain/access.ts's). */
export function setRateHeaders(headers: Headers, rate: RateDecision): void {
  const h = rateLimitHeaders(rate);
  for (const k in h) headers.set(k, h[k]!);
}

/**
 * Headers for the 200s of one URL: `base` plus a rate decision's headers. A busy key's decisions repeat but for the
 * remaining count, so the headers are kept per limit and window and only that count is set on each answer's copy.
 */
export class RatedHeaders {
  private kept: { limit: number; reset: number; headers: Headers } | null = null;
  constructor(private readonly base: Headers) {}

  /** The headers to copy into an answer (shared: never change them), then call `finish` on the copy. */
  template(rate: RateDecision | null): Headers {
    if (!rate) return this.base;
    const k = this.kept;
    if (k && k.limit === rate.limit && k.reset === rate.resetUnix) return k.headers;
    const headers = new Headers(this.base);
    setRateHeaders(headers, rate);
    this.kept = { limit: rate.limit, reset: rate.resetUnix, headers };
    return headers;
  }

  finish(copy: Headers, rate: RateDecision | null): void {
    if (rate) copy.set(RATE_HEADERS.remaining, String(rate.remaining));
  }
}
