// What a failure's answer tells a client beyond its envelope (src/errors.ts ErrorAdvice: data, from services and
// the admission core) written as headers, here in the http layer; and a rate decision's headers (spec "General
// conventions"), on 200s and 429s alike.
import type { RateDecision } from "../domain/access";
import type { ErrorAdvice } from "../errors";

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
