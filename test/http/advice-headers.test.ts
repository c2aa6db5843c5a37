// A refusal's advice (data from services and the admission core) as the headers the http layer sends.
import { describe, expect, test } from "bun:test";
import { adviceHeaders, rateLimitHeaders } from "../../src/http/verdicts";
import { rateDecision, rateWindow } from "../../src/domain/access";

const w = rateWindow(new Date("2026-11-22T12:00:30Z"));

describe("advice headers", () => {
  test("a rate decision: limit, remaining and reset on every answer, Retry-After on a refusal", () => {
    expect(rateLimitHeaders(rateDecision(1, 60, w))).toEqual({
      "X-RateLimit-Limit": "60",
      "X-RateLimit-Remaining": "59",
      "X-RateLimit-Reset": String(w.resetUnix),
    });
    const refused = rateDecision(61, 60, w);
    expect(rateLimitHeaders(refused)).toEqual({
      "X-RateLimit-Limit": "60",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(w.resetUnix),
      "Retry-After": "30",
    });
    expect(adviceHeaders({ rate: refused })).toEqual(rateLimitHeaders(refused));
  });

  test("payment fields first, then Retry-After and Cache-Control, in that order; no advice, no headers", () => {
    expect(adviceHeaders(undefined)).toBeUndefined();
    expect(adviceHeaders({ retryAfterSeconds: 5, noStore: true })).toEqual({
      "Retry-After": "5",
      "Cache-Control": "no-store",
    });
    const h = adviceHeaders({ payment: { "PAYMENT-RESPONSE": "x" }, noStore: true })!;
    expect(Object.entries(h)).toEqual([
      ["PAYMENT-RESPONSE", "x"],
      ["Cache-Control", "no-store"],
    ]);
    expect(Object.keys(adviceHeaders({ retryAfterSeconds: 7, noStore: true })!)).toEqual([
      "Retry-After",
      "Cache-Control",
    ]);
  });
});
