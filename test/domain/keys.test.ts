import { describe, expect, test } from "bun:test";
import {
  keyHint,
  maskEmail,
  mintKey,
  mintRecoveryToken,
  parseKey,
  readCredential,
  sameDigest,
  sameDigestBytes,
  sha256Hex,
  uuidFromBytes,
} from "../../src/domain/keys";

const bytes = (n: number, v = 7) => new Uint8Array(n).fill(v);

describe("keys", () => {
  test("a key carries 192 random bits, URL-safe, with its mode prefix", () => {
    const k = mintKey("live", bytes(24, 0xff));
    expect(k).toBe(`svc_live_${"_".repeat(32)}`);
    expect(parseKey(k)).toBe("live");
    expect(parseKey(mintKey("test", bytes(24)))).toBe("test");
    expect(() => mintKey("live", bytes(15))).toThrow();
  });
  test("malformed keys are not keys", () => {
    expect(parseKey("svc_live_short")).toBe(null);
    expect(parseKey(`svc_prod_${"a".repeat(32)}`)).toBe(null);
    expect(parseKey(`svc_live_${"a".repeat(33)}`)).toBe(null);
  });
  test("hint shows prefix and last four characters", () => {
    expect(keyHint(`svc_test_${"a".repeat(28)}WXYZ`)).toBe("svc_test_…WXYZ");
  });
  test("recovery token prefix and length", () => {
    expect(mintRecoveryToken(bytes(32))).toMatch(/^svcr_[A-Za-z0-9_-]{43}$/);
  });
  test("hashes compare in constant time and by value", () => {
    const h = sha256Hex("abc");
    expect(h).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sameDigest(h, sha256Hex("abc"))).toBe(true);
    expect(sameDigest(h, sha256Hex("abd"))).toBe(false);
    expect(sameDigest(h, "")).toBe(false);
    const d = Buffer.from(h, "hex");
    expect(sameDigestBytes(d, Buffer.from(h, "hex"))).toBe(true);
    expect(sameDigestBytes(d, Buffer.from(sha256Hex("abd"), "hex"))).toBe(false);
    expect(sameDigestBytes(d, d.subarray(0, 31))).toBe(false);
    expect(sameDigestBytes(new Uint8Array(0), new Uint8Array(0))).toBe(false);
  });
  test("uuid v4 layout", () => {
    expect(uuidFromBytes(bytes(16, 0xff))).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
  });
  test("masked email", () => {
    expect(maskEmail("jane.doe@example.com")).toBe("j***e@example.com");
    expect(maskEmail("jo@example.com")).toBe("j***@example.com");
  });
});

describe("readCredential", () => {
  const key = mintKey("live", bytes(24));
  test("bearer and X-API-Key", () => {
    expect(readCredential(`Bearer ${key}`, undefined)).toEqual({ kind: "key", key, mode: "live" });
    expect(readCredential(`bearer  ${key}`, undefined)).toEqual({ kind: "key", key, mode: "live" });
    expect(readCredential(undefined, key)).toEqual({ kind: "key", key, mode: "live" });
    expect(readCredential(`Bearer ${key}`, key)).toEqual({ kind: "key", key, mode: "live" });
    // Blanks around the value are not part of the key; a test key is a test key.
    expect(readCredential(undefined, ` ${key}\t`)).toEqual({ kind: "key", key, mode: "live" });
    const testKey = mintKey("test", bytes(24));
    expect(readCredential(undefined, testKey)).toEqual({ kind: "key", key: testKey, mode: "test" });
    expect(readCredential(undefined, `${key}x`).kind).toBe("malformed");
  });
  test("no credential, other schemes and malformed keys", () => {
    expect(readCredential(undefined, undefined)).toEqual({ kind: "none" });
    expect(readCredential("L402 mac:preimage", undefined)).toEqual({ kind: "none" });
    expect(readCredential("Bearer nope", undefined).kind).toBe("malformed");
    expect(readCredential(undefined, "").kind).toBe("malformed");
    expect(readCredential(`Bearer ${key}`, mintKey("live", bytes(24, 9))).kind).toBe("malformed");
  });
  test("a key under another scheme (Token, Key, ApiKey, or any scheme carrying a key) is malformed, naming the scheme; other schemes are no credential", () => {
    expect(readCredential(`Token ${key}`, undefined)).toEqual({
      kind: "malformed",
      reason: "the Authorization scheme is 'Token', not 'Bearer'",
    });
    expect(readCredential(`Basic ${key}`, undefined)).toEqual({
      kind: "malformed",
      reason: "the Authorization scheme is 'Basic', not 'Bearer'",
    });
    expect(readCredential("ApiKey whatever", undefined).kind).toBe("malformed");
    expect(readCredential("token abc", undefined).kind).toBe("malformed");
    expect(readCredential("Basic dXNlcjpwYXNz", undefined)).toEqual({ kind: "none" });
    expect(readCredential("LSAT mac:preimage", undefined)).toEqual({ kind: "none" });
    expect(readCredential("Token", undefined)).toEqual({ kind: "none" });
  });
});
