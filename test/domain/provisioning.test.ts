// The rules of on-demand provisioning (src/domain/provisioning.ts), with values worked out by hand.
import { describe, expect, test } from "bun:test";
import { UpstreamError } from "../../src/upstream/types";
import {
  failureRetryAt,
  importCommandFor,
  isFinalAttempt,
  secondsUntil,
  seriesJobKey,
  upstreamErrorInfo,
} from "../../src/domain/provisioning";

const at = (iso: string) => new Date(iso);

describe("seriesJobKey", () => {
  test("indicator id and region code, joined by |", () => {
    expect(seriesJobKey("0b7a6e9e-4f1c-5d2e-9a41-2f0f7f1f3c11", "06037")).toBe(
      "0b7a6e9e-4f1c-5d2e-9a41-2f0f7f1f3c11|06037",
    );
  });
});

describe("secondsUntil", () => {
  test("whole seconds, rounded up", () => {
    expect(secondsUntil(at("2026-11-22T12:00:00Z"), at("2026-11-22T12:10:00Z"))).toBe(600);
    expect(secondsUntil(at("2026-11-22T12:00:00.001Z"), at("2026-11-22T12:10:00Z"))).toBe(600);
    expect(secondsUntil(at("2026-11-22T12:00:00Z"), at("2026-11-22T12:00:00.001Z"))).toBe(1);
    expect(secondsUntil(at("2026-11-22T12:00:00Z"), at("2026-11-22T12:00:01.5Z"))).toBe(2);
  });
  test("at least 1, also when the moment has passed", () => {
    expect(secondsUntil(at("2026-11-22T12:00:00Z"), at("2026-11-22T12:00:00Z"))).toBe(1);
    expect(secondsUntil(at("2026-11-22T12:00:00Z"), at("2026-11-22T11:00:00Z"))).toBe(1);
  });
});

describe("failureRetryAt", () => {
  const now = at("2026-02-28T23:59:00Z");
  test("the cooldown when the upstream asked for nothing or less", () => {
    expect(failureRetryAt(now, 900).toISOString()).toBe("2026-03-01T00:14:00.000Z");
    expect(failureRetryAt(now, 900, null).toISOString()).toBe("2026-03-01T00:14:00.000Z");
    expect(failureRetryAt(now, 900, 899).toISOString()).toBe("2026-03-01T00:14:00.000Z");
  });
  test("what the upstream asked for when it is longer", () => {
    expect(failureRetryAt(now, 900, 3600).toISOString()).toBe("2026-03-01T00:59:00.000Z");
  });
  test("across a leap day", () => {
    expect(failureRetryAt(at("2028-02-28T23:00:00Z"), 7200).toISOString()).toBe("2028-02-29T01:00:00.000Z");
  });
});

describe("isFinalAttempt", () => {
  test("not retryable: the first attempt is the last", () => {
    expect(isFinalAttempt({ retryCount: 0, retryLimit: 4 }, false)).toBe(true);
  });
  test("retryable: final once retryCount reaches retryLimit (attempts 0..limit)", () => {
    expect(isFinalAttempt({ retryCount: 0, retryLimit: 2 }, true)).toBe(false);
    expect(isFinalAttempt({ retryCount: 1, retryLimit: 2 }, true)).toBe(false);
    expect(isFinalAttempt({ retryCount: 2, retryLimit: 2 }, true)).toBe(true);
    expect(isFinalAttempt({ retryCount: 0, retryLimit: 0 }, true)).toBe(true);
  });
});

describe("upstreamErrorInfo", () => {
  test("reads provider, retryable and retryAfterSeconds from the error", () => {
    const e = Object.assign(new Error("429 Too Many Requests"), {
      provider: "bls",
      retryable: true,
      retryAfterSeconds: 30,
    });
    expect(upstreamErrorInfo(e, "fred")).toEqual({
      provider: "bls",
      retryable: true,
      retryAfterSeconds: 30,
      message: "429 Too Many Requests",
    });
  });
  test("an error that names no upstream: the fallback, retryable", () => {
    expect(upstreamErrorInfo(new Error("socket hang up"), "fred")).toEqual({
      provider: "fred",
      retryable: true,
      retryAfterSeconds: null,
      message: "socket hang up",
    });
  });
  test("fractional Retry-After rounds up; zero, negative and non-numbers are ignored", () => {
    const e = (v: unknown) =>
      Object.assign(new Error("x"), { provider: "census", retryable: true, retryAfterSeconds: v });
    expect(upstreamErrorInfo(e(1.2), "f").retryAfterSeconds).toBe(2);
    expect(upstreamErrorInfo(e(0), "f").retryAfterSeconds).toBeNull();
    expect(upstreamErrorInfo(e(-5), "f").retryAfterSeconds).toBeNull();
    expect(upstreamErrorInfo(e("60"), "f").retryAfterSeconds).toBeNull();
    expect(upstreamErrorInfo(e(Number.POSITIVE_INFINITY), "f").retryAfterSeconds).toBeNull();
  });
  test("the first line of the message, at most 300 characters", () => {
    expect(upstreamErrorInfo(new Error("Bad Request\n<html>...</html>"), "fred").message).toBe("Bad Request");
    const long = upstreamErrorInfo(new Error("a".repeat(301)), "fred").message;
    expect([long.length, long.endsWith("…")]).toEqual([300, true]);
    expect(upstreamErrorInfo(new Error("b".repeat(300)), "fred").message).toBe("b".repeat(300));
  });
  test("a connector's error opens with its provider, which the answer names already: that prefix is dropped", () => {
    const e = new UpstreamError({
      provider: "bls",
      kind: "over_capacity",
      retryable: true,
      status: 503,
      message: "POST v2/timeseries/data 1 series 2007-2026: HTTP 503",
    });
    expect(e.message).toBe("bls: POST v2/timeseries/data 1 series 2007-2026: HTTP 503");
    expect(upstreamErrorInfo(e, "fred")).toEqual({
      provider: "bls",
      retryable: true,
      retryAfterSeconds: null,
      message: "POST v2/timeseries/data 1 series 2007-2026: HTTP 503",
    });
    // Only its own provider's name, and only as a prefix.
    expect(upstreamErrorInfo(Object.assign(new Error("fred: x"), { provider: "bls" }), "bls").message).toBe("fred: x");
    expect(upstreamErrorInfo(Object.assign(new Error("see bls: x"), { provider: "bls" }), "bls").message).toBe(
      "see bls: x",
    );
  });
  test("a thrown non-Error", () => {
    expect(upstreamErrorInfo("timeout", "worldbank")).toEqual({
      provider: "worldbank",
      retryable: true,
      retryAfterSeconds: null,
      message: "timeout",
    });
    expect(upstreamErrorInfo({ provider: "", retryable: false }, "fred")).toMatchObject({
      provider: "fred",
      retryable: false,
    });
  });
});

describe("importCommandFor", () => {
  test("codes as they are when safe, quoted for the shell otherwise", () => {
    expect(importCommandFor("UNRATE", "US", "fred")).toBe(
      "svc import FILE --indicator UNRATE --region US --source fred",
    );
    expect(importCommandFor("SL.UEM.TOTL.ZS", "FR", "worldbank")).toBe(
      "svc import FILE --indicator SL.UEM.TOTL.ZS --region FR --source worldbank",
    );
    expect(importCommandFor("svc:sahm_rule", "US", null)).toBe("svc import FILE --indicator svc:sahm_rule --region US");
    expect(importCommandFor("it's odd", "06037", "x y")).toBe(
      "svc import FILE --indicator 'it'\\''s odd' --region 06037 --source 'x y'",
    );
  });
});
