// EVM addresses without the chain library (viem is loaded only when a rail first reads a chain or checks a
// signature: it is about 10 MB of an idle node's memory). EIP-55 checksums over keccak-256, addresses of secp256k1
// keys: the same results as viem's getAddress, isAddress (not strict), isHex and privateKeyToAccount (test/payments).
import { keccak_256 } from "@noble/hashes/sha3";
import type { Address, Hex } from "viem";
import { newPrivateKeyBytes, uncompressedPublicKey } from "../secp256k1";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX = /^0x[0-9a-fA-F]*$/;

/** 0x and 40 hex digits, in any case (the checksum is not checked, as viem's isAddress with strict: false). */
export function isAddressText(text: string): boolean {
  return ADDRESS.test(text);
}

/** 0x followed by hex digits only (viem's isHex). */
export function isHexText(text: string): text is Hex {
  return HEX.test(text);
}

/** The EIP-55 mixed-case form of an address; throws on anything that is not an address. */
export function checksumAddress(address: string): Address {
  if (!ADDRESS.test(address)) throw new Error(`not an address: ${address}`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as Address;
}

/** Whether two texts are the same address (case, and so the checksum, aside); false when either is not one. */
export function sameAddress(a: unknown, b: unknown): boolean {
  return (
    typeof a === "string" &&
    typeof b === "string" &&
    ADDRESS.test(a) &&
    ADDRESS.test(b) &&
    a.toLowerCase() === b.toLowerCase()
  );
}

/** The address of a private key: the last 20 bytes of keccak-256 over the public key's x and y. */
export function addressOfPrivateKey(privateKey: Hex): Address {
  const pub = uncompressedPublicKey(Buffer.from(privateKey.slice(2), "hex"));
  return checksumAddress(`0x${Buffer.from(keccak_256(pub.subarray(1)).subarray(12)).toString("hex")}`);
}

/** A fresh secp256k1 private key, 0x-prefixed hex. */
export function newPrivateKey(): Hex {
  return `0x${Buffer.from(newPrivateKeyBytes()).toString("hex")}`;
}
