// payments/x402/address.ts and payments/secp256k1.ts answer as viem does (the rail uses them so that challenges need
// no chain library): checksums of EIP-55's own examples and of random addresses, addresses and public keys of keys.
import { describe, expect, test } from "bun:test";
import { getAddress, isAddress, isHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  addressOfPrivateKey,
  checksumAddress,
  isAddressText,
  isHexText,
  newPrivateKey,
  sameAddress,
} from "../../payments/x402/address";
import { uncompressedPublicKey } from "../../payments/secp256k1";
import { compressedPublicKey } from "../../payments/l402/dev-backend";

// Deterministic "random" bytes: a test must give the same inputs on every run.
function bytes(seed: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("EVM addresses without viem", () => {
  test("EIP-55's examples keep their checksum, from any case", () => {
    for (const a of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]) {
      expect(checksumAddress(a.toLowerCase())).toBe(a as Hex);
      expect(checksumAddress(a.toUpperCase().replace("0X", "0x"))).toBe(a as Hex);
    }
  });

  test("checksums match viem's getAddress on 200 addresses", () => {
    for (let i = 1; i <= 200; i++) {
      const a = `0x${hex(bytes(i, 20))}`;
      expect(checksumAddress(a)).toBe(getAddress(a));
    }
  });

  test("what is not an address is refused, as viem refuses it", () => {
    for (const bad of [
      "0x",
      "0x123",
      `0x${"g".repeat(40)}`,
      `0x${"a".repeat(41)}`,
      `${"a".repeat(42)}`,
      `0X${"a".repeat(40)}`,
    ]) {
      expect(isAddressText(bad)).toBe(isAddress(bad, { strict: false }));
      expect(isAddressText(bad)).toBe(false);
      expect(() => checksumAddress(bad)).toThrow("not an address");
    }
    // A wrong checksum is still an address (as viem's non-strict check): the payload parser re-checksums it.
    expect(isAddressText("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")).toBe(true);
  });

  test("the same address in any case is the same; anything that is not an address is no match", () => {
    const a = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    expect(sameAddress(a, a.toLowerCase())).toBe(true);
    expect(sameAddress(a.toLowerCase(), `0x${a.slice(2).toUpperCase()}`)).toBe(true);
    expect(sameAddress(a, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")).toBe(false);
    expect(sameAddress(`${a}00`, `${a}00`)).toBe(false);
    expect(sameAddress(undefined, a)).toBe(false);
    expect(sameAddress(a, 42)).toBe(false);
  });

  test("hex text as viem's isHex", () => {
    for (const t of ["0x", "0x0", "0xabcDEF09", "0xg", "abc", "0X12", "0x12 "]) expect(isHexText(t)).toBe(isHex(t));
  });

  test("addresses and public keys of 50 keys match viem's accounts", () => {
    for (let i = 1; i <= 50; i++) {
      const key = `0x${hex(bytes(1000 + i, 32))}` as Hex;
      const account = privateKeyToAccount(key);
      expect(addressOfPrivateKey(key)).toBe(account.address);
      expect(`0x${hex(uncompressedPublicKey(Buffer.from(key.slice(2), "hex")))}`).toBe(account.publicKey);
      // The Lightning node id: 02/03 by the parity of y, then x.
      const y = BigInt(`0x${account.publicKey.slice(66)}`);
      expect(compressedPublicKey(Buffer.from(key.slice(2), "hex"))).toBe(
        `${y % 2n === 0n ? "02" : "03"}${account.publicKey.slice(4, 68)}`,
      );
    }
  });

  test("a new key is 32 bytes whose address viem agrees with; a key off the curve is refused", () => {
    const key = newPrivateKey();
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(addressOfPrivateKey(key)).toBe(privateKeyToAccount(key).address);
    expect(() => addressOfPrivateKey(`0x${"0".repeat(64)}`)).toThrow();
    expect(() => addressOfPrivateKey(`0x${"f".repeat(64)}`)).toThrow();
  });
});
